"""Tofu Kingdom inputs: every refusal (specific code, nothing changed), quiet lifts, questions,
and the host's corrections."""
import json

import pytest
import requests

from server.games.tofu_kingdom import GAME

from tests.support.tofu_kingdom import (ADVANCE, accept, ask, flip_by_lift, held, host, lift, new_game,
                                        refuse, table, tap)

#: 4 players, Ann (seat 1) the Prince: a deal of the four coasters in play.
DEAL4 = {"seat-2": "princess", "seat-3": "queen", "seat-4": "maid", "center": "guard"}


def game(count=4, deal=None, **options):
    """A table with a new game; with ``deal``, the coasters laid on their own readers."""
    t = table()
    accept(t, new_game(count, **options))
    for position, role in (deal or {}).items():
        accept(t, tap(position if options.get("readers", "seats") == "seats" else "table", role))
    return t


def flip(t, reader: str, role: str) -> None:
    """The Prince flips the coaster on ``reader``: lifted, and still away when the peek time is up."""
    for inp in flip_by_lift(reader, role):
        accept(t, inp)


def play_three_maid_rounds(t):
    """A 3-player game with times_prince=1 played to its end: in each of the three rounds the
    Prince flips the Maid in the centre, which scores nobody, and advance passes the Prince on."""
    deals = [{"seat-2": "princess", "seat-3": "queen", "center": "maid"},
             {"seat-3": "princess", "seat-1": "queen", "center": "maid"},
             {"seat-1": "princess", "seat-2": "queen", "center": "maid"}]
    for i, deal in enumerate(deals):
        for position, role in deal.items():
            accept(t, tap(position, role))
        flip(t, "center", "maid")
        if i < 2:
            accept(t, ADVANCE)


# ----- the deal --------------------------------------------------------------------

def test_a_coaster_not_in_play_is_refused():
    """rulebook: the coasters not in play at this player count stay in the box."""
    t = game(4)
    error = refuse(t, tap("seat-2", "chef"), "unknown_card")
    assert "4 players" in error.message


@pytest.mark.parametrize("readers", ["seats", "table"])
def test_the_same_coaster_twice_is_refused_without_saying_where_it_lies(readers):
    t = game(4, readers=readers)
    accept(t, tap("seat-2" if readers == "seats" else "table", "queen"))
    error = refuse(t, tap("seat-3" if readers == "seats" else "table", "queen"), "already_done")
    assert "queen" not in error.as_dict("table")["message"].lower()
    assert "Ben" in error.as_dict("host")["detail"]


def test_the_same_coaster_reported_again_by_its_own_reader_is_quiet():
    t = game(4)
    accept(t, tap("seat-2", "queen"))
    rows, before = t.journal.count(), t.view("host")
    outcome = t.handle(tap("seat-2", "queen"))
    assert outcome.accepted and outcome.quiet
    assert t.journal.count() == rows and t.view("host") == before


@pytest.mark.parametrize("readers", ["seats", "table"])
def test_the_prince_coaster_where_a_role_is_expected_is_refused(readers):
    t = game(4, readers=readers)
    refuse(t, tap("seat-2" if readers == "seats" else "table", "prince"), "breaks_rule")


def test_a_tap_from_the_wrong_seat_during_the_single_reader_deal_is_refused():
    """One shared reader: the TV asks each seat in turn, starting left of the Prince."""
    t = game(4, readers="table")
    assert t.view("table")["due"] == "seat-2"
    error = refuse(t, tap("seat-3", "queen"), "wrong_reader")
    assert "Ben" in error.message
    accept(t, tap("seat-2", "queen"))           # the seat whose turn it is may use its own reader
    assert t.view("table")["due"] == "seat-3"
    accept(t, tap("table", "princess"))
    accept(t, tap("table", "maid"))
    refuse(t, tap("seat-4", "guard"), "wrong_reader")
    assert t.view("table")["due"] == "center"


def test_an_unknown_tag_is_refused():
    t = game(4)
    error = refuse(t, {"tap": {"reader": "seat-2", "uid": "04A224C2B31190"}}, "unknown_tag")
    assert "enrol" in error.message.lower()


def test_a_card_of_another_game_is_refused():
    t = game(4)
    refuse(t, {"tap": {"reader": "seat-2", "card": "tofu-god/set-1/rat"}}, "not_this_game")
    refuse(t, {"tap": {"reader": "seat-2", "card": "tofu-kingdom/jester"}}, "not_this_game")


def test_per_seat_readers_refuse_the_table_reader_the_princes_reader_and_empty_seats():
    t = game(4)
    refuse(t, tap("table", "queen"), "wrong_reader")
    refuse(t, tap("seat-1", "queen"), "wrong_reader")
    refuse(t, tap("seat-6", "queen"), "empty_seat")
    accept(t, tap("seat-2", "queen"))


def test_eight_players_have_no_centre_coaster():
    t = game(8)
    refuse(t, tap("center", "queen"), "wrong_reader")
    refuse(t, host("place", target="center", role="queen"), "bad_argument")


def test_the_round_starts_by_itself_when_every_expected_coaster_is_down():
    t = game(4)
    for position, role in list(DEAL4.items())[:-1]:
        accept(t, tap(position, role))
        assert t.state["phase"] == "deal"
    outcome = accept(t, tap("center", "guard"))
    assert t.state["phase"] == "questions"
    assert [e["kind"] for e in outcome.events] == ["laid", "round_started"]


def test_a_coaster_picked_up_during_the_deal_is_no_longer_down():
    t = game(4)
    accept(t, tap("seat-2", "queen"))
    accept(t, lift("seat-2", "queen"))
    assert t.view("table")["down"] == []
    accept(t, tap("seat-3", "queen"))     # now it may go down elsewhere (say the players swapped)


def test_taps_after_the_deal_are_refused():
    t = game(4, deal=DEAL4)
    refuse(t, tap("seat-1", "queen"), "not_now")              # the Prince's reader holds nothing
    t2 = game(4, deal=DEAL4, readers="table")
    refuse(t2, tap("seat-2", "princess"), "wrong_reader")


@pytest.mark.parametrize("phase", ["deal", "questions", "scored"])
def test_a_tap_on_a_reader_holding_a_coaster_never_tells_which_coaster_lies_there(phase):
    """issue 11 item 6: a tap on a reader that holds a face-down coaster answers the same, quietly,
    whichever coaster is tapped (the one lying there, reported again, or another): probing must
    not reveal the deal to the Prince."""
    t = game(4, deal=DEAL4 if phase != "deal" else None)
    if phase == "deal":
        accept(t, tap("seat-2", "princess"))
    if phase == "scored":
        flip(t, "seat-3", "queen")
    before, rows = t.view("host"), t.journal.count()
    answers = {role: t.handle(tap("seat-2", role)).as_dict("table")
               for role in ("princess", "queen", "maid", "guard")}
    assert all(a == answers["princess"] for a in answers.values()), answers
    assert answers["princess"]["ok"] and answers["princess"]["quiet"]
    assert t.view("host") == before and t.journal.count() == rows
    t2 = game(4, deal=DEAL4, readers="table")
    refuse(t2, tap("seat-2", "princess"), "wrong_reader")


# ----- the flip and the lifts --------------------------------------------------------

def test_with_default_options_the_flip_is_accepted_at_any_moment_after_the_deal():
    """Questions are optional: the Prince may flip without any recorded question."""
    t = game(4, deal=DEAL4)
    flip(t, "center", "guard")
    assert t.view("table")["flip"]["role"] == "guard"


def test_lifts_after_the_flip_are_expected_and_quiet():
    t = game(4, deal=DEAL4)
    flip(t, "seat-3", "queen")
    before, rows = t.view("host"), t.journal.count()
    for position, role in DEAL4.items():
        outcome = t.handle(lift(position, role))
        assert outcome.accepted and outcome.quiet and not outcome.events
    assert t.view("host") == before and t.journal.count() == rows


@pytest.mark.parametrize("readers", ["seats", "table"])
def test_a_coaster_laid_back_where_it_lay_after_the_flip_is_quiet(readers):
    """After the flip the Prince may put the coaster back face up on its reader; not an error."""
    t = game(4, deal=DEAL4, readers=readers)
    if readers == "seats":
        flip(t, "seat-2", "princess")
    else:
        accept(t, tap("table", "princess"))
    before, rows = t.view("host"), t.journal.count()
    again = tap("seat-2" if readers == "seats" else "table", "princess")
    assert t.handle(again).quiet
    assert t.view("host") == before and t.journal.count() == rows
    refuse(t, tap("seat-1" if readers == "seats" else "table", "maid"), "not_now")


def test_a_lift_of_a_coaster_the_round_never_saw_is_quiet():
    t = game(4)
    outcome = t.handle(lift("seat-2", "queen"))
    assert outcome.accepted and outcome.quiet
    accept(t, tap("seat-2", "queen"))
    assert t.handle(lift("seat-3", "queen")).quiet


def test_a_tap_after_the_flip_waits_for_advance():
    t = game(4, deal=DEAL4)
    flip(t, "seat-2", "princess")
    refuse(t, tap("seat-1", "queen"), "not_now")
    refuse(t, host("flip", target=2), "not_now")
    accept(t, ADVANCE)
    assert t.view("table")["prince"]["seat"] == 2 and t.state["phase"] == "deal"


def test_advance_before_the_flip_is_refused():
    t = game(4, deal=DEAL4)
    refuse(t, ADVANCE, "not_now")
    refuse(t, {"button": {"name": "jump"}}, "unknown_move")


def test_with_one_reader_the_prince_taps_the_coaster_he_flipped():
    t = game(4, deal=DEAL4, readers="table")
    accept(t, tap("table", "maid"))
    flip = t.view("table")["flip"]
    assert (flip["position"], flip["role"], flip["scorers"]) == ("seat-4", "maid", [4])
    assert t.handle(lift("table", "maid")).quiet


def test_undo_of_the_flip_takes_the_soybeans_back():
    t = game(4, deal=DEAL4)
    flip(t, "seat-2", "princess")
    assert [p["score"] for p in t.view("table")["players"]] == [1, 1, 0, 0]
    accept(t, {"button": {"name": "undo"}})
    assert [p["score"] for p in t.view("table")["players"]] == [0, 0, 0, 0]
    assert t.state["phase"] == "questions"


def test_the_game_is_over_after_the_last_flip():
    t = game(3, times_prince=1)
    play_three_maid_rounds(t)
    refuse(t, ADVANCE, "game_over")
    refuse(t, tap("table", "maid"), "game_over")
    assert t.handle(lift("seat-2", "queen")).quiet
    assert t.handle(tap("seat-2", "queen")).quiet      # laid back where it lay: not an error


# ----- questions ------------------------------------------------------------------------

def test_one_question_to_each_player_then_one_extra_to_anyone():
    """rulebook: one question to every player in any order, then one extra question."""
    t = game(4, deal=DEAL4)
    assert t.view("table")["budget"] == {"total": 4, "left": 4, "unasked": [2, 3, 4]}
    accept(t, ask(1, 3, "who_are_you"))
    refuse(t, ask(1, 3, "where"), "already_done")
    accept(t, ask(1, 2, "who_is", about="center"))
    accept(t, ask(1, 4, "where"))
    accept(t, ask(1, 3, "who_is", about=2))          # the extra, to someone already asked
    view = t.view("table")
    assert view["budget"] == {"total": 4, "left": 0, "unasked": []}
    assert [(q["to"], q["question"], q["extra"]) for q in view["questions"]] == [
        (3, "who_are_you", False), (2, "who_is", False), (4, "where", False), (3, "who_is", True)]
    refuse(t, ask(1, 2, "where"), "already_done")


def test_only_the_three_questions_of_the_rulebook_are_accepted():
    t = game(4, deal=DEAL4)
    refuse(t, ask(1, 2, "are_you_the_princess"), "bad_argument")
    refuse(t, ask(1, 2, "where", about=3), "bad_argument")
    refuse(t, ask(1, 2, "who_is"), "bad_argument")
    refuse(t, ask(1, 2, "who_is", about=2), "breaks_rule")
    refuse(t, ask(1, 2, "who_is", about=1), "unavailable")
    refuse(t, ask(1, 1, "who_are_you"), "breaks_rule")
    refuse(t, ask(1, 7, "who_are_you"), "bad_argument")


def test_only_the_prince_asks_and_only_between_the_deal_and_the_flip():
    t = game(4)
    refuse(t, ask(1, 2, "where"), "not_now")
    for position, role in DEAL4.items():
        accept(t, tap(position, role))
    error = refuse(t, ask(2, 3, "where"), "not_your_turn")
    assert "Ann" in error.message
    refuse(t, {"seat": {"seat": 2, "action": "flip", "target": 3}}, "not_your_turn")   # only the Prince
    accept(t, host("ask", to=2, question="where"))      # the host may enter it for the Prince
    flip(t, "seat-2", "princess")
    refuse(t, ask(1, 3, "where"), "not_now")


def test_question_recording_off_refuses_questions():
    t = game(4, deal=DEAL4, questions="off")
    refuse(t, ask(1, 2, "where"), "option_off")
    assert t.view("table")["budget"] is None


def test_required_questions_hold_the_flip_until_everyone_was_asked():
    t = game(4, deal=DEAL4, questions="required")
    said = accept(t, lift("seat-2", "princess")).events[0]["text"]
    assert "Ben, Cat and Dan must be asked first" in said, "said as soon as the coaster is up"
    error = refuse(t, held("seat-2", "princess"), "waiting")
    assert "Ben, Cat and Dan" in error.message
    accept(t, tap("seat-2", "princess"))                   # the coaster goes back on its reader
    assert t.view("table")["lifted"] == []
    for seat in (2, 3, 4):
        accept(t, ask(1, seat, "who_are_you"))
    flip(t, "seat-2", "princess")


# ----- host corrections -------------------------------------------------------------------

def test_host_records_a_missed_coaster_and_sets_the_flip():
    t = game(4)
    for position, role in list(DEAL4.items())[:-1]:
        accept(t, tap(position, role))
    refuse(t, host("flip", target="center"), "not_now")
    refuse(t, host("place", target="center", role="queen"), "already_done")
    refuse(t, host("place", target="center", role="chef"), "unknown_card")
    refuse(t, host("place", target="center", role="king"), "bad_argument")
    refuse(t, host("place", target=1, role="guard"), "unavailable")
    accept(t, host("place", target="center", role="guard"))
    assert t.state["phase"] == "questions"
    refuse(t, host("place", target="center", role="guard"), "not_now")
    accept(t, host("flip", target=3))
    assert t.view("table")["flip"]["role"] == "queen"


def test_host_may_flip_even_when_questions_are_required():
    t = game(4, deal=DEAL4, questions="required")
    accept(t, host("flip", target="center"))


def test_host_chooses_the_prince_during_the_deal():
    t = game(4)
    accept(t, tap("seat-3", "queen"))
    refuse(t, host("set_prince", seat=3), "breaks_rule")
    refuse(t, host("set_prince", seat=9), "bad_argument")
    accept(t, host("set_prince", seat=2))
    view = t.view("table")
    assert view["prince"]["seat"] == 2 and view["positions"] == ["seat-3", "seat-4", "seat-1", "center"]
    for position, role in (("seat-4", "maid"), ("seat-1", "princess"), ("center", "guard")):
        accept(t, tap(position, role))
    refuse(t, host("set_prince", seat=1), "not_now")
    flip(t, "seat-1", "princess")
    accept(t, ADVANCE)
    assert t.view("table")["prince"]["seat"] == 3          # the Prince passes on from the chosen one


def test_host_adjusts_soybeans_and_the_winners_follow():
    t = game(3, times_prince=1)
    refuse(t, host("adjust_soybeans", seat=2, delta=-1), "breaks_rule")
    refuse(t, host("adjust_soybeans", seat=2, delta=0), "bad_argument")
    refuse(t, host("adjust_soybeans", seat=2, delta=True), "bad_argument")
    play_three_maid_rounds(t)
    assert t.view("table")["winners"] == ["Ann", "Ben", "Cat"]
    accept(t, host("adjust_soybeans", seat=3, delta=2))
    view = t.view("table")
    assert view["winners"] == ["Cat"] and view["players"][2]["score"] == 2
    assert "Cat wins" in view["prompt"]


def test_reveal_all_follows_the_option():
    t = game(4, deal=DEAL4, reveal="host")
    refuse(t, host("reveal_all"), "not_now")
    flip(t, "seat-3", "queen")
    assert t.view("table")["roles"] is None
    accept(t, host("reveal_all"))
    roles = {r["position"]: r["role"] for r in t.view("table")["roles"]}
    assert roles == DEAL4
    refuse(t, host("reveal_all"), "already_done")
    accept(t, ADVANCE)
    assert t.view("table")["roles"] is None
    t2 = game(4, deal=DEAL4)
    flip(t2, "seat-3", "queen")
    refuse(t2, host("reveal_all"), "option_off")
    t3 = game(4, deal=DEAL4, reveal="auto")
    flip(t3, "seat-3", "queen")
    assert len(t3.view("table")["roles"]) == 4


def test_unknown_host_actions_and_boards_are_refused():
    t = game(4)
    error = refuse(t, host("shuffle"), "unknown_move")
    assert "set_prince" in error.message
    refuse(t, {"board": {"board": "diet-1", "slots": {}}}, "unknown_move")


def test_bad_options_are_refused():
    t = table()
    refuse(t, new_game(4, readers="usb"), "bad_option")
    refuse(t, new_game(4, reveal=True), "bad_option")
    refuse(t, new_game(4, times_prince=0), "bad_option")
    refuse(t, new_game(2), "player_count")


@pytest.mark.parametrize("question", [["where"], {"where": 1}, None, 3, True])
@pytest.mark.parametrize("sender", ["seat", "host"])
def test_a_question_that_is_not_a_question_id_is_refused_and_changes_nothing(question, sender):
    """issue 11 item 1: a list or an object as the question made the engine raise TypeError and
    stopped the table; the move's argument schema refuses it before any rule runs."""
    t = game(4, deal=DEAL4)
    body = {"action": "ask", "question": question, "to": 2}
    inp = {"seat": {"seat": 1, **body}} if sender == "seat" else {"host": body}
    error = refuse(t, inp, "bad_argument")
    assert "question" in error.message and "where" in error.message
    accept(t, {"host": {"action": "ask", "question": "where", "to": 2}})   # the table goes on


# ----- a peek is not a flip (a reader per seat) ---------------------------------------------

def test_a_peek_put_back_in_time_changes_nothing():
    """issue: a player who lifts their coaster to peek and puts it back within the peek time does
    not score the round: the TV says it is up, then back down; no flip, no soybean."""
    t = game(4, deal=DEAL4)
    said = accept(t, lift("seat-3", "queen")).events
    assert t.view("table")["lifted"] == ["seat-3"] and t.view("table")["flip"] is None
    assert "Cat's coaster is up" in said[0]["text"]
    assert GAME.awaiting(t.state) == [("seat-3", "tofu-kingdom/queen", 3)], "the put-back timer's cue"
    accept(t, tap("seat-3", "queen"))
    assert t.handle(held("seat-3", "queen")).quiet, "the hub's late word changes nothing"
    view = t.view("table")
    assert view["lifted"] == [] and view["flip"] is None and view["phase"] == "questions"
    assert [p["score"] for p in view["players"]] == [0, 0, 0, 0]


def test_a_lift_kept_away_past_the_peek_time_is_the_flip():
    """issue: a flip is a lift not put back in time; the hub's timed lift before the time is up
    (held below peek_seconds) is not yet a flip."""
    t = game(4, deal=DEAL4, peek_seconds=5)
    accept(t, lift("seat-2", "princess"))
    assert t.handle(held("seat-2", "princess", 2)).quiet
    accept(t, held("seat-2", "princess", 5))
    flip = t.view("table")["flip"]
    assert (flip["position"], flip["role"], flip["scorers"]) == ("seat-2", "princess", [1, 2])


def test_peek_seconds_zero_makes_every_lift_a_flip():
    """option peek_seconds=0: the old way, a lift during the questions is the flip at once."""
    t = game(4, deal=DEAL4, peek_seconds=0)
    accept(t, lift("center", "guard"))
    assert t.view("table")["flip"]["role"] == "guard"


def test_the_prince_confirms_the_flip_on_the_phone():
    """issue: a flip is also one the Prince confirms on their phone (no waiting for the time)."""
    t = game(4, deal=DEAL4)
    accept(t, lift("seat-4", "maid"))
    accept(t, {"seat": {"seat": 1, "action": "flip", "target": 4}})
    flip = t.view("table")["flip"]
    assert (flip["role"], flip["scorers"]) == ("maid", [4])
    assert t.view("table")["lifted"] == []


def test_the_princes_notes_are_private_to_the_prince():
    """issue, memory aids: the Prince's phone notes each answer; only the Prince's view has them,
    and they go with the round."""
    t = game(4, deal=DEAL4)
    accept(t, {"seat": {"seat": 1, "action": "note", "about": 2, "text": "says she is the Queen"}})
    accept(t, {"seat": {"seat": 1, "action": "note", "about": "center", "text": "Cat: the Maid"}})
    assert t.view("seat-1")["me"]["notes"] == {"seat-2": "says she is the Queen", "center": "Cat: the Maid"}
    for audience in ("table", "seat-2", "seat-3"):
        assert "says she is" not in str(t.view(audience))
    refuse(t, {"seat": {"seat": 2, "action": "note", "about": 3, "text": "x"}}, "not_your_turn")
    accept(t, {"seat": {"seat": 1, "action": "note", "about": 2, "text": None}})
    assert t.view("seat-1")["me"]["notes"] == {"center": "Cat: the Maid"}
    flip(t, "seat-3", "queen")
    accept(t, ADVANCE)
    assert t.view("seat-2")["me"]["notes"] == {}, "a new round, a new Prince, a clean page"


@pytest.mark.timeout(60)
def test_the_table_confirms_a_lift_kept_away_and_not_a_peek(tmp_path):
    """issue, through the real server and its reader inputs: Cat peeks (lift, put back at once),
    then the Prince lifts Ben's coaster and keeps it; the table's own timer sends the timed lift
    after peek_seconds and that is the flip; Cat's peek changed nothing. The journal holds the
    timed lift, so the game replays without a clock."""
    from tests.support.server import run_server

    with run_server(tmp_path) as srv:
        for inp in [new_game(4, peek_seconds=1)] + [tap(p, r) for p, r in DEAL4.items()]:
            assert srv.post(inp).ok
        tv = srv.client("table")
        for inp in (lift("seat-3", "queen"), tap("seat-3", "queen"), lift("seat-2", "princess")):
            r = srv.post(inp)
            assert r.ok and not r.json().get("quiet"), r.text
        view = tv.wait_for("state", lambda v: v.get("flip") is not None, timeout=15)
        assert (view["flip"]["position"], view["flip"]["role"]) == ("seat-2", "princess")
        assert [p["score"] for p in view["players"]] == [1, 1, 0, 0]
        tv.close()
        journal = requests.get(srv.url + "/api/journal", headers={"Authorization": f"Bearer {srv.host_token}"},
                               timeout=10).json()
    assert '"held": 1' in json.dumps(journal), "the timed lift is journaled"


@pytest.mark.timeout(90)
def test_a_coaster_up_through_a_power_cut_or_an_undo_still_becomes_the_flip(tmp_path):
    """issue (a peek is not a flip), at a real table: the Prince lifts Ben's coaster and the power
    goes before the peek time is up; after the restart the table still counts the time and flips
    it. Then, in the next round, Cat's peek put back is undone by the host: her coaster counts as
    up again, and kept away, it is the flip."""
    from tests.support.server import Server

    srv = Server(tmp_path).start()
    try:
        for inp in [new_game(4, peek_seconds=2)] + [tap(p, r) for p, r in DEAL4.items()]:
            assert srv.post(inp).ok
        assert srv.post(lift("seat-2", "princess")).ok
        srv.kill()
        srv = Server(tmp_path).start()
        tv = srv.client("table")
        view = tv.wait_for("state", lambda v: v.get("flip") is not None, timeout=20)
        assert (view["flip"]["position"], view["flip"]["role"]) == ("seat-2", "princess")

        assert srv.post(ADVANCE).ok                              # Ben is the Prince now
        deal = {"seat-1": "princess", "seat-3": "queen", "seat-4": "maid", "center": "guard"}
        for inp in [tap(p, r) for p, r in deal.items()]:
            assert srv.post(inp).ok
        for inp in (lift("seat-3", "queen"), tap("seat-3", "queen")):
            assert srv.post(inp).ok
        assert srv.post({"button": {"name": "undo"}}).ok      # the put-back taken back: up again
        view = tv.wait_for("state", lambda v: v.get("round", 0) == 2 and v.get("flip") is not None,
                           timeout=20)
        assert (view["flip"]["position"], view["flip"]["role"]) == ("seat-3", "queen")
        tv.close()
    finally:
        srv.stop()
