"""A small run of bench/bench_physical_fft.py: whole games played physical-first by a scripted group
through camera readings and reader taps score the same as the guided replay of the same decisions,
with few phone inputs, the boards of a move read in shuffled orders, and the hard cases (questions,
wrong moves listed to put back) happen and are resolved."""
import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "bench" / "bench_physical_fft.py"
_spec = importlib.util.spec_from_file_location("bench_physical_fft", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("players", [1, 3])
def test_a_physical_first_game_scores_like_the_guided_replay(players):
    """Whole games with the Freezer and Food Allergy modules, every action kind the group takes seen
    from the boards; the final scores are the guided replay's and phone inputs stay under the target."""
    game = bench.play_game(players, seed=1)
    assert game["physical"] == game["guided"]
    actions = sum(game["actions"].values())
    assert actions + 3 * game["actions"]["pass"] >= 6 * 4 * players     # each marker placed or set aside
    per_action = sum(game["phone"].values()) / actions
    assert per_action <= 0.25, game["phone"]
    kinds = {"shop", "market", "snack", "cook", "workout", "pass"} | ({"pizza", "buffet", "pizza extra"} if players > 1 else set())
    assert kinds <= set(game["actions"]), game["actions"]
    assert game["phone"]["shop"] == game["phone"]["snack"] == game["phone"]["market"] == 0
    assert game["wrong"] == 0                       # every move recorded as the group made it
    wrong_moves = ["illegal snack of two tokens", "illegal second snack", "illegal purchase over $6",
                   "illegal third market visit", "illegal market food put where its stand does not send it",
                   "illegal work out: a token no activity of theirs takes",
                   "illegal cook: a token no recipe of theirs takes"]
    for case in wrong_moves + ["ambiguous Cook"] + (["illegal marker on a taken space", "ambiguous Chinese Buffet"]
                                                     if players == 3 else []):
        assert game["cases"][case] >= 1, (case, game["cases"])
    if players == 3:                                # boards read in shuffled orders, the diet board first too
        assert any(o.index("diet") < o.index("main") for o in game["orders"] if "diet" in o and "main" in o)
