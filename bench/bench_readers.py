"""Reader benchmark: the reader hub on emulated MFRC522 chips (tests/support/mfrc522_emulator.py).

    python3 bench/bench_readers.py [--seconds 2] [--runs 5] [--taps 20]

For 1, 4 and 8 readers it measures polls per second per reader, the polling
CPU per reader, SPI transfers per second per reader and the tap detection
latency (a tag placed at a random moment until the hub hands over the ``tap``),
and it compares one empty poll with the library's original wait loop against
the driver's, and a poll with a card resting on the reader (4- and 7-byte UIDs,
read whole every ``FULL_READ_EVERY`` polls, and as before, every poll) with an
empty one.  Each figure is the median of ``--runs`` runs.  ``--min-round-ms``
is the hub's pause between rounds (0: poll flat out; the table's default is 10).

Two clocks are reported:
* "Pi" figures use the emulator's bus clock: every SPI transfer costs what it
  costs on a Pi (25 us of system-call overhead plus 8 bits per byte at
  1 MHz), and buses run side by side as they do on the Pi's separate SPI
  controllers. They do not depend on this machine's speed.
* "here" figures are the wall clock of the emulation on this machine (Python
  emulating the chip, one GIL for all buses).  CPU here is the CPU time of the
  bus's polling thread (shared among its readers), which includes emulating the
  chip in Python; on a Pi that part is the kernel's SPI work.
* "Pi CPU est." counts 25 us of CPU (the system call) per SPI transfer, at the
  polling pace: the Pi's when polling flat out (``--min-round-ms 0``), the one
  measured here when the hub paces the rounds (the bus clock does not see the
  hub's pauses, so the Pi polls/s columns then count busy time only).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.hub import ReaderHub                      # noqa: E402
from hardware import mfrc522_reader                     # noqa: E402
from hardware.mfrc522_reader import Mfrc522Reader       # noqa: E402
from tests.support.mfrc522_emulator import EmulatedTag, Emulator   # noqa: E402

#: Where readers go, in order: SPI0 CE0-1, SPI1 CE0-2 (spi1-3cs), then SPI3 and SPI4 (Pi 4/5 overlays).
PLACES = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (3, 0), (3, 1), (4, 0)]


def polls_per_second(count: int, seconds: float, min_round: float) -> dict[str, float]:
    """Per reader with no tags, medians over the readers: polls/s (Pi, slowest on the Pi,
    here), CPU % of a core here, SPI transfers per poll, and Pi CPU est. %."""
    with Emulator() as emu:
        for bus, device in PLACES[:count]:
            emu.add_reader(bus, device)
        hub = ReaderHub([Mfrc522Reader(f"seat-{i + 1}", b, d) for i, (b, d) in enumerate(PLACES[:count])],
                        lambda inp, source: None, min_round=min_round)
        hub.start()
        time.sleep(0.2)                              # let every reader open
        start_polls, start_cpu = hub.polls(), hub.cpu_seconds()
        start_bus = {b: (emu.buses[b].now, emu.buses[b].transfers) for b in emu.buses}
        started = time.perf_counter()
        time.sleep(seconds)
        end_polls, end_cpu = hub.polls(), hub.cpu_seconds()
        elapsed = time.perf_counter() - started
        end_bus = {b: (emu.buses[b].now, emu.buses[b].transfers) for b in emu.buses}
        hub.stop()
    pi, here, cpu, per_poll = [], [], [], []
    for i, (bus, _) in enumerate(PLACES[:count]):
        name = f"seat-{i + 1}"
        sharing = sum(b == bus for b, _ in PLACES[:count])
        polls = end_polls[name] - start_polls[name]
        bus_time = end_bus[bus][0] - start_bus[bus][0]
        pi.append(polls / bus_time)
        here.append(polls / elapsed)
        cpu.append((end_cpu[name] - start_cpu[name]) / elapsed * 100)
        bus_polls = sum(end_polls[f"seat-{j + 1}"] - start_polls[f"seat-{j + 1}"]
                        for j, (b, _) in enumerate(PLACES[:count]) if b == bus)
        per_poll.append((end_bus[bus][1] - start_bus[bus][1]) / max(1, bus_polls))
    pace = statistics.median(pi) if min_round == 0 else statistics.median(here)
    transfers = statistics.median(per_poll)
    return {"pi": statistics.median(pi), "slowest": min(pi), "here": statistics.median(here),
            "cpu": statistics.median(cpu), "transfers": transfers, "pi_cpu": transfers * pace * 25e-6 * 100}


def tap_latency(count: int, taps: int, seed: int) -> tuple[float, float]:
    """Median tap detection latency in ms: (Pi bus clock, wall clock here)."""
    rng = random.Random(seed)
    arrived = threading.Event()
    seen: list[tuple[float, float]] = []      # (bus clock, wall clock) when the hub handed a tap over

    with Emulator() as emu:
        chips = [emu.add_reader(b, d) for b, d in PLACES[:count]]
        bus_of = {f"seat-{i + 1}": emu.buses[b] for i, (b, _) in enumerate(PLACES[:count])}

        def sink(inp, source):
            if "tap" in inp:
                seen.append((bus_of[inp["tap"]["reader"]].now, time.perf_counter()))
                arrived.set()
        hub = ReaderHub([Mfrc522Reader(f"seat-{i + 1}", b, d) for i, (b, d) in enumerate(PLACES[:count])],
                        sink, min_round=0.0, lift_after=0.0)
        hub.start()
        time.sleep(0.2)
        pi, here = [], []
        for n in range(taps):
            index = rng.randrange(count)
            chip, bus = chips[index], emu.buses[PLACES[index][0]]
            tag = EmulatedTag(f"04{n:012X}")
            time.sleep(rng.uniform(0.005, 0.03))
            arrived.clear()
            with bus.lock:                     # place between two transfers on that bus
                bus_start, wall_start = bus.now, time.perf_counter()
                chip.place(tag)
            if not arrived.wait(5):
                raise RuntimeError("a tap was not detected within 5 s")
            bus_seen, wall_seen = seen[-1]
            pi.append((bus_seen - bus_start) * 1000)
            here.append((wall_seen - wall_start) * 1000)
            chip.remove(tag)
            time.sleep(0.02)                   # its lift goes by
        hub.stop()
    return statistics.median(pi), statistics.median(here)


def wait_loop_ratio(runs: int) -> dict:
    """One empty poll: the library's wait loop against the timer-bounded one."""
    import importlib

    out = {"original": [], "fixed": [], "original_ms": [], "fixed_ms": [], "original_wall": [], "fixed_wall": []}
    with Emulator() as emu:
        emu.add_reader(0, 0, reset_pin=25)
        bus = emu.buses[0]
        library = importlib.import_module("mfrc522").MFRC522(bus=0, device=0, pin_rst=25, pin_mode=11)
        reader = Mfrc522Reader("seat-1", 0, 0, reset_pin=25)
        reader.open()
        for _ in range(runs):
            for name, poll in (("original", lambda: library.MFRC522_Request(library.PICC_REQIDL)),
                               ("fixed", reader.poll)):
                transfers, clock, wall = bus.transfers, bus.now, time.perf_counter()
                poll()
                out[name].append(bus.transfers - transfers)
                out[name + "_ms"].append((bus.now - clock) * 1000)
                out[name + "_wall"].append((time.perf_counter() - wall) * 1000)
    return {k: statistics.median(v) for k, v in out.items()}


def resting_poll(uid: str | None, full_read_every: int, runs: int, polls: int = 500) -> dict:
    """One poll of a reader with the card ``uid`` resting on it (None: no card), its UID read whole
    every ``full_read_every`` polls: SPI transfers, Pi time (bus clock, ms), and CPU here (us, of
    which emulating the chip), medians of ``runs`` runs of ``polls`` polls."""
    out = {"transfers": [], "pi_ms": [], "cpu_us": [], "emulation_us": []}
    every, mfrc522_reader.FULL_READ_EVERY = mfrc522_reader.FULL_READ_EVERY, full_read_every
    try:
        with Emulator() as emu:
            chip = emu.add_reader(0, 0)
            if uid:
                chip.place(EmulatedTag(uid))
            reader = Mfrc522Reader("seat-1", 0, 0)
            reader.open()
            bus = emu.buses[0]
            reader.poll()
            for _ in range(runs):
                transfers, clock, emulation, cpu = bus.transfers, bus.now, bus.emulation_s, time.thread_time()
                for _ in range(polls):
                    if reader.poll().uid != uid:
                        raise RuntimeError(f"a poll did not read {uid}")
                out["cpu_us"].append((time.thread_time() - cpu) / polls * 1e6)
                out["emulation_us"].append((bus.emulation_s - emulation) / polls * 1e6)
                out["transfers"].append((bus.transfers - transfers) / polls)
                out["pi_ms"].append((bus.now - clock) / polls * 1000)
            reader.close()
    finally:
        mfrc522_reader.FULL_READ_EVERY = every
    return {k: statistics.median(v) for k, v in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="polling time per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median is shown)")
    parser.add_argument("--taps", type=int, default=20, help="taps per latency run")
    parser.add_argument("--min-round-ms", type=float, default=0.0,
                        help="the hub's pause between rounds (the table's default is 10)")
    parser.add_argument("--readers", default="1,4,8", help="reader counts to measure")
    args = parser.parse_args()

    print("| readers | polls/s per reader (Pi) | slowest reader (Pi) | polls/s per reader (here) "
          "| CPU % per reader (here) | SPI transfers per empty poll | Pi CPU est. % per reader "
          "| tap latency ms (Pi) | tap latency ms (here) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for count in map(int, args.readers.split(",")):
        rates = [polls_per_second(count, args.seconds, args.min_round_ms / 1000) for _ in range(args.runs)]
        latencies = [tap_latency(count, args.taps, seed) for seed in range(args.runs)]
        figure = {key: statistics.median(r[key] for r in rates) for key in rates[0]}
        print(f"| {count} | {figure['pi']:.0f} | {figure['slowest']:.0f} | {figure['here']:.0f} | "
              f"{figure['cpu']:.0f} | {figure['transfers']:.0f} | {figure['pi_cpu']:.0f} | "
              f"{statistics.median(l[0] for l in latencies):.1f} | "
              f"{statistics.median(l[1] for l in latencies):.1f} |", flush=True)
    loop = wait_loop_ratio(max(args.runs, 5))
    print()
    print("| one poll, no card | SPI transfers | Pi time ms | time here ms |")
    print("|---|---|---|---|")
    for name, label in (("original", "mfrc522 0.0.7 wait loop (REQA)"), ("fixed", "this driver")):
        print(f"| {label} | {loop[name]:.0f} | {loop[name + '_ms']:.1f} | {loop[name + '_wall']:.2f} |")
    print(f"| ratio original / fixed | {loop['original'] / loop['fixed']:.1f} | "
          f"{loop['original_ms'] / loop['fixed_ms']:.1f} | {loop['original_wall'] / loop['fixed_wall']:.1f} |")
    print()
    print("| one poll | SPI transfers | Pi time ms | CPU here us | of which emulating the chip us |")
    print("|---|---|---|---|---|")
    every = mfrc522_reader.FULL_READ_EVERY
    for label, uid, full in (("no card", None, every),
                             ("4-byte card resting, read whole every poll", "A1B2C3D4", 1),
                             (f"4-byte card resting, read whole every {every}th", "A1B2C3D4", every),
                             ("7-byte card resting, read whole every poll", "04A224C2B31190", 1),
                             (f"7-byte card resting, read whole every {every}th", "04A224C2B31190", every)):
        f = resting_poll(uid, full, max(args.runs, 5))
        print(f"| {label} | {f['transfers']:.1f} | {f['pi_ms']:.2f} | {f['cpu_us']:.0f} | {f['emulation_us']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
