"""Tofu God scoring of one question, for every combination of guesses at 2..6 players."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from server import games
from tests.support.tofu_god import ADVANCE, guess_for, pick_answers, tap

GAME = games.get("tofu-god")
OUTCOMES = ("best", "worst", "miss")


def _apply(state, inp):
    state, _ = GAME.apply(state, inp)
    return state


def play_question(count: int, outcomes: dict[int, str], question: int = 1, first_seat: int = 1,
                  start_scores: dict[int, int] | None = None, below_zero: bool = False) -> dict:
    """Scores before and after the given ``question`` of the first turn, guessed as ``outcomes``.

    Earlier questions are guessed by everyone with a miss, so they score nothing.
    """
    names = [f"P{i}" for i in range(1, count + 1)]
    options = GAME.resolve_options({"first_seat": first_seat, "below_zero": below_zero}, count)
    state = GAME.setup(names, options, 5)
    for seat, score in (start_scores or {}).items():
        state = _apply(state, {"host": {"action": "score", "seat": seat, "score": score}})
    view = GAME.view(state, "host")
    answers = pick_answers(view)
    sets = view["sets"]
    active = view["turn"]["active"]
    for card in answers:
        state = _apply(state, tap(sets[str(active)], card))
    unavailable = list(view["turn"]["set_aside"])
    for q in range(1, question + 1):
        for seat in view["turn"]["guessers"]:
            outcome = outcomes[seat] if q == question else "miss"
            state = _apply(state, tap(sets[str(seat)], guess_for(outcome, answers, q, unavailable)))
        state = _apply(state, ADVANCE)
        before = {p["seat"]: p["score"] for p in state["players"]}
        state = _apply(state, ADVANCE)      # the best answer
        state = _apply(state, ADVANCE)      # the worst answer; the next guess opens the next question
        unavailable += answers[2 * q - 2: 2 * q]
    view = GAME.view(state, "table")
    results = view["results"] or view["last_turn"]["results"]   # question 3 ends the turn
    return {"before": before, "after": {p["seat"]: p["score"] for p in state["players"]},
            "active": active, "result": results[-1]}


def expected_scores(before: dict, active: int, outcomes: dict, below_zero: bool) -> dict:
    """The rule in the notes: best hit +1 guesser and +1 active player; worst hit -1 guesser only
    (not below zero unless allowed); a miss changes nothing."""
    after = dict(before)
    for seat, outcome in outcomes.items():
        if outcome == "best":
            after[seat] += 1
            after[active] += 1
        elif outcome == "worst" and (below_zero or after[seat] > 0):
            after[seat] -= 1
    return after


def test_every_combination_of_guesses_at_two_to_six_players():
    """rules notes, scoring per question: all 3^(n-1) combinations of best hit, worst hit and
    miss for the guessers, at every player count from 2 to 6."""
    checked = 0
    for count in range(2, 7):
        guessers = list(range(2, count + 1))
        for combo in itertools.product(OUTCOMES, repeat=len(guessers)):
            outcomes = dict(zip(guessers, combo))
            got = play_question(count, outcomes, below_zero=True)
            assert got["after"] == expected_scores(got["before"], 1, outcomes, True), outcomes
            assert got["result"]["outcomes"] == {str(s): o for s, o in outcomes.items()}
            checked += 1
    assert checked == 3 + 9 + 27 + 81 + 243


@st.composite
def questions(draw):
    count = draw(st.integers(2, 6))
    first = draw(st.integers(1, count))
    guessers = [s for s in range(1, count + 1) if s != first]
    outcomes = {s: draw(st.sampled_from(OUTCOMES)) for s in guessers}
    start = {s: draw(st.integers(0, 3)) for s in range(1, count + 1)}
    return dict(count=count, first_seat=first, outcomes=outcomes, start_scores=start,
                question=draw(st.integers(1, 3)), below_zero=draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(questions())
def test_scoring_property(case):
    """rules notes, scoring per question, for any active seat, question, starting scores and
    below-zero setting: the points each player gets match the rule, and the points shown on the
    TV for the question are exactly the score changes."""
    got = play_question(case["count"], case["outcomes"], case["question"], case["first_seat"],
                        case["start_scores"], case["below_zero"])
    expected = expected_scores(got["before"], got["active"], case["outcomes"], case["below_zero"])
    assert got["after"] == expected
    shown = {int(s): p for s, p in got["result"]["points"].items()}
    assert {s: got["after"][s] - got["before"][s] for s in got["after"]} == shown
    if not case["below_zero"]:
        assert min(got["after"].values()) >= 0
