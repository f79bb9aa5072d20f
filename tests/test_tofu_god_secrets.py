"""Tofu God secrets: no chosen best or worst card and no unrevealed guess reaches the TV or
another player's seat before its reveal.

Three angles:
- every state of every script and of random games: changing what an audience must not know
  (unrevealed answers, other players' guesses, the seed of future draws) leaves that audience's
  view exactly the same;
- the same turn played with different secrets gives the same views and events to the TV and to
  every other seat, input by input, until the reveal;
- over real Socket.IO, the TV room and another seat's room never carry an unrevealed card.
"""
from __future__ import annotations

import copy
import json
import random
import re
import time
from pathlib import Path

import pytest

from server import games
from server.games import tofu_god
from server.games.base import audience_seat
from tests.support.scripts import script_inputs
from tests.support.tofu_god import ADVANCE, accept, new_game, table, tap, turn_inputs

GAME = games.get("tofu-god")
SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("tofu-god-*.jsonl"))


# ----- 1. views do not depend on what the audience may not know ---------------------------------

def hide_secrets(state: dict, audience: str) -> dict:
    """A copy of ``state`` in which everything ``audience`` must not know is different."""
    out = copy.deepcopy(state)
    turn, seat = out["turn"], audience_seat(audience)
    if seat != turn["active"]:
        shown = turn["revealed"]
        pool = [c for c in out["silhouettes"] if c not in turn["set_aside"] and c not in shown]
        turn["choices"] = [c if c is None or c in shown else pool[(pool.index(c) + 1) % len(pool)]
                           for c in turn["choices"]]
    for guesser, guess in turn["guesses"].items():
        if guesser != str(seat):
            turn["guesses"][guesser] = next(c for c in out["silhouettes"] if c != guess)
    out["rng"]["seed"] += 1
    return out


def audiences(state: dict) -> list[str]:
    return ["table"] + [f"seat-{p['seat']}" for p in state["players"]]


def check_views_hide_secrets(state: dict) -> None:
    for audience in audiences(state):
        assert GAME.view(state, audience) == GAME.view(hide_secrets(state, audience), audience), audience


def random_game_inputs(rnd: random.Random) -> list[dict]:
    """A whole game with a random player count, options and guesses (all valid inputs)."""
    count = rnd.randint(2, 6)
    physical = rnd.random() < 0.5
    start = new_game([f"P{i}" for i in range(1, count + 1)], seed=rnd.randrange(1000),
                     set_aside="physical" if physical else "digital", turns=1,
                     first_seat=rnd.randint(1, count), below_zero=rnd.random() < 0.5)
    t = table()
    accept(t, start)
    inputs = [start]
    while t.state["phase"] not in ("over", "tie_break"):
        view = t.view("host")
        plan = [{s: rnd.choice(("best", "worst", "miss")) for s in view["turn"]["guessers"]}
                for _ in range(3)]
        aside = rnd.sample(list(view["labels"]), 2) if physical else None
        for inp in turn_inputs(view, plan, aside):
            accept(t, inp)
            inputs.append(inp)
    return inputs


def states_of(inputs: list[dict]):
    t = table()
    for inp in inputs:
        accept(t, inp)
        yield t.state


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_views_reveal_nothing_secret_in_scripted_games(script):
    """After every input of every script, no view depends on what its audience may not know."""
    inputs = script_inputs(script)
    for state in states_of(inputs):
        check_views_hide_secrets(state)


def test_views_reveal_nothing_secret_in_random_games():
    """The same over random games: 2-6 players, both set-aside modes, random guesses."""
    rnd = random.Random(2026)
    for _ in range(12):
        for state in states_of(random_game_inputs(rnd)):
            check_views_hide_secrets(state)


def test_secret_hiding_would_notice_a_leak():
    """The check above fails if the TV view showed the answers (guards against a check that
    cannot fail)."""
    inputs = [new_game(["Anna", "Ben"], set_aside="physical"), tap(1, "rat"), tap(1, "pig"),
              tap(1, "elephant")]
    state = list(states_of(inputs))[-1]
    leaky = GAME.view(state, "host")
    assert leaky != GAME.view(hide_secrets(state, "table"), "host")


# ----- 2. the same turn with different secrets looks the same until the reveal ------------------

PLAYERS = ["Anna", "Ben", "Cindy", "Dax"]
START = new_game(PLAYERS, seed=9, set_aside="physical")


def turn_script(answers: list[str], guesses: dict[int, list[str]]) -> list[dict]:
    """Anna's turn: guesses for question 1 tapped while she chooses, then three questions."""
    inputs = [START, tap(1, "rat"), tap(1, "pig")]
    for i, card in enumerate(answers):
        inputs.append(tap(1, card))
        if i < 3:
            inputs.append(tap(i + 2, guesses[i + 2][0]))
    for q in range(3):
        if q:
            inputs += [tap(s, guesses[s][q]) for s in (2, 3, 4)]
        inputs += [ADVANCE, ADVANCE, ADVANCE]
    return inputs


def observed(inputs: list[dict], audience: str) -> list[tuple]:
    """What ``audience`` sees after each input: its view and the events addressed to it."""
    t, seen = table(), []
    seat = audience_seat(audience)
    for inp in inputs:
        outcome = accept(t, inp)
        events = [e for e in outcome.events if e.get("seat") in (None, seat)]
        seen.append((json.dumps(t.view(audience), sort_keys=True), json.dumps(events, sort_keys=True)))
    return seen


def first_index(inputs: list[dict], nth_advance: int) -> int:
    """The position of the ``nth_advance`` advance press (1-based) in ``inputs``."""
    presses = [i for i, inp in enumerate(inputs) if inp == ADVANCE]
    return presses[nth_advance - 1]


A_ANSWERS = ["elephant", "human", "spider", "beetle", "tofu", "meditator"]
A_GUESSES = {2: ["tenth", "dolphin", "tofu"], 3: ["elephant", "spider", "meditator"],
             4: ["dolphin", "dolphin", "dolphin"]}


@pytest.mark.parametrize("audience", ["table", "seat-2", "seat-3", "seat-4"])
def test_other_secrets_invisible_until_guesses_revealed(audience):
    """Different answers for Anna and different question-1 guesses by everyone but the watching
    player: identical views and events for the watcher until the guesses are revealed."""
    watcher = audience_seat(audience)
    other_answers = ["tenth", "dolphin", "meditator", "elephant", "human", "spider"]
    other_guesses = {s: (A_GUESSES[s] if s == watcher else ["beetle"] + A_GUESSES[s][1:])
                     for s in (2, 3, 4)}
    a = turn_script(A_ANSWERS, A_GUESSES)
    b = turn_script(other_answers, other_guesses)
    reveal = first_index(a, 1)
    seen_a, seen_b = observed(a[:reveal], audience), observed(b[:reveal], audience)
    assert seen_a == seen_b
    assert observed(a[:reveal + 1], audience)[-1] != observed(b[:reveal + 1], audience)[-1], \
        "the reveal itself does show the guesses"


@pytest.mark.parametrize("audience", ["table", "seat-2", "seat-3", "seat-4"])
def test_later_answers_invisible_until_their_reveal(audience):
    """Anna's answers to question 3 differ; everything else is the same: the TV and every other
    seat see exactly the same until her best and worst for question 3 are revealed (questions 1
    and 2, and the guesses for question 3, come and go in between)."""
    other_answers = A_ANSWERS[:4] + ["tenth", "dolphin"]
    a = turn_script(A_ANSWERS, A_GUESSES)
    b = turn_script(other_answers, A_GUESSES)
    reveal = first_index(a, 8)      # 3 presses per question: the 8th reveals question 3's best
    assert observed(a[:reveal], audience) == observed(b[:reveal], audience)
    assert observed(a[:reveal + 1], audience)[-1] != observed(b[:reveal + 1], audience)[-1]


@pytest.mark.parametrize("audience", ["table", "seat-2"])
def test_the_last_worst_answer_stays_hidden_until_its_own_reveal(audience):
    """rulebook: the worst answer is revealed after the best one, on its own: with only Anna's
    worst answer to question 3 different, everyone else sees the same until the 9th press."""
    a = turn_script(A_ANSWERS, A_GUESSES)
    b = turn_script(A_ANSWERS[:5] + ["dolphin"], A_GUESSES)
    reveal = first_index(a, 9)
    assert observed(a[:reveal], audience) == observed(b[:reveal], audience)
    assert observed(a[:reveal + 1], audience)[-1] != observed(b[:reveal + 1], audience)[-1]


def test_active_seat_sees_own_answers_and_what_is_still_to_come():
    """issue: the active player's seat page shows the six choices as locked and which are to come."""
    t = table()
    for inp in turn_script(A_ANSWERS, A_GUESSES)[:6]:
        accept(t, inp)
    me = t.view("seat-1")["me"]
    assert [c["card"] for c in me["choices"]] == ["elephant", "human", None, None, None, None]
    assert me["next"] == {"question": 2, "answer": "best"}
    guesser = t.view("seat-2")["me"]
    assert guesser["guess"] == "tenth" and "tenth" not in guesser["hand"]


# ----- 3. over real Socket.IO -----------------------------------------------------------------

def card_names_in(payload, skip=("labels", "hand")) -> set[str]:
    """Silhouette ids mentioned anywhere in ``payload`` (by id or label), apart from the keys in
    ``skip`` (the names for drawing cards, and a seat's own hand)."""
    patterns = {sid: re.compile(rf"\b({re.escape(sid)}|{re.escape(label.lower())})\b")
                for sid, label in tofu_god.SILHOUETTES["labels"].items()}
    found = set()

    def walk(value):
        if isinstance(value, dict):
            for k, v in value.items():
                if k not in skip:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            text = value.lower().replace("tofu-god", "").replace("tofu god", "")
            found.update(sid for sid, pattern in patterns.items() if pattern.search(text))
    walk(payload)
    return found


@pytest.mark.timeout(60)
def test_socketio_rooms_carry_no_secret_before_the_reveal(tmp_path):
    """issue: at no moment before its reveal does a chosen card or an unrevealed guess appear in a
    payload to the table room or to another player's seat (real server, real Socket.IO clients)."""
    from tests.support.server import run_server

    with run_server(tmp_path) as srv:
        assert srv.post(START).ok
        tv = srv.client("table")
        ben = srv.client("seat-2", srv.seat_token(2))
        inputs = turn_script(A_ANSWERS, A_GUESSES)[1:]
        reveal_guesses, reveal_answers = first_index(inputs, 1), first_index(inputs, 2)
        for i, inp in enumerate(inputs[:reveal_answers]):
            r = srv.post(inp)
            assert r.ok, r.text
            seq = r.json()["seq"]
            for client in (tv, ben):
                client.wait_for("state", lambda v: v.get("seq") == seq)
            # what may be known at this point: the set-aside cards; Ben's own guess (the tenth)
            # for Ben; once revealed, everyone's question-1 guesses. Never Anna's human (worst).
            public = {"rat", "pig"}
            if i >= reveal_guesses:
                public |= {"tenth", "elephant", "dolphin"}
            for name, payload in list(tv.log):
                assert card_names_in(payload) <= public, (name, payload)
            for name, payload in list(ben.log):
                assert card_names_in(payload) <= public | {"tenth"}, (name, payload)
        time.sleep(0.2)
        assert any(name == "event" and "has guessed" in payload["text"] for name, payload in tv.log)
        seen_by_tv = set().union(*(card_names_in(payload) for _, payload in tv.log))
        assert {"tenth", "elephant", "dolphin"} <= seen_by_tv, "the scan does see revealed guesses"
        tv.close()
        ben.close()
