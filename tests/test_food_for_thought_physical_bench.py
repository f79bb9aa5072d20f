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
    game = bench.play_game(players, seed=1)
    assert game["physical"] == game["guided"]
    actions = sum(game["actions"].values())
    assert actions >= 6 * 4 * players                     # every marker of six rounds was placed
    per_action = sum(game["phone"].values()) / actions
    assert per_action <= 0.35, game["phone"]
    assert game["phone"]["shop"] == 0 and game["phone"]["snack"] == 0
    assert game["cases"]["illegal snack of two tokens"] >= 1 and game["cases"]["illegal purchase over $6"] >= 1
    if players == 3:
        assert any(k.startswith("ambiguous Chinese Buffet") for k in game["cases"])
