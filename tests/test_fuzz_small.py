"""A small run of bench/bench_fuzz.py in CI: mutated inputs for every game, in-process.

No input may crash the table (``internal_error``), change any view when refused, or put a
hidden card id in the TV's refusal message.
"""
import random

import pytest

from bench.bench_fuzz import GAMES, fuzz_game


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_inputs_neither_crash_nor_change_nor_leak(game_id):
    found = fuzz_game(game_id, 300, 3, random.Random(7))
    assert found["inputs"] >= 300 and found["refused"] > 0
    assert (found["crashes"], found["changed"], found["public"]) == (0, 0, 0), found["examples"][:3]
