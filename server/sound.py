"""The TV's sound: volume and mute, set from the host page and kept in the data folder.

A page plugin (:mod:`server.plugins`).

- ``GET /api/sound``: ``{"volume": 0-100, "muted": bool}`` (anyone: the TV reads it).
- ``POST /api/sound`` with either or both fields (host token): saves them and sends the
  ``sound`` Socket.IO event with the new settings to the TV and the host page.
"""
from __future__ import annotations

import json
from pathlib import Path

from flask import jsonify, request

from .web_access import json_error, refuse_unless_host

DEFAULT = {"volume": 70, "muted": False}


def load(data_dir: Path) -> dict:
    """The saved settings, or the defaults when there are none (or they cannot be read)."""
    try:
        saved = json.loads((Path(data_dir) / "sound.json").read_text(encoding="utf-8"))
        return {**DEFAULT, **check(saved)}
    except (OSError, ValueError):
        return dict(DEFAULT)


def check(body) -> dict:
    """The fields of ``body`` as settings; ValueError saying what is wrong otherwise."""
    if not isinstance(body, dict) or not body or set(body) - set(DEFAULT):
        raise ValueError("Send {\"volume\": 0-100, \"muted\": true or false} (either or both), nothing else.")
    if "volume" in body and (type(body["volume"]) is not int or not 0 <= body["volume"] <= 100):
        raise ValueError("volume must be a whole number from 0 to 100.")
    if "muted" in body and type(body["muted"]) is not bool:
        raise ValueError("muted must be true or false.")
    return dict(body)


def register(app, socketio, ctx) -> None:
    path = Path(ctx.data_dir) / "sound.json"

    @app.get("/api/sound")
    def get_sound():
        return jsonify(load(ctx.data_dir))

    @app.post("/api/sound")
    def set_sound():
        refusal = refuse_unless_host(ctx, "Changing the TV's sound")
        if refusal:
            return refusal
        try:
            settings = {**load(ctx.data_dir), **check(request.get_json(silent=True))}
        except ValueError as exc:
            return json_error(400, "bad_sound", str(exc))
        path.write_text(json.dumps(settings), encoding="utf-8")
        socketio.emit("sound", settings, to="table")
        socketio.emit("sound", settings, to="host")
        return jsonify(settings)
