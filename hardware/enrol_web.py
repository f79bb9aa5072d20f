"""The /enrol page and its API (host token only): choose a card set, tap the cards in order,
answer "move this tag?", export and import the registry.

The ``enrol`` page plugin (:mod:`server.plugins`).  While a sitting is open, taps from the
table's readers go to it instead of the game (the hub is diverted), and each
one is confirmed on the reader's LED or the buzzer.  ``POST /api/enrol/tap``
takes a UID typed in (or a simulated tap) the same way.
"""
from __future__ import annotations

import json
import threading

from flask import Blueprint, Response, jsonify, request, send_from_directory

from server.web_access import json_error, refuse_unless_host

from .enrolment import Enrolment, card_sets
from .registry import RegistryError
from .station import registry_for, station_for

#: Where a running table keeps its open sitting (in ``ctx.plugins``).
SITTING = "enrol"


def register(app, socketio, ctx) -> None:
    """Add the /enrol page and the /api/enrol routes to ``app``."""
    from server.app import WEB_DIR

    bp = Blueprint("enrol", __name__)
    lock = threading.Lock()

    @bp.before_request
    def host_only():
        if request.path == "/enrol":
            return None
        return refuse_unless_host(ctx, "Enrolling tags")

    def sitting() -> Enrolment | None:
        return ctx.plugins.get(SITTING)

    def state(step=None):
        registry = registry_for(ctx)
        enrolled = {e["card"] for e in registry.entries()}
        current = sitting()
        station = station_for(ctx)
        return jsonify({
            "sets": [{"id": s["id"], "title": s["title"], "count": len(s["cards"]),
                      "enrolled": sum(c in enrolled for c in s["cards"])} for s in card_sets()],
            "session": current.view() if current else None,
            "step": step.as_dict() if step else None,
            "simulate": ctx.simulate,
            "readers": [h["name"] for h in station.reader_health()] if station and not ctx.simulate else []})

    def reader_tap(inp: dict, source: str) -> None:
        """Taps diverted from the hub while a sitting is open."""
        body = inp.get("tap")
        current = sitting()
        if body is None or current is None:
            return
        step = current.tap(body["uid"])
        station = station_for(ctx)
        if station is not None:
            (station.feedback.accepted if step.accepted else station.feedback.refused)(body["reader"])

    def set_sitting(new: Enrolment | None) -> None:
        """Open ``new`` and divert the readers' taps to it; with None, close the sitting and
        give the taps back to the game."""
        with lock:
            if new is None:
                ctx.plugins.pop(SITTING, None)
            else:
                ctx.plugins[SITTING] = new
        station = station_for(ctx)
        if station is not None:
            station.hub.divert(reader_tap if new is not None else None)

    def json_body() -> dict:
        body = request.get_json(silent=True)
        return body if isinstance(body, dict) else {}

    @bp.get("/enrol")
    def page():
        return send_from_directory(WEB_DIR, "enrol.html")

    @bp.get("/api/enrol")
    def show():
        return state()

    @bp.post("/api/enrol/start")
    def start():
        try:
            new = Enrolment(registry_for(ctx), str(json_body().get("set", "")))
        except RegistryError as exc:
            return json_error(400, exc.code, exc.message)
        set_sitting(new)
        return state()

    @bp.post("/api/enrol/tap")
    def tap():
        current = sitting()
        if current is None:
            return json_error(409, "no_sitting", "Choose a card set first.")
        uid = json_body().get("uid")
        return state(current.tap(uid if isinstance(uid, str) else ""))

    @bp.post("/api/enrol/answer")
    def answer():
        current = sitting()
        move = json_body().get("move")
        if current is None or not isinstance(move, bool):
            return json_error(400, "bad_answer", "Answer with {\"move\": true} or {\"move\": false} "
                          "while a question is open.")
        return state(current.answer(move))

    @bp.post("/api/enrol/skip")
    def skip():
        current = sitting()
        if current is None:
            return json_error(409, "no_sitting", "Choose a card set first.")
        current.skip()
        return state()

    @bp.post("/api/enrol/stop")
    def stop():
        set_sitting(None)
        return state()

    @bp.get("/api/enrol/export")
    def export():
        document = json.dumps(registry_for(ctx).export(), indent=1)
        return Response(document, mimetype="application/json",
                        headers={"Content-Disposition": "attachment; filename=tofu-table-tags.json"})

    @bp.post("/api/enrol/import")
    def import_():
        try:
            count = registry_for(ctx).import_(request.get_data(as_text=True))
        except RegistryError as exc:
            return json_error(400, exc.code, exc.message)
        return jsonify({"imported": count})

    app.register_blueprint(bp)
