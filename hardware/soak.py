"""``tofu-table doctor --soak MINUTES``: the owner's test of every reader on the real table.

With the table stopped, it runs the reader hub exactly as the table does and walks the owner
through each reader: tap a 4-byte tag and take it away, tap a 7-byte tag and take it away,
unplug the reader and plug it back in.  Then a card rests on every reader for MINUTES while
nobody touches anything: every lift or tap in that time is spurious (a game could take a
lift/tap pair for a second play).  Per reader it reports the UID lengths read whole, the
lift time, spurious inputs, polls per second, polling CPU and the poll results by kind.

A step the owner does not finish within ``step_timeout`` seconds is reported as not done.
"""
from __future__ import annotations

import statistics
import threading
import time
from dataclasses import dataclass, field

from .config import Config
from .hub import ReaderHub
from .station import make_reader

#: Hex digits of a 4-byte and a 7-byte UID.
SHORT_UID, LONG_UID = 8, 14


@dataclass
class _Seen:
    """What one reader sent, in order: (kind, uid, monotonic time)."""

    inputs: list[tuple[str, str, float]] = field(default_factory=list)


class Soak:
    """The hub on the configured readers, with each input kept per reader."""

    def __init__(self, config: Config):
        self.readers = [rc for rc in config.readers if rc.driver != "simulated"]
        self.seen = {rc.name: _Seen() for rc in self.readers}
        self._changed = threading.Condition()
        self.hub = ReaderHub([make_reader(rc) for rc in self.readers], self._record,
                             **{**config.hub_timing(), "retry_max": min(config.retry_max_s, 2.0)})

    def _record(self, inp: dict, source: str) -> None:
        (kind, body), = inp.items()
        with self._changed:
            self.seen[body["reader"]].inputs.append((kind, body["uid"], time.monotonic()))
            self._changed.notify_all()

    def wait(self, condition, timeout: float) -> bool:
        """Wait until ``condition()`` holds (checked on every input and every 50 ms)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
        return True

    def status(self, name: str) -> str:
        return next(h["status"] for h in self.hub.health() if h["name"] == name)

    def downs(self, name: str) -> int:
        """How many times the reader ``name`` has been found down so far."""
        return self.hub.stats()[name]["counts"].get("down", 0)


def run(config: Config, minutes: float, out, step_timeout: float = 60.0) -> int:
    """Walk the owner through every reader, soak for ``minutes``, print the report; 0 when all
    is well, 1 when a step was not done or anything spurious happened."""
    soak = Soak(config)
    if not soak.readers:
        print("No MFRC522 or USB readers are configured: nothing to soak.", file=out)
        return 1

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(f"Soak test of {len(soak.readers)} reader(s). Stop the table first (sudo systemctl stop "
        "tofu-table): two programs must not poll the same readers.")
    soak.hub.start()
    steps: dict[str, list[str]] = {rc.name: [] for rc in soak.readers}
    try:
        for rc in soak.readers:
            name, seen = rc.name, soak.seen[rc.name]
            if not soak.wait(lambda: soak.status(name) == "ok", step_timeout):
                steps[name].append("the reader never answered")
                continue
            for digits, what in ((SHORT_UID, "a 4-byte tag (MIFARE Classic)"),
                                 (LONG_UID, "a 7-byte tag (an NTAG sticker)")):
                start = len(seen.inputs)
                say(f"{name}: lay {what} on the reader, then take it away.")
                done = soak.wait(lambda: [k for k, uid, _ in seen.inputs[start:] if k == "lift"]
                                 and any(k == "tap" and len(uid) == digits for k, uid, _ in seen.inputs[start:]),
                                 step_timeout)
                steps[name].append(f"{what}: {'read whole' if done else 'NOT READ (no tap and lift of that length)'}")
            downs = soak.downs(name)
            say(f"{name}: unplug the reader (or its 3.3 V wire), then plug it back in.")
            # counted, not sampled: a reader plugged back quickly is down for less than a wait's check
            gone = soak.wait(lambda: soak.downs(name) > downs, step_timeout)
            back = gone and soak.wait(lambda: soak.status(name) == "ok", step_timeout)
            steps[name].append("unplug and replug: " + ("down, then back by itself" if back else
                                                        "NOT SEEN" if not gone else "NOT BACK"))
        say(f"Now leave one card resting on every reader and touch nothing for {minutes:g} minute(s).")
        resting = soak.wait(lambda: all(soak.hub.slots[i].current for i in range(len(soak.readers))),
                            step_timeout)
        if not resting:
            say("Not every reader has a card on it; soaking anyway.")
        marks = {rc.name: len(soak.seen[rc.name].inputs) for rc in soak.readers}
        polls, cpu, started = soak.hub.polls(), soak.hub.cpu_seconds(), time.monotonic()
        soak.wait(lambda: False, minutes * 60)
        elapsed = time.monotonic() - started
        polls_after, cpu_after = soak.hub.polls(), soak.hub.cpu_seconds()
    finally:
        soak.hub.stop()
    return _report(soak, steps, marks, elapsed, polls, polls_after, cpu, cpu_after, out)


def _report(soak, steps, marks, elapsed, polls, polls_after, cpu, cpu_after, out) -> int:
    bad = 0
    stats = soak.hub.stats()
    print("Soak report:", file=out)
    for rc in soak.readers:
        name = rc.name
        spurious = soak.seen[name].inputs[marks[name]:]
        lifts = stats[name]["lift_delays"]
        counts = stats[name]["counts"]
        failed = [s for s in steps[name] if "NOT" in s or "never" in s]
        bad += bool(spurious) + len(failed)
        print(f"  {name}:", file=out)
        for step in steps[name]:
            print(f"    {'PROBLEM  ' if step in failed else 'ok       '}{step}", file=out)
        pairs = sum(1 for (k1, u1, _), (k2, u2, _) in zip(spurious, spurious[1:])
                    if k1 == "lift" and k2 == "tap" and u1 == u2)
        print(f"    {'PROBLEM  ' if spurious else 'ok       '}while resting: {len(spurious)} spurious "
              f"input(s), {pairs} lift/tap pair(s) (must be 0)", file=out)
        lift = f"{statistics.median(lifts) * 1000:.0f} ms after the card was last seen" if lifts else "no lift seen"
        rate = (polls_after[name] - polls[name]) / elapsed if elapsed else 0.0
        share = (cpu_after[name] - cpu[name]) / elapsed * 100 if elapsed else 0.0
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"
        print(f"    lift time {lift}; {rate:.0f} polls/s; polling CPU {share:.1f} % of one core", file=out)
        print(f"    poll results: {kinds}", file=out)
    print("Soak passed." if not bad else f"Soak found {bad} problem(s).", file=out)
    return 1 if bad else 0
