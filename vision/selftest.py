"""The camera self-test on /calibrate: put these tokens on these spaces, then see what the camera read.

An owner asks for a plan (a few tokens of the calibrated types on named slots of one board), lays
it, keeps hands away, and the board is read once it lies still, the way a game's snapshot is
decided (:class:`vision.tracker.SnapshotTracker`). Every slot of the board is scored, the planned
token or empty, with :class:`vision.check.Tally`, so the figures count as ``tofu-table vision
check`` and the benchmark count. The runs of a table's session are kept in :class:`SelfTests`.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .check import Tally
from .layout import Layout
from .pipeline import glared_unsure
from .tokens import UNKNOWN
from .tracker import SnapshotTracker

#: Longest a reading waits for the board to lie still, seconds.
READ_TIMEOUT_S = 8.0
#: Tokens in a plan unless the owner asks for another number.
DEFAULT_COUNT = 8


class SelfTestError(ValueError):
    """A plan or reading that cannot be made; ``code`` names it, the message says what to do."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def make_plan(layout: Layout, types: list[str], count: int = DEFAULT_COUNT, seed: int | None = None) -> dict[str, str]:
    """``count`` tokens of the given ``types`` (each used before any repeats) on random slots of ``layout``, each
    on a slot that holds it in play (its region's ``holds``: a marker on a marker space), as a game lays them."""
    slots = [s.id for s in layout.slots]
    if not types:
        raise SelfTestError("no_types", f"Choose at least one token type for {layout.board}.")
    if not 1 <= count <= len(slots):
        raise SelfTestError("bad_count", f"A plan for {layout.board} holds 1 to {len(slots)} tokens (its "
                            f"slots), not {count}.")
    rng = random.Random(seed)
    kinds = [types[i % len(types)] for i in range(count)]
    rng.shuffle(kinds)
    holds, free, plan = layout.slot_types(), rng.sample(slots, len(slots)), {}
    for kind in kinds:
        spot = next((s for s in free if kind in holds[s]), None)
        if spot is None:
            raise SelfTestError("bad_count", f"{layout.board} has fewer spaces that hold {kind} than the plan's "
                                f"{kinds.count(kind)}: ask for fewer tokens or more types.")
        free.remove(spot)
        plan[spot] = kind
    return dict(sorted(plan.items(), key=lambda kv: slots.index(kv[0])))


def check_plan(layout: Layout, plan, types: list[str]) -> dict[str, str]:
    """An owner's own plan, checked: known slots of ``layout``, calibrated ``types``, at least one token."""
    if not isinstance(plan, dict) or not plan:
        raise SelfTestError("bad_plan", "A plan is an object {slot: token type} with at least one token.")
    slots = {s.id for s in layout.slots}
    for slot, kind in plan.items():
        if slot not in slots:
            raise SelfTestError("bad_plan", f"{layout.board} has no slot {slot!r} (its slots are "
                                f"{', '.join(s.id for s in layout.slots[:4])}, ...).")
        if kind not in types:
            raise SelfTestError("bad_plan", f"{kind!r} on {slot} is not a token type the camera knows on "
                                f"{layout.board} (calibrated: {', '.join(types)}).")
    return dict(plan)


def plan_asked(layout: Layout, body, types: list[str]) -> dict[str, str]:
    """The plan a request asks for: ``{"plan": {slot: type}}`` (the owner's own), or ``{"count": n,
    "types": [...], "seed": s}`` (random; each key may be left out) among the calibrated ``types``."""
    if not isinstance(body, dict):
        raise SelfTestError("bad_plan", 'Send an object: {"count": 8, "types": ["dairy", ...]} for a random '
                            'plan, or {"plan": {"slot": "type", ...}} for your own.')
    if "plan" in body:
        return check_plan(layout, body["plan"], types)
    count, chosen, seed = body.get("count", DEFAULT_COUNT), body.get("types", types), body.get("seed")
    if not isinstance(count, int) or isinstance(count, bool):
        raise SelfTestError("bad_count", f"count must be a whole number of tokens, not {count!r}.")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise SelfTestError("bad_seed", f"seed must be a whole number (or left out), not {seed!r}.")
    if not isinstance(chosen, list) or not set(chosen) <= set(types):
        raise SelfTestError("bad_types", f"types must be a list of the token types calibrated on "
                            f"{layout.board}: {', '.join(types)}.")
    return make_plan(layout, [t for t in types if t in chosen], count, seed)


def read_still(service, board: str, timeout: float = READ_TIMEOUT_S) -> tuple[dict[str, object], float, set[str]]:
    """What the camera reads on ``board`` once it has lain still for the pipeline's still frames
    (``unknown`` where unsure), the light change since calibration then, and the unsure slots glare
    washed out.

    Raises :class:`SelfTestError` when the board is out of view or never lies still (a hand over it).
    """
    watch = service.pipeline.boards[board]
    slots = [s.id for s in watch.layout.slots]
    tracker = SnapshotTracker(board, slots, service.pipeline.settings.still_frames, max_changes=len(slots))
    seen = {"frames": 0, "lost": 0, "busy": 0}

    def look(pipeline) -> bool:
        w = pipeline.boards[board]
        seen["frames"] += 1
        if seen["frames"] == 1:
            w.stale = True      # read every slot afresh: a token swapped without a hand may not show as motion
            return False
        if not (w.fix and w.fix.usable):
            seen["lost"] += 1
        elif w.busy:
            seen["busy"] += 1
        ready = w.fix is not None and w.fix.usable and w.reading is not None
        tracker.update(w.reading.labels if ready else None, w.busy or not ready)
        return tracker.state == "still"
    if not service.each_frame(look, timeout):
        if seen["lost"] > seen["busy"]:
            raise SelfTestError("board_not_found", f"Board {board} is not in view: check that its markers are "
                                "visible and not covered, then read again.")
        raise SelfTestError("board_busy", f"Something is over board {board} (a hand?): it did not lie still for "
                            f"{timeout:g} s. Take hands away from the board and read again.")
    read = {s: (tracker.committed or {}).get(s, UNKNOWN) for s in slots}
    read.update({s: UNKNOWN for s in tracker.unsure})
    glared = set(glared_unsure(watch, [s for s in slots if read[s] == UNKNOWN]))
    return read, round(float(service.pipeline.status()["boards"][board]["light_change"]), 2), glared


def score(layout: Layout, plan: dict[str, str], read: dict[str, object],
          glared: set[str] = frozenset()) -> tuple[Tally, list[dict]]:
    """Every slot of ``layout`` scored: the ``plan``'s token where it has one, empty elsewhere.

    Returns the tally and the slots read wrong, ``{"slot", "want", "got", "glare"}`` (``got`` ``unknown``:
    unsure; ``glare``: one of the ``glared`` slots, washed out by a reflection).
    """
    truth = {s.id: plan.get(s.id) for s in layout.slots}
    tally = Tally()
    tally.add_board(truth, read)
    return tally, [{"slot": s, "want": want, "got": read.get(s, UNKNOWN), "glare": s in glared}
                   for s, want in truth.items() if read.get(s, UNKNOWN) != want]


@dataclass
class SelfTests:
    """A table session's self-tests: the plan laid out on each board, and every reading since start."""

    plans: dict[str, dict[str, str]] = field(default_factory=dict)
    runs: list[dict] = field(default_factory=list)
    tallies: list[Tally] = field(default_factory=list)

    def record(self, board: str, plan: dict[str, str], tally: Tally, errors: list[dict], light: float) -> dict:
        """Keep one reading; the run as the page shows it."""
        run = {"n": len(self.runs) + 1, "board": board, "at": time.time(), "light_change": light,
               "tokens": len(plan), **tally.summary(), "slot_errors": errors}
        self.runs.append(run)
        self.tallies.append(tally)
        return run

    def summary(self) -> dict:
        """The plans, the runs and their total."""
        total = Tally()
        for t in self.tallies:
            total = total.merge(t)
        return {"plans": self.plans, "runs": self.runs, "total": total.summary()}
