"""Tofu God rules on the table: the rulebook's worked example, refusals, options, data file."""
from __future__ import annotations

import copy
import json

import pytest

from server import games
from server.games import tofu_god
from tests.support.scripts import script_inputs
from tests.support.tofu_god import ADVANCE, accept, host, new_game, table, tap, turn_inputs

EXAMPLE_PLAYERS = ["Anna", "Ben", "Cindy", "Dax"]
#: Anna's six answers: the rulebook gives elephant (best) and human (worst) for question 1;
#: the answers to questions 2 and 3 are not in the example, these are ours.
ANNA_ANSWERS = ["elephant", "human", "spider", "beetle", "tofu", "meditator"]


def example_table(**options):
    """Anna's turn in the rulebook example: rat and pig set aside, her six answers locked."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, set_aside="physical", **options))
    accept(t, tap(1, "rat"))
    accept(t, tap(1, "pig"))
    for card in ANNA_ANSWERS:
        accept(t, tap(1, card))
    return t


def example_after_guesses():
    t = example_table()
    accept(t, tap(2, "elephant"))
    accept(t, tap(3, "elephant"))
    accept(t, tap(4, "dolphin"))
    return t


def scores(t) -> dict:
    return {p["name"]: p["score"] for p in t.view("table")["players"]}


def test_rulebook_example_first_question_scores():
    """rulebook example: Ben and Cindy guessed Anna's best (the elephant) and get a point each,
    Anna gets two (one per correct guesser), Dax's dolphin scores nothing."""
    t = example_after_guesses()
    accept(t, ADVANCE)                      # the guesses are revealed
    view = t.view("table")
    assert view["results"][0]["guesses"] == {"2": "elephant", "3": "elephant", "4": "dolphin"}
    assert scores(t) == {"Anna": 0, "Ben": 0, "Cindy": 0, "Dax": 0}
    accept(t, ADVANCE)                      # the best answer revealed and scored
    assert scores(t) == {"Anna": 2, "Ben": 1, "Cindy": 1, "Dax": 0}
    result = t.view("table")["results"][0]
    assert (result["best"], result["worst"]) == ("elephant", None), "the worst is not out yet"
    accept(t, ADVANCE)                      # then the worst answer
    result = t.view("table")["results"][0]
    assert (result["best"], result["worst"]) == ("elephant", "human")
    assert result["outcomes"] == {"2": "best", "3": "best", "4": "miss"}
    assert scores(t) == {"Anna": 2, "Ben": 1, "Cindy": 1, "Dax": 0}


def test_rulebook_rhythm_guesses_then_best_then_worst():
    """rulebook, One Turn: the guesses are revealed (and explained), then the active player reveals
    the best answer, then the worst answer, each with time to explain: three reveals, each scored
    as it comes out. A worst guess costs its point only at the worst reveal."""
    t = example_table()
    accept(t, tap(2, "elephant"))
    accept(t, tap(3, "human"))
    accept(t, tap(4, "dolphin"))
    accept(t, host("score", seat=3, score=2))
    phases, cindy = [], []
    for _ in range(3):
        events = accept(t, ADVANCE).events
        phases.append(t.view("table")["phase"])
        cindy.append(scores(t)["Cindy"])
        assert len([e for e in events if e["kind"].endswith("_revealed")]) == 1, events
    assert phases == ["guesses_revealed", "best_revealed", "answered"]
    assert cindy == [2, 2, 1], "Cindy's worst guess costs her a point at the worst reveal"


def test_the_first_guess_after_a_reveal_opens_the_next_question():
    """issue: no lone "continue": after question 1's worst answer is revealed, the first guess
    tapped is taken as a guess for question 2 (it is not refused and need not be tapped again)."""
    t = example_after_guesses()
    for _ in range(3):
        accept(t, ADVANCE)
    assert t.view("table")["phase"] == "answered"
    events = accept(t, tap(4, "dolphin")).events
    view = t.view("table")
    assert view["phase"] == "guessing" and view["turn"]["question"] == 2
    assert view["turn"]["guessed"] == [4]
    assert t.view("seat-4")["me"]["guess"] == "dolphin"
    assert [e["kind"] for e in events if "seat" not in e] == ["question_open", "guessed"]
    refused = t.handle(ADVANCE)
    assert refused.error.code == "waiting", "question 2 waits for the other guesses"


def test_a_four_player_turn_takes_24_inputs_and_every_advance_reveals_something():
    """issue: a 4-player turn took 24 inputs with 9 advance presses, 3 of them a lone "continue",
    and a guess tapped right after a reveal was refused. Now the 9 presses are the rulebook's 9
    reveals (guesses, best, worst per question), no input is refused and no press only moves on."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, seed=3))
    inputs = turn_inputs(t.view("host"), [{2: "best", 3: "worst", 4: "miss"}] * 3)
    reveals = []
    for inp in inputs:
        events = accept(t, inp).events
        if inp == ADVANCE:
            reveals += [e["kind"] for e in events if e["kind"].endswith("_revealed")]
    assert len(inputs) == 24 and inputs.count(ADVANCE) == 9
    assert reveals == ["guesses_revealed", "best_revealed", "worst_revealed"] * 3
    assert t.view("table")["turn"]["number"] == 2, "the next turn started with the last reveal"


def test_rulebook_example_human_unavailable_and_dolphin_back_in_hand():
    """rulebook example: after question 1 the human (Anna's worst) and the elephant are put aside by
    everyone, Dax picks his dolphin up again, and Ben, Cindy and Dax hold the same six cards."""
    t = example_after_guesses()
    accept(t, ADVANCE)
    accept(t, ADVANCE)
    accept(t, ADVANCE)                      # the worst answer is out; question 2 comes next
    assert "human" in t.view("table")["turn"]["unavailable"]
    hands = [t.view(f"seat-{s}")["me"]["hand"] for s in (2, 3, 4)]
    assert "dolphin" in hands[2]
    assert hands[0] == hands[1] == hands[2]
    assert sorted(hands[0]) == sorted(["dolphin", "tofu", "spider", "beetle", "meditator", "tenth"])
    for seat in (2, 3, 4):
        outcome = t.handle(tap(seat, "human"))
        assert not outcome.accepted and outcome.error.code == "unavailable"
    accept(t, tap(4, "dolphin"))            # Dax may use his dolphin again for question 2
    assert t.view("seat-4")["me"]["guess"] == "dolphin"


def test_guess_may_change_until_revealed_last_tap_counts():
    """issue: a player may change their guess by tapping another card until the guesses are revealed."""
    t = example_table()
    accept(t, tap(2, "dolphin"))
    accept(t, tap(2, "elephant"))
    accept(t, tap(3, "elephant"))
    accept(t, tap(4, "dolphin"))
    accept(t, ADVANCE)
    assert t.view("table")["results"][0]["guesses"]["2"] == "elephant"
    accept(t, ADVANCE)
    assert scores(t)["Ben"] == 1


def test_guesses_for_question_one_while_active_player_still_chooses():
    """rulebook: the others guess the first answer while the active player chooses."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, set_aside="physical"))
    accept(t, tap(1, "rat"))
    accept(t, tap(1, "pig"))
    accept(t, tap(2, "elephant"))           # before Anna has locked anything
    accept(t, tap(1, "elephant"))
    assert t.view("table")["turn"]["guessed"] == [2]
    assert t.view("table")["turn"]["answers_locked"] == 1


def test_worst_guess_costs_a_point_but_not_below_zero_by_default():
    """rules notes: a guess of the worst card costs the guesser one point (not the active player);
    by default a score never drops below zero."""
    t = example_table()
    for seat in (2, 3, 4):
        accept(t, tap(seat, "human"))
    for _ in range(3):
        accept(t, ADVANCE)
    assert scores(t) == {"Anna": 0, "Ben": 0, "Cindy": 0, "Dax": 0}
    assert t.view("table")["results"][0]["outcomes"] == {"2": "worst", "3": "worst", "4": "worst"}


def test_worst_guess_goes_below_zero_when_allowed():
    """option below_zero: a guess of the worst card takes a score at zero down to -1."""
    t = example_table(below_zero=True)
    accept(t, tap(2, "human"))
    accept(t, tap(3, "elephant"))
    accept(t, tap(4, "dolphin"))
    for _ in range(3):
        accept(t, ADVANCE)
    assert scores(t) == {"Anna": 1, "Ben": -1, "Cindy": 1, "Dax": 0}


def test_turn_ends_after_third_question_and_next_player_answers():
    """rulebook: turns go clockwise; after the third question it is the next player's turn (it
    starts with the third worst answer's reveal)."""
    t = example_table()
    for q in range(3):
        for seat in (2, 3, 4):
            accept(t, tap(seat, "dolphin"))     # never one of Anna's answers: a miss
        accept(t, ADVANCE)
        accept(t, ADVANCE)
        assert t.view("table")["turn"]["number"] == 1
        accept(t, ADVANCE)
    view = t.view("table")
    assert view["turn"]["number"] == 2 and view["turn"]["active"] == 2
    assert view["phase"] == "set_aside" and view["turn"]["unavailable"] == []


# ----- refusals: each is specific and changes nothing --------------------------------------

def _refused(t, inp, code: str):
    """Apply ``inp`` expecting refusal ``code``; the state and the journal stay as they were."""
    state_before = copy.deepcopy(t.state)
    rows_before = t.journal.count()
    outcome = t.handle(inp)
    assert not outcome.accepted, inp
    assert outcome.error.code == code, outcome.error.as_dict("host")
    assert t.state == state_before
    assert t.journal.count() == rows_before
    return outcome.error


def _physical_start():
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, set_aside="physical"))
    return t


def _answered_q1():
    t = example_after_guesses()
    for _ in range(3):
        accept(t, ADVANCE)
    return t


def _guesses_revealed():
    t = example_after_guesses()
    accept(t, ADVANCE)
    return t


def _question_two():
    t = _answered_q1()
    accept(t, tap(2, "dolphin"))    # the first guess opens question 2
    return t


REFUSALS = [
    # (what, table at that moment, input, code)
    ("a guesser taps a set-aside card", example_table, tap(2, "rat"), "unavailable"),
    ("the active player taps a set-aside card", lambda: _partial_choices(2), tap(1, "pig"),
     "unavailable"),
    ("a card already revealed this turn", _question_two, tap(3, "elephant"), "unavailable"),
    ("the active player repeats a card", lambda: _partial_choices(3), tap(1, "elephant"),
     "already_done"),
    ("a guess from the active set once the six are locked", example_table, tap(1, "dolphin"),
     "already_done"),
    ("a card from a set not in the game", example_table, tap(5, "dolphin"), "unknown_card"),
    ("a guess before the cards are set aside", _physical_start, tap(2, "dolphin"),
     "not_now"),
    ("a guess after the guesses are revealed", _guesses_revealed, tap(4, "elephant"),
     "not_now"),
    ("a guess after the best answer is revealed", lambda: _after_best(), tap(4, "dolphin"),
     "not_now"),
    ("a revealed card as the guess that would open the next question", _answered_q1,
     tap(4, "human"), "unavailable"),
    ("advance once the worst answer is out (guesses open the next question)", _answered_q1,
     ADVANCE, "not_now"),
    ("an unknown tag", example_table, {"tap": {"reader": "seat-2", "uid": "04A224C2B31190"}},
     "unknown_tag"),
    ("a card of another game", example_table, {"tap": {"reader": "table", "card": "tofu-kingdom/spy"}},
     "not_this_game"),
    ("a silhouette that is not in a set", example_table, tap(2, "unicorn"), "unknown_card"),
    ("the same card set aside twice", lambda: _set_aside_one(), tap(1, "rat"), "already_done"),
    ("advance before the set-aside cards", _physical_start, ADVANCE, "not_now"),
    ("advance before the six answers are locked", lambda: _partial_choices(5), ADVANCE,
     "waiting"),
    ("advance before everyone has guessed", example_table, ADVANCE, "waiting"),
    ("a button Tofu God does not use", example_table, {"button": {"name": "pause"}}, "unknown_move"),
    ("a host action that does not exist", example_table, host("shuffle"), "unknown_move"),
    ("a conundrum number that is not a card number", example_table, host("conundrum", number=0),
     "bad_argument"),
    ("a seat action for a seat not in the game", example_table,
     {"seat": {"seat": 5, "action": "card", "card": "rat"}}, "empty_seat"),
    ("a conundrum number from a player who is not answering", example_table,
     {"seat": {"seat": 2, "action": "conundrum", "number": 7}}, "not_your_turn"),
    ("correcting an answer that is already revealed", _question_two,
     host("choice", question=1, answer="best", card="dolphin"), "too_late"),
    ("correcting the set-aside cards after question 1", _question_two,
     host("set_aside", cards=["dolphin", "tofu"]), "too_late"),
    ("a negative score correction when scores stay at zero or more", example_table,
     host("score", seat=2, score=-1), "bad_argument"),
    ("a tie-break winner when nobody is tied", example_table, host("tie_break_winner", seat=1),
     "not_now"),
]


def _partial_choices(count: int):
    t = _physical_start()
    accept(t, tap(1, "rat"))
    accept(t, tap(1, "pig"))
    for card in ANNA_ANSWERS[:count]:
        accept(t, tap(1, card))
    return t


def _after_best():
    t = _guesses_revealed()
    accept(t, ADVANCE)
    return t


def _set_aside_one():
    t = _physical_start()
    accept(t, tap(1, "rat"))
    return t


@pytest.mark.parametrize("what,make,inp,code", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusal_is_specific_and_changes_nothing(what, make, inp, code):
    """issue: refused, clearly, changing nothing."""
    error = _refused(make(), inp, code)
    assert error.message.endswith(".") and len(error.message) > 20


@pytest.mark.parametrize("make,inp,code,secret,told", [
    (lambda: _partial_choices(3), tap(1, "elephant"), "already_done", "elephant", "seat-1"),
    (lambda: _partial_choices(2), tap(1, "pig"), "unavailable", "pig", "seat-1"),
    # issue 11 item 3: host corrections naming a locked answer said it on the TV
    (lambda: _partial_choices(2), host("set_aside", cards=["elephant", "dolphin"]), "unavailable",
     "elephant", "host"),
    (lambda: _partial_choices(2), host("choice", question=2, answer="best", card="human"),
     "unavailable", "human", "host"),
])
def test_a_refusal_naming_a_hidden_answer_tells_it_only_to_who_may_see_it(make, inp, code, secret, told):
    """The message for the active player's own mistakes, or for a host correction that clashes
    with a locked answer, must not reveal the answers on the TV; the details go to their seat page
    (the player's own mistake) and the host page."""
    error = _refused(make(), inp, code)
    public = json.dumps(error.as_dict("table")) + json.dumps(error.as_dict("seat-2"))
    if told == "host":
        public += json.dumps(error.as_dict("seat-1"))
    for name in tofu_god.SILHOUETTES["ids"]:
        assert name not in public.lower()
    assert secret in error.as_dict(told)["detail"]
    assert secret in error.as_dict("host")["detail"]


def test_an_answer_cannot_be_corrected_once_its_guesses_are_revealed():
    """issue 11 item 4: once the guesses for question 1 are on the TV, its answers stay as they are
    (a correction would change who scores after everyone has seen the guesses)."""
    t = _guesses_revealed()
    error = _refused(t, host("choice", question=1, answer="best", card="dolphin"), "too_late")
    assert "question 1" in error.message
    accept(t, host("choice", question=2, answer="best", card="dolphin"))   # question 2 still open


def test_tap_after_game_over_is_refused():
    """A finished game takes no more cards."""
    t = table()
    for inp in script_inputs("tofu-god-2p.jsonl"):
        accept(t, inp)
    _refused(t, tap(1, "rat"), "game_over")
    _refused(t, ADVANCE, "game_over")


def test_lift_changes_nothing_and_is_not_journaled():
    """A card lifted off a reader is not an input to the game."""
    t = example_table()
    rows = t.journal.count()
    outcome = t.handle({"lift": {"reader": "seat-2", "card": tofu_god.card_id(2, "dolphin")}})
    assert outcome.accepted and outcome.quiet and t.journal.count() == rows


# ----- any reader, phone actions, host corrections -----------------------------------------

def test_the_set_identifies_the_player_on_any_reader():
    """issue: the set identifies the player, so one shared reader or any seat reader works."""
    t = example_table()
    accept(t, {"tap": {"reader": "seat-4", "card": tofu_god.card_id(2, "elephant")}})
    accept(t, {"tap": {"reader": "center", "card": tofu_god.card_id(3, "dolphin")}})
    assert t.view("host")["guesses"] == {"2": "elephant", "3": "dolphin"}


def test_sets_bound_to_players_by_option():
    """option sets: Anna plays set 3, so set 3 is her set and set 1 is Ben's."""
    t = table()
    accept(t, new_game(["Anna", "Ben"], set_aside="physical", sets="3,1"))
    accept(t, tap(3, "rat"))
    accept(t, tap(3, "pig"))
    assert t.view("table")["turn"]["set_aside"] == ["rat", "pig"]
    accept(t, tap(1, "elephant"))
    assert t.view("host")["guesses"] == {"2": "elephant"}
    _refused(t, tap(2, "dolphin"), "unknown_card")


def test_phone_actions_play_a_card_and_record_the_conundrum():
    """A player's phone can play their card (when a tag will not read) and the active player can
    record the conundrum number."""
    t = example_table()
    accept(t, {"seat": {"seat": 3, "action": "card", "card": "elephant"}})
    accept(t, {"seat": {"seat": 1, "action": "conundrum", "number": 43}})
    assert t.view("seat-3")["me"]["guess"] == "elephant"
    assert t.view("table")["turn"]["conundrum"] == 43


def test_host_corrections():
    """The host corrects set-aside cards, an answer, a guess and a score."""
    t = _partial_choices(2)
    accept(t, tap(2, "dolphin"))
    accept(t, host("set_aside", cards=["dolphin", "tofu"]))
    view = t.view("host")
    assert view["turn"]["set_aside"] == ["dolphin", "tofu"]
    assert view["guesses"] == {}, "a guess of a card now set aside goes back to the hand"
    accept(t, host("choice", question=1, answer="worst", card="rat"))
    accept(t, host("choice", question=2, answer="best", card="pig"))
    assert [c["card"] for c in t.view("host")["choices"]] == ["elephant", "rat", "pig"]
    accept(t, host("guess", seat=3, card="elephant"))
    assert t.view("host")["guesses"] == {"3": "elephant"}
    accept(t, host("guess", seat=3, card=None))
    assert t.view("host")["guesses"] == {}
    accept(t, host("score", seat=4, score=5))
    assert scores(t)["Dax"] == 5


def test_undo_takes_back_a_scored_question():
    """design: undo drops the last input and refolds, here the reveal that scored question 1."""
    t = example_after_guesses()
    accept(t, ADVANCE)
    accept(t, ADVANCE)
    assert scores(t)["Anna"] == 2
    accept(t, {"button": {"name": "undo"}})
    assert scores(t)["Anna"] == 0 and t.view("table")["phase"] == "guesses_revealed"


# ----- options ---------------------------------------------------------------------------

@pytest.mark.parametrize("count,turns", [(2, 3), (3, 3), (4, 2), (5, 2), (6, 1)])
def test_turns_default_is_the_rulebook_recommendation(count, turns):
    """rulebook: 2-3 players play 3 turns each, 4-5 two, 6 one."""
    game = games.get("tofu-god")
    options = game.resolve_options({}, count)
    assert options["turns"] == turns
    state = game.setup([f"P{i}" for i in range(count)], options, 0)
    assert state["total_turns"] == turns * count


def test_first_seat_starts():
    """option first_seat: the host picks who starts; turns then go on in seat order."""
    t = table()
    accept(t, new_game(["Anna", "Ben", "Cindy"], first_seat=3))
    assert t.view("table")["turn"]["active"] == 3


@pytest.mark.parametrize("options,fragment", [
    ({"first_seat": 3}, "first_seat"),
    ({"sets": "1,1"}, "different set number"),
    ({"sets": "1,7"}, "different set number"),
    ({"sets": "1"}, "different set number"),
    ({"sets": "1,two"}, "different set number"),
    ({"sets": [1, 2]}, "sets must be a str"),
    ({"set_aside": "dice"}, "set_aside"),
    ({"turns": 0}, "turns"),
])
def test_bad_options_refused(options, fragment):
    """A new game with impossible options is refused with what to fix."""
    t = table()
    outcome = t.handle(new_game(["Anna", "Ben"], **options))
    assert not outcome.accepted and outcome.error.code == "bad_option"
    assert fragment in outcome.error.message
    assert t.state is None


def test_digital_set_aside_draws_two_of_the_active_set():
    """option set_aside=digital: the table draws two different silhouettes and shows them."""
    t = table()
    accept(t, new_game(["Anna", "Ben"], seed=3))
    aside = t.view("table")["turn"]["set_aside"]
    assert len(set(aside)) == 2 and set(aside) <= set(tofu_god.SILHOUETTES["ids"])
    assert t.view("table")["phase"] == "guessing"


def test_edgy_reminder_is_on_the_table_view():
    """option no_edgy: a reminder only; the TV can show it."""
    t = table()
    accept(t, new_game(["Anna", "Ben"], no_edgy=True))
    assert t.view("table")["options"]["no_edgy"] is True


def test_manual_tie_break_host_enters_winner():
    """rulebook tie-break, manual: the tied players draw real cards and the host enters who won."""
    t = table()
    for inp in script_inputs("tofu-god-tie.jsonl"):
        if "new_game" in inp:
            inp["new_game"]["options"]["tie_break"] = "manual"
        accept(t, inp)
    view = t.view("table")
    assert view["phase"] == "tie_break" and not view["over"]
    assert view["tie_break"]["tied"] == [1, 2]
    _refused(t, ADVANCE, "not_now")
    _refused(t, host("tie_break_winner", seat=3), "bad_argument")
    accept(t, host("tie_break_winner", seat=2))
    view = t.view("table")
    assert view["over"] and view["winners"] == ["Ben"]
    assert [r["name"] for r in view["ranking"]] == ["Ben", "Anna"]


# ----- the data file -------------------------------------------------------------------------

def test_shipped_silhouettes_are_ten_with_the_tofu():
    """rules notes: ten silhouettes per set, the tofu card among them (used by the tie-break)."""
    data = tofu_god.load_silhouettes()
    assert len(data["ids"]) == 10 and data["tofu"] == "tofu"
    for name in ("rat", "pig", "elephant", "dolphin", "human", "tofu"):
        assert name in data["ids"]
    assert len(tofu_god.cards()) == 60


@pytest.mark.parametrize("change,fragment", [
    (lambda d: d["silhouettes"].pop(), "exactly 10"),
    (lambda d: d["silhouettes"][1].update(id="rat"), "listed twice"),
    (lambda d: d["silhouettes"][1].update(id="Big Pig"), "lower case"),
    (lambda d: d["silhouettes"][1].update(label=""), "label"),
    (lambda d: d.update(tie_break_card="unicorn"), "tie_break_card"),
])
def test_bad_silhouette_data_is_refused_on_load(tmp_path, change, fragment):
    """The data file is checked when it is loaded, with a message that says what to fix."""
    data = json.loads(tofu_god.DATA_FILE.read_text())
    change(data)
    path = tmp_path / "silhouettes.json"
    path.write_text(json.dumps(data))
    with pytest.raises(tofu_god.SilhouetteDataError, match=fragment):
        tofu_god.load_silhouettes(path)


def test_unreadable_silhouette_data(tmp_path):
    path = tmp_path / "silhouettes.json"
    path.write_text("{not json")
    with pytest.raises(tofu_god.SilhouetteDataError, match="Cannot read"):
        tofu_god.load_silhouettes(path)


# ----- the active player's phone: answers in their places, swapped or redone until question 1 ----

def _phone(seat: int, action: str, **fields) -> dict:
    return {"seat": {"seat": seat, "action": action, **fields}}


def _places(t) -> list:
    return [c["card"] for c in t.view("seat-1")["me"]["choices"]]


def test_the_phone_swaps_and_redoes_answers_until_question_one_is_revealed():
    """issue: a wrong tapping order used to score silently wrong. Anna tapped her worst answer
    first; her phone shows each locked answer in its place, she swaps the two, clears one and taps
    again; the TV only ever shows how many are locked. After the guesses for question 1 are
    revealed her answers stay as they are."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, set_aside="physical"))
    accept(t, tap(1, "rat"))
    accept(t, tap(1, "pig"))
    accept(t, tap(1, "human"))
    accept(t, tap(1, "elephant"))
    assert _places(t)[:2] == ["human", "elephant"]
    tv_before = t.view("table")
    accept(t, _phone(1, "swap", first="1-best", second="1-worst"))
    assert _places(t)[:2] == ["elephant", "human"]
    tv_after = t.view("table")
    assert tv_after["turn"] == tv_before["turn"], "the TV learns nothing from a swap"
    assert tv_after["last_events"] == tv_before["last_events"], "not even that a swap happened"
    assert "Anna is choosing answers" in tv_after["prompt"], "4 of 6 locked: Anna is still choosing"
    for card in ("spider", "beetle", "tofu", "meditator"):
        accept(t, tap(1, card))
    accept(t, _phone(1, "clear", slot="2-worst"))
    assert _places(t) == ["elephant", "human", "spider", None, "tofu", "meditator"]
    assert t.view("table")["turn"]["answers_locked"] == 5
    accept(t, tap(1, "dolphin"))                 # fills the empty place
    assert _places(t)[3] == "dolphin" and t.view("seat-1")["me"]["can_arrange"]
    for seat, card in ((2, "elephant"), (3, "elephant"), (4, "tenth")):
        accept(t, tap(seat, card))
    accept(t, ADVANCE)                           # question 1's guesses are out
    assert not t.view("seat-1")["me"]["can_arrange"]
    _refused(t, _phone(1, "swap", first="2-best", second="3-best"), "not_now")
    accept(t, ADVANCE)
    assert scores(t) == {"Anna": 2, "Ben": 1, "Cindy": 1, "Dax": 0}, "scored with the swapped order"
    accept(t, ADVANCE)
    accept(t, tap(2, "tenth"))                   # question 2 is open: still too late
    _refused(t, _phone(1, "clear", slot="3-best"), "too_late")


@pytest.mark.parametrize("inp,code", [
    (_phone(2, "swap", first="1-best", second="1-worst"), "not_your_turn"),
    (_phone(1, "swap", first="1-best", second="1-best"), "bad_argument"),
    (_phone(1, "swap", first="1-best", second="4-best"), "bad_argument"),
    (_phone(1, "clear", slot="3-worst"), "already_done"),
])
def test_rearranging_refusals_change_nothing(inp, code):
    """A swap by someone else, of one place with itself, of a place that does not exist, or the
    clearing of an empty place: refused, nothing changed."""
    t = _partial_choices(2)
    _refused(t, inp, code)


def test_clear_without_a_place_redoes_all_six():
    """The phone's "start again": every answer is taken back and the next tap is question 1's best."""
    t = _partial_choices(4)
    accept(t, _phone(1, "clear"))
    assert _places(t) == [None] * 6
    assert t.view("seat-1")["me"]["next"] == {"question": 1, "answer": "best"}


# ----- the turn summary ------------------------------------------------------------------------

def test_the_turn_summary_says_who_scored_what_and_a_floored_score():
    """issue: after question 3 the TV shows who scored what this turn, and a point lost at zero
    says so (Cindy: -1, stays at 0). Rules notes: a score never drops below zero by default."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, seed=3))
    inputs = turn_inputs(t.view("host"), [{2: "best", 3: "worst", 4: "miss"},
                                          {2: "best", 3: "miss", 4: "best"},
                                          {2: "worst", 3: "miss", 4: "miss"}])
    for inp in inputs:
        accept(t, inp)
    summary = t.view("table")["last_turn"]
    rows = {r["name"]: (r["rules"], r["counted"], r["score"]) for r in summary["rows"]}
    assert rows == {"Anna": (3, 3, 3), "Ben": (1, 1, 1), "Cindy": (-1, 0, 0), "Dax": (1, 1, 1)}
    assert summary["number"] == 1 and summary["active"] == 1
    assert [r["question"] for r in summary["results"]] == [1, 2, 3]
    assert summary["results"][0]["floored"] == ["3"]
    texts = {r["name"]: r["text"] for r in summary["rows"]}
    assert texts["Cindy"] == "Cindy: \u22121, stays at 0" and texts["Anna"] == "Anna: +3"


def test_a_point_lost_at_zero_then_a_point_won_reads_as_both():
    """Rules notes: a -1 at zero is not counted. Cindy's worst guess at 0 in question 1, then her
    best guess in question 2: her turn reads "+1 (a -1 at 0 not counted)", not "stays at 1"."""
    t = table()
    accept(t, new_game(EXAMPLE_PLAYERS, seed=3))
    for inp in turn_inputs(t.view("host"), [{2: "miss", 3: "worst", 4: "miss"},
                                            {2: "miss", 3: "best", 4: "miss"},
                                            {2: "miss", 3: "miss", 4: "miss"}]):
        accept(t, inp)
    row = next(r for r in t.view("table")["last_turn"]["rows"] if r["name"] == "Cindy")
    assert (row["rules"], row["counted"], row["score"]) == (0, 1, 1)
    assert row["text"] == "Cindy: +1 (a \u22121 at 0 not counted)"
