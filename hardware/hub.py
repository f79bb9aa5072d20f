"""The reader hub: polls every reader and turns what they see into ``tap`` and ``lift`` inputs.

One background thread per group of readers (one per SPI bus; USB and
simulated readers each have their own group) polls its readers in turn.  For
each reader the hub keeps the tag it last reported:

* a tag that arrives is one ``tap``; while it stays, nothing more is sent,
  even if single polls miss it;
* a ``lift`` is sent only once the tag has not been seen for ``lift_after``
  seconds *and* ``lift_misses`` polls in a row found the reader empty (so a
  stalled poll loop followed by one missed answer is not a lift); a different
  tag arriving first sends the lift, then the new tap;
* two tags at once (a collision) and garbled reads never produce an input:
  the first is shown as a problem in the reader's health, the second is just
  retried by the next poll;
* while no reader of a group holds a tag, its rounds are ``idle_round`` long (18 ms: 55 polls a
  second, 50 with a margin for late wake-ups), and ``min_round`` again as soon as one does, so
  lifts are timed as before; once none has held one for ``doze_after`` seconds (nobody is
  playing at that end of the table) the group dozes: rounds of ``doze_round`` (40 ms: 25 polls
  a second, the idle table's CPU halved), and once no reader of the whole table has held one for
  ``deep_doze_after`` seconds (30: nobody is playing) every group dozes deeply: rounds of
  ``deep_doze_round`` (100 ms: 10 polls a second); a tag arriving anywhere wakes them all from
  the deep doze (only its own tap waits up to a round longer), its group to the full pace; each
  reader's health says the pace;
* a reader that stops answering is marked down, reopened with a growing
  back-off (``retry_first`` doubling up to ``retry_max``) and comes back by
  itself; the other readers keep being polled.  While it is down its tag is
  neither lifted nor tapped again: nobody knows whether it is still there.
  When it is back, an empty first poll is ignored (a card may still be
  powering up) and the tag is lifted only as above; the same tag is no new
  tap, another one is a lift and a tap.

Inputs go to ``sink(inp, source)``, normally ``Table.put``; enrolment diverts
them with :meth:`ReaderHub.divert`.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Callable

from .reader import COLLISION, GARBLED, NO_TAG, TAG, Poll, ReaderDown, TagReader

log = logging.getLogger(__name__)

Sink = Callable[[dict, str], None]


@dataclass
class ReaderHealth:
    """How one reader is doing, as /api/health shows it."""

    name: str
    kind: str
    status: str = "starting"      # starting | ok | down | collision
    detail: str = ""
    last_seen: float | None = None   # wall-clock time of the last answer
    pace: str = "waiting"            # playing | waiting | dozing | dozing deeply: how often it is polled
    pace_detail: str = ""            # the doze in words, added to an answering reader's detail

    def as_dict(self) -> dict:
        detail = f"{self.detail}; {self.pace_detail}" if self.pace_detail and self.status == "ok" else self.detail
        return {"name": self.name, "kind": self.kind, "status": self.status,
                "detail": detail, "last_seen": self.last_seen, "pace": self.pace}


#: How many of a reader's latest lifts its stats keep (the time from the card last seen to each):
#: a list of every one grew the server 32 bytes a lift for as long as it ran (issue 20).
LIFTS_KEPT = 100


class _Slot:
    """The hub's bookkeeping for one reader."""

    def __init__(self, reader: TagReader):
        self.reader = reader
        self.health = ReaderHealth(reader.name, f"reader:{reader.kind}", detail=reader.describe())
        self.is_open = False
        self.current: str | None = None    # the UID last reported by a tap
        self.seen_at = 0.0                 # monotonic time it was last seen
        self.misses = 0                    # empty polls in a row since then
        self.fresh = False                 # the next poll is the first since (re)opening
        self.retry_at = 0.0
        self.retry_wait = 0.0
        self.polls = 0
        self.counts: Counter[str] = Counter()    # poll results by status, and "down"
        self.lift_delays: deque[float] = deque(maxlen=LIFTS_KEPT)   # seconds from last seen to each lift


class ReaderHub:
    """Polls ``readers`` in background threads and sends taps and lifts to ``sink``."""

    def __init__(self, readers: list[TagReader], sink: Sink, *, lift_after: float = 0.4,
                 lift_misses: int = 3, min_round: float = 0.01, idle_round: float = 0.018,
                 doze_after: float = 5.0, doze_round: float = 0.04,
                 deep_doze_after: float = 30.0, deep_doze_round: float = 0.1,
                 retry_first: float = 0.5, retry_max: float = 10.0,
                 clock: Callable[[], float] = time.monotonic):
        names = [r.name for r in readers]
        if len(set(names)) != len(names):
            raise ValueError("two readers have the same name")
        self.slots = [_Slot(r) for r in readers]
        self.sink = sink
        self.lift_after, self.lift_misses, self.min_round = lift_after, max(1, lift_misses), min_round
        self.idle_round = max(min_round, idle_round)
        self.doze_after, self.doze_round = doze_after, max(self.idle_round, doze_round)
        self.deep_doze_after = max(doze_after, deep_doze_after)
        self.deep_doze_round = max(self.doze_round, deep_doze_round)
        self.retry_first, self.retry_max = retry_first, retry_max
        self.clock = clock
        self._diverted: Sink | None = None
        self._tag_seen_at = clock()      # when a tag last lay on any reader (every group's deep doze)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._group_of: dict[str, threading.Thread] = {}

    # ----- life cycle ------------------------------------------------------
    def start(self) -> None:
        """Start one polling thread per group of readers."""
        groups: dict[str, list[_Slot]] = {}
        for slot in self.slots:
            groups.setdefault(slot.reader.group, []).append(slot)
        self._stop.clear()
        self._tag_seen_at = self.clock()
        for group, slots in groups.items():
            thread = threading.Thread(target=self._run, args=(slots,), name=f"readers-{group}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
            for slot in slots:
                self._group_of[slot.reader.name] = thread

    def stop(self) -> None:
        """Stop polling and close every reader."""
        self._stop.set()
        for thread in self._threads:
            thread.join()
        self._threads = []
        for slot in self.slots:
            slot.reader.close()
            slot.is_open = False

    def divert(self, sink: Sink | None) -> None:
        """Send taps and lifts to ``sink`` instead of the table (None: back to the table)."""
        self._diverted = sink

    def health(self) -> list[dict]:
        """One health record per reader (name, kind, status, detail, last_seen)."""
        return [slot.health.as_dict() for slot in self.slots]

    def polls(self) -> dict[str, int]:
        """How many polls each reader has answered (for benchmarks and doctor)."""
        return {slot.reader.name: slot.polls for slot in self.slots}

    def stats(self) -> dict[str, dict]:
        """Per reader: poll results by status (and how often it went down), and the
        seconds from the tag last being seen to each of the latest
        :data:`LIFTS_KEPT` lifts (for ``doctor --soak``)."""
        return {slot.reader.name: {"counts": dict(slot.counts), "lift_delays": list(slot.lift_delays)}
                for slot in self.slots}

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time used so far by each reader's polling thread, shared evenly among the
        readers of its group (Linux; 0 where a thread's clock cannot be read)."""
        out = {}
        for slot in self.slots:
            thread = self._group_of.get(slot.reader.name)
            sharing = sum(t is thread for t in self._group_of.values())
            try:
                used = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
            except (AttributeError, OSError, TypeError):
                used = 0.0
            out[slot.reader.name] = used / max(1, sharing)
        return out

    # ----- polling -----------------------------------------------------------
    def _pace(self, quiet: float | None, table_quiet: float) -> tuple[float, str]:
        """The length of a group's next round and its pace, ``quiet`` seconds after a tag last lay on
        one of its readers (None: one lies there now) and ``table_quiet`` after one lay on any."""
        if quiet is None:
            return self.min_round, "playing"
        if table_quiet >= self.deep_doze_after:
            return self.deep_doze_round, "dozing deeply"
        if quiet >= self.doze_after:
            return self.doze_round, "dozing"
        return self.idle_round, "waiting"

    def _run(self, slots: list[_Slot]) -> None:
        due = quiet_since = self.clock()    # when this round was due to start; since when no tag lay here
        pace = ""
        while not self._stop.is_set():
            for slot in slots:
                if self._stop.is_set():
                    break
                self.poll_once(slot)
            now = self.clock()
            if any(s.current is not None for s in slots):
                quiet_since = self._tag_seen_at = now
                length, now_pace = self._pace(None, 0.0)
            else:
                length, now_pace = self._pace(now - quiet_since, now - self._tag_seen_at)
            if now_pace != pace:
                pace = now_pace
                words = (f"dozing: a poll every {length * 1000:g} ms, no card here for {self.doze_after:g} s"
                         if pace == "dozing" else f"dozing deeply: a poll every {length * 1000:g} ms, no card "
                         f"on the table for {self.deep_doze_after:g} s" if pace == "dozing deeply" else "")
                for slot in slots:
                    slot.health.pace, slot.health.pace_detail = pace, words
            # rounds keep to their schedule, so a wait that ends late is not added to every round
            # (a round that overran starts the next at once, without catching up further)
            due = max(due + length, now)
            spare = min(due - now, length)
            if all(not s.is_open for s in slots):
                wake = min(s.retry_at for s in slots) - self.clock()
                spare = max(spare, min(wake, 0.1))
            if spare > 0:
                self._stop.wait(spare)

    def poll_once(self, slot: _Slot) -> None:
        """Poll one reader once (opening it first if it is down and due for a retry)."""
        now = self.clock()
        reader, health = slot.reader, slot.health
        try:
            if not slot.is_open:
                if now < slot.retry_at:
                    return
                reader.open()
                slot.is_open, slot.fresh, slot.misses = True, True, 0
                slot.retry_wait = 0.0
                health.status, health.detail = "ok", reader.describe()
                log.info("reader %s is up: %s", reader.name, health.detail)
            result = reader.poll()
        except ReaderDown as exc:
            self._down(slot, str(exc))
            return
        except Exception as exc:   # a driver bug must not stop the other readers
            log.exception("reader %s failed", reader.name)
            self._down(slot, f"unexpected error: {exc}")
            return
        slot.polls += 1
        slot.counts[result.status] += 1
        health.last_seen = time.time()
        fresh, slot.fresh = slot.fresh, False
        if fresh and result.status == NO_TAG:
            return      # the first poll after opening: a card may not have powered up yet
        self._track(slot, result, self.clock())

    def _down(self, slot: _Slot, reason: str) -> None:
        slot.counts["down"] += 1
        if slot.is_open or slot.health.status != "down":
            log.warning("reader %s is down: %s", slot.reader.name, reason)
        slot.reader.close()
        slot.is_open = False
        slot.retry_wait = min(self.retry_max, slot.retry_wait * 2 or self.retry_first)
        slot.retry_at = self.clock() + slot.retry_wait
        slot.health.status = "down"
        slot.health.detail = f"{reason}; trying again in {slot.retry_wait:g} s"

    def _track(self, slot: _Slot, result: Poll, now: float) -> None:
        health = slot.health
        if result.status == COLLISION:
            if health.status != "collision":
                log.warning("reader %s: %s", slot.reader.name, result.detail)
            health.status = "collision"
            health.detail = (f"{result.detail}: take all but one tag off {slot.reader.name}")
            if slot.current is not None:
                slot.seen_at, slot.misses = now, 0
            return
        if health.status != "ok":
            health.status, health.detail = "ok", slot.reader.describe()
        if result.status == GARBLED:
            if slot.current is not None:
                slot.seen_at, slot.misses = now, 0
            return
        if result.status == TAG:
            if result.uid == slot.current:
                slot.seen_at, slot.misses = now, 0
                return
            if slot.current is not None:
                self._lift(slot, now)
            slot.current, slot.seen_at, slot.misses = result.uid, now, 0
            self._send("tap", slot)
            return
        if result.status == NO_TAG and slot.current is not None:
            slot.misses += 1
            if slot.misses >= self.lift_misses and now - slot.seen_at >= self.lift_after:
                self._lift(slot, now)
                slot.current = None

    def _lift(self, slot: _Slot, now: float) -> None:
        slot.lift_delays.append(now - slot.seen_at)
        self._send("lift", slot)

    def _send(self, kind: str, slot: _Slot) -> None:
        inp = {kind: {"reader": slot.reader.name, "uid": slot.current}}
        sink = self._diverted or self.sink
        try:
            sink(inp, f"reader:{slot.reader.name}")
        except Exception:
            log.exception("could not deliver %s from %s", kind, slot.reader.name)
