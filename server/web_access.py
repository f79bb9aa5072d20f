"""Tokens from HTTP requests and JSON refusals, shared by the app and its extensions."""
from __future__ import annotations

from flask import jsonify, request


def json_error(status: int, code: str, message: str):
    """A ``{"error": {"code", "message"}}`` response with ``status``."""
    return jsonify({"error": {"code": code, "message": message}}), status


def request_token() -> str | None:
    """The token of this request: ``Authorization: Bearer``, ``X-Tofu-Token`` or ``?token=``."""
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip()
    return request.headers.get("X-Tofu-Token") or request.args.get("token")


def role_for(ctx, token: str | None) -> str:
    """``host``, ``seat-N`` or ``table`` for ``token`` in the running game."""
    return ctx.access.role(token, ctx.table.game_seq, ctx.table.seats())


def request_role(ctx) -> str:
    """``host``, ``seat-N`` or ``table`` for this request's token."""
    return role_for(ctx, request_token())


def refuse_unless_host(ctx, what: str):
    """None for the host; else a 403 saying that ``what`` needs the host token."""
    if request_role(ctx) == "host":
        return None
    return json_error(403, "host_token_needed", f"{what} needs the host token: open it from the "
                      "host page (the token is printed when the server starts).")
