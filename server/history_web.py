"""Game history over HTTP: the pages, their data (host token), exports, and tonight's standings.

A page plugin (:mod:`server.plugins`).  At start the records are rebuilt from the
journal when ``history.sqlite`` is new or from another version, and every
accepted input keeps the running game's record in step (:meth:`History.sync`).

    GET /history, /history/game/<id>, /history/player/<id>    the pages
    GET /api/history?game=ID&player=PLAYER_ID                 records, newest first       host or player's phone
    GET /api/history/<id>                                     one game's record           host or player's phone
    GET /api/history/players/<id>                             a player's figures          host or player's phone
    GET /api/history/export.csv, /api/history/export.json     every record (docs/history.md)  host
    GET /api/tonight                                          tonight's standings (names, games, wins)  anyone
"""
from __future__ import annotations

import csv
import io
import json
import logging
import sqlite3
import time
from datetime import datetime, timezone

from flask import Blueprint, Response, jsonify, request, send_from_directory

from .app import WEB_DIR
from .history import History
from .players import RosterError
from .stats import player_stats, standings
from .web_access import json_error, refuse_unless_host, request_role, request_token

log = logging.getLogger(__name__)

#: The CSV export's columns, one row per player per game (described in docs/history.md).
CSV_COLUMNS = ("game_id", "game", "game_name", "started_at", "ended_at", "duration_s", "seat", "player",
               "player_id", "score", "winner", "winners", "result", "options")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="seconds")


def with_ids(record: dict, ids: dict[str, int]) -> dict:
    """``record`` with each player's roster id (None for a name the roster has forgotten)."""
    return {**record, "players": [{**p, "player_id": ids.get(p["name"].casefold())} for p in record["players"]]}


def csv_text(records: list[dict], ids: dict[str, int]) -> str:
    """The records as CSV, one row per player per game, oldest game first."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for r in sorted(records, key=lambda r: r["id"]):
        for p in with_ids(r, ids)["players"]:
            writer.writerow([r["id"], r["game"], r["game_name"], _iso(r["started_at"]), _iso(r["ended_at"]),
                             r["duration"], p["seat"], p["name"], p["player_id"] or "", p["score"],
                             int(p["winner"]), "; ".join(r["winners"]), r["result"],
                             json.dumps(r["options"], sort_keys=True)])
    return out.getvalue()


def tonight_view(history: History, ids: dict[str, int]) -> dict:
    """Tonight's standings as the TV may show them: names, games and wins, nothing else."""
    games = history.tonight()
    return {"games": [{"game_name": g["game_name"], "winners": g["winners"]} for g in games],
            "standings": standings(games, ids)}


def _open(path, journal) -> History:
    """The records at ``path``, rebuilt from ``journal`` when needed.

    A data folder that cannot be written (read-only, full) must not stop the table:
    the records are then kept in memory, and rebuilt into ``path`` from the journal
    at the next start that can write it.
    """
    try:
        history = History(path)
        if not history.current:
            history.rebuild(journal)
        return history
    except sqlite3.Error as exc:
        log.error("game history kept in memory only (%s): it is rebuilt from the journal at the next start", exc)
        history = History(":memory:")
        history.rebuild(journal)
        return history


def register(app, socketio, ctx) -> None:
    """Open the records (rebuilding them if needed), keep them in step, add the routes."""
    table = ctx.table
    history = _open(ctx.data_dir / "history.sqlite", table.journal)

    def sync(outcome=None, inp=None) -> None:
        if outcome is None or outcome.accepted:
            try:
                history.sync(table.journal, table.game_seq, table.state["over"] if table.state else None)
            except sqlite3.Error as exc:     # a full disk: the record is rebuilt from the journal later
                log.error("game history not updated: %s", exc)

    sync()
    table.listeners.insert(0, sync)   # before the publisher, so the TV's standings include this game

    def add_tonight(views: dict) -> None:
        """Between games (a game over, or the lobby) the TV and the host see tonight's standings."""
        if views["table"]["over"] or views["table"]["game"] is None:
            views["table"]["tonight"] = views["host"]["tonight"] = tonight_view(history, ctx.roster.ids_by_name())

    publisher = app.extensions["tofu_publisher"]
    publisher.add_to_views(add_tonight)
    bp = Blueprint("history", __name__)

    def page(_id=None):
        return send_from_directory(WEB_DIR, "history.html")

    bp.add_url_rule("/history", "history", page)
    bp.add_url_rule("/history/game/<int:_id>", "history_game", page)
    bp.add_url_rule("/history/player/<int:_id>", "history_player", page)

    @bp.before_request
    def host_or_remembered_player():
        if not request.path.startswith("/api/history") or request_role(ctx) == "host":
            return None
        device = ctx.devices.find(request_token())
        export = request.path.startswith("/api/history/export")
        if export or device is None or device.kind != "phone" or device.player is None:
            return refuse_unless_host(ctx, "The export" if export else "The game history")
        return None

    @bp.get("/api/history")
    def list_history():
        ids = ctx.roster.ids_by_name()
        player = request.args.get("player")
        names = None
        if player is not None:
            if not player.isdigit():
                return json_error(400, "bad_player", "player must be a player's id from /api/players.")
            try:
                names = ctx.roster.get(int(player)).names
            except RosterError as exc:
                return json_error(exc.status, exc.code, exc.message)
        records = history.records(request.args.get("game") or None)
        if names is not None:
            wanted = {n.casefold() for n in names}
            records = [r for r in records if any(p["name"].casefold() in wanted for p in r["players"])]
        return jsonify({"games": [with_ids(r, ids) for r in records],
                        "players": [p.as_dict() for p in ctx.roster.all()]})

    @bp.get("/api/history/<int:game_id>")
    def one_game(game_id: int):
        record = history.record(game_id)
        if record is None:
            return json_error(404, "no_such_game", f"No finished game started at journal row {game_id}; "
                              "the history page lists the games.")
        return jsonify({"game": with_ids(record, ctx.roster.ids_by_name()),
                        "players": [p.as_dict() for p in ctx.roster.all()]})

    @bp.get("/api/history/players/<int:player_id>")
    def one_player(player_id: int):
        try:
            player = ctx.roster.get(player_id)
        except RosterError as exc:
            return json_error(exc.status, exc.code, exc.message)
        ids = ctx.roster.ids_by_name()
        stats = player_stats(history.records(), player_id, ids)
        stats["games"] = [with_ids(r, ids) for r in stats["games"]]
        return jsonify({"player": player.as_dict(), **stats, "roster": [p.as_dict() for p in ctx.roster.all()]})

    @bp.get("/api/history/export.csv")
    def export_csv():
        return Response(csv_text(history.records(), ctx.roster.ids_by_name()), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=tofu-table-history.csv"})

    @bp.get("/api/history/export.json")
    def export_json():
        ids = ctx.roster.ids_by_name()
        body = jsonify({"exported_at": _iso(time.time()), "games": [with_ids(r, ids) for r in
                                                                    sorted(history.records(), key=lambda r: r["id"])],
                        "players": [p.as_dict() for p in ctx.roster.all()]})
        body.headers["Content-Disposition"] = "attachment; filename=tofu-table-history.json"
        return body

    @bp.get("/api/tonight")
    def tonight():
        return jsonify(tonight_view(history, ctx.roster.ids_by_name()))

    app.register_blueprint(bp)
