"""``tofu-table enrol``: enrol tags from the terminal, list them, export and import them.

    tofu-table enrol                      the card sets and how many of each are enrolled
    tofu-table enrol tofu-god/set-3       tap the cards of set 3 on the configured readers
    tofu-table enrol tofu-kingdom --type  type (or paste) UIDs instead of tapping
    tofu-table enrol --list | --export FILE | --import FILE

Stop ``tofu-table serve`` first (or use the /enrol page): two programs must
not poll the same readers.
"""
from __future__ import annotations

import json
import queue
import sys
from pathlib import Path

from server.context import default_data_dir

from .config import FILE_NAME, ConfigError, load
from .enrolment import Enrolment, card_sets
from .registry import RegistryError, TagRegistry


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("enrol", help="enrol NFC tags to cards; list, export or import them")
    p.add_argument("set", nargs="?", help="the card set to tag, e.g. tofu-god/set-3 or tofu-kingdom")
    p.add_argument("--data", default=str(default_data_dir()), help="data folder (registry, config.toml)")
    p.add_argument("--type", action="store_true", help="type UIDs (one per line) instead of tapping")
    p.add_argument("--list", action="store_true", help="list every enrolled tag")
    p.add_argument("--export", metavar="FILE", help="write every enrolled tag to FILE (JSON)")
    p.add_argument("--import", dest="import_file", metavar="FILE", help="enrol the tags in FILE")
    p.set_defaults(func=run)


def run(args, stdin=None, out=None) -> int:
    """The ``enrol`` command; ``stdin``/``out`` default to the terminal."""
    stdin, out = stdin or sys.stdin, out or sys.stdout
    registry = TagRegistry.in_data_dir(args.data)
    try:
        if args.list:
            for entry in registry.entries():
                print(f"{entry['uid']:<22} {entry['card']}", file=out)
            return 0
        if args.export:
            Path(args.export).write_text(json.dumps(registry.export(), indent=1), encoding="utf-8")
            print(f"Wrote {len(registry.entries())} tags to {args.export}.", file=out)
            return 0
        if args.import_file:
            count = registry.import_(Path(args.import_file).read_text(encoding="utf-8"))
            print(f"Imported {count} tags from {args.import_file}.", file=out)
            return 0
        if not args.set:
            enrolled = {e["card"] for e in registry.entries()}
            print("Card sets (enrolled / cards):", file=out)
            for s in card_sets():
                print(f"  {s['id']:<22} {sum(c in enrolled for c in s['cards']):>3} / {len(s['cards']):<3} "
                      f"{s['title']}", file=out)
            print("Start with: tofu-table enrol SET", file=out)
            return 0
        return _sitting(Enrolment(registry, args.set), args, stdin, out)
    except RegistryError as exc:
        print(exc.message, file=out)
        return 1
    finally:
        registry.close()


def _sitting(sitting: Enrolment, args, stdin, out) -> int:
    taps: queue.Queue = queue.Queue()
    station = None
    if not args.type:
        from .station import Station
        try:
            config = load(Path(args.data) / FILE_NAME)
        except ConfigError as exc:
            print("The configuration has problems (see `tofu-table doctor`):", *exc.problems, sep="\n  ", file=out)
            return 1
        if not config.readers:
            print(f"No readers are configured in {Path(args.data) / FILE_NAME}; use --type to type UIDs.",
                  file=out)
            return 1
        station = Station(config, lambda inp, source: "tap" in inp and taps.put(inp["tap"]))
        station.start()
    print(f"Enrolling {sitting.title}: {len(sitting.cards)} cards. Ctrl+C (or an empty line) stops.", file=out)
    try:
        while not sitting.done:
            print(f"Tap: {sitting.current}", file=out, flush=True)
            if args.type:
                line = stdin.readline().strip()
                if not line:
                    break
                reader, uid = None, line
            else:
                tap = taps.get()
                reader, uid = tap["reader"], tap["uid"]
            step = sitting.tap(uid)
            print(f"  {step.message}", file=out)
            if step.result == "ask_move":
                print("  Move it? [y/N] ", end="", file=out, flush=True)
                step = sitting.answer(stdin.readline().strip().lower() in ("y", "yes"))
                print(f"  {step.message}", file=out)
            if station is not None and reader is not None:
                (station.feedback.accepted if step.accepted else station.feedback.refused)(reader)
    except KeyboardInterrupt:
        pass
    finally:
        if station is not None:
            station.stop()
    done = sum(1 for c in sitting.view()["cards"] if c["uid"])
    print(f"{done} of {len(sitting.cards)} cards of {sitting.title} have a tag.", file=out)
    return 0
