"""Food for Thought (Grail Games, 2025) on the table: 1-4 players, six rounds, a receipt at the end.

The package: ``rules`` (the rulebook's numbers), ``data`` (the card data and its
schema), ``setup``, ``rounds`` (assistants, turns, clean-up, end), ``actions``,
``tokens`` (moving food on a diet board), ``boards`` (`board` inputs and the
slot-id scheme), ``physical`` (tagged cards, the main board), ``inference`` (an action
worked out from the boards), ``cleanup`` (the end-of-round steps checked on the boards), ``scoring`` (receipt, sets, goals, winner), ``views``, plus
``cli`` (`tofu-table data check`) and ``web`` (the host's card entry form).
"""
from __future__ import annotations

from pathlib import Path

from ..base import FIRST_SEAT, Game, Option, RuleError, event, player
from ..moves import BOARD_ARGS, TAG_ARGS, Arg, Move, Phase
from . import abilities, actions, boards, data, inference, physical, rounds, rules
from .setup import game_data, set_allergy, setup
from .views import prompt, seat_record, view


# ----- host actions of their own (the host may also act for any seat) ------------------------

def _continue(state: dict, args: dict) -> list[dict]:
    """The clean-up is done on the table: start the next round (or score the game)."""
    return rounds.finish_cleanup(state)


def _watch_board(state: dict, args: dict) -> list[dict]:
    return boards.watch(state, args["board"], args["watched"])


def _accept_board(state: dict, args: dict) -> list[dict]:
    return boards.accept(state, args["board"])


def _correct_board(state: dict, args: dict) -> list[dict]:
    return boards.correct(state, args["board"], args["slots"])


def _adjust(state: dict, args: dict) -> list[dict]:
    """A VP adjustment with its reason (it shows on the receipt)."""
    seat, vp, reason = args["seat"], args["vp"], args["reason"].strip()[:80]
    if not reason:
        raise RuleError("bad_argument", "An adjustment needs a \"reason\" (it shows on the receipt).")
    p = state["seats"][str(seat)]
    p["adjustments"].append({"vp": vp, "reason": reason})
    player(state, seat)["score"] += vp
    return [event(state, "adjust", f"Host: {p['name']} {vp:+d} VP ({reason}).")]


def _allow_once(state: dict, args: dict) -> list[dict]:
    """Let a player break one named limit once (a card's effect the table cannot apply otherwise)."""
    return abilities.allow_once(state, args["seat"], args["limit"])


def _assign_allergy(state: dict, args: dict) -> list[dict]:
    """Hand a player a Food Allergy tile (before any food reaches a body)."""
    if not state["options"]["food_allergy"]:
        raise RuleError("option_off", "The Food Allergy module is not in this game.")
    p, tile = state["seats"][str(args["seat"])], args["tile"]
    if tile not in state["cards"]["allergies"]:
        raise RuleError("unknown_card", f"Allergy tiles: {', '.join(sorted(state['cards']['allergies']))}.")
    if any(p["body"][g["id"]] for g in p["groups"] if g.get("tile")) or state["round"] > 1:
        raise RuleError("too_late", "Allergy tiles are handed out before any food reaches a body.")
    set_allergy(state, p, tile)
    return [event(state, "allergy", f"{p['name']} has the {state['cards']['allergies'][tile]['name']} tile.")]


# ----- a player's actions (from the phone, or the host acting for the seat) ------------------

def _acting(name: str):
    """The handler of seat action ``name``: the answer to the table's question, or the player's
    action by ``actions.take`` (which settles any question the table had asked)."""
    def run(state: dict, args: dict) -> list[dict]:
        body = {"action": name, **{k: v for k, v in args.items() if v is not None and k != "seat"}}
        if name == "answer":
            return inference.answer(state, args["seat"], body)
        if name == "roll":
            return inference.roll(state, args["seat"], body)
        state["question"] = None
        return actions.take(state, args["seat"], body)
    return run


def _you(state: dict, seat: int) -> str | None:
    """The second-person line for the player whose turn it is (the others read the TV's)."""
    phase = state["phase"]
    if state["question"] and state["question"]["seat"] == seat:
        return "Your turn: tell the table which action you took (tap it below)."
    if inference.roll_awaited(state, seat):
        return "Your turn: you go shopping. Roll the two dice and tap the roll below."
    if state["turn"] == seat and inference.waiting_for_marker(state):
        return "Your turn: the table cannot see where your marker went: set it squarely on one action space."
    if phase == "assistants" and state["assistant_queue"] and state["assistant_queue"][0] == seat:
        return f"Your turn: pick an assistant for round {state['round']}."
    if phase in ("actions", "pizza_extra") and state["pending"] and state["pending"]["seat"] == seat:
        return "Your turn: choose what to buy (or buy nothing)."
    if phase == "actions" and state["turn"] == seat and not state["pending"]:
        p = seat_record(state, seat)
        return (f"Your turn: action {rules.ACTIONS_PER_ROUND - p['actions_left'] + 1} of "
                f"{rules.ACTIONS_PER_ROUND}: place your marker, or pass.")
    if phase == "pizza_extra" and state["turn"] == seat and not state["pending"]:
        return "Your turn: take your extra action from Pizza To Go, or skip."
    return None


def _dining_as_seen(state: dict, args: dict) -> list[dict]:
    """The one tap confirming the dining-out tokens as the camera read them; a marker waiting on
    dining out is then worked out at once."""
    events = physical.dining_as_seen(state, args.get("seat"))
    if physical.physical_first(state):
        events += inference.after_reading(state)
    return events


_LIST_STR = dict(kind="list", items="str", optional=True)
_PLACEMENTS = dict(kind="list", items="object", optional=True)
#: Each seat action with its arguments (checked again, in detail, by the action itself).
SEAT_ACTIONS = {
    "assistant": ("Pick an assistant", ("assistants",),
                  (Arg("card", "str", "the assistant card id", optional=True),
                   Arg("cards", help="the assistant card ids (solo)", max_items=5, **_LIST_STR))),
    "shop": ("Go grocery shopping", ("actions", "pizza_extra"),
             (Arg("dice", "list", "the two dice rolled by hand (dice: physical)", optional=True,
                  items="int", max_items=2),)),
    "buy": ("Buy from the shopping list after rolling", ("actions", "pizza_extra"),
            (Arg("items", help="{\"space\": \"row.col\"} or {\"special\": food} each", max_items=20,
                 **_PLACEMENTS),
             Arg("freeze", help="tokens bought straight into the freezer", max_items=20, **_LIST_STR))),
    "market": ("Visit a farmers market stand", ("actions", "pizza_extra"),
               (Arg("card", "str", "the open stand's card id", optional=True),
                Arg("wild", help="the food chosen for each wild space", max_items=8, **_LIST_STR),
                Arg("freeze", help="tokens put straight into the freezer", max_items=20, **_LIST_STR))),
    "pizza": ("Dine at Pizza To Go", ("actions", "pizza_extra"), ()),
    "buffet": ("Dine at the Chinese Buffet", ("actions", "pizza_extra"),
               (Arg("row", "int", "the buffet row", optional=True),)),
    "snack": ("Snack on a kitchen token", ("actions", "pizza_extra"),
              (Arg("food", "str", "the food eaten", optional=True),
               Arg("from", "choice", "kitchen or thaw", optional=True, choices=("kitchen", "thaw")),
               Arg("column", "int", "the kitchen column", optional=True))),
    "cook": ("Take recipes and cook", ("actions", "pizza_extra"),
             (Arg("take", help="face-up recipes taken", max_items=abilities.MOST, **_LIST_STR),
              Arg("place", help="{\"recipe\", \"food\"} placements (\"wild\": true: counts as wild)",
                  max_items=abilities.MOST, **_PLACEMENTS),
              Arg("thaw", help="frozen foods thawed", max_items=rules.THAWS_PER_COOK, **_LIST_STR))),
    "workout": ("Take activities and work out", ("actions", "pizza_extra"),
                (Arg("take", help="face-up activities taken", max_items=abilities.MOST, **_LIST_STR),
                 Arg("place", help="{\"activity\", \"food\"} placements", max_items=abilities.MOST,
                     **_PLACEMENTS))),
    "pass": ("Pass for the rest of the round", ("actions", "pizza_extra"),
             (Arg("space", "choice", "the space the marker goes on", optional=True,
                  choices=actions.SPACES),)),
    "skip": ("Give up the extra Pizza To Go action", ("pizza_extra",), ()),
    "use_ability": ("Use a completed recipe's ability or an assistant's option",
                    ("actions", "pizza_extra", "round_end", "cleanup"),
                    (Arg("recipe", "str", "the completed recipe", optional=True),
                     Arg("assistant", "str", "the assistant card (instead of a recipe)", optional=True),
                     Arg("option", "int", "the assistant's option: 1 or 2", optional=True),
                     Arg("food", "str", "the food chosen", optional=True),
                     Arg("column", "int", "the kitchen column chosen", optional=True),
                     Arg("space", "str", "the shopping list space chosen (row.col)", optional=True),
                     Arg("target", "int", "the other player's seat chosen", optional=True),
                     Arg("die", "int", "the die chosen: 1 or 2", optional=True),
                     Arg("value", "int", "the die face chosen (or rolled by hand)", optional=True))),
    "roll": ("Physical-first, dice: physical: enter the two dice rolled for the shopping trip", ("actions", "pizza_extra"),
             (Arg("dice", "list", "the two dice rolled by hand", optional=True, items="int", max_items=2),)),
    "answer": ("Answer the table's question about what the camera saw", None,
               (Arg("choice", "int", "the number of the answer chosen", optional=True),)),
    "tile_first": ("Choose the foods that go on the allergy tile first", None,
                   (Arg("foods", help="foods of the tile, in order", max_items=12, **_LIST_STR),)),
}
_SEAT = Arg("seat", "seat", "the seat the host acts for")


def _not_now(name: str):
    """The ``not_now`` message of seat action ``name`` outside its phases."""
    def early(state: dict) -> str:
        if name == "assistant":
            return "Assistants are chosen at the start of a round, not now."
        if name == "skip":
            return "Only the Pizza To Go player skips, at the end of the round."
        if state["phase"] == "assistants":
            return "Everyone picks an assistant before actions begin."
        if state["phase"] == "cleanup":
            return "The round is being cleaned up; the host continues when the table is ready."
        return "No actions are taken now."
    return early


PHASES = (
    Phase("assistants", "Each player picks an assistant", prompt=prompt, you=_you),
    Phase("actions", "Players take turns placing their action markers", prompt=prompt, you=_you),
    Phase("pizza_extra", "The Pizza To Go player's extra action", prompt=prompt, you=_you),
    Phase("round_end", "Physical-first: the people tidy the boards; the camera sees when they are done",
          prompt=prompt),
    Phase("cleanup", "Clean-up on the table; the host continues", prompt=prompt),
    Phase("over", "The game is over: the receipts", prompt=prompt),
)

MOVES = (
    Move("tap", None, physical.tap, "A card drawn from a deck, tapped on a reader",
         who="the players, on their readers", args=TAG_ARGS),
    Move("board", None, boards.board_input, "What the camera sees on one board", who="the camera",
         args=BOARD_ARGS),
    Move("button", "advance", _continue, "Finish the clean-up", who="anyone at the table"),
    *(Move("seat", name, _acting(name), what, who="the player (whose turn it is)", phases=phases,
           args=args, early=_not_now(name)) for name, (what, phases, args) in SEAT_ACTIONS.items()),
    *(Move("host", name, _acting(name), f"{what} (for a seat)", who="host", phases=phases,
           args=(_SEAT, *args), early=_not_now(name)) for name, (what, phases, args) in SEAT_ACTIONS.items()),
    Move("seat", "dining_as_seen", _dining_as_seen, "Dining out lies as the camera read it",
         who="the player whose turn it is", phases=("assistants", "actions", "pizza_extra")),
    Move("host", "dining_as_seen", _dining_as_seen, "Dining out lies as the camera read it", who="host",
         phases=("assistants", "actions", "pizza_extra")),
    Move("host", "continue", _continue, "Finish the clean-up", who="host"),
    Move("host", "adjust", _adjust, "Add or take VP with a reason", who="host",
         args=(_SEAT, Arg("vp", "int", "VP to add (negative: take)"),
               Arg("reason", "str", "why (shows on the receipt)", max_length=200))),
    Move("host", "allow_once", _allow_once, "Let a player break a named limit once", who="host",
         args=(_SEAT, Arg("limit", "choice", "the limit", choices=(*abilities.LIMITS, *abilities.RULE_LIMITS)))),
    Move("host", "assign_allergy", _assign_allergy, "Hand a player an allergy tile", who="host",
         args=(_SEAT, Arg("tile", "str", "the allergy tile id"))),
    Move("host", "watch_board", _watch_board, "Have the camera watch a board, or stop", who="host",
         args=(Arg("board", "str", "the board id"),
               Arg("watched", "bool", "watch (true) or not", optional=True, default=True))),
    Move("host", "accept_board", _accept_board, "Take the camera's reading as the record", who="host",
         args=(Arg("board", "str", "the board id"),)),
    Move("host", "correct_board", _correct_board, "Correct the record of a board's slots", who="host",
         args=(Arg("board", "str", "the board id"),
               Arg("slots", "object", "slot id to food, or null to empty it"))),
)


def camera_boards(state: dict) -> dict[str, dict]:
    """Every board of the game (a diet board per seat, the shop) with the slots the record fills."""
    return {board: boards.implied(state, board) for board in boards.board_ids(state)}


def camera_tokens(data_dir: Path | None) -> dict[str, tuple[str, ...]]:
    """The camera's token sets: ``foods``, every food id (the owner's foods in ``data_dir`` over the
    sample); ``main-board``, what lies on the main board: the foods, the dice and each seat's
    player-colour action markers; ``diet-board``, what lies on a diet board and the cards beside it:
    the foods and the player's own action markers."""
    owner = Path(data_dir) / data.OWNER_SUBDIR if data_dir else None
    catalog = data.load(owner, sample_only=owner is None)
    foods = tuple(f["id"] for f in catalog.records["foods"])
    markers = tuple(physical.marker(seat) for seat in range(1, GAME.max_players + 1))
    return {"foods": foods, physical.MAIN_TOKENS: foods + (physical.DIE,) + markers,
            physical.DIET_TOKENS: foods + (boards.MARKER,)}


OPTIONS = (
    FIRST_SEAT,
    Option("diet", "Diet boards: auto (Standard; Cleanse when solo), one board id for everyone, or one id "
           "per seat separated by commas", "auto", type=str),
    Option("potluck", "Potluck module (not solo)", False),
    Option("goals", "Goals module: two goals at random (not solo)", False),
    Option("food_allergy", "Food Allergy module: a tile per player", False),
    Option("freezer", "Freezer module: freezer and thaw areas", False),
    Option("dice", "Shopping dice, from one place only: rolled by the table (digital), rolled by hand and "
           "entered on the phone (physical), or rolled by hand and read by the camera (camera, the default where a camera "
           "feeds the table)", "digital", choices=("digital", "physical", "camera"), with_camera="camera"),
    Option("draws", "Decks, assistants, goals and the bag: dealt by the table, or drawn by the group "
           "(tagged cards tapped, dining-out tokens read by the camera)", "table", choices=("table", "physical")),
    Option("mode", "physical: the camera and readers drive the game and the phones only answer questions; "
           "guided: players enter every action on their phones (the default where no camera feeds the table)",
           "guided", choices=("guided", "physical"), with_camera="physical"),
    Option("data", "Card data: the owner's folder where it has a file, else the sample; or sample only",
           "owner", choices=("owner", "sample")),
)

GAME = Game(id=rules.GAME_ID, name="Food for Thought", min_players=1, max_players=4,
            setup=setup, show=view, phases=PHASES, moves=MOVES, options=OPTIONS, watch=camera_boards,
            tokens=camera_tokens, cards=physical.cards, data=game_data,
            summary="Six rounds of shopping, cooking and working out; the table keeps every "
                    "board and writes each player's receipt.")
