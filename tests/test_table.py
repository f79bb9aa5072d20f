"""The table as the host and the players see it: apply, refuse, undo, new and ended games,
restart (refold), quiet inputs, and a journal that cannot be written.

Everything runs on server.table.Table with the tiny test game (tests/support/tiny_game.py):
each seat taps a secret colour, ``advance`` scores the round (a red secret earns a point)
and starts the next round.
"""
import sqlite3
import threading

import pytest

from server import games
from server.games.base import Game
from server.journal import Journal
from server.table import LOBBY_PROMPT, Table

ANNA_BEN = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 3, "options": {"rounds": 3}}}
ADVANCE = {"button": {"name": "advance"}}
UNDO = {"button": {"name": "undo"}}
HOST_UNDO = {"host": {"action": "undo"}}
END_GAME = {"host": {"action": "end_game"}}


def tap(seat: int, colour: str, kind: str = "tap") -> dict:
    return {kind: {"reader": f"seat-{seat}", "card": f"test/{colour}"}}


def audiences(table: Table) -> list[str]:
    return ["table", "host"] + [f"seat-{s}" for s in table.seats()]


def all_views(table: Table) -> dict:
    return {a: table.view(a) for a in audiences(table)}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "journal.sqlite"


@pytest.fixture
def table(path):
    t = Table(Journal(path))
    yield t
    t.journal.close()


def play(table: Table, *inputs) -> None:
    for inp in inputs:
        outcome = table.handle(inp)
        assert outcome.accepted, (inp, outcome.error and outcome.error.message)


def refusals(table: Table) -> list[dict]:
    return table.journal.recent()["refusals"]


# ----- apply -------------------------------------------------------------------

def test_an_accepted_input_changes_the_views_and_is_journaled(table):
    play(table, ANNA_BEN)
    outcome = table.handle(tap(1, "red"))
    assert outcome.accepted and outcome.seq == 2
    assert outcome.events == [{"kind": "chose", "text": "Anna has chosen."}]
    assert table.view("table")["chosen"] == [1]
    assert table.view("table")["last_events"] == ["Anna has chosen."]
    assert table.view("seat-1")["my_colour"] == "red"
    assert [inp for _, inp in table.journal.live()] == [ANNA_BEN, tap(1, "red")]


def test_every_view_has_the_fields_the_tv_and_pages_rely_on(table):
    lobby = table.view("table")
    assert lobby["game"] is None and lobby["phase"] == "lobby" and lobby["prompt"] == LOBBY_PROMPT
    play(table, ANNA_BEN)
    for audience, view in all_views(table).items():
        assert view["audience"] == audience
        assert view["game"] == "tiny" and view["game_name"] == "Tiny Test Game"
        assert {"phase", "prompt", "players", "over", "winners", "last_events", "seq"} <= set(view)
        assert view["players"] == [{"name": "Anna", "seat": 1, "score": 0},
                                   {"name": "Ben", "seat": 2, "score": 0}]


def test_the_public_view_holds_no_secret_and_each_seat_sees_only_its_own(table):
    play(table, ANNA_BEN, tap(1, "red"), tap(2, "blue"))
    assert "secrets" not in table.view("table") and "my_colour" not in table.view("table")
    assert "red" not in repr(table.view("table")) and "blue" not in repr(table.view("table"))
    assert table.view("seat-1")["my_colour"] == "red" and "secrets" not in table.view("seat-1")
    assert table.view("seat-2")["my_colour"] == "blue"
    assert table.view("host")["secrets"] == {"1": "red", "2": "blue"}


def test_a_game_played_to_the_end_names_the_winners(table):
    play(table, ANNA_BEN)
    for colours in (("red", "blue"), ("blue", "red"), ("red", "blue")):
        play(table, tap(1, colours[0]), tap(2, colours[1]), ADVANCE)
    view = table.view("table")
    assert view["over"] and view["winners"] == ["Anna"]
    assert [p["score"] for p in view["players"]] == [2, 1]


# ----- refuse ------------------------------------------------------------------

def test_a_rule_refusal_is_recorded_with_what_and_why_and_changes_nothing(table):
    play(table, ANNA_BEN, tap(1, "red"))
    before, rows = all_views(table), table.journal.count()
    outcome = table.handle(ADVANCE, source="test")
    assert not outcome.accepted
    assert outcome.error.code == "waiting"
    assert outcome.as_dict() == {"ok": False, "error": {
        "code": "waiting", "message": "Not everyone has chosen a colour yet."}}
    assert all_views(table) == before and table.journal.count() == rows
    refused, = refusals(table)
    assert refused["code"] == "waiting"
    assert refused["message"] == "Not everyone has chosen a colour yet."
    assert refused["input"] == '{"button":{"name":"advance"}}' and refused["source"] == "test"


def test_a_malformed_input_is_refused_with_a_protocol_code_and_changes_nothing(table):
    play(table, ANNA_BEN)
    before = all_views(table)
    outcome = table.handle({"tap": {"reader": "seat-1", "card": "test/red", "force": True}})
    assert not outcome.accepted and outcome.error.code == "bad_input"
    assert "force" in outcome.error.message
    assert all_views(table) == before and table.journal.count() == 1
    assert refusals(table)[0]["code"] == "bad_input"


def test_inputs_before_any_game_are_refused_with_a_hint(table):
    outcome = table.handle(tap(1, "red"))
    assert outcome.error.code == "no_game" and "host page" in outcome.error.message
    assert table.journal.count() == 0


@pytest.mark.parametrize("new_game, code", [
    ({"game": "chess", "players": ["Anna", "Ben"]}, "unknown_game"),
    ({"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 0}}, "bad_option"),
    ({"game": "tiny", "players": ["Anna", "Ben"], "options": {"speed": 2}}, "bad_option"),
    ({"game": "tiny", "players": ["Anna", "anna"]}, "bad_input"),
])
def test_a_bad_new_game_is_refused_and_the_running_game_carries_on(table, new_game, code):
    play(table, ANNA_BEN, tap(1, "blue"))
    before = all_views(table)
    outcome = table.handle({"new_game": new_game})
    assert outcome.error.code == code
    assert all_views(table) == before and table.game_seq == 1


def never_called(*args):
    raise AssertionError("a game with the wrong player count must not be set up")


def test_a_new_game_with_the_wrong_player_count_is_refused_naming_the_limits(monkeypatch, table):
    duo = Game(id="duo", name="Duo", min_players=2, max_players=2,
               setup=never_called, show=never_called)
    monkeypatch.setitem(games._games, "duo", duo)
    outcome = table.handle({"new_game": {"game": "duo", "players": ["A", "B", "C"]}})
    assert outcome.error.code == "player_count"
    assert outcome.error.message == "Duo is for 2 to 2 players, not 3."
    assert table.journal.count() == 0


# ----- undo --------------------------------------------------------------------

def test_undo_goes_back_across_a_round_boundary(table):
    play(table, ANNA_BEN, tap(1, "red"), tap(2, "blue"))
    round_one_full = all_views(table)
    play(table, ADVANCE)
    assert table.view("table")["round"] == 2 and table.view("table")["players"][0]["score"] == 1
    outcome = table.handle(UNDO)
    assert outcome.accepted and outcome.events == [{"kind": "undo", "text": "Undid the last input."}]
    assert all_views(table) == round_one_full
    assert table.view("host")["secrets"] == {"1": "red", "2": "blue"}
    play(table, HOST_UNDO)   # the host's undo works the same and keeps going back
    assert table.view("table")["chosen"] == [1]
    assert table.view("seat-2")["my_colour"] is None


def test_undo_keeps_the_undone_input_in_the_journal_for_the_host(table):
    play(table, ANNA_BEN, tap(1, "red"), UNDO)
    inputs = table.journal.recent()["inputs"]
    assert [(r["input"], r["undone"]) for r in inputs] == [(tap(1, "red"), True), (ANNA_BEN, False)]
    assert table.journal.count() == 2   # undo itself is not a row


def test_undo_with_nothing_to_undo_is_refused(table):
    outcome = table.handle(UNDO)
    assert outcome.error.code == "nothing_to_undo"
    assert refusals(table)[0]["code"] == "nothing_to_undo"


def test_undo_of_a_new_game_returns_to_the_previous_game(table):
    play(table, ANNA_BEN, tap(1, "red"), tap(2, "red"), ADVANCE, tap(1, "blue"))
    previous = all_views(table)
    play(table, {"new_game": {"game": "tiny", "players": ["Cleo", "Dan", "Eve"]}})
    assert [p["name"] for p in table.view("table")["players"]] == ["Cleo", "Dan", "Eve"]
    play(table, UNDO)
    assert all_views(table) == previous
    assert table.game_seq == 1
    play(table, tap(2, "blue"), ADVANCE)   # and the old game goes on from there
    assert table.view("table")["round"] == 3


def test_undo_everything_returns_to_the_lobby(table):
    play(table, ANNA_BEN, UNDO)
    assert table.view("table")["phase"] == "lobby" and table.state is None
    assert table.handle(UNDO).error.code == "nothing_to_undo"


# ----- end_game ----------------------------------------------------------------

def test_the_host_ends_a_game_and_the_tv_says_so(table):
    play(table, ANNA_BEN, tap(1, "red"))
    outcome = table.handle(END_GAME)
    assert outcome.accepted
    view = table.view("table")
    assert view["game"] is None and view["phase"] == "lobby"
    assert view["last_events"] == ["The host ended the game of Tiny Test Game."]
    assert table.handle(tap(2, "red")).error.code == "no_game"
    assert table.handle(END_GAME).error.code == "no_game"


def test_the_final_scores_stay_on_the_tv_after_the_host_ends_a_finished_game(path, table):
    """issue 16: "End game" must not make the final scores vanish; they stay in the lobby view
    (and after a restart) until the next game starts."""
    play(table, ANNA_BEN)
    for colours in (("red", "blue"), ("blue", "red"), ("red", "blue")):
        play(table, tap(1, colours[0]), tap(2, colours[1]), ADVANCE)
    play(table, END_GAME)
    for view in (table.view("table"), Table(Journal(path)).view("table")):
        last = view["last_game"]
        assert view["phase"] == "lobby" and last["over"] and last["winners"] == ["Anna"]
        assert [(p["name"], p["score"]) for p in last["players"]] == [("Anna", 2), ("Ben", 1)]
        assert last["game_name"] == "Tiny Test Game" and "secrets" not in last, "the public view only"
    play(table, ANNA_BEN)
    assert table.view("table").get("last_game") is None
    play(table, END_GAME)
    assert table.view("table")["last_game"]["over"] is False, "a game ended early keeps its scores too"


def test_undo_of_end_game_brings_the_game_back(table):
    play(table, ANNA_BEN, tap(1, "red"))
    during = all_views(table)
    play(table, END_GAME, UNDO)
    assert all_views(table) == during


# ----- refold ------------------------------------------------------------------

def test_a_restarted_table_shows_exactly_what_the_live_one_showed(path, table):
    """Refold equals live state, for every audience, after every kind of input."""
    script = [ANNA_BEN, tap(1, "red"), ADVANCE, tap(2, "blue"), ADVANCE, UNDO, tap(2, "red"),
              ADVANCE, tap(3, "red"), {"new_game": {"game": "tiny", "players": ["Cleo"], "seed": 9}},
              tap(1, "blue"), ADVANCE, END_GAME, UNDO, tap(1, "red"), UNDO, HOST_UNDO, HOST_UNDO,
              tap(1, "red"), ADVANCE, ADVANCE, tap(1, "red")]
    for inp in script:
        table.handle(inp)
        fresh = Table(Journal(path))
        assert all_views(fresh) == all_views(table), inp
        assert (fresh.seq, fresh.game_seq) == (table.seq, table.game_seq)
        fresh.journal.close()


# ----- quiet inputs --------------------------------------------------------------

def test_a_quiet_input_is_neither_journaled_nor_told(path):
    table = Table(Journal(path), resolve_uid={"04A224C2B31190": "test/red"}.get)
    told = []
    table.listeners.append(lambda outcome, inp: told.append(outcome))
    play(table, ANNA_BEN, {"tap": {"reader": "seat-1", "uid": "04:a2:24:c2:b3:11:90"}})
    assert table.view("seat-1")["my_colour"] == "red"
    before, rows, told_before = all_views(table), table.journal.count(), len(told)
    outcome = table.handle({"lift": {"reader": "seat-1", "uid": "DEADBEEF"}})   # a tag nobody enrolled
    assert outcome.accepted and outcome.quiet
    assert table.journal.count() == rows and all_views(table) == before
    assert len(told) == told_before and refusals(table) == []


def test_a_tap_of_an_unknown_tag_is_refused_with_how_to_enrol_it(table):
    play(table, ANNA_BEN)
    outcome = table.handle({"tap": {"reader": "seat-1", "uid": "DEADBEEF"}})
    assert outcome.error.code == "unknown_tag" and "Enrol" in outcome.error.message


# ----- a journal that cannot be written ---------------------------------------------

def read_only(monkeypatch, table: Table, path) -> None:
    """Swap the journal's connection for a read-only one, as if the data folder went read-only
    (and stays so: opening the journal again gives a read-only connection too)."""
    def connect():
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                               check_same_thread=False)
    monkeypatch.setattr(table.journal, "_db", connect())
    monkeypatch.setattr(table.journal, "_connect", connect)


@pytest.mark.parametrize("inp", [tap(2, "blue"), ADVANCE, UNDO, END_GAME,
                                 {"new_game": {"game": "tiny", "players": ["Cleo"]}}])
def test_an_unwritable_journal_refuses_the_input_and_changes_nothing(monkeypatch, path, table, inp):
    play(table, ANNA_BEN, tap(1, "red"), tap(2, "red"))
    before, seqs = all_views(table), (table.seq, table.game_seq)
    told = []
    table.listeners.append(lambda outcome, i: told.append(outcome))
    read_only(monkeypatch, table, path)
    outcome = table.handle(inp)
    assert not outcome.accepted
    assert outcome.error.code == "journal_failed"
    assert "NOT applied" in outcome.error.message and "readonly" in outcome.error.message
    assert all_views(table) == before and (table.seq, table.game_seq) == seqs
    assert told == [outcome]   # the host page hears about it
    fresh = Table(Journal(path))   # and nothing reached the file
    assert all_views(fresh) == before


def test_a_full_disk_refuses_the_input_and_the_table_recovers_once_there_is_room(path, table):
    play(table, ANNA_BEN)
    db = table.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for n in range(2000):   # fill the last free page, then one input more
        before = all_views(table)
        outcome = table.handle(tap(1 + n % 2, "red" if n % 3 else "blue"))
        if not outcome.accepted:
            break
    assert outcome.error.code == "journal_failed" and "full" in outcome.error.message
    assert all_views(table) == before
    db.execute("PRAGMA max_page_count = 1000000")
    assert table.handle(tap(1, "blue")).accepted
    fresh = Table(Journal(path))
    assert all_views(fresh) == all_views(table)


# ----- one queue, one applying thread ----------------------------------------------

def test_inputs_queued_from_many_threads_are_applied_one_at_a_time_in_arrival_order(table):
    table.start()
    try:
        assert table.submit({"new_game": {"game": "tiny", "players": ["Anna", "Ben", "Cleo"]}}).accepted
        outcomes = []

        def sender(seat):
            for n in range(25):
                outcomes.append(table.submit(tap(seat, "red" if n % 2 else "blue")))

        threads = [threading.Thread(target=sender, args=(s,)) for s in (1, 2)]
        for t in threads:
            t.start()
        for n in range(25):
            table.put(tap(3, "red"))   # a hardware thread's puts come in order too
        for t in threads:
            t.join()
    finally:
        table.stop()
    assert all(o.accepted for o in outcomes)
    assert sorted(o.seq for o in outcomes) == sorted(set(o.seq for o in outcomes))
    rows = table.journal.live()
    assert len(rows) == 1 + 50 + 25 and [r for r, _ in rows] == sorted(r for r, _ in rows)
    assert sum(1 for _, inp in rows if inp == tap(3, "red")) == 25
