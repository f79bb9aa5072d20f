"""The roster's HTTP routes (host token), and the table listener that adds new names.

A page plugin (:mod:`server.plugins`).

    GET  /api/players                     every player: {id, name, colour, avatar, names, created_at}
    POST /api/players                     {"name", "colour"?, "avatar"?}: add one
    POST /api/players/<id>                {"name"?, "colour"?, "avatar"?}: rename or restyle
    POST /api/players/<id>/merge          {"into": other id}: make them one player (the other)
    POST /api/players/<id>/forget         remove them from the roster

A ``new_game`` the table accepts adds every name the roster does not know yet,
so the host page and the protocol keep starting games with plain names.
Remembered phones (server.devices, which know their player by name) follow
the roster: renamed or merged with their player, forgotten with them.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .games.base import input_kind
from .players import RosterError
from .web_access import json_error, refuse_unless_host


def _body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise RosterError("bad_json", "Send a JSON object, for example {\"name\": \"Anna\"}.")
    unknown = sorted(set(body) - {"name", "colour", "avatar", "into"})
    if unknown:
        raise RosterError("bad_field", f"Unknown field {unknown[0]!r}; a player has name, colour "
                          "and avatar.")
    return body


def register(app, socketio, ctx) -> None:
    """Add the roster routes and the listener that adds a new game's new names."""
    roster = ctx.roster
    bp = Blueprint("players", __name__)

    def add_new_names(inp: dict) -> None:
        if inp and input_kind(inp)[0] == "new_game":
            roster.ensure(inp["new_game"]["players"])

    ctx.table.listeners.append(lambda outcome, inp: outcome.accepted and add_new_names(inp))
    if roster.created:   # a table older than its roster: the players come from its journal
        for _row, inp in ctx.table.journal.live():
            add_new_names(inp)

    def phones_follow(names, new_name: str | None) -> None:
        """Phones remembered as one of ``names`` now are ``new_name`` (None: forget them)."""
        wanted = {n.casefold() for n in names}
        for device in ctx.devices.all():
            if device.kind == "phone" and device.player and device.player.casefold() in wanted:
                if new_name is None:
                    ctx.devices.forget(device.id)
                else:
                    ctx.devices.set_player(device.id, new_name, device.seat)

    @bp.before_request
    def host_only():
        return refuse_unless_host(ctx, "The list of players")

    @bp.errorhandler(RosterError)
    def roster_error(exc: RosterError):
        return json_error(exc.status, exc.code, exc.message)

    @bp.get("/api/players")
    def list_players():
        return jsonify({"players": [p.as_dict() for p in roster.all()]})

    @bp.post("/api/players")
    def add_player():
        body = _body()
        return jsonify(roster.add(body.get("name"), body.get("colour"), body.get("avatar")).as_dict()), 201

    @bp.post("/api/players/<int:player_id>")
    def update_player(player_id: int):
        body = _body()
        player = roster.update(player_id, body.get("name"), body.get("colour"), body.get("avatar"))
        phones_follow(player.names, player.name)
        return jsonify(player.as_dict())

    @bp.post("/api/players/<int:player_id>/merge")
    def merge_player(player_id: int):
        into = _body().get("into")
        if not isinstance(into, int) or isinstance(into, bool):
            raise RosterError("bad_field", "Say which player to merge into: {\"into\": their id}.")
        player = roster.merge(player_id, into)
        phones_follow(player.names, player.name)
        return jsonify(player.as_dict())

    @bp.post("/api/players/<int:player_id>/forget")
    def forget_player(player_id: int):
        player = roster.forget(player_id)
        phones_follow(player.names, None)
        return jsonify({"forgotten": player.as_dict()})

    app.register_blueprint(bp)
