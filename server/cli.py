"""The ``tofu-table`` command: serve the table, replay a script, and the plugins' commands.

Each ``tofu_table.commands`` entry point (see :mod:`server.plugins`) is an
``add_parser(subparsers)`` that sets ``func`` (taking the parsed arguments,
returning an exit status) on the parsers it adds.
"""
from __future__ import annotations

import argparse
import json
import logging
import socket
import sqlite3
import sys
import threading
import time
import types
from pathlib import Path

from . import memory, plugins
from .context import TableContext, default_data_dir


def _lan_address() -> str | None:
    """A non-loopback address of this machine, for the addresses printed at start."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = info[4][0]
        if not address.startswith("127."):
            return address
    return None


def _note_listening(ctx: TableContext) -> None:
    """Set ``ctx.listening`` once this process listens on its port."""
    from .systemd_notify import listening

    while not listening():
        time.sleep(0.05)
    ctx.listening.set()


#: python-socketio imports its client's HTTP and websocket libraries with the server; the server uses
#: neither, and they hold about 6 MiB (issue 20, bench/README.md): hidden while the app is imported.
CLIENT_ONLY_MODULES = ("requests", "websocket")
#: What python-socketio, python-engineio, simple-websocket and Flask-SocketIO import beside the server
#: the table runs (threads, Werkzeug's server): their clients, their asyncio servers and message-queue
#: managers, Flask-SocketIO's test client and Werkzeug's debugger, which bring asyncio, pdb and multiprocessing
#: (96 modules, about 2 MiB of the idle table: issue 20, bench/README.md).  ``serve`` runs with stand-ins
#: for them (:class:`NotLoaded`): their packages' names stay defined, and any use says it is not loaded.
SERVER_UNUSED_MODULES = tuple(f"socketio.{name}" for name in (
    "client", "simple_client", "async_client", "async_simple_client", "async_server", "async_manager",
    "async_namespace", "async_redis_manager", "async_aiopika_manager", "asgi", "kombu_manager",
    "redis_manager", "kafka_manager", "zmq_manager", "tornado")) + tuple(f"engineio.{name}" for name in (
        "client", "async_server", "async_client", "async_drivers.asgi", "async_drivers.tornado")) + (
    "simple_websocket.aiows", "flask_socketio.test_client", "werkzeug.debug")


class NotLoaded(types.ModuleType):
    """Stands in for a module the table server never uses: each name taken from it is a class that
    refuses to be made, saying so."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        where = f"{self.__name__}.{name}"

        def refuse(*args, **kwargs):
            raise RuntimeError(f"{where} is not loaded in the table server (server/cli.py: SERVER_UNUSED_MODULES)")
        return type(name, (), {"__init__": refuse, "__module__": self.__name__})


def _import_app():
    """server.app's ``create_app``, imported without the Socket.IO client's libraries (a plugin
    imported later may still use them: they are hidden only for this import) and with stand-ins for
    the SERVER_UNUSED_MODULES not imported yet (for good: once a package has taken their names, a
    module loaded later would meet its stand-ins anyway)."""
    hidden = [name for name in CLIENT_ONLY_MODULES if name not in sys.modules]
    sys.modules.update(dict.fromkeys(hidden))    # an import of a None entry fails: the client does without
    sys.modules.update({name: NotLoaded(name) for name in SERVER_UNUSED_MODULES if name not in sys.modules})
    try:
        from .app import create_app
    finally:
        for name in hidden:
            sys.modules.pop(name, None)
    return create_app


def serve(args) -> int:
    """Run the table server until interrupted."""
    create_app = _import_app()

    # the address block is what a newcomer needs to see: INFO lines and Flask's banner only on --verbose
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:
        import flask.cli
        flask.cli.show_server_banner = lambda *args, **kwargs: None
    # werkzeug's start-up warnings and request lines drown the addresses a newcomer needs
    logging.getLogger("werkzeug").setLevel(logging.INFO if args.verbose else logging.ERROR)
    simulate = args.simulate or not (Path(args.data) / "config.toml").exists()
    display_host = args.host
    if args.host in ("0.0.0.0", "::"):
        display_host = _lan_address() or "127.0.0.1"
    base = args.public_url or f"http://{display_host}:{args.port}"
    try:
        ctx = TableContext.open(Path(args.data), simulate, public_url=args.public_url or
                                (base if args.host in ("0.0.0.0", "::") else None),
                                local_display=args.local_display)
    except (OSError, sqlite3.Error) as exc:
        print(f"Cannot use the data folder {args.data}: {exc}. Make it writable by this user, "
              "or choose another with --data.", file=sys.stderr)
        return 2
    app, socketio = create_app(ctx)
    ctx.listening.clear()
    threading.Thread(target=_note_listening, args=(ctx,), name="note-listening", daemon=True).start()
    stops = [start(ctx) for _name, start in plugins.load(plugins.DEVICES)]
    ctx.table.start()
    collecting = threading.Event()
    stops.append(collecting.set)
    threading.Thread(target=memory.keep_collecting, args=(collecting,), name="collector", daemon=True).start()
    token = ctx.access.host_token
    print(f"Tofu Table is running{' in simulation' if simulate else ''} (data: {ctx.data_dir})\n"
          f"  TV page:        {base}/\n"
          f"  Host page:      {base}/host?token={token}\n"
          + (f"  Simulator page: {base}/sim\n" if simulate else "")
          + f"  Host token:     {token}\n"
          "Press Ctrl+C to stop.", flush=True)
    try:
        socketio.run(app, host=args.host, port=args.port, allow_unsafe_werkzeug=True,
                     log_output=args.verbose)
    finally:
        for stop in stops:
            stop()
        ctx.table.stop()
    return 0


def replay(args) -> int:
    """Apply a script of inputs headless and print the final public view."""
    from .journal import Journal
    from .table import Table

    table = Table(Journal(":memory:"))
    failed = 0
    with open(args.file, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                inp = json.loads(line)
            except ValueError as exc:
                outcome_error = ("bad_json", f"not valid JSON ({exc})")
            else:
                outcome = table.handle(inp, source=f"replay:{number}")
                if outcome.accepted:
                    continue
                outcome_error = (outcome.error.code, outcome.error.message)
            failed += 1
            print(f"{args.file}:{number}: refused [{outcome_error[0]}] {outcome_error[1]}", file=sys.stderr)
            if not args.keep_going:
                return 1
    view = table.view("table")
    if args.json:
        print(json.dumps(view, indent=2, ensure_ascii=False))
    else:
        print(f"{view.get('game_name') or 'No game'}: {view['prompt']}")
        for p in view["players"]:
            print(f"  seat {p['seat']}  {p['name']:<16} {p['score']}")
        if view["over"]:
            print(f"Winner{'s' if len(view['winners']) != 1 else ''}: {', '.join(view['winners'])}")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tofu-table", description="Tofu Table: a board game companion.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the table server (TV, host, seat and simulator pages)")
    p.add_argument("--simulate", action="store_true",
                   help="simulated readers, buttons and camera (the default when no config.toml exists)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the LAN)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data", default=str(default_data_dir()), help="data folder (journal, registry, settings)")
    p.add_argument("--public-url", help="address phones use to reach this table (for the QR codes)")
    p.add_argument("--local-display", action="store_true",
                   help="a browser on this machine (127.0.0.1) is a paired TV: it shows the join and "
                        "seat codes without pairing (the Pi's kiosk TV)")
    p.add_argument("--verbose", action="store_true", help="log every HTTP request")
    p.set_defaults(func=serve)

    p = sub.add_parser("replay", help="apply a script of inputs headless and print the final view")
    p.add_argument("file", help="a .jsonl file: one protocol object per line")
    p.add_argument("--keep-going", action="store_true", help="report refused inputs and go on")
    p.add_argument("--json", action="store_true", help="print the final public view as JSON")
    p.set_defaults(func=replay)

    for _name, add_parser in plugins.load(plugins.COMMANDS):
        add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
