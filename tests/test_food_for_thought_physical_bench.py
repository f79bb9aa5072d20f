"""A small run of bench/bench_physical_fft.py: whole games played physical-first by a scripted group
through camera readings and reader taps score the same as the guided replay of the same decisions,
with few phone inputs, and the hard cases (a question, things to put back) happen and are resolved."""
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
    for case in ("illegal snack of two tokens", "illegal second snack", "illegal purchase over $6"):
        assert game["cases"][case] >= 1, game["cases"]
    if players == 3:
        assert any(k.startswith("ambiguous Chinese Buffet") for k in game["cases"])
