"""Tofu Kingdom secrets: no role of an unflipped coaster reaches the TV or the Prince's phone.

Over whole games (every replay script, with wrong taps and corrections mixed
in), after every input this checks everything the table would publish to the
``table`` room and to the Prince's seat: the views, the public events and the
refusal messages.  A role stays hidden until its coaster is flipped, or until
the host reveals the round (option ``reveal``).  What was published about
earlier rounds (their flips, in the history and the recent events) is public
knowledge by then, so only the current round's part of a payload is searched.  Other players' phones may
show their own role and nobody else's.  The end-to-end test does the same with
the payloads a real Socket.IO client receives from the real server.
"""
import json

import pytest

from tests.support.server import run_server
from tests.support.tofu_kingdom import accept, ask, host, leaks, new_game, table, tap
from tests.test_tofu_kingdom_games import GAMES, script_inputs


def hidden_roles(state: dict) -> dict:
    """``{position: role}`` of the coasters down this round whose role is still secret."""
    if state is None or state["revealed"]:
        return {}
    flipped = state["flip"]["position"] if state["flip"] else None
    return {p: r for p, r in state["placed"].items() if p != flipped}


class PastRounds:
    """The public texts of earlier rounds, to tell them apart from news about this round."""

    def __init__(self):
        self.texts: dict[str, int] = {}

    def record(self, events, round_no: int) -> None:
        for ev in events:
            if ev.get("seat") is None:
                self.texts.setdefault(ev["text"], round_no)

    def current_part(self, payload, round_no: int):
        """``payload`` without the history entries and event texts of rounds before ``round_no``."""
        if isinstance(payload, dict):
            return {k: ([h for h in v if h["round"] == round_no] if k == "history"
                        else self.current_part(v, round_no)) for k, v in payload.items()}
        if isinstance(payload, list):
            return [self.current_part(v, round_no) for v in payload]
        if isinstance(payload, str) and self.texts.get(payload, round_no) < round_no:
            return ""
        return payload


def check_payloads(t, outcome, past: PastRounds) -> int:
    """Check what the table would publish after ``outcome``; returns how many payloads."""
    state = t.state
    if state and outcome.accepted:
        past.record(outcome.events, state["round"])
    hidden = hidden_roles(state)
    prince = state["prince"] if state else None
    checked = 0
    if outcome.accepted:
        public = [ev for ev in outcome.events if ev.get("seat") is None]
        payloads = {"table": [t.view("table")] + public}
        for seat in t.seats():
            mine = [ev for ev in outcome.events if ev.get("seat") == seat]
            payloads[f"seat-{seat}"] = [t.view(f"seat-{seat}")] + public + mine
    else:
        payloads = {"table": [outcome.as_dict("table")]}
        if getattr(outcome.error, "seat", None):
            payloads[f"seat-{outcome.error.seat}"] = [outcome.as_dict(f"seat-{outcome.error.seat}")]
    for audience, items in payloads.items():
        secret = dict(hidden)
        if audience != "table" and audience != f"seat-{prince}":
            secret.pop(audience, None)          # a player's own role is theirs to see
        for item in items:
            found = leaks(past.current_part(item, state["round"]) if state else item,
                          set(secret.values()))
            assert not found, (audience, found, item)
            checked += 1
    return checked


def wrong_inputs(t, inp: dict) -> list[dict]:
    """Mistakes a table sees during a deal: the same coaster again elsewhere, a host
    correction naming a coaster that is already down."""
    state = t.state
    body = inp.get("tap")
    if not state or state["phase"] != "deal" or not body or not state["placed"]:
        return []
    role = next(iter(state["placed"].values()))
    free = [p for p in t.view("table")["positions"] if p not in state["placed"]]
    wrong = [host("place", target=int(free[0][5:]) if free[0] != "center" else "center", role=role)]
    if state["options"]["readers"] == "seats":
        wrong.append(tap(free[0], role))
    else:
        wrong.append(tap("table", role))
    return wrong


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_unflipped_role_reaches_the_tv_or_the_prince_over_a_whole_game(name):
    t, past = table(), PastRounds()
    checked = 0
    for inp in script_inputs(name):
        for bad in wrong_inputs(t, inp):
            outcome = t.handle(bad)
            assert not outcome.accepted
            checked += check_payloads(t, outcome, past)
        checked += check_payloads(t, accept(t, inp), past)
    assert t.state["over"] and checked > 100


def test_the_leak_finder_finds_a_leak():
    """The check above would fail if a hidden role were shown (guards against a blind check)."""
    view = {"prompt": "Ben's coaster is down", "flip": None}
    assert leaks(view, {"queen"}) == []
    assert leaks({**view, "debug": {"seat-2": "queen"}}, {"queen"}) == ["queen"]
    assert leaks({"text": "Ben holds Queen Tofu"}, {"queen"}) == ["queen"]
    assert leaks({"text": "the Pudding is at seat 3"}, {"spy"}) == ["pudding"]
    assert leaks({"card": "tofu-kingdom/spy"}, {"spy"}) == ["spy", "tofu-kingdom/spy"]
    assert leaks({"label": "Where is Princess Tofu?"}, {"princess"}) == []


def _play_round_one(deal: dict) -> list:
    t = table()
    accept(t, new_game(5))
    seen = []
    inputs = [tap(p, r) for p, r in deal.items()]
    inputs += [ask(1, 2, "who_is", about="center"), ask(1, 3, "where"),
               host("ask", to=4, question="who_are_you")]
    for inp in inputs:
        accept(t, inp)
        seen.append((t.view("table"), t.view("seat-1")))
    return seen


def test_before_the_flip_the_tv_and_the_prince_see_the_same_whoever_holds_what():
    """Two different deals, the same public moves: identical TV and Prince payloads throughout."""
    one = {"seat-2": "princess", "seat-3": "queen", "seat-4": "maid", "seat-5": "guard",
           "center": "chef"}
    two = {"seat-2": "chef", "seat-3": "maid", "seat-4": "princess", "seat-5": "queen",
           "center": "guard"}
    assert _play_round_one(one) == _play_round_one(two)


def test_other_players_phones_show_only_their_own_role():
    """Seat page: the player's own role and their team's win condition; the Prince sees none."""
    t = table()
    accept(t, new_game(4))
    deal = {"seat-2": "princess", "seat-3": "queen", "seat-4": "maid", "center": "guard"}
    for position, role in deal.items():
        accept(t, tap(position, role))
    me = t.view("seat-3")["me"]
    assert (me["role"], me["team"]) == ("queen", "crown")
    assert "crown" in me["goal"] and "lie" in me["truth"]
    prince = t.view("seat-1")["me"]
    assert prince["is_prince"] and prince["role"] == "prince" and prince["can_ask"]
    assert "heart" in prince["goal"]
    assert "placed" not in json.dumps(t.view("seat-1")) and "host" not in t.view("seat-1")
    assert t.view("host")["host"]["placed"]["seat-3"] == "queen"


# ----- the real server ------------------------------------------------------------------------

@pytest.mark.timeout(120)
def test_socketio_payloads_to_the_table_room_and_the_princes_seat_never_hold_a_hidden_role(tmp_path):
    """The 3-player script through the real server: every message a real client receives in the
    ``table`` room and in each seat's room, checked against the roles hidden at that moment."""
    inputs = script_inputs("tofu-kingdom-3p-seats.jsonl")
    mirror, past = table(), PastRounds()
    with run_server(tmp_path) as srv:
        tv = srv.client("table")
        assert srv.post(inputs[0]).ok
        accept(mirror, inputs[0])
        tv.wait_for("state", lambda v: v.get("game") == "tofu-kingdom")
        seats = {s: srv.client(f"seat-{s}", srv.seat_token(s)) for s in (1, 2, 3)}
        for c in seats.values():
            c.wait_for("state", lambda v: v.get("game") == "tofu-kingdom")
        clients = {"table": tv, **{f"seat-{s}": c for s, c in seats.items()}}
        seen = {audience: len(c.log) for audience, c in clients.items()}
        checked = 0
        for inp in inputs[1:]:
            for wrong in wrong_inputs(mirror, inp):
                assert not srv.post(wrong).ok
                tv.wait_for("refused")
            answer = srv.post(inp).json()
            assert answer["ok"], (inp, answer)
            outcome = mirror.handle(inp)
            assert outcome.accepted and outcome.quiet == answer["quiet"]
            past.record(outcome.events, mirror.state["round"])
            if not answer["quiet"]:
                seq = answer["seq"]
                for c in clients.values():
                    c.wait_for("state", lambda v: v.get("seq") == seq)
                for _ in [ev for ev in outcome.events if ev.get("seat") is None]:
                    tv.wait_for("event")
            hidden = hidden_roles(mirror.state)
            prince = mirror.state["prince"]
            for audience, client in clients.items():
                secret = dict(hidden)
                if audience not in ("table", f"seat-{prince}"):
                    secret.pop(audience, None)
                for kind, payload in client.log[seen[audience]:]:
                    found = leaks(past.current_part(payload, mirror.state["round"]),
                                  set(secret.values()))
                    assert not found, (audience, kind, found, payload)
                    checked += 1
                seen[audience] = len(client.log)
        assert mirror.state["over"] and checked > 200
        final = srv.state("table")
        assert final["winners"] == ["Ann", "Ben"]
        for c in [tv, *seats.values()]:
            c.close()
