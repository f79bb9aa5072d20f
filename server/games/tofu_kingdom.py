"""Tofu Kingdom: the Prince hunts for Princess Tofu among face-down character coasters.

How the table follows a round (3 to 8 players):

* **deal** - every player but the Prince lays their coaster face down; with
  fewer than 8 players one more coaster lies in the centre.  With a reader per
  seat (option ``readers="seats"``) each coaster is a tap on that seat's
  reader (``center`` for the centre one), in any order.  With one shared
  reader (``readers="table"``) the seats tap in turn, starting left of the
  Prince, then the centre coaster.  The table learns every role and shows
  none.  When the last expected coaster is down the round starts by itself.
* **questions** - the Prince may ask one question to each other player, then
  one extra question to anyone.  Entering questions (seat or host page) is
  optional unless the option ``questions="required"``.  The Prince flips a
  coaster: with a reader per seat, a coaster lifted and not put back within
  ``peek_seconds`` (a player peeking at their own coaster changes nothing), or
  the Prince's phone confirming it; with one reader, a tap of the flipped
  coaster on ``table``.  The engine has no clock: the table's reader hub sends
  a second ``lift`` with ``held`` (seconds away) once the time is up, so a
  replay of the journal gives the same flips.
* **scored** - the flipped coaster's winning symbol gives a soybean to every
  player whose team symbol matches.  Lifts of coasters being picked up are
  quiet.  Button ``advance`` starts the next round with the Prince passing to
  the next seat number (the player on the left).  The game ends after the
  last round's flip; most soybeans wins, ties share the victory.

The corner symbols of the coasters are data (``data/tofu_kingdom/coasters.json``);
which coasters are in play at each player count is the rulebook's table, here.
"""
from __future__ import annotations

import json
from pathlib import Path

from .base import (FIRST_SEAT, Audience, Game, Option, Quiet, RuleError, common_view, event, finish,
                   new_state, player, reader_seat, seat_after, seat_reader, top_scorers)
from .moves import ALWAYS, TAG_ARGS, Arg, Move, Phase

GAME_ID = "tofu-kingdom"
DATA_FILE = Path(__file__).parent / "data" / "tofu_kingdom" / "coasters.json"
PRINCE = "prince"
#: The Prince first, then the other coasters in the order the rulebook adds them by player count.
ROLES = (PRINCE, "princess", "queen", "maid", "guard", "chef", "minister", "spy")
SYMBOLS = ("heart", "crown", "mask")
TRUTHS = ("truth", "lie", "choose")
CENTER = "center"
#: The three questions the Prince may ask, by the id used in inputs and views.
QUESTION_LABELS = {
    "where": "Where is Princess Tofu?",
    "who_are_you": "Who are you?",
    "who_is": "Who is she?",
}
SYMBOL_MARKS = {"heart": "\u2665", "crown": "\u265b", "mask": "\u25d1"}
TRUTH_TEXT = {"truth": "You always tell the truth.", "lie": "You always lie.",
              "choose": "You may lie or tell the truth, as you like."}


# ----- the coaster data file -----------------------------------------------------

class CoasterDataError(ValueError):
    """The coaster data file is missing, malformed or inconsistent."""


def load_coasters(path: Path = DATA_FILE) -> dict:
    """Read and check the coaster symbols; returns ``{role: {name, team, truth, winning_symbol}}``.

    The Prince coaster needs only ``name`` and ``team``; every other coaster
    needs all four fields.  Any mistake raises :class:`CoasterDataError`
    naming the file, the coaster and what to write instead.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CoasterDataError(f"Cannot read the Tofu Kingdom coasters from {path}: {exc}") from exc
    except ValueError as exc:
        raise CoasterDataError(f"{path} is not valid JSON: {exc}") from exc
    coasters = data.get("coasters") if isinstance(data, dict) else None
    if not isinstance(coasters, dict):
        raise CoasterDataError(f"{path}: the file needs an object \"coasters\" with one entry per role.")
    unknown = sorted(set(coasters) - set(ROLES))
    if unknown:
        raise CoasterDataError(f"{path}: there is no coaster {unknown[0]!r}; the roles are "
                               f"{', '.join(ROLES)}.")
    missing = [r for r in ROLES if r not in coasters]
    if missing:
        raise CoasterDataError(f"{path}: coaster {missing[0]!r} is missing.")
    out = {}
    for role in ROLES:
        out[role] = _check_coaster(path, role, coasters[role])
    return out


def _check_coaster(path: Path, role: str, entry) -> dict:
    if not isinstance(entry, dict):
        raise CoasterDataError(f"{path}: coaster {role!r} must be an object.")
    required = ("name", "team") if role == PRINCE else ("name", "truth", "team", "winning_symbol")
    allowed = ("name", "truth", "team", "winning_symbol")
    extra = sorted(set(entry) - set(allowed))
    if extra:
        raise CoasterDataError(f"{path}: coaster {role!r} has an unknown field {extra[0]!r}; "
                               f"the fields are {', '.join(allowed)}.")
    for name in required:
        if name not in entry:
            raise CoasterDataError(f"{path}: coaster {role!r} needs {name!r}.")
    if not isinstance(entry["name"], str) or not entry["name"].strip():
        raise CoasterDataError(f"{path}: coaster {role!r} needs a non-empty name.")
    for name, choices in (("truth", TRUTHS), ("team", SYMBOLS), ("winning_symbol", SYMBOLS)):
        if name in entry and entry[name] not in choices:
            raise CoasterDataError(f"{path}: coaster {role!r} has {name} {entry[name]!r}; "
                                   f"use one of {', '.join(choices)}.")
    return {"name": entry["name"].strip(), "team": entry["team"],
            "truth": entry.get("truth"), "winning_symbol": entry.get("winning_symbol")}


def _load_default() -> tuple[dict | None, str | None]:
    """The shipped data, or the reason it cannot be used (a broken file only stops this game)."""
    try:
        return load_coasters(), None
    except CoasterDataError as exc:
        return None, str(exc)


COASTERS, COASTER_DATA_ERROR = _load_default()


# ----- rulebook tables -----------------------------------------------------------

def coasters_in_play(count: int) -> list[str]:
    """Character coasters in play with ``count`` players (rulebook: 3 for 3 players, one more
    per player up to all seven at 7 and 8)."""
    return list(ROLES[1:1 + min(count, 7)])


def times_prince(count: int) -> int:
    """Rulebook game length: rounds each player is Prince (3 for 3-4, 2 for 5-6, 1 for 7-8)."""
    return 3 if count <= 4 else 2 if count <= 6 else 1


OPTIONS = (
    FIRST_SEAT,
    Option("readers", "How coasters are read: 'seats' (a reader at every seat plus 'center') or "
           "'table' (one shared reader; the seats tap in turn)", "seats", choices=("seats", "table")),
    Option("questions", "Question recording: 'optional' (counted when entered, never required), "
           "'required' (every other player must be asked before the flip) or 'off'", "optional",
           choices=("optional", "required", "off")),
    Option("reveal", "Roles of the unflipped coasters after the flip: 'never' shown, 'host' "
           "(the host may reveal them on the TV) or 'auto' (shown as soon as the round is scored)",
           "never", choices=("never", "host", "auto")),
    Option("times_prince", "Times each player is Prince (rulebook: 3 for 3-4 players, 2 for 5-6, "
           "1 for 7-8)", times_prince, type=int, minimum=1, maximum=6),
    Option("peek_seconds", "Reader per seat: a coaster lifted and put back within this many seconds "
           "is a peek and changes nothing; kept away longer, it is the Prince's flip (0: every "
           "lift is a flip at once)", 3, type=int, minimum=0, maximum=30),
    Option("look_seconds", "The narrator's time for everyone but the Prince to look at their "
           "coasters, in seconds", 10, type=int, minimum=3, maximum=120),
)


# ----- small helpers -------------------------------------------------------------

def _count(state: dict) -> int:
    return len(state["players"])


def _name(state: dict, seat: int) -> str:
    return player(state, seat)["name"]


def _role_name(state: dict, role: str) -> str:
    return state["coasters"][role]["name"]


def _positions(state: dict) -> list[str]:
    """Where this round's coasters go: the seats from the Prince's left around, then the centre."""
    count, prince = _count(state), state["prince"]
    seats = [seat_after(state, prince, i) for i in range(1, count)]
    return [seat_reader(s) for s in seats] + ([CENTER] if count < 8 else [])


def _where(state: dict, position: str) -> str:
    """A position as players say it: "Ben's coaster" or "the centre coaster"."""
    seat = reader_seat(position)
    return "the centre coaster" if seat is None else f"{_name(state, seat)}'s coaster"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _others(state: dict) -> list[int]:
    """Seats of the players who are not the Prince, in seat order."""
    return [p["seat"] for p in state["players"] if p["seat"] != state["prince"]]


def _team(state: dict, seat: int) -> str | None:
    """The team symbol of ``seat`` this round (None while its coaster is not down)."""
    if seat == state["prince"]:
        return state["coasters"][PRINCE]["team"]
    role = state["placed"].get(seat_reader(seat))
    return state["coasters"][role]["team"] if role else None


def _names(state: dict, seats: list[int]) -> str:
    names = [_name(state, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _position_arg(state: dict, value) -> str:
    """A host/seat page's ``target`` or ``about`` (a seat number or "center", checked by its
    schema) as a position of this round."""
    if value == CENTER:
        if _count(state) == 8:
            raise RuleError("bad_argument", "With 8 players there is no centre coaster.")
        return CENTER
    seat = value
    if seat == state["prince"]:
        raise RuleError("unavailable", f"{_name(state, seat)} is the Prince this round and "
                        "has no character coaster; choose another player or the centre.")
    return seat_reader(seat)


# ----- setup ---------------------------------------------------------------------

def setup(players: list[str], options: dict, seed: int) -> dict:
    """A new game: round 1 dealing, the first Prince from the ``first_seat`` option."""
    if COASTER_DATA_ERROR:
        raise RuleError("bad_data", f"Tofu Kingdom cannot start: {COASTER_DATA_ERROR}")
    count = len(players)
    if options["first_seat"] > count:
        raise RuleError("bad_option", f"first_seat must be a seat from 1 to {count} (the first Prince).")
    state = new_state(GAME_ID, players, seed, "deal")
    state.update(options=dict(options), coasters={r: dict(c) for r, c in COASTERS.items()},
                 in_play=coasters_in_play(count), round=1, rounds=count * options["times_prince"],
                 prince=options["first_seat"], placed={}, questions=[], flip=None, revealed=False,
                 history=[], lifted=[], notes={})
    return state


# ----- coasters on the readers ----------------------------------------------------------

def _role_of(state: dict, card: str) -> str:
    """The role of a tapped coaster, refusing cards that cannot go down this round."""
    game, _, role = card.partition("/")
    if game != GAME_ID or role not in ROLES:
        raise RuleError("not_this_game", f"{card} is not a Tofu Kingdom coaster; this table is "
                        "playing Tofu Kingdom.")
    if role == PRINCE:
        raise RuleError("breaks_rule", "That is the Prince Mochi coaster: it stays in front of "
                        "the Prince. Tap a character coaster instead.")
    if role not in state["in_play"]:
        raise RuleError("unknown_card", f"{_role_name(state, role)} is not in play with "
                        f"{_count(state)} players; put it back in the box and tap a coaster that "
                        "was dealt.")
    return role


def _back_in_place(state: dict, body: dict) -> bool:
    """A coaster laid where one already lies this round: a seat reader reporting it again, a
    refused flip put back, the flipped coaster laid face up on its reader, or (one reader) the
    flipped coaster tapped again.  With a reader per seat, any coaster on a reader that holds
    one is taken quietly, whichever it is: the answer must not tell what lies face down."""
    if not body["card"].startswith(GAME_ID + "/"):
        return False
    if state["options"]["readers"] == "seats":
        return body["reader"] in state["placed"] and body["reader"] not in state["lifted"]
    role = body["card"].partition("/")[2]
    return state["flip"] is not None and body["reader"] == "table" and role == state["flip"]["role"]


def tap(state: dict, args: dict) -> list[dict]:
    """A coaster on a reader: laid during the deal, put back after a peek, or (one reader) the flip."""
    if args["reader"] in state["lifted"]:
        return _put_back(state, args)
    if _back_in_place(state, args):
        raise Quiet()
    if state["over"]:
        raise RuleError("game_over", "The game is over; start a new game from the host page.")
    if state["phase"] == "scored":
        raise RuleError("not_now", f"Round {state['round']} is scored: press advance to start "
                        "the next round, then lay the coasters.")
    role = _role_of(state, args["card"])
    if state["phase"] == "deal":
        return _deal_tap(state, args["reader"], role)
    if state["options"]["readers"] == "seats":
        raise RuleError("not_now", "Every coaster is already down. The Prince flips one by "
                        "lifting it from its reader.")
    if args["reader"] != "table":
        raise RuleError("wrong_reader", "Tap the coaster you flipped on the table reader.")
    position = next(p for p, r in state["placed"].items() if r == role)
    return _flip(state, position, "tap")


def _deal_tap(state: dict, reader: str, role: str):
    placed = state["placed"]
    if state["options"]["readers"] == "seats":
        position = _seat_reader_position(state, reader)
    else:
        position = _due_position(state, reader)
    if role in placed.values():
        where = next(p for p, r in placed.items() if r == role)
        raise RuleError("already_done", "That coaster is already down this round; each coaster is "
                        "laid once. Tap the coaster you were dealt.",
                        detail=f"{_role_name(state, role)} is {_where(state, where)}.")
    placed[position] = role
    seat = reader_seat(position)
    who = "The centre coaster is" if seat is None else f"{_name(state, seat)}'s coaster is"
    events = [event(state, "laid", f"{who} down ({len(placed)} of {len(_positions(state))}).")]
    return events + _start_questions_if_dealt(state)


def _seat_reader_position(state: dict, reader: str) -> str:
    if reader == "table":
        raise RuleError("wrong_reader", "This game uses a reader at every seat: lay your coaster "
                        "on your own seat's reader.")
    if reader == CENTER:
        if _count(state) == 8:
            raise RuleError("wrong_reader", "With 8 players there is no centre coaster.")
        return CENTER
    seat = reader_seat(reader)
    if seat > _count(state):
        raise RuleError("empty_seat", f"Nobody sits at seat {seat}; lay the coaster on your own "
                        "seat's reader.")
    if seat == state["prince"]:
        raise RuleError("wrong_reader", f"{_name(state, seat)} is the Prince this round and lays "
                        "no coaster; the other players lay theirs on their own readers.")
    return reader


def _due_position(state: dict, reader: str) -> str:
    """One shared reader: whose coaster this tap is (the next seat in turn, then the centre)."""
    due = next(p for p in _positions(state) if p not in state["placed"])
    if reader not in ("table", due):
        raise RuleError("wrong_reader", f"It is {_due_text(state, due)} turn: tap it on the table "
                        "reader.")
    return due


def _due_text(state: dict, position: str) -> str:
    seat = reader_seat(position)
    return "the centre coaster's" if seat is None else f"{_name(state, seat)}'s (seat {seat})"


def _start_questions_if_dealt(state: dict) -> list[dict]:
    if len(state["placed"]) < len(_positions(state)):
        return []
    state["phase"] = "questions"
    return [event(state, "round_started", f"All coasters are down. Prince "
                  f"{_name(state, state['prince'])}, open your eyes and ask your questions.")]


def lift(state: dict, args: dict) -> list[dict]:
    """A coaster left its reader: during the questions a possible flip (a flip once it stays
    away ``peek_seconds``), during the deal it is un-laid."""
    position, card = args["reader"], args["card"]
    role = card.partition("/")[2] if card.startswith(GAME_ID + "/") else None
    if (state["over"] or state["options"]["readers"] != "seats" or role is None
            or state["phase"] not in ("deal", "questions") or state["placed"].get(position) != role):
        raise Quiet()     # coasters picked up after the flip, or a lift the round never saw
    if state["phase"] == "questions":
        return _lifted(state, position, args.get("held"))
    del state["placed"][position]
    seat = reader_seat(position)
    who = "The centre coaster was" if seat is None else f"{_name(state, seat)}'s coaster was"
    return [event(state, "picked_up", f"{who} picked up again; lay it back on its reader.")]


def _lifted(state: dict, position: str, held) -> list[dict]:
    """A coaster up during the questions: a flip at once without a peek time; else waiting to
    see whether it comes back (``held`` absent) or the flip (the hub's ``held`` lift, in time)."""
    peek = state["options"]["peek_seconds"]
    if not peek:
        return _flip(state, position, "lift")
    if held is None:
        if position in state["lifted"]:
            raise Quiet()
        state["lifted"].append(position)
        unasked = _unasked(state) if state["options"]["questions"] == "required" else []
        then = (f"{_names(state, unasked)} must be asked first: put it back." if unasked else
                f"put it back within {peek} seconds and nothing changes; kept up, it is the "
                "Prince's flip.")
        return [event(state, "lifted", f"{_capital(_where(state, position))} is up: {then}",
                      position=position)]
    if position not in state["lifted"] or not isinstance(held, (int, float)) or held < peek:
        raise Quiet()     # put back in time, or a report from before the time was up
    return _flip(state, position, "lift")


def awaiting(state: dict) -> list[tuple[str, str, float]]:
    """The coasters up during the questions that may still be a peek: (reader, card, seconds)."""
    if state["over"] or state["phase"] != "questions":
        return []
    return [(position, f"{GAME_ID}/{state['placed'][position]}", state["options"]["peek_seconds"])
            for position in state["lifted"]]


def _put_back(state: dict, args: dict) -> list[dict]:
    """A lifted coaster back on its reader in time: a peek, nothing changes."""
    position = args["reader"]
    if args["card"] != f"{GAME_ID}/{state['placed'][position]}":
        raise Quiet()     # another coaster on that reader: the answer must not tell which lies there
    state["lifted"].remove(position)
    return [event(state, "put_back", f"{_capital(_where(state, position))} is back down: "
                  "a peek, nothing changes.", position=position)]


def _flip(state: dict, position: str, how: str):
    """The Prince's decision: score the flipped coaster's winning symbol."""
    if how != "host" and state["options"]["questions"] == "required":
        unasked = _unasked(state)
        if unasked:
            raise RuleError("waiting", f"Ask {_names(state, unasked)} first: this table "
                            "requires a question to every player before the flip. Put the coaster "
                            "back and ask.")
    role = state["placed"][position]
    symbol = state["coasters"][role]["winning_symbol"]
    scorers = [p["seat"] for p in state["players"] if _team(state, p["seat"]) == symbol]
    for seat in scorers:
        player(state, seat)["score"] += 1
    state["flip"] = {"position": position, "role": role, "symbol": symbol, "scorers": scorers}
    state["lifted"] = []
    state["phase"] = "scored"
    state["revealed"] = state["options"]["reveal"] == "auto"
    state["history"].append({"round": state["round"], "prince": state["prince"], **state["flip"]})
    prince = _name(state, state["prince"])
    beans = f"a soybean for {_names(state, scorers)}" if scorers else "no soybeans"
    events = [event(state, "flipped", f"Prince {prince} flipped {_where(state, position)}: "
                    f"{_role_name(state, role)}, the {symbol}. That means {beans}.",
                    position=position, role=role, symbol=symbol, scorers=scorers)]
    if state["round"] == state["rounds"]:
        events.append(_finish(state))
    return events


def _finish(state: dict) -> dict:
    return finish(state, top_scorers(state), _result_text(state, top_scorers(state)))


def _result_text(state: dict, winners: list[str]) -> str:
    beans = max(p["score"] for p in state["players"])
    if len(winners) == 1:
        return f"Game over: {winners[0]} wins with {beans} soybeans."
    return (f"Game over: {', '.join(winners[:-1])} and {winners[-1]} share the victory with "
            f"{beans} soybeans each.")


def advance(state: dict, args: dict) -> list[dict]:
    """The next round: the Prince passes to the left."""
    state.update(round=state["round"] + 1, prince=seat_after(state, state["prince"]), placed={},
                 questions=[], flip=None, revealed=False, phase="deal", lifted=[], notes={})
    return [event(state, "next_round", f"Round {state['round']} of {state['rounds']}: "
                  f"{_name(state, state['prince'])} is the Prince.")]


# ----- questions -----------------------------------------------------------------

def _unasked(state: dict) -> list[int]:
    asked = {q["to"] for q in state["questions"]}
    return [s for s in _others(state) if s not in asked]


def ask(state: dict, args: dict) -> list[dict]:
    """Record one question: each other player once (any order), then one extra to anyone."""
    if state["options"]["questions"] == "off":
        raise RuleError("option_off", "This game was started with question recording off.")
    kind, to = args["question"], args["to"]
    if to == state["prince"]:
        raise RuleError("breaks_rule", "The Prince asks the other players, not himself.")
    about = None
    if kind == "who_is":
        if args["about"] is None:
            raise RuleError("bad_argument", f"\"{QUESTION_LABELS['who_is']}\" needs about: a seat "
                            "number or \"center\".")
        about = _position_arg(state, args["about"])
        if about == seat_reader(to):
            raise RuleError("breaks_rule", f"To ask {_name(state, to)} about themselves, use "
                            f"\"{QUESTION_LABELS['who_are_you']}\".")
    elif args["about"] is not None:
        raise RuleError("bad_argument", f"\"{QUESTION_LABELS[kind]}\" is not about anyone; only "
                        f"\"{QUESTION_LABELS['who_is']}\" takes about.")
    unasked = _unasked(state)
    if len(state["questions"]) > len(_others(state)):
        raise RuleError("already_done", "The Prince has asked every player and the extra "
                        "question: time to flip a coaster.")
    if unasked and to not in unasked:
        raise RuleError("already_done", f"{_name(state, to)} has already answered a question. "
                        f"Ask {_names(state, unasked)} first; the extra question comes after "
                        "everyone has answered once.")
    extra = not unasked
    state["questions"].append({"to": to, "question": kind, "about": about, "extra": extra})
    target = "" if about is None else f" (about {_where(state, about)})"
    label = "Extra question" if extra else f"Question {len(state['questions'])}"
    return [event(state, "asked", f"{label}: {_name(state, state['prince'])} asks "
                  f"{_name(state, to)} \"{QUESTION_LABELS[kind]}\"{target}.")]


def prince_flip(state: dict, args: dict) -> list[dict]:
    """The Prince confirms on their phone which coaster they flip (say one they hold up)."""
    return _flip(state, _position_arg(state, args["target"]), "phone")


def note(state: dict, args: dict) -> list[dict]:
    """The Prince's private note of what a player (or the centre) answered; null clears it."""
    position = _position_arg(state, args["about"])
    if args["text"] is None:
        state["notes"].pop(position, None)
    else:
        state["notes"][position] = args["text"].strip()[:80]
    return [event(state, "noted", f"Noted for {_where(state, position)}.", seat=args["seat"])]


def _is_prince(state: dict, seat: int) -> str | None:
    if seat == state["prince"]:
        return None
    return f"Only the Prince asks questions; this round's Prince is {_name(state, state['prince'])}."


def _not_asking(state: dict) -> str:
    if state["phase"] == "deal":
        return "Questions start once every coaster is down."
    return "The Prince has already flipped a coaster this round."


# ----- host corrections ----------------------------------------------------------

def host_flip(state: dict, args: dict) -> list[dict]:
    """Set the flip by hand (say a reader missed the lift)."""
    return _flip(state, _position_arg(state, args["target"]), "host")


def _not_flipping(state: dict) -> str:
    if state["phase"] == "deal":
        return "Not every coaster is down yet; record the missing ones with place first."
    return "A coaster is already flipped this round; undo to change it."


def host_place(state: dict, args: dict) -> list[dict]:
    """Record a coaster by hand during the deal (say a reader did not see it)."""
    position, role = _position_arg(state, args["target"]), args["role"]
    _role_of(state, f"{GAME_ID}/{role}")
    elsewhere = [p for p, r in state["placed"].items() if r == role and p != position]
    if elsewhere:
        raise RuleError("already_done", "That coaster is already recorded elsewhere this round; "
                        "the host page shows where. Correct that one first.",
                        detail=f"{_role_name(state, role)} is {_where(state, elsewhere[0])}.")
    state["placed"][position] = role
    seat = reader_seat(position)
    who = "the centre coaster" if seat is None else f"{_name(state, seat)}'s coaster"
    events = [event(state, "placed", f"The host recorded {who} "
                    f"({len(state['placed'])} of {len(_positions(state))} down).")]
    return events + _start_questions_if_dealt(state)


def host_set_prince(state: dict, args: dict) -> list[dict]:
    """Choose this round's Prince (before the questions); the next ones follow from the left."""
    seat = args["seat"]
    if seat_reader(seat) in state["placed"]:
        raise RuleError("breaks_rule", f"{_name(state, seat)}'s coaster is down; lift it "
                        "(or undo it) before making them the Prince.")
    state["prince"] = seat
    return [event(state, "prince_set", f"The host made {_name(state, seat)} the Prince of "
                         f"round {state['round']}.")]


def host_reveal(state: dict, args: dict) -> list[dict]:
    """Show every role of the round on the TV (reveal=host), after the flip."""
    if state["options"]["reveal"] == "never":
        raise RuleError("option_off", "This game was started with reveal=never: the roles stay "
                        "hidden.")
    if state["revealed"]:
        raise RuleError("already_done", "The roles of this round are already on the TV.")
    state["revealed"] = True
    return [event(state, "revealed", f"The host revealed every role of round "
                         f"{state['round']}.")]


def adjust_soybeans(state: dict, args: dict) -> list[dict]:
    """Give or take soybeans (any time, also after the game; the winners follow)."""
    seat, delta = args["seat"], args["delta"]
    if delta == 0:
        raise RuleError("bad_argument", "delta must be a whole number of soybeans to give (positive) "
                        "or take (negative), not zero.")
    record = player(state, seat)
    if record["score"] + delta < 0:
        raise RuleError("breaks_rule", f"{record['name']} has only {record['score']} soybeans; "
                        "a player cannot have fewer than none.")
    record["score"] += delta
    if state["over"]:
        state["winners"] = top_scorers(state)
    verb = f"gave {record['name']} {delta}" if delta > 0 else f"took {-delta} from {record['name']}"
    return [event(state, "soybeans", f"The host {verb} soybean{'s' * (abs(delta) != 1)}.")]


# ----- views ---------------------------------------------------------------------

def _head(state: dict) -> str:
    return f"Round {state['round']} of {state['rounds']}."


def _prompt_deal(state: dict) -> str:
    look = (f"{_head(state)} Prince {_name(state, state['prince'])}, close your eyes. Everyone else: "
            "see who is who, then ")
    if state["options"]["readers"] == "table":
        due = next(p for p in _positions(state) if p not in state["placed"])
        seat = reader_seat(due)
        who = "the centre coaster" if seat is None else f"{_name(state, seat)}'s coaster"
        return f"{look}tap {who} face down on the table reader."
    down, total = len(state["placed"]), len(_positions(state))
    centre = " (the extra one on the centre reader)" if _count(state) < 8 else ""
    return f"{look}lay your coaster face down on your reader{centre}. {down} of {total} down."


def _you_deal(state: dict, seat: int) -> str:
    if seat == state["prince"]:
        return "You are the Prince this round: close your eyes until every coaster is down."
    if seat_reader(seat) in state["placed"]:
        return "Your coaster is down; wait for the others."
    if state["options"]["readers"] == "table":
        return "Tap your coaster face down on the table reader when it is your turn."
    return "Lay your coaster face down on your reader."


def _how_to_flip(state: dict) -> str:
    if state["options"]["readers"] == "table":
        return "tap it on the table reader"
    peek = state["options"]["peek_seconds"]
    return (f"keep it off its reader for {peek} seconds (or confirm it on your phone)" if peek
            else "lift it from its reader")


def _prompt_scored(state: dict) -> str:
    flip = state["flip"]
    return (f"{_head(state)} {_role_name(state, flip['role'])}: the {flip['symbol']}. "
            "Pick up your coasters; press advance for the next round.")


PHASES = (
    Phase("deal", "Everyone but the Prince lays their coaster face down",
          prompt=_prompt_deal, you=_you_deal),
    Phase("questions", "The Prince asks questions, then flips a coaster",
          prompt=lambda s: (f"{_head(s)} Prince {_name(s, s['prince'])}: ask your questions, then "
                            f"flip the coaster you choose and {_how_to_flip(s)}."),
          you=lambda s, seat: (f"Your turn, Prince: ask your questions, then flip the coaster you "
                               f"choose and {_how_to_flip(s)}." if seat == s["prince"] else
                               "Answer the Prince's questions as your role tells you.")),
    Phase("scored", "The flipped coaster is scored", prompt=_prompt_scored),
    Phase("over", "The game is over", prompt=lambda s: _result_text(s, s["winners"])),
)

_SEAT = Arg("seat", "seat", "the player's seat number")
_POSITION = Arg("target", "seat", "whose coaster: a seat number, or \"center\"", choices=(CENTER,))
_ASK_ARGS = (Arg("question", "choice", "which question: " + ", ".join(
                 f"{k} ({v})" for k, v in QUESTION_LABELS.items()), choices=tuple(QUESTION_LABELS)),
             Arg("to", "seat", "the player asked"),
             Arg("about", "seat", "whom \"who_is\" is about: a seat number, or \"center\"",
                 optional=True, choices=(CENTER,)))

MOVES = (
    Move("tap", None, tap, "Lay a coaster face down (one reader: also the flipped coaster)",
         who="the players, on their readers", phases=ALWAYS, args=TAG_ARGS),
    Move("lift", None, lift, "A coaster lifted: the Prince's flip (a reader per seat)",
         who="the Prince, flipping", phases=ALWAYS, args=TAG_ARGS),
    Move("button", "advance", advance, "Start the next round", who="anyone at the table",
         phases=("scored",),
         early=lambda s: "Advance starts the next round once the Prince has flipped a coaster."),
    Move("seat", "ask", ask, "Record a question", who="the Prince", phases=("questions",),
         args=_ASK_ARGS, may=_is_prince, early=_not_asking),
    Move("seat", "flip", prince_flip, "Confirm the flip: the coaster the Prince turns over",
         who="the Prince", phases=("questions",), args=(_POSITION,), may=_is_prince,
         early=_not_flipping),
    Move("seat", "note", note, "Note what a player answered (only the Prince's phone shows it)",
         who="the Prince", phases=("questions",), may=_is_prince, early=_not_asking,
         args=(Arg("about", "seat", "whose answer: a seat number, or \"center\"", choices=(CENTER,)),
               Arg("text", "str", "the note (up to 80 characters); empty clears it",
                   nullable=True, max_length=80))),
    Move("host", "ask", ask, "Record a question the Prince asked", who="host",
         phases=("questions",), args=_ASK_ARGS, early=_not_asking),
    Move("host", "flip", host_flip, "Record the flip (a reader missed the lift)", who="host",
         phases=("questions",), args=(_POSITION,), early=_not_flipping),
    Move("host", "place", host_place, "Record a coaster laid during the deal", who="host",
         phases=("deal",), args=(_POSITION, Arg("role", "choice", "the coaster", choices=ROLES)),
         early=lambda s: "Every coaster is already down; to correct one, undo back into the deal."),
    Move("host", "set_prince", host_set_prince, "Choose this round's Prince", who="host",
         phases=("deal",), args=(_SEAT,),
         early=lambda s: "The Prince can only be changed during the deal."),
    Move("host", "reveal_all", host_reveal, "Show every role of the round on the TV", who="host",
         phases=("scored", "over"), early=lambda s: "Roles can only be revealed after the flip."),
    Move("host", "adjust_soybeans", adjust_soybeans, "Give or take soybeans", who="host",
         phases=ALWAYS, args=(_SEAT, Arg("delta", "int", "soybeans to give (positive) or take "
                                        "(negative), not zero"))),
)


def _public(state: dict) -> dict:
    """What everyone may see; built field by field (never from the secret parts)."""
    prince = state["prince"]
    out = {
        "round": state["round"],
        "rounds": state["rounds"],
        "prince": {"seat": prince, "name": _name(state, prince)},
        "readers": state["options"]["readers"],
        "coasters_in_play": len(state["in_play"]),
        "has_center": _count(state) < 8,
        "positions": _positions(state),
        "down": [p for p in _positions(state) if p in state["placed"]],
        "due": None,
        "questions": [_question_view(state, q) for q in state["questions"]],
        "question_recording": state["options"]["questions"],
        "question_kinds": dict(QUESTION_LABELS),
        "reveal": state["options"]["reveal"],
        "budget": None,
        "flip": None,
        "roles": None,
        "history": [_history_view(state, h) for h in state["history"]],
        "lifted": list(state["lifted"]),
        "peek_seconds": state["options"]["peek_seconds"],
        "look_seconds": state["options"]["look_seconds"],
    }
    if state["phase"] == "deal" and state["options"]["readers"] == "table":
        out["due"] = next(p for p in _positions(state) if p not in state["placed"])
    if state["options"]["questions"] != "off":
        total = len(_others(state)) + 1
        out["budget"] = {"total": total, "left": total - len(state["questions"]),
                         "unasked": _unasked(state)}
    if state["flip"] is not None:
        out["flip"] = _history_view(state, {"round": state["round"], "prince": prince,
                                            **state["flip"]})
    if state["revealed"]:
        out["roles"] = _roles_view(state)
    return out


def _question_view(state: dict, q: dict) -> dict:
    about = q["about"]
    return {"to": q["to"], "to_name": _name(state, q["to"]), "question": q["question"],
            "label": QUESTION_LABELS[q["question"]], "about": about,
            "about_name": None if about is None else _where(state, about), "extra": q["extra"]}


def _history_view(state: dict, h: dict) -> dict:
    """A flip as shown once it happened (the flipped role is public from then on)."""
    return {"round": h["round"], "prince": _name(state, h["prince"]), "position": h["position"],
            "where": _where(state, h["position"]), "role": h["role"],
            "role_name": _role_name(state, h["role"]), "symbol": h["symbol"],
            "mark": SYMBOL_MARKS[h["symbol"]], "scorers": list(h["scorers"]),
            "scorer_names": [_name(state, s) for s in h["scorers"]]}


def _roles_view(state: dict) -> list[dict]:
    return [{"position": p, "where": _where(state, p), "role": r, "role_name": _role_name(state, r),
             "team": state["coasters"][r]["team"]} for p, r in state["placed"].items()]


def _goal(state: dict, team: str) -> str:
    """A team's win condition in words (symbols only: naming coasters would hint at the deal)."""
    if not any(state["coasters"][r]["winning_symbol"] == team for r in state["in_play"]):
        return f"Your team is the {team}; no coaster in play shows the {team}, so it cannot score."
    return (f"Your team is the {team}: you get a soybean when the Prince flips a coaster showing "
            f"the {team}.")


def _seat_view(state: dict, seat: int) -> dict:
    """A player's private part: their own role and goal (the Prince's shows no roles)."""
    if seat == state["prince"]:
        team = state["coasters"][PRINCE]["team"]
        can_ask = (state["phase"] == "questions" and state["options"]["questions"] != "off"
                   and len(state["questions"]) <= len(_others(state)))
        return {"seat": seat, "is_prince": True, "role": PRINCE,
                "role_name": _role_name(state, PRINCE), "team": team, "truth": None,
                "goal": f"You get a soybean when the coaster you flip shows the {team}. Ask each "
                        "player one question, then one extra, then flip.",
                "can_ask": can_ask, "ask_to": _unasked(state) or _others(state),
                "notes": dict(state["notes"])}
    role = state["placed"].get(seat_reader(seat))
    if role is None:
        return {"seat": seat, "is_prince": False, "role": None, "role_name": None, "team": None,
                "truth": None, "goal": "Your role shows here once the table has read your coaster."}
    coaster = state["coasters"][role]
    return {"seat": seat, "is_prince": False, "role": role, "role_name": coaster["name"],
            "team": coaster["team"], "truth": TRUTH_TEXT[coaster["truth"]],
            "goal": _goal(state, coaster["team"])}


def _host_view(state: dict) -> dict:
    """Everything the host needs for corrections: every coaster's role, the options, the data."""
    return {"placed": dict(state["placed"]), "in_play": list(state["in_play"]),
            "options": dict(state["options"]), "coasters": state["coasters"]}


def show(state: dict, audience: Audience) -> dict:
    """The view for ``table`` (public), ``seat-N`` (adds the player's own role) or ``host``."""
    out = common_view(state)
    out.update(_public(state))
    seat = audience.seat
    if audience.is_host:
        out["host"] = _host_view(state)
    elif seat is not None and 1 <= seat <= _count(state):
        out["me"] = _seat_view(state, seat)
    return out


GAME = Game(id=GAME_ID, name="Tofu Kingdom", min_players=3, max_players=8,
            setup=setup, show=show, phases=PHASES, moves=MOVES, options=OPTIONS,
            cards=lambda: [f"{GAME_ID}/{role}" for role in ROLES], awaiting=awaiting,
            summary="The Prince asks questions and flips the coaster he thinks is Princess Tofu; "
                    "the flipped coaster's symbol decides who gets a soybean.")
