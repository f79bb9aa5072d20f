"""A small run of bench/bench_fuzz.py in CI: mutated inputs for every game, in-process, and
mutated requests to the real server.

No input may crash the table (``internal_error``), change any view when refused, or put a
hidden card id (in-process) or any secret the contract suite knows (real server: every hidden
card, role and answer) in a refusal or message the TV gets.
"""
import random

import pytest

from bench.bench_fuzz import GAMES, fuzz_game, fuzz_server


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_inputs_neither_crash_nor_change_nor_leak(game_id):
    found = fuzz_game(game_id, 300, 3, random.Random(7))
    assert found["inputs"] >= 300 and found["refused"] > 0
    assert (found["crashes"], found["changed"], found["public"]) == (0, 0, 0), found["examples"][:3]


def test_mutated_requests_to_the_real_server_neither_fail_nor_change_nor_leak():
    """150 requests over HTTP and Socket.IO, the served state checked against a refold of the
    server's journal after every one."""
    found = fuzz_server(150, 3, random.Random(7))
    assert found["requests"] >= 150 and found["refused"] > 0 and found["checks"] >= found["requests"]
    assert found["tv_messages"] > 0
    assert (found["5xx"], found["crashes"], found["changed"], found["public"]) == (0, 0, 0, 0), found["examples"][:3]
