"""`board` inputs: the slot-id scheme, corrections, and camera-watched boards.

Boards and their slots (every number is 1-based; see docs/food-for-thought.md):

- ``diet-<seat>``: ``body.<group>.<n>`` (n-th space of a body food group, in fill
  order: left to right, top to bottom), ``kitchen.<col>.<row>`` (column 1 = left,
  row 1 = top token of that column), ``trash.<n>``, and with the Freezer module
  ``freezer.<n>`` (1-4) and ``thaw.<n>`` (1-2).  A slot holds a food id or null.
- ``shop``: ``shop.<row>.<col>``, holding ``covered`` (a shopping token lies there)
  or null.

In the physical-first mode a diet board also shows its player's action markers:
``markers.<n>`` (the unused ones, ``marker``), and ``action.<space>.<n>`` (those placed on
the board's own action spaces this round: ``snack``, ``cook``, ``workout``; the order of
the markers on one space does not matter), and the tokens lying on incomplete cards
(``onrecipe.<n>``, ``onactivity.<n>``).

A board input is what the camera saw; it never changes the record by itself, so
a move is never counted twice (once by the recorded action, once by the reading).
A board the host marks as camera-watched keeps its snapshots apart (``seen``);
wherever the camera has reported and the snapshot and the recorded actions
disagree (a body space, or the tokens of a kitchen column, the trash, the
freezer or the thaw area, whose order does not matter) the difference is listed
for the host, who accepts the snapshot (it becomes the record) or has the table
fix the tokens until the next snapshot agrees.  The host corrects the record
directly with the ``correct_board`` host action.
"""
from __future__ import annotations

import re

from ..base import Quiet, RuleError, event
from . import abilities, physical, rules

COVERED = "covered"
MARKER = "marker"
#: Diet board slots only the physical-first mode reads (the unused markers, action spaces, tokens on cards).
PHYSICAL_ONLY = ("markers", "action", "onrecipe", "onactivity")
_DIET = re.compile(r"^diet-([1-9])$")


def board_ids(state: dict) -> list[str]:
    """Every board id of this game."""
    main = [physical.MAIN] if physical.main_in_play(state) else []
    return [f"diet-{p['seat']}" for p in state["seats"].values()] + ["shop"] + main


def diet_slots(p: dict) -> dict:
    """The slots the recorded actions imply for a player's diet board (occupied ones only)."""
    out = {}
    for gid, foods in p["body"].items():
        for n, f in enumerate(foods, 1):
            if f is not None:                 # a space a work out left empty stays empty
                out[f"body.{gid}.{n}"] = f
    for c, col in enumerate(p["kitchen"], 1):
        for r, f in enumerate(col, 1):
            out[f"kitchen.{c}.{r}"] = f
    for area in ("trash", "freezer", "thaw"):
        for n, f in enumerate(p[area], 1):
            out[f"{area}.{n}"] = f
    return out


def shop_slots(state: dict) -> dict:
    return {f"shop.{space}": COVERED for space in state["covered"]}


def implied(state: dict, board: str) -> dict:
    """What the recorded actions put in ``board``'s slots."""
    if board == "shop":
        return shop_slots(state)
    if board == physical.MAIN and physical.main_in_play(state):
        return physical.main_slots(state)
    p = _seat_of(state, board)
    if physical.physical_first(state):          # the unused action markers lie on the diet board
        on_recipes = [f for rid in p["recipes"] for f in p["recipe_tokens"][rid] if f is not None]
        on_activities = [f for aid in p["activities"] for t in p["activity_tokens"][aid] if t for f in t]
        unused = rules.ACTIONS_PER_ROUND if state["phase"] == "assistants" else abilities.row_markers(p)  # taken back
        placed = p.get("diet_markers", {}) if state["phase"] in ("actions", "pizza_extra", "round_end") else {}
        return {**diet_slots(p), **{f"markers.{n}": MARKER for n in range(1, unused + 1)},          # at clean-up
                **{f"action.{space}.{n}": MARKER for space, k in placed.items() for n in range(1, k + 1)},
                **{f"onrecipe.{n}": f for n, f in enumerate(sorted(on_recipes), 1)},
                **{f"onactivity.{n}": f for n, f in enumerate(sorted(on_activities), 1)}}
    return diet_slots(p)


def _seat_of(state: dict, board: str) -> dict:
    m = _DIET.match(board)
    if not m or m.group(1) not in state["seats"]:
        raise RuleError("unknown_card", f"There is no board {board!r} in this game; boards: "
                        f"{', '.join(board_ids(state))}.")
    return state["seats"][m.group(1)]


def _check_slot(state: dict, board: str, slot: str, token, strict: bool) -> None:
    """Refuse a slot id that does not exist on ``board`` (and, when ``strict``, a token
    that cannot lie there)."""
    parts = slot.split(".")
    if board == physical.MAIN:
        physical.check_main_slot(state, slot, token)
        return
    if board == "shop":
        if len(parts) != 3 or parts[0] != "shop" or f"{parts[1]}.{parts[2]}" not in state["shopping"]:
            raise RuleError("unknown_card", f"The shopping list has no slot {slot!r} (use shop.<row>.<col>).")
        if token not in (None, COVERED):
            raise RuleError("bad_argument", f"A shopping list slot holds {COVERED!r} or null, not {token!r}.")
        return
    p = _seat_of(state, board)
    is_marker = parts[0] in ("markers", "action") and token == MARKER
    if token is not None and token not in state["foods"] and not is_marker:
        raise RuleError("unknown_card", f"{token!r} in {slot} is not a food token.")
    ok = False
    if parts[0] == "body" and len(parts) == 3 and parts[2].isdigit():
        g = next((g for g in p["groups"] if g["id"] == parts[1]), None)
        ok = g is not None and 1 <= int(parts[2]) <= len(g["spaces"])
        if ok and strict and token is not None and token not in g["foods"]:
            raise RuleError("breaks_rule", f"{token} does not belong in the {g['name']} group ({slot}).")
    elif parts[0] == "kitchen" and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        ok = 1 <= int(parts[1]) <= len(p["kitchen"]) and int(parts[2]) >= 1
    elif parts[0] == "markers" and len(parts) == 2 and parts[1].isdigit() and physical.physical_first(state):
        if token not in (None, MARKER):
            raise RuleError("bad_argument", f"An action marker space holds {MARKER!r} or null, not {token!r}.")
        return
    elif (parts[0] == "action" and len(parts) == 3 and parts[1] in rules.DIET_SPACES and parts[2].isdigit()
          and physical.physical_first(state)):
        if token not in (None, MARKER):
            raise RuleError("bad_argument", f"A diet board action space holds {MARKER!r} or null, not {token!r}.")
        return
    elif parts[0] in ("onrecipe", "onactivity") and len(parts) == 2 and parts[1].isdigit() and physical.physical_first(state):
        ok = True                         # a token lying on one of the player's incomplete recipe cards
    elif parts[0] in ("trash", "freezer", "thaw") and len(parts) == 2 and parts[1].isdigit():
        limit = {"trash": 999, "freezer": rules.FREEZER_SPACES, "thaw": rules.THAW_SPACES}[parts[0]]
        ok = 1 <= int(parts[1]) <= limit and (parts[0] == "trash" or state["options"]["freezer"])
    if not ok:
        raise RuleError("unknown_card", f"Board {board} has no slot {slot!r}: slots are body.<group>.<n>, "
                        "kitchen.<col>.<row>, trash.<n>" + (", freezer.<n>, thaw.<n>" if state["options"]["freezer"]
                                                             else "") + ".")


def _rebuild_diet(p: dict, slots: dict) -> None:
    """Set a player's body, kitchen, trash, freezer and thaw from a full slot map."""
    def ordered(prefix):
        found = sorted((tuple(int(x) for x in s[len(prefix):].split(".")), f)
                       for s, f in slots.items() if s.startswith(prefix) and f is not None)
        return found
    for g in p["groups"]:
        placed = {n: f for (n,), f in ordered(f"body.{g['id']}.")}
        p["body"][g["id"]] = [placed.get(n) for n in range(1, max(placed, default=0) + 1)]
    kitchen = [[] for _ in p["kitchen"]]
    for (c, _r), f in ordered("kitchen."):
        kitchen[c - 1].append(f)
    p["kitchen"] = kitchen
    for area in ("trash", "freezer", "thaw"):
        p[area] = [f for _, f in ordered(f"{area}.")]


def _apply_slots(state: dict, board: str, slots: dict) -> None:
    full = {**implied(state, board), **slots}
    full = {s: t for s, t in full.items() if t is not None}
    if board == "shop":
        kept = {s: why for s, why in state["covered"].items() if f"shop.{s}" in full}
        state["covered"] = {s[5:]: kept.get(s[5:], "shopping") for s in full}
    else:
        _rebuild_diet(_seat_of(state, board), full)


def area(slot: str) -> str:
    """Where a slot's position matters: a body or shopping list space is its own area; a kitchen
    column, the trash, the freezer, the thaw area and one diet board action space's markers are
    areas whose tokens have no order."""
    parts = slot.split(".")
    if parts[0] in ("kitchen", "action"):
        return ".".join(parts[:2])
    if parts[0] in ("trash", "freezer", "thaw", "onrecipe", "onactivity"):
        return parts[0]
    return slot


def _by_area(slots: dict, areas) -> dict:
    out = {a: [] for a in areas}
    for slot, token in slots.items():
        if area(slot) in out and token is not None:
            out[area(slot)].append(token)
    return {a: sorted(t) for a, t in out.items()}


def disagreements(state: dict, board: str, wanted: dict | None = None) -> list[dict]:
    """Where a watched board's snapshot and the recorded actions differ, for every area the camera
    has reported: a body or shop slot by slot, a kitchen column or the trash by its tokens (``wanted``:
    the slots to compare with instead of the record's)."""
    info = state["boards"].get(board)
    if not info or not info["watched"]:
        return []
    return compare(info, implied(state, board) if wanted is None else wanted)


def compare(info: dict, wanted: dict) -> list[dict]:
    """Where a board's camera reading (``info``: its ``seen`` slots and reported ``areas``) differs
    from the slots ``wanted``, area by area (see :func:`disagreements`)."""
    areas = sorted(info["areas"])
    seen, rec = _by_area(info["seen"], areas), _by_area(wanted, areas)
    out = []
    for a in areas:
        if seen[a] != rec[a]:
            single = a.count(".") >= 2            # a body or shop slot: show the token itself
            out.append({"slot": a, "recorded": (rec[a][0] if rec[a] else None) if single else rec[a],
                        "seen": (seen[a][0] if seen[a] else None) if single else seen[a]})
    return out


def board_input(state: dict, body: dict) -> list[dict]:
    """A `board` input: what the camera saw on one board.

    A reading never changes the record by itself: the recorded actions already
    moved those tokens (or are about to), so applying the reading as well would
    count the same move twice.  A watched board keeps the reading as ``seen`` and
    lists where it differs from the record; a board nobody watches ignores it
    (after checking its slots).  The host changes the record with
    :func:`correct` or :func:`accept`.
    """
    board, slots = body["board"], body["slots"]
    if board not in (physical.MAIN, "shop"):
        _seat_of(state, board)
    physical_first = physical.physical_first(state)
    if not physical_first and board != physical.MAIN:   # the marker spaces and tokens on cards mean nothing to a guided game
        slots = {s: t for s, t in slots.items() if s.split(".")[0] not in PHYSICAL_ONLY}
    slots = _readable(state, board, slots)
    if board == physical.MAIN:
        return _main_reading(state, slots)
    info = state["boards"].get(board) or {"watched": physical_first, "seen": {}, "areas": []}
    if not info["watched"]:
        raise Quiet()
    state["boards"][board] = info
    seen = {s: t for s, t in {**info["seen"], **slots}.items() if t is not None}
    areas = sorted(set(info["areas"]) | {area(s) for s in slots})
    if seen == info["seen"] and areas == info["areas"]:
        raise Quiet()                 # the camera saw nothing new: not journaled
    info["seen"], info["areas"] = seen, areas
    if physical_first:
        from .inference import after_reading
        inferred = after_reading(state)
        if inferred:
            return inferred
    diff = disagreements(state, board)
    return [event(state, "snapshot", f"Camera on {board}: " + (f"{len(diff)} slot(s) differ from the "
                  "recorded actions." if diff else "agrees with the recorded actions."))]


def _readable(state: dict, board: str, slots: dict) -> dict:
    """A camera reading's slots that can be taken.  A slot the board does not have, or a token this game does
    not know, is refused (a layout or a client that does not fit the game).  A token of the game on a slot
    where it cannot lie (a Fats & Oils read as a player's yellow marker on Pizza To Go) is the camera taking
    one token for another: that slot alone is left out, as if the camera were unsure of it, so the rest of
    the board is still read (the table waits for the slot as it does for any unsure one)."""
    known = set(state["foods"]) | {MARKER, COVERED, physical.DIE} | {physical.marker(int(s)) for s in state["seats"]}
    kept = {}
    for slot, token in slots.items():
        _check_slot(state, board, slot, None, strict=False)        # the slot exists
        if token is not None and token not in known:
            raise RuleError("unknown_card", f"{token!r} in {slot} is not a token of this game.")
        try:
            _check_slot(state, board, slot, token, strict=False)
        except RuleError:
            continue
        kept[slot] = token
    return kept


def _main_reading(state: dict, slots: dict) -> list[dict]:
    """The main board is read, never corrected: its dice and dining-out tokens feed the game."""
    if not physical.main_in_play(state):
        raise Quiet()                     # nothing on the main board feeds this game (checked all the same)
    info = state["boards"].setdefault(physical.MAIN, {"watched": True, "seen": {}, "areas": []})
    seen = {s: t for s, t in {**info["seen"], **slots}.items() if t is not None}
    areas = sorted(set(info["areas"]) | ({"action"} if any(s.startswith("action.") for s in slots) else set()))
    if seen == info["seen"] and areas == info["areas"]:
        raise Quiet()                     # nothing new on the main board: not journaled
    info["seen"], info["areas"] = seen, areas
    events = physical.main_reading(state, seen)
    if physical.physical_first(state):
        from .inference import after_reading
        events += after_reading(state)
    return events or [event(state, "main_board", "The camera read the main board.")]


def correct(state: dict, board, slots) -> list[dict]:
    """The host's correction: ``slots`` replace what the record holds there (null empties a slot)."""
    if not isinstance(board, str) or board not in board_ids(state):
        raise RuleError("unknown_card", f"There is no board {board!r}; boards: {', '.join(board_ids(state))}.")
    if board == physical.MAIN:
        raise RuleError("breaks_rule", "The main board's dice and dining-out tokens are read by the camera: "
                        "move the tokens on the table instead.")
    if not isinstance(slots, dict) or not slots or not all(isinstance(s, str) for s in slots):
        raise RuleError("bad_argument", "Name the slots to correct: {\"slots\": {\"body.dairy.1\": \"dairy\"}} "
                        "(null empties a slot).")
    for slot, token in slots.items():
        _check_slot(state, board, slot, token, strict=True)
    before = implied(state, board)
    _apply_slots(state, board, slots)
    if implied(state, board) == before:
        raise Quiet()
    return [event(state, "corrected", f"{board} corrected: " + ", ".join(
        f"{s} = {t or 'empty'}" for s, t in list(slots.items())[:6]) + (" ..." if len(slots) > 6 else "") + ".")]


def watch(state: dict, board: str, watched: bool) -> list[dict]:
    """Mark ``board`` as watched by the camera (its snapshots are compared with the record) or not."""
    if board not in board_ids(state):
        raise RuleError("unknown_card", f"There is no board {board!r}; boards: {', '.join(board_ids(state))}.")
    if not isinstance(watched, bool):
        raise RuleError("bad_argument", "watched must be true or false.")
    info = state["boards"].setdefault(board, {"watched": False, "seen": {}, "areas": []})
    info["watched"] = watched
    info["seen"], info["areas"] = {}, []      # compared only where the camera has reported
    return [event(state, "watch", f"{board} is {'now' if watched else 'no longer'} watched by the camera.")]


def accept(state: dict, board: str) -> list[dict]:
    """The host accepts the camera's snapshot of ``board`` as the record.  Physical-first, while the TV
    lists what to put back of the active player's move and ``board`` is among them: the whole move,
    as the camera sees it (see :func:`inference.accept_move`)."""
    if physical.physical_first(state) and state["phase"] in ("actions", "pizza_extra") \
            and board in {d["board"] for d in state["put_back"]}:
        from .inference import accept_move
        return accept_move(state)
    return take_view(state, board)


def take_view(state: dict, board: str) -> list[dict]:
    """The camera's snapshot of ``board`` becomes the record where they differ."""
    info = state["boards"].get(board) if isinstance(board, str) else None
    if not info or not info["watched"]:
        raise RuleError("unavailable", f"{board} is not watched by the camera; nothing to accept.")
    diff = disagreements(state, board)
    if not diff:
        raise RuleError("already_done", f"The camera and the record agree on {board}.")
    differ = {d["slot"] for d in diff}
    slots = {s: None for s in implied(state, board) if area(s) in differ}
    slots.update({s: t for s, t in info["seen"].items() if area(s) in differ})
    _apply_slots(state, board, slots)
    return [event(state, "accepted", f"The host accepted the camera's view of {board} ({len(diff)} slot(s)).")]
