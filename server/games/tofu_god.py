"""Tofu God: silhouette cards tapped face down, guesses scored as soon as they are revealed.

Each player owns one set of ten silhouette cards (``tofu-god/set-N/<silhouette>``);
the set on a card says whose it is, so any reader will do.  A turn:

1. Two of the active player's silhouettes are set aside for everyone (drawn by
   the table, or tapped face up by the active player with ``set_aside=physical``).
2. The active player taps six different cards, which fill the answers in this
   order: best and worst to question 1, then to question 2, then to question 3.
   Until the guesses for question 1 are revealed, their phone may swap two
   answers or clear one (the next tap fills the first empty place).
3. Per question the other players tap a guess (the last tap counts); then, as
   in the rulebook, ``advance`` reveals the guesses (time to explain),
   ``advance`` reveals the best answer and scores it, ``advance`` reveals the
   worst answer and scores it.  The first guess tapped after that opens the
   next question; after question 3 the next turn starts at once, and the TV
   shows the turn's summary until its first card is played.

Scoring per question: a guess of the best card gives the guesser and the
active player a point each; a guess of the worst card costs the guesser a
point (never below zero unless ``below_zero``).  Revealed best and worst cards
and the set-aside pair are unavailable to everyone for the rest of the turn.
After the last turn the most points win; a tie goes to the tofu-card draw
(seeded and shown on the TV, or entered by the host).

The silhouette names are data (``data/tofu_god/silhouettes.json``); only the
card named there as ``tie_break_card`` matters to the rules.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .base import (FIRST_SEAT, Audience, Game, Option, RuleError, common_view, event, finish,
                   new_state, player, rng, seat_after, top_scorers)
from .moves import TAG_ARGS, Arg, Move, Phase

GAME_ID = "tofu-god"
SETS = 6
DATA_FILE = Path(__file__).parent / "data" / "tofu_god" / "silhouettes.json"
SET_SIZE = 10
#: The active player's six answers, in tapping order.
SLOTS = tuple((q, answer) for q in (1, 2, 3) for answer in ("best", "worst"))
#: The answers' names in seat actions ("1-best" ... "3-worst"), in the order of SLOTS.
SLOT_IDS = tuple(f"{q}-{answer}" for q, answer in SLOTS)
QUESTIONS = 3
#: Rulebook recommendation: turns each player takes, by player count.
TURNS_BY_PLAYERS = {2: 3, 3: 3, 4: 2, 5: 2, 6: 1}

_ID = re.compile(r"^[a-z][a-z0-9-]{0,23}$")
_CARD = re.compile(r"^tofu-god/set-(\d+)/(.+)$")


class SilhouetteDataError(ValueError):
    """The silhouette data file is missing, malformed or inconsistent."""


def load_silhouettes(path: Path = DATA_FILE) -> dict:
    """Read and check the silhouette data file; returns ``{"ids", "labels", "tofu"}``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SilhouetteDataError(f"Cannot read the Tofu God silhouettes from {path}: {exc}") from exc
    entries = data.get("silhouettes") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) != SET_SIZE:
        raise SilhouetteDataError(f"{path}: 'silhouettes' must list exactly {SET_SIZE} cards.")
    ids, labels = [], {}
    for entry in entries:
        sid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(sid, str) or not _ID.match(sid):
            raise SilhouetteDataError(f"{path}: silhouette id {sid!r} must be lower case letters, "
                                      "digits and hyphens, starting with a letter.")
        if sid in labels:
            raise SilhouetteDataError(f"{path}: silhouette {sid!r} is listed twice.")
        label = entry.get("label", sid)
        if not isinstance(label, str) or not label.strip():
            raise SilhouetteDataError(f"{path}: silhouette {sid!r} needs a non-empty label.")
        ids.append(sid)
        labels[sid] = label
    tofu = data.get("tie_break_card")
    if tofu not in labels:
        raise SilhouetteDataError(f"{path}: tie_break_card {tofu!r} must be one of the silhouette ids.")
    return {"ids": ids, "labels": labels, "tofu": tofu}


SILHOUETTES = load_silhouettes()


def card_id(set_number: int, silhouette: str) -> str:
    """The card id of ``silhouette`` in set ``set_number``."""
    return f"{GAME_ID}/set-{set_number}/{silhouette}"


# ----- options -------------------------------------------------------------------

def _default_turns(count: int) -> int:
    return TURNS_BY_PLAYERS.get(count, 1)


OPTIONS = (
    FIRST_SEAT,
    Option("turns", "Turns each player takes (rulebook: 3 for 2-3 players, 2 for 4-5, 1 for 6)",
           _default_turns, type=int, minimum=1, maximum=10),
    Option("set_aside", "Who sets the two cards aside each turn: the table draws them (digital) "
           "or the active player draws and taps them face up (physical)", "digital",
           choices=("digital", "physical")),
    Option("below_zero", "Scores may drop below zero", False, type=bool),
    Option("no_edgy", "Leave the edgy (black) conundrum cards in the box (a reminder on the TV)",
           False, type=bool),
    Option("tie_break", "Tie-break by tofu-card draw: the table draws (digital) or the host "
           "enters who won a real draw (manual)", "digital", choices=("digital", "manual")),
    Option("sets", "Silhouette set number (1-6) of each player in seat order, such as 2,1,4,3 "
           "(empty: seat 1 plays set 1, seat 2 set 2, ...)", "", type=str),
    Option("explain_timer", "Seconds the TV counts down for explaining after each reveal "
           "(0: no timer)", 0, type=int, minimum=0, maximum=600),
)


# ----- small helpers ---------------------------------------------------------------

def _name(state: dict, seat: int) -> str:
    return player(state, seat)["name"]


def _label(state: dict, silhouette: str) -> str:
    return state["labels"][silhouette].lower()


def _seat_of_set(state: dict, set_number: int) -> int | None:
    for seat, number in state["sets"].items():
        if number == set_number:
            return int(seat)
    return None


def _turn(state: dict) -> dict:
    return state["turn"]


def _active(state: dict) -> int:
    return state["turn"]["active"]


def _guessers(state: dict) -> list[int]:
    return [p["seat"] for p in state["players"] if p["seat"] != _active(state)]


def _unavailable(turn: dict) -> list[str]:
    return turn["set_aside"] + turn["revealed"]


def _locked(turn: dict) -> int:
    """How many of the six answers are locked."""
    return sum(1 for c in turn["choices"] if c is not None)


def _next_slot(turn: dict) -> tuple[int, str] | None:
    """The first answer not locked yet (the next tap fills it), or None when all six are."""
    return next((SLOTS[i] for i, c in enumerate(turn["choices"]) if c is None), None)


def _slot_text(slot: tuple[int, str]) -> str:
    return f"{slot[1]} answer to question {slot[0]}"


def _refuse_private(state: dict, code: str, detail: str) -> RuleError:
    """A refusal of the active player's own choice: the TV learns only that it was refused."""
    name = _name(state, _active(state))
    return RuleError(code, f"{name}'s tap was not accepted; {name}, your seat page says why.",
                     detail=detail, seat=_active(state))


def _silhouette(state: dict, name: str) -> str:
    if name not in state["labels"]:
        raise RuleError("unknown_card", f"There is no silhouette {str(name)[:24]!r}; the cards are: "
                        f"{', '.join(state['silhouettes'])}.")
    return name


def _parse_sets(text: str, count: int) -> list[int]:
    """The set numbers of the ``sets`` option (``"2,1,4,3"``; empty: seat order), checked."""
    if not text.strip():
        return list(range(1, count + 1))
    parts = text.replace(",", " ").split()
    sets = [int(p) for p in parts if p.isdigit()]
    if len(sets) != len(parts) or len(sets) != count or len(set(sets)) != count or \
            not all(1 <= s <= SETS for s in sets):
        example = ",".join(str(s) for s in range(count, 0, -1))
        raise RuleError("bad_option", f"Option sets must give each of the {count} players a different "
                        f"set number from 1 to {SETS}, in seat order, such as {example}.")
    return sets


# ----- setup and turns ----------------------------------------------------------------

def setup(players: list[str], options: dict, seed: int) -> dict:
    """A new game: scores at zero, sets bound to seats, the first turn begun."""
    count = len(players)
    if options["first_seat"] > count:
        raise RuleError("bad_option", f"first_seat must be a seat from 1 to {count}.")
    sets = _parse_sets(options["sets"], count)
    state = new_state(GAME_ID, players, seed, "guessing")
    state.update(
        options={k: options[k] for k in ("turns", "set_aside", "below_zero", "no_edgy", "tie_break",
                                          "explain_timer")},
        silhouettes=list(SILHOUETTES["ids"]),
        labels=dict(SILHOUETTES["labels"]),
        tofu=SILHOUETTES["tofu"],
        sets={str(i + 1): s for i, s in enumerate(sets)},
        first=options["first_seat"],
        total_turns=options["turns"] * count,
        turn=None,
        last_turn=None,
        tie_break=None,
    )
    _start_turn(state, 1)
    return state


def _start_turn(state: dict, number: int) -> list[dict]:
    active = seat_after(state, state["first"], number - 1)
    state["turn"] = {"number": number, "active": active, "conundrum": None, "set_aside": [],
                     "choices": [None] * len(SLOTS), "question": 1, "guesses": {}, "revealed": [], "results": []}
    name = _name(state, active)
    events = [event(state, "turn", f"Turn {number} of {state['total_turns']}: {name} draws two "
                    "conundrum cards and keeps one.")]
    if state["options"]["set_aside"] == "digital":
        drawn = rng(state).sample(state["silhouettes"], 2)
        state["turn"]["set_aside"] = drawn
        state["phase"] = "guessing"
        events.append(event(state, "set_aside", f"Set aside this turn: {_label(state, drawn[0])} and "
                            f"{_label(state, drawn[1])}.", cards=drawn))
    else:
        state["phase"] = "set_aside"
    return events


def _end_turn(state: dict) -> list[dict]:
    state["last_turn"] = _turn_summary(state)
    if state["turn"]["number"] < state["total_turns"]:
        return _start_turn(state, state["turn"]["number"] + 1)
    return _end_game(state)


def _turn_summary(state: dict) -> dict:
    """Who scored what in the turn that ends: per player the points the rules gave, the points
    counted (a -1 at zero is not, unless ``below_zero``) and the score now."""
    turn = state["turn"]
    rows = []
    for p in state["players"]:
        key = str(p["seat"])
        counted = sum(r["points"].get(key, 0) for r in turn["results"])
        floored = sum(1 for r in turn["results"] if key in r["floored"])
        rows.append({"seat": p["seat"], "name": p["name"], "rules": counted - floored,
                     "counted": counted, "score": p["score"],
                     "text": _summary_line(p["name"], counted - floored, counted, p["score"])})
    return {"number": turn["number"], "active": turn["active"], "rows": rows,
            "results": _public_results(turn)}


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def _summary_line(name: str, rules: int, counted: int, score: int) -> str:
    """One player's line in the turn summary: "Cindy: +2", "Cindy: \u22121, stays at 0" when
    every point of the turn was lost to the floor, "Cindy: +1 (a \u22121 at 0 not counted)"."""
    if rules == counted:
        return f"{name}: {_signed(rules)}"
    if counted == 0:
        return f"{name}: {_signed(rules)}, stays at {score}"
    lost = counted - rules
    minus = "a \u22121" if lost == 1 else f"{lost} \u22121s"
    return f"{name}: {_signed(counted)} ({minus} at 0 not counted)"


def _end_game(state: dict) -> list[dict]:
    leaders = top_scorers(state)
    if len(leaders) == 1:
        return [finish(state, leaders, f"Game over: {leaders[0]} wins.")]
    seats = [p["seat"] for p in state["players"] if p["name"] in leaders]
    state["tie_break"] = {"mode": state["options"]["tie_break"], "tied": seats, "rounds": [],
                          "winner": None, "card": state["tofu"]}
    names = " and ".join(leaders)
    if state["options"]["tie_break"] == "manual":
        state["phase"] = "tie_break"
        return [event(state, "tie", f"{names} are tied: draw from your shuffled silhouette sets "
                      "until exactly one of you draws the tofu; the host enters the winner.")]
    winner = _draw_tie_break(state)
    return [event(state, "tie", f"{names} are tied: the table draws from their shuffled sets."),
            finish(state, [_name(state, winner)],
                   f"{_name(state, winner)} draws the tofu first and wins the game.")]


def _draw_tie_break(state: dict) -> int:
    """Simulate the tofu-card draw among the tied seats; records every draw for the TV."""
    tie, tofu = state["tie_break"], state["tofu"]
    contenders = list(tie["tied"])
    while True:
        decks = {seat: rng(state).sample(state["silhouettes"], SET_SIZE) for seat in contenders}
        draws = []
        for i in range(SET_SIZE):
            draws.append({str(seat): decks[seat][i] for seat in contenders})
            tofu_seats = [seat for seat in contenders if decks[seat][i] == tofu]
            if tofu_seats:
                break
        tie["rounds"].append({"seats": contenders, "draws": draws})
        if len(tofu_seats) == 1:
            tie["winner"] = tofu_seats[0]
            return tofu_seats[0]
        contenders = tofu_seats


# ----- card taps -------------------------------------------------------------------------

def _card(state: dict, card: str) -> tuple[int, str]:
    """The seat that owns ``card`` and its silhouette, or a refusal."""
    match = _CARD.match(card)
    if not match:
        raise RuleError("not_this_game", f"{card} is not a Tofu God card; this table is playing Tofu God.")
    set_number, silhouette = int(match.group(1)), match.group(2)
    seat = _seat_of_set(state, set_number)
    if seat is None:
        used = ", ".join(str(s) for s in sorted(state["sets"].values()))
        raise RuleError("unknown_card", f"Set {set_number} is not in this game (sets in play: {used}); "
                        "put that card back in the box.")
    if silhouette not in state["labels"]:
        raise RuleError("unknown_card", f"{card} is not one of the ten silhouettes of a set.")
    return seat, silhouette


def _play(state: dict, seat: int, silhouette: str) -> list[dict]:
    """One card played by ``seat`` (a tap, or the player's phone)."""
    if seat == _active(state):
        return _active_card(state, silhouette)
    return _guess(state, seat, silhouette)


def tap(state: dict, args: dict) -> list[dict]:
    """A silhouette tapped on any reader: the set on the card says whose it is."""
    return _play(state, *_card(state, args["card"]))


def seat_card(state: dict, args: dict) -> list[dict]:
    """A silhouette played from the player's phone."""
    return _play(state, args["seat"], _silhouette(state, args["card"]))


def _active_card(state: dict, silhouette: str) -> list[dict]:
    turn, active = _turn(state), _active(state)
    name, label = _name(state, active), _label(state, silhouette)
    if state["phase"] == "set_aside":
        if silhouette in turn["set_aside"]:
            raise RuleError("already_done", f"The {label} is already set aside; {name}, tap a "
                            "second card to set aside.")
        turn["set_aside"].append(silhouette)
        events = [event(state, "set_aside", f"{name} sets aside the {label}.", cards=[silhouette])]
        if len(turn["set_aside"]) == 2:
            state["phase"] = "guessing"
            events.append(event(state, "question_open", "Guesses for question 1 are open."))
        return events
    slot = _next_slot(turn)
    if slot is None:
        raise RuleError("already_done", f"{name}'s six answers are already locked; the active player "
                        "does not guess. Other players tap their own sets.")
    if silhouette in turn["set_aside"]:
        raise _refuse_private(state, "unavailable", f"The {label} is set aside this turn. Tap another "
                              f"card for your {_slot_text(slot)}.")
    if silhouette in turn["choices"]:
        used = SLOTS[turn["choices"].index(silhouette)]
        raise _refuse_private(state, "already_done", f"You already chose the {label} as your "
                              f"{_slot_text(used)}. Tap a different card for your {_slot_text(slot)}.")
    turn["choices"][SLOTS.index(slot)] = silhouette
    events = [event(state, "answer_locked", f"{name} has locked {_locked(turn)} of 6 answers."),
              event(state, "your_answer", f"Locked the {label} as your {_slot_text(slot)}.",
                    seat=active)]
    return events


def _guess(state: dict, seat: int, silhouette: str) -> list[dict]:
    turn, name, label = _turn(state), _name(state, seat), _label(state, silhouette)
    opened = []
    if state["phase"] == "answered":      # the first guess for the next question opens it
        opened = _open_next_question(state)
    elif state["phase"] != "guessing":
        raise RuleError("not_now", _guess_closed(state, name))
    question = turn["question"]
    if silhouette in turn["set_aside"]:
        raise RuleError("unavailable", f"The {label} is set aside this turn; {name}, guess with "
                        "another card.")
    if silhouette in turn["revealed"]:
        raise RuleError("unavailable", f"The {label} was already revealed this turn and cannot be "
                        f"an answer again; {name}, guess with another card.")
    changed = str(seat) in turn["guesses"]
    turn["guesses"][str(seat)] = silhouette
    return opened + [event(state, "guessed", f"{name} {'changed their guess' if changed else 'has guessed'} "
                  f"for question {question}."),
            event(state, "your_guess", f"Your guess for question {question}: the {label}.", seat=seat)]


def _guess_closed(state: dict, name: str) -> str:
    """Why a guess is not taken in the current phase (set aside, revealed, answered)."""
    turn, phase = state["turn"], state["phase"]
    question = turn["question"]
    if phase == "set_aside":
        return (f"Guesses open once {_name(state, _active(state))} has set aside two cards; "
                f"{name}, keep your card for now.")
    return (f"The guesses for question {question} are already revealed; they can no longer change. "
            f"Keep your card until {_name(state, _active(state))}'s worst answer is revealed.")


def _card_closed(state: dict) -> str:
    """Why no card is taken now (only in the tie-break)."""
    return "The turns are over; the host enters who won the tofu draw."


# ----- advance -------------------------------------------------------------------------

def advance(state: dict, args: dict) -> list[dict]:
    """The rulebook's three reveals per question: the guesses, then the best answer (scored),
    then the worst answer (scored); after the third question the next turn starts."""
    phase, turn = state["phase"], state["turn"]
    if phase == "guessing":
        missing = [_name(state, s) for s in _guessers(state) if str(s) not in turn["guesses"]]
        locked = _locked(turn)
        if locked < len(SLOTS):
            raise RuleError("waiting", f"{_name(state, _active(state))} has locked {locked} "
                            f"of 6 answers; the guesses are revealed once all six are locked.")
        if missing:
            raise RuleError("waiting", f"Still waiting for a guess from {' and '.join(missing)}.")
        return _reveal_guesses(state)
    if phase == "guesses_revealed":
        return _reveal_best(state)
    events = _reveal_worst(state)
    if turn["question"] < QUESTIONS:
        return events
    return events + _end_turn(state)


def _open_next_question(state: dict) -> list[dict]:
    turn = state["turn"]
    turn["question"] += 1
    turn["guesses"] = {}
    state["phase"] = "guessing"
    return [event(state, "question_open", f"Guesses for question {turn['question']} are open.")]


def _advance_closed(state: dict) -> str:
    if state["phase"] == "tie_break":
        return "The tied players draw for the tofu; the host enters who won on the host page."
    if state["phase"] == "answered":
        return (f"Question {state['turn']['question']} is scored; nothing to reveal now. Tap your "
                f"guesses for question {state['turn']['question'] + 1}: the first one opens it.")
    return (f"{_name(state, _active(state))} must first draw two silhouettes at random and tap "
            "them face up to set them aside.")


def _reveal_guesses(state: dict) -> list[dict]:
    turn = state["turn"]
    guesses = {str(s): turn["guesses"][str(s)] for s in _guessers(state)}
    turn["results"].append({"question": turn["question"], "guesses": guesses, "best": None,
                            "worst": None, "outcomes": {}, "points": {}, "floored": []})
    state["phase"] = "guesses_revealed"
    said = ", ".join(f"{_name(state, int(s))}: {_label(state, g)}" for s, g in guesses.items())
    return [event(state, "guesses_revealed", f"Guesses for question {turn['question']}: {said}.",
                  guesses=guesses)]


def _reveal_best(state: dict) -> list[dict]:
    """Reveal the best answer of the current question: +1 to each guesser who found it and as
    many to the active player."""
    turn, active = state["turn"], _active(state)
    q = turn["question"]
    best = turn["choices"][2 * q - 2]
    result = turn["results"][-1]
    result["best"] = best
    for seat_key, guess in result["guesses"].items():
        if guess == best:
            result["outcomes"][seat_key] = "best"
            result["points"][seat_key] = 1
            player(state, int(seat_key))["score"] += 1
    earned = sum(1 for o in result["outcomes"].values() if o == "best")
    result["points"][str(active)] = earned
    player(state, active)["score"] += earned
    turn["revealed"].append(best)
    state["phase"] = "best_revealed"
    name = _name(state, active)
    return [event(state, "best_revealed", f"{name}'s best answer to question {q}: the "
                  f"{_label(state, best)}. {name} scores {earned}.", best=best,
                  points=dict(result["points"]))]


def _reveal_worst(state: dict) -> list[dict]:
    """Reveal the worst answer: -1 to each guesser who picked it (not below zero unless
    ``below_zero``); every other guess scores nothing."""
    turn = state["turn"]
    q = turn["question"]
    worst = turn["choices"][2 * q - 1]
    result = turn["results"][-1]
    result["worst"] = worst
    for seat_key, guess in result["guesses"].items():
        if seat_key in result["outcomes"]:
            continue
        if guess == worst:
            guesser = player(state, int(seat_key))
            lost = 1 if state["options"]["below_zero"] or guesser["score"] > 0 else 0
            result["outcomes"][seat_key] = "worst"
            result["points"][seat_key] = -lost
            if not lost:
                result["floored"].append(seat_key)
            guesser["score"] -= lost
        else:
            result["outcomes"][seat_key] = "miss"
            result["points"][seat_key] = 0
    turn["revealed"].append(worst)
    turn["guesses"] = {}
    state["phase"] = "answered"
    losers = [_name(state, int(s)) for s, o in result["outcomes"].items() if o == "worst"]
    lost = f" {' and '.join(losers)} guessed it." if losers else ""
    return [event(state, "worst_revealed", f"{_name(state, _active(state))}'s worst answer to "
                  f"question {q}: the {_label(state, worst)}.{lost}", worst=worst,
                  points=dict(result["points"]))]


# ----- host and seat actions -----------------------------------------------------------------

def conundrum(state: dict, args: dict) -> list[dict]:
    """The number of the conundrum card the active player keeps (null clears it)."""
    number = args["number"]
    state["turn"]["conundrum"] = number
    text = f"Conundrum card {number}." if number is not None else "Conundrum number cleared."
    return [event(state, "conundrum", text)]


def _host_refused(detail: str) -> RuleError:
    """A host correction refused because of a card still hidden: the TV learns only that."""
    return RuleError("unavailable", "The host's correction was not accepted; the host page says why.",
                     detail=detail)


def host_set_aside(state: dict, args: dict) -> list[dict]:
    """Correct the two set-aside cards (before the guesses for question 1 are revealed)."""
    turn = state["turn"]
    if state["phase"] == "guessing" and turn["question"] != 1:
        raise RuleError("too_late", _set_aside_closed(state))
    cards = args["cards"]
    if len(cards) != 2:
        raise RuleError("bad_argument", "Give exactly two silhouettes to set aside.")
    cards = [_silhouette(state, c) for c in cards]
    if cards[0] == cards[1]:
        raise RuleError("bad_argument", "The two set-aside cards must be different silhouettes.")
    clash = [c for c in cards if c in turn["choices"]]
    if clash:
        raise _host_refused(f"The {_label(state, clash[0])} is already one of the active player's "
                            "answers; correct that answer first.")
    turn["set_aside"] = cards
    turn["guesses"] = {s: g for s, g in turn["guesses"].items() if g not in cards}
    state["phase"] = "guessing"
    return [event(state, "set_aside", f"Host: set aside this turn are the {_label(state, cards[0])} "
                  f"and the {_label(state, cards[1])}.", cards=cards)]


def _set_aside_closed(state: dict) -> str:
    if state["phase"] == "tie_break":
        return _host_closed(state)
    return ("The set-aside cards can only be corrected before the guesses for question 1 are "
            "revealed.")


def host_choice(state: dict, args: dict) -> list[dict]:
    """Correct one of the active player's answers, until its question's guesses are revealed."""
    turn = state["turn"]
    slot = (args["question"], args["answer"])
    index = SLOTS.index(slot)
    if turn["question"] > slot[0] or (turn["question"] == slot[0] and state["phase"] != "guessing"):
        raise RuleError("too_late", f"The guesses for question {slot[0]} are already revealed; the "
                        f"{_slot_text(slot)} can no longer change.")
    card = _silhouette(state, args["card"])
    others = [c for i, c in enumerate(turn["choices"]) if i != index]
    if card in turn["set_aside"] or card in others:
        raise _host_refused(f"The {_label(state, card)} is set aside or already another answer.")
    turn["choices"][index] = card
    return [event(state, "answer_corrected", f"Host corrected the {_slot_text(slot)}.")]


def _rearrange_closed(state: dict) -> str:
    if state["phase"] == "set_aside":
        return "Set two cards aside first; then tap your answers."
    return ("The guesses for question 1 are revealed: your answers stay as they are. The host "
            "can still correct an answer whose question is not revealed.")


def _may_rearrange(state: dict, seat: int) -> str | None:
    if seat != _active(state):
        return f"Only {_name(state, _active(state))}, whose turn it is, arranges the answers."
    return None


def _arranging(state: dict) -> dict:
    """The turn, if the active player may still rearrange the answers; else a refusal."""
    if state["turn"]["question"] != 1:
        raise RuleError("too_late", _rearrange_closed(state))
    return state["turn"]


def _slot_index(slot_id: str) -> int:
    return SLOT_IDS.index(slot_id)


def swap_answers(state: dict, args: dict) -> list[dict]:
    """The active player's phone swaps two answers (either may be empty), until question 1's
    guesses are revealed: the place of a card says which answer it is."""
    turn, seat = _arranging(state), args["seat"]
    a, b = _slot_index(args["first"]), _slot_index(args["second"])
    if a == b:
        raise RuleError("bad_argument", "Choose two different answers to swap.")
    choices = turn["choices"]
    choices[a], choices[b] = choices[b], choices[a]
    said = lambda i: f"the {_label(state, choices[i])}" if choices[i] else "nothing"
    # nothing public: the TV shows how many answers are locked and nothing of where they lie
    return [event(state, "your_answer", f"Swapped: {said(a)} is now your {_slot_text(SLOTS[a])}, "
                  f"{said(b)} your {_slot_text(SLOTS[b])}.", seat=seat)]


def clear_answer(state: dict, args: dict) -> list[dict]:
    """The active player's phone takes back one answer (or, without ``slot``, all six): the next
    tap fills the first empty place."""
    turn, seat = _arranging(state), args["seat"]
    indexes = [_slot_index(args["slot"])] if args["slot"] else range(len(SLOTS))
    if all(turn["choices"][i] is None for i in indexes):
        raise RuleError("already_done", "That answer is already empty; tap a card to fill it.")
    for i in indexes:
        turn["choices"][i] = None
    which = f"your {_slot_text(SLOTS[indexes[0]])}" if args["slot"] else "all six answers"
    return [event(state, "answers_arranged", f"{_name(state, seat)} has locked {_locked(turn)} "
                  "of 6 answers."),
            event(state, "your_answer", f"Cleared {which}; tap a card to fill "
                  f"the {_slot_text(_next_slot(turn))}.", seat=seat)]


def host_guess(state: dict, args: dict) -> list[dict]:
    """Correct (or with a null card clear) a player's guess while the question is open."""
    turn, seat = state["turn"], args["seat"]
    if seat == _active(state):
        raise RuleError("breaks_rule", "The active player does not guess.")
    if args["card"] is None:
        turn["guesses"].pop(str(seat), None)
        return [event(state, "guess_cleared", f"Host cleared {_name(state, seat)}'s guess.")]
    return _guess(state, seat, _silhouette(state, args["card"]))


def host_score(state: dict, args: dict) -> list[dict]:
    """Set a player's score by hand."""
    seat, score = args["seat"], args["score"]
    if not state["options"]["below_zero"] and score < 0:
        raise RuleError("bad_argument", "A score must be a whole number from 0 (this table does "
                        "not allow scores below zero).")
    player(state, seat)["score"] = score
    return [event(state, "score_corrected", f"Host set {_name(state, seat)}'s score to {score}.")]


def host_tie_break(state: dict, args: dict) -> list[dict]:
    """Enter who won a real tofu draw (tie_break=manual)."""
    seat, tie = args["seat"], state["tie_break"]
    if seat not in tie["tied"]:
        tied = " or ".join(_name(state, s) for s in tie["tied"])
        raise RuleError("breaks_rule", f"{_name(state, seat)} is not in the tie; the winner is {tied}.")
    tie["winner"] = seat
    return [finish(state, [_name(state, seat)], f"{_name(state, seat)} drew the tofu first and wins "
                   "the game.")]


def _host_closed(state: dict) -> str:
    return "Only the tie-break winner can be entered now; use undo to go back into the last turn."


def _is_active(state: dict, seat: int) -> str | None:
    return None if seat == _active(state) else "Only the active player records their conundrum number."


# ----- the phases and the moves: who may do what, when ---------------------------------------------

#: Every phase of a turn (the tie-break and the end come after the last turn).
TURN = ("set_aside", "guessing", "guesses_revealed", "best_revealed", "answered")
_SEAT = Arg("seat", "seat", "the player's seat number")
_CARD_ARG = Arg("card", "str", "a silhouette id, such as the one printed on the card", max_length=24)
_SLOT = "an answer: " + ", ".join(SLOT_IDS) + " (question, then best or worst)"
_NUMBER = Arg("number", "int", "the number printed on the conundrum card; empty clears it",
              optional=True, nullable=True, minimum=1, maximum=999)


def _you_in_turn(state: dict, seat: int) -> str | None:
    turn, name = state["turn"], _name(state, _active(state))
    phase, q = state["phase"], state["turn"]["question"]
    if seat == turn["active"]:
        if phase == "set_aside":
            return "Your turn: pick a conundrum, then draw two of your silhouettes at random and tap them face up."
        if phase == "guessing" and _next_slot(turn):
            return f"Your turn: tap your {_slot_text(_next_slot(turn))}."
        if phase == "guessing":
            return f"Your six answers are locked; the others are guessing your best answer to question {q}."
        if phase == "answered" and q < QUESTIONS:
            return f"The others now guess your best answer to question {q + 1}."
        return None
    if phase == "set_aside":
        return f"{name} is setting two cards aside; your guess comes after."
    if phase == "guessing":
        if str(seat) in turn["guesses"]:
            return f"Your guess for question {q} is in; tap another card to change it."
        return f"Tap your guess at {name}'s best answer to question {q}."
    if phase == "answered" and q < QUESTIONS:
        return f"Tap your guess at {name}'s best answer to question {q + 1}."
    return None


def _prompt_guessing(state: dict) -> str:
    turn, name = state["turn"], _name(state, _active(state))
    if _locked(turn) < len(SLOTS):
        return f"{name} is choosing answers; everyone else guesses the best answer to question {turn['question']}."
    return f"Question {turn['question']}: guess {name}'s best answer, then press advance."


def _prompt_answered(state: dict) -> str:
    turn, name = state["turn"], _name(state, _active(state))
    q = turn["question"]
    return (f"Question {q} scored. Explain! Then guess {name}'s best answer to question {q + 1}: "
            "the first guess opens it.")


PHASES = (
    Phase("set_aside", "The active player sets two silhouettes aside (set_aside=physical)",
          prompt=lambda s: f"{_name(s, _active(s))}: pick a conundrum, then draw two silhouettes at "
                           "random and tap them face up.", you=_you_in_turn),
    Phase("guessing", "The active player locks six answers; the others guess the best one",
          prompt=_prompt_guessing, you=_you_in_turn),
    Phase("guesses_revealed", "The guesses are on the TV; the players explain them",
          prompt=lambda s: "Explain your guesses! Then press advance to reveal "
                           f"{_name(s, _active(s))}'s best answer."),
    Phase("best_revealed", "The best answer is revealed and scored; the active player explains it",
          prompt=lambda s: f"{_name(s, _active(s))}, explain your best answer! Then press advance "
                           "to reveal the worst answer."),
    Phase("answered", "The worst answer is revealed and scored; the first guess opens the next "
          "question", prompt=_prompt_answered, you=_you_in_turn),
    Phase("tie_break", "Tied players draw for the tofu; the host enters the winner",
          prompt=lambda s: "Tie! The tied players draw from their shuffled sets until one draws the tofu.",
          you=lambda s, seat: ("You are tied: draw from your shuffled set until one of you draws the tofu."
                               if seat in s["tie_break"]["tied"] else None)),
    Phase("over", "The game is over", prompt=lambda s: f"Game over: {' and '.join(s['winners'])} wins!"),
)

MOVES = (
    Move("tap", None, tap, "Play a silhouette: the active player's answers, the others' guesses",
         who="any player (the card's set says whose it is)", phases=TURN, args=TAG_ARGS,
         early=_card_closed),
    Move("button", "advance", advance, "Reveal the guesses, then the best answer, then the worst",
         who="anyone at the table", phases=("guessing", "guesses_revealed", "best_revealed"),
         early=_advance_closed),
    Move("seat", "card", seat_card, "Play a silhouette from the phone", who="any player",
         phases=TURN, args=(_CARD_ARG,), early=_card_closed),
    Move("seat", "swap", swap_answers, "Swap two of your answers (until question 1's guesses "
         "are revealed)", who="the active player", phases=("guessing",), may=_may_rearrange,
         early=_rearrange_closed,
         args=(Arg("first", "choice", _SLOT, choices=SLOT_IDS),
               Arg("second", "choice", _SLOT, choices=SLOT_IDS))),
    Move("seat", "clear", clear_answer, "Take back one answer, or all six without slot (until "
         "question 1's guesses are revealed)", who="the active player", phases=("guessing",),
         may=_may_rearrange, early=_rearrange_closed,
         args=(Arg("slot", "choice", _SLOT, optional=True, choices=SLOT_IDS),)),
    Move("seat", "conundrum", conundrum, "Record the conundrum card's number",
         who="the active player", args=(_NUMBER,), may=_is_active),
    Move("host", "conundrum", conundrum, "Record the conundrum card's number", who="host",
         phases=TURN, args=(_NUMBER,), early=_host_closed),
    Move("host", "set_aside", host_set_aside, "Correct the two set-aside cards", who="host",
         phases=("set_aside", "guessing"), early=_set_aside_closed,
         args=(Arg("cards", "list", "the two silhouette ids set aside", items="str", max_items=2),)),
    Move("host", "choice", host_choice, "Correct one of the active player's answers", who="host",
         phases=("guessing", "guesses_revealed", "best_revealed", "answered"),
         early=lambda s: _host_closed(s) if s["phase"] == "tie_break" else "Set two cards aside before the answers.",
         args=(Arg("question", "choice", "the question, 1 to 3", choices=(1, 2, 3)),
               Arg("answer", "choice", "best or worst", choices=("best", "worst")), _CARD_ARG)),
    Move("host", "guess", host_guess, "Correct or clear a player's guess", who="host",
         phases=("guessing",),
         early=lambda s: _host_closed(s) if s["phase"] == "tie_break" else
         "Guesses can only be corrected while a question is open.",
         args=(_SEAT, Arg("card", "str", "the silhouette guessed; empty clears the guess",
                          optional=True, nullable=True, max_length=24))),
    Move("host", "score", host_score, "Set a player's score", who="host", phases=TURN,
         early=_host_closed, args=(_SEAT, Arg("score", "int", "the new score"))),
    Move("host", "tie_break_winner", host_tie_break, "Enter who won the real tofu draw", who="host",
         phases=("tie_break",), early=lambda s: "There is no tofu draw to settle now.", args=(_SEAT,)),
)


# ----- views ---------------------------------------------------------------------------

def _public_results(turn: dict) -> list[dict]:
    """Revealed guesses and answers of this turn (best/worst only once revealed)."""
    return [{"question": r["question"], "guesses": dict(r["guesses"]), "best": r["best"],
             "worst": r["worst"], "outcomes": dict(r["outcomes"]), "points": dict(r["points"]),
             "floored": list(r["floored"])}
            for r in turn["results"]]


def _public_summary(summary: dict | None) -> dict | None:
    """The last turn's summary (public: every reveal in it is)."""
    if summary is None:
        return None
    return {"number": summary["number"], "active": summary["active"],
            "rows": [dict(r) for r in summary["rows"]],
            "results": [dict(r, guesses=dict(r["guesses"]), outcomes=dict(r["outcomes"]),
                             points=dict(r["points"]), floored=list(r["floored"]))
                        for r in summary["results"]]}


def _ranking(state: dict) -> list[dict]:
    """Players by score; equal scores share a place, except that the tie-break winner is first."""
    winner = state["tie_break"]["winner"] if state["tie_break"] else None

    def place(p: dict) -> int:
        if p["seat"] == winner:
            return 1
        ahead = sum(1 for q in state["players"]
                    if q["score"] > p["score"] or (q["seat"] == winner and q["score"] == p["score"]))
        return ahead + 1

    order = sorted(state["players"], key=place)
    return [{"place": place(p), "name": p["name"], "seat": p["seat"], "score": p["score"]}
            for p in order]


def show(state: dict, audience: Audience) -> dict:
    """The view for the TV (``table``), one player's phone (``seat-N``) or the ``host``.

    The table view is an allow-list of public facts; a seat adds only what
    that player holds or chose; the host sees everything.
    """
    out = common_view(state)
    turn = state["turn"]
    out.update(
        options=dict(state["options"]),
        labels=dict(state["labels"]),
        sets=dict(state["sets"]),
        total_turns=state["total_turns"],
        turn={"number": turn["number"], "round": (turn["number"] - 1) // len(state["players"]) + 1,
              "active": turn["active"], "conundrum": turn["conundrum"],
              "set_aside": list(turn["set_aside"]), "question": turn["question"],
              "answers_locked": _locked(turn),
              "guessers": _guessers(state),
              "guessed": sorted(int(s) for s in turn["guesses"]),
              "unavailable": _unavailable(turn)},
        results=_public_results(turn),
        last_turn=_public_summary(state["last_turn"]),
        ranking=_ranking(state) if state["over"] else None,
        tie_break=dict(state["tie_break"]) if state["tie_break"] else None,
    )
    seat = audience.seat
    if audience.is_host:
        out["choices"] = [{"question": q, "answer": a, "card": c}
                          for (q, a), c in zip(SLOTS, turn["choices"]) if c is not None]
        out["guesses"] = dict(turn["guesses"])
    elif seat is not None and 1 <= seat <= len(state["players"]):
        out["me"] = _seat_view(state, seat)
    return out


def _seat_view(state: dict, seat: int) -> dict:
    turn = state["turn"]
    mine = {"seat": seat, "set": state["sets"][str(seat)], "active": seat == turn["active"]}
    available = [s for s in state["silhouettes"] if s not in _unavailable(turn)]
    if seat == turn["active"]:
        shown = {c for r in turn["results"] for c in (r["best"], r["worst"]) if c}
        mine["choices"] = [{"question": q, "answer": a, "slot": SLOT_IDS[i], "card": turn["choices"][i],
                            "revealed": turn["choices"][i] in shown}
                           for i, (q, a) in enumerate(SLOTS)]
        mine["can_arrange"] = state["phase"] == "guessing" and turn["question"] == 1
        nxt = _next_slot(turn)
        mine["next"] = ({"question": nxt[0], "answer": nxt[1]}
                        if nxt and state["phase"] != "set_aside" and not state["over"] else None)
        mine["available"] = [s for s in available if s not in turn["choices"]]
    else:
        guess = turn["guesses"].get(str(seat))
        mine["guess"] = guess
        mine["hand"] = [s for s in available if s != guess]
    return mine


def cards() -> list[str]:
    """Every card id: ten silhouettes in each of the six sets."""
    return [card_id(n, s) for n in range(1, SETS + 1) for s in SILHOUETTES["ids"]]


GAME = Game(id=GAME_ID, name="Tofu God", min_players=2, max_players=6,
            setup=setup, show=show, phases=PHASES, moves=MOVES, options=OPTIONS, cards=cards,
            summary="Answer conundrums with silhouette cards; the others guess your best answer.")
