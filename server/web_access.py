"""Tokens from HTTP requests and JSON refusals, shared by the app and its extensions."""
from __future__ import annotations

from flask import jsonify, request

from .devices import seat_of

_LOOPBACK = ("127.0.0.1", "::1")


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
    """``host``, ``seat-N``, ``display``, ``phone`` or ``table`` for ``token`` in the running game.

    A remembered phone is ``seat-N`` while its player sits at seat N, else ``phone``;
    a paired TV is ``display``; no token or an unknown one is ``table``.
    """
    role = ctx.access.role(token, ctx.table.game_seq, ctx.table.seats())
    if role != "table" or not token:
        return role
    device = ctx.devices.find(token)
    if device is None:
        return "table"
    if device.kind == "display":
        return "display"
    seat = seat_of(device.player, ctx.table.state)
    return f"seat-{seat}" if seat else "phone"


def request_role(ctx) -> str:
    """The role of this request's token; with ``serve --local-display`` the table's own
    machine (the Pi's kiosk TV) counts as a paired display."""
    role = role_for(ctx, request_token())
    if role == "table" and ctx.local_display and request.remote_addr in _LOOPBACK \
            and "X-Forwarded-For" not in request.headers:
        return "display"
    return role


def refuse_unless_host(ctx, what: str):
    """None for the host; else a 403 saying that ``what`` needs the host token."""
    if request_role(ctx) == "host":
        return None
    return json_error(403, "host_token_needed", f"{what} needs the host token: open it from the "
                      "host page (the token is printed when the server starts).")
