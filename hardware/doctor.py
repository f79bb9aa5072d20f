"""``tofu-table doctor``: check the configuration and every device, and say what is wrong in plain words.

Each line starts with ``ok`` or ``PROBLEM``; the exit status is 1 when there
is any problem.  ``--example`` prints the commented example configuration;
``--soak MINUTES`` runs the owner's soak test of every reader (:mod:`hardware.soak`).

A reader the running table holds (its device is locked) is not touched: doctor
shows what the table's ``/api/health`` says about it instead.
"""
from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
import warnings
from pathlib import Path

from server.context import default_data_dir

from .config import EXAMPLE, FILE_NAME, Config, ConfigError, load
from .enrolment import card_sets
from .reader import COLLISION, TAG, ReaderBusy, ReaderDown
from .registry import TagRegistry
from .station import make_reader


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("doctor", help="check config.toml, the readers, buttons and lights")
    p.add_argument("--data", default=str(default_data_dir()), help="data folder (config.toml, registry)")
    p.add_argument("--example", action="store_true", help="print the commented example config.toml")
    p.add_argument("--port", type=int, default=int(os.environ.get("TOFU_TABLE_PORT") or 8000),
                   help="port of the running table, asked about readers it holds (default "
                        "$TOFU_TABLE_PORT or 8000)")
    p.add_argument("--soak", type=float, metavar="MINUTES",
                   help="walk through every reader, then let cards rest for MINUTES and report "
                        "spurious lifts and taps (stop the table first)")
    p.set_defaults(func=run)


class Report:
    """Collects ok/PROBLEM lines."""

    def __init__(self, out):
        self.out, self.problems = out, 0

    def ok(self, text: str) -> None:
        print(f"  ok       {text}", file=self.out)

    def problem(self, text: str) -> None:
        self.problems += 1
        print(f"  PROBLEM  {text}", file=self.out)


def run(args, out=None) -> int:
    """The ``doctor`` command."""
    out = out or sys.stdout
    if args.example:
        print(EXAMPLE.read_text(encoding="utf-8"), end="", file=out)
        return 0
    data = Path(args.data)
    report = Report(out)
    print(f"Data folder {data}:", file=out)
    if data.is_dir() and os.access(data, os.W_OK):
        report.ok("exists and can be written")
    else:
        report.problem(f"{data} does not exist or cannot be written: create it, or pass --data")
    path = data / FILE_NAME
    print(f"Configuration {path}:", file=out)
    try:
        config = load(path)
    except ConfigError as exc:
        for problem in exc.problems:
            report.problem(problem)
        config = None
    if config is not None and config.path is None:
        report.ok(f"no {FILE_NAME}: the table runs in simulation. For real devices: "
                  f"tofu-table doctor --example > {path}, then edit it")
    elif config is not None:
        report.ok("read without mistakes")
        if getattr(args, "soak", None):
            from . import soak
            return soak.run(config, args.soak, out)
        _readers(config, data, report, out, getattr(args, "port", 8000))
        _pins(config, report, out)
    _registry(data, report, out)
    print("All good." if not report.problems else
          f"{report.problems} problem{'s' if report.problems != 1 else ''} found.", file=out)
    return 1 if report.problems else 0


def _table_readers(port: int) -> dict[str, dict] | None:
    """The reader records of the table running on ``port``, or None when none answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=3) as answer:
            return {r["name"]: r for r in json.load(answer).get("readers", [])}
    except (OSError, ValueError, urllib.error.URLError):
        return None


def _readers(config: Config, data: Path, report: Report, out, port: int) -> None:
    print("Readers:", file=out)
    if not config.readers:
        report.ok("none configured (taps come from the simulator page and phones only)")
    registry = TagRegistry.in_data_dir(data)
    table: dict | None = None
    for rc in config.readers:
        reader = make_reader(rc)
        try:
            reader.open()
            result = reader.poll()
        except ReaderBusy as exc:
            table = table if table is not None else _table_readers(port)
            record = (table or {}).get(rc.name)
            if record is None:
                report.problem(f"{rc.name}: {exc}, and no table answers on port {port}: stop the "
                               "other program (or pass --port)")
            elif record["status"] == "ok":
                report.ok(f"{rc.name}: held by the running table, which reports it ok ({record['detail']})")
            else:
                report.problem(f"{rc.name}: held by the running table, which reports it "
                               f"{record['status']}: {record['detail']}")
            continue
        except ReaderDown as exc:
            report.problem(f"{rc.name}: {exc}")
            continue
        finally:
            reader.close()
        if result.status == TAG:
            card = registry.card_of(result.uid)
            seen = f"tag {result.uid} on it ({card or 'not enrolled'})"
        elif result.status == COLLISION:
            seen = "two tags on it at once"
        else:
            seen = "no tag on it"
        report.ok(f"{rc.name}: {reader.describe()} answers; {seen}")
    registry.close()


def _pins(config: Config, report: Report, out) -> None:
    devices = [(f"button {n}", "Button", pin) for n, pin in config.buttons.items()]
    devices += [(f"LED {n}", "LED", pin) for n, pin in config.leds.items()]
    options = {"Button": {"pull_up": config.button_pull_up}}
    if config.buzzer_pin is not None:
        devices.append(("buzzer", "Buzzer", config.buzzer_pin))
    if not devices:
        return
    print("Buttons and lights:", file=out)
    import gpiozero

    for name, kind, pin in devices:
        try:
            with warnings.catch_warnings():     # gpiozero warns about each pin driver it skips
                warnings.simplefilter("ignore", gpiozero.PinFactoryFallback)
                device = getattr(gpiozero, kind)(pin, **options.get(kind, {}))
        except gpiozero.BadPinFactory:
            report.problem("no GPIO pin driver works here (this is not a Pi, or lgpio / rpi-lgpio "
                           "is missing): buttons and lights cannot be checked")
            return
        except Exception as exc:   # gpiozero: pin in use, reserved pin ...
            report.problem(f"{name}: GPIO{pin} cannot be used ({type(exc).__name__}: {exc})")
            continue
        state = ""
        if kind == "Button":
            state = (" (pull-up: pressed connects it to GND)" if device.pull_up else
                     " (pull-down: pressed connects it to 3.3 V)") + (", pressed now" if device.is_pressed else "")
        device.close()
        report.ok(f"{name}: GPIO{pin} is free and set up{state}")


def _registry(data: Path, report: Report, out) -> None:
    print("Tags:", file=out)
    if not data.is_dir():
        return
    registry = TagRegistry.in_data_dir(data)
    enrolled = {e["card"] for e in registry.entries()}
    registry.close()
    for s in card_sets():
        count = sum(c in enrolled for c in s["cards"])
        if count:
            report.ok(f"{s['title']}: {count} of {len(s['cards'])} cards enrolled")
    if not enrolled:
        report.ok("no tags enrolled yet (tofu-table enrol, or the /enrol page)")
