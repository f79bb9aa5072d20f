"""Food for Thought's HTTP routes (host token only): the owner's data folder, one card at a time.

A page plugin (:mod:`server.plugins`).  At start it points the data loader at
``<data dir>/food-for-thought/``; the host page's entry form uses:

- ``GET /api/food-for-thought/data``: every kind with its schema, where it comes
  from now (sample or owner), how many entries, and any problems.
- ``POST /api/food-for-thought/cards`` with ``{"kind": "recipes", "record": {...}}``:
  checks the record against the schema and appends it to the owner's file.
  The running game keeps the cards it started with; new games use the new data
  once the kind is marked complete.
- ``POST /api/food-for-thought/check`` with the same body: what is wrong with the record, as the
  cards route would refuse it, writing nothing (the diet board form checks as the owner types).
- ``POST /api/food-for-thought/complete`` with ``{"kind": "recipes", "complete": true}``:
  the owner's file of that kind replaces the sample in new games (false: the sample again).
- ``POST /api/food-for-thought/ability`` with ``{"does": ..., "kind": "recipes"}``: how a card's
  ability (an assistant's: the list, one per option) will behave, in words, or its problems.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from server.web_access import refuse_unless_host

from . import abilities, data


def _error(status: int, code: str, message: str, **extra):
    return jsonify({"error": {"code": code, "message": message, **extra}}), status


def _entered(owner, kind: str, foods: set) -> int:
    """How many good entries the owner's file of ``kind`` holds (0 when there is none yet)."""
    path = owner / data.SCHEMA[kind]["file"]
    return len(data.read_file(kind, path, foods)[0]) if path.is_file() else 0


def summary() -> dict:
    """The data folder as the host form shows it."""
    cat = data.load()
    owner = data.owner_dir()
    complete = data.complete_kinds(owner)[0]
    foods = {f["id"] for f in cat.records["foods"]}
    return {
        "owner_dir": str(data.owner_dir()),
        "kinds": {k: {"file": data.SCHEMA[k]["file"], "what": data.SCHEMA[k]["what"],
                      "source": cat.sources[k], "count": len(cat.records[k]), "complete": k in complete,
                      "entered": _entered(owner, k, foods),
                      "fields": {f: {"type": list(t) if isinstance(t, tuple) else t, "required": req}
                                 for f, (t, req, _d) in data.SCHEMA[k]["fields"].items()}}
                  for k in data.KINDS},
        "sample": cat.sample_kinds(), "problems": cat.problems, "notes": cat.notes,
        "fingerprint": cat.fingerprint(),
        "foods": sorted(foods),
        "food_names": {f["id"]: f["name"] for f in cat.records["foods"]},
    }


def preview(kind: str, does) -> dict:
    """The entry form's preview of a card's ``does``: each ability as a sentence, or the problems."""
    foods = {f["id"]: f["name"] for f in data.load().records["foods"]}
    listed = does if kind == "assistants" and isinstance(does, list) else [does]
    problems = [p for a in listed for p in abilities.problems(a, set(foods), assistant=kind == "assistants")]
    if kind == "assistants" and not isinstance(does, list):
        problems.insert(0, "an assistant's \"does\" is a list: one ability per option")
    return {"problems": problems} if problems else {"text": [abilities.describe(a, foods) for a in listed]}


def register(app, socketio, ctx) -> None:
    """Add the data routes to ``app`` and use ``ctx.data_dir`` for the owner's folder."""
    data.configure(ctx.data_dir)
    bp = Blueprint("food_for_thought", __name__)

    @bp.before_request
    def host_only():
        return refuse_unless_host(ctx, "Entering Food for Thought cards")

    @bp.get("/api/food-for-thought/data")
    def get_data():
        return jsonify(summary())

    def card_body():
        """The request's body ``{"kind", "record"}`` and None, or None and a refusal."""
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("record"), dict) or "kind" not in body:
            return None, _error(400, "bad_card", "Send {\"kind\": \"recipes\", \"record\": {...}}: one card as an object.")
        return body, None

    @bp.post("/api/food-for-thought/check")
    def check_card():
        body, err = card_body()
        if err:
            return err
        problems = data.record_problems(body["kind"], body["record"])
        return jsonify({"ok": not problems, "problems": problems})

    @bp.post("/api/food-for-thought/cards")
    def add_card():
        body, err = card_body()
        if err:
            return err
        try:
            path = data.append_record(body["kind"], body["record"])
        except data.DataError as exc:
            return _error(400, "bad_card", "; ".join(exc.problems), problems=exc.problems)
        except OSError as exc:
            return _error(500, "write_failed", f"Could not write the owner's data file ({exc}); "
                          "check the data folder's permissions and free space.")
        return jsonify({"ok": True, "path": str(path), **summary()})

    @bp.post("/api/food-for-thought/complete")
    def mark_complete():
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("kind"), str) or not isinstance(
                body.get("complete"), bool):
            return _error(400, "bad_kind", "Send {\"kind\": \"recipes\", \"complete\": true} (false: use the sample again).")
        try:
            data.mark_complete(body["kind"], body["complete"])
        except data.DataError as exc:
            return _error(400, "bad_kind", "; ".join(exc.problems), problems=exc.problems)
        except OSError as exc:
            return _error(500, "write_failed", f"Could not write the owner's data folder ({exc}); "
                          "check its permissions and free space.")
        return jsonify({"ok": True, **summary()})

    @bp.post("/api/food-for-thought/ability")
    def ability_preview():
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or body.get("kind") not in ("recipes", "assistants") or "does" not in body:
            return _error(400, "bad_card", "Send {\"kind\": \"recipes\" or \"assistants\", \"does\": ...}.")
        return jsonify(preview(body["kind"], body["does"]))

    app.register_blueprint(bp)
