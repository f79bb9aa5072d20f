"""HTTP for simulated readers: put a tag on a reader and take it off again.

    GET  /api/readers                  every simulated reader and the tags lying on it
    POST /api/readers/<reader>/place   {"uid": "04A2..."} or {"card": "tofu-kingdom/queen"}
    POST /api/readers/<reader>/remove  {} (every tag) or {"uid": ...} / {"card": ...}

Each answers with readers as ``{"name", "tags": [{"uid", "card"}], "collision"}`` (``card``
null for a tag the table does not know; ``collision`` when two or more lie there at once,
which the table reads as no tag), so the simulator page shows what lies where, also after a
reload.

A page plugin (:mod:`server.plugins`).  Unlike a ``tap`` posted to /api/input,
a placed tag goes through the reader hub like a real one: one tap when it
arrives, one lift once it has been gone for the configured time, a collision
when two lie there.  A card id stands for its virtual tag.  In simulation
anyone may use it (as with hardware inputs); otherwise it needs the host token
and works only on readers configured with ``driver = "simulated"``.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from server.web_access import json_error, refuse_unless_host

from .registry import RegistryError, normalise_uid, virtual_uid
from .simulated import SimulatedReader
from .station import registry_for, station_for


def register(app, socketio, ctx) -> None:
    """Add the /api/readers routes to ``app``."""
    bp = Blueprint("readers", __name__)

    @bp.before_request
    def allowed():
        if ctx.simulate:
            return None
        return refuse_unless_host(ctx, "A simulated reader outside simulation")

    def simulated() -> list[SimulatedReader]:
        station = station_for(ctx)
        return [s.reader for s in station.hub.slots if isinstance(s.reader, SimulatedReader)] if station else []

    def reader(name: str) -> SimulatedReader | None:
        return next((r for r in simulated() if r.name == name), None)

    def lying_on(target: SimulatedReader) -> dict:
        registry = registry_for(ctx)
        tags = [{"uid": uid, "card": registry.resolve_uid(uid)} for uid in target.tags()]
        return {"name": target.name, "tags": tags, "collision": len(tags) > 1}

    @bp.get("/api/readers")
    def every_reader():
        return jsonify({"readers": [lying_on(r) for r in simulated()]})

    def uid_from_body(required: bool) -> str | None:
        body = request.get_json(silent=True)
        body = body if isinstance(body, dict) else {}
        if isinstance(body.get("card"), str):
            return virtual_uid(body["card"])
        if "uid" in body:
            return normalise_uid(str(body["uid"]))
        if required:
            raise RegistryError("bad_tag", "Send {\"uid\": \"04A2...\"} or {\"card\": \"<card id>\"}.")
        return None

    @bp.post("/api/readers/<name>/<action>")
    def change(name: str, action: str):
        target = reader(name)
        if target is None:
            return json_error(404, "no_simulated_reader", f"There is no simulated reader {name[:20]!r}.")
        if action not in ("place", "remove"):
            return json_error(404, "not_found", "Use /place or /remove.")
        try:
            uid = uid_from_body(required=action == "place")
        except RegistryError as exc:
            return json_error(400, exc.code, exc.message)
        if action == "place":
            target.place(uid)
        else:
            target.remove(uid)
        return jsonify({"ok": True, "reader": name, "tags": target.tags(), "lying": lying_on(target)})

    app.register_blueprint(bp)
