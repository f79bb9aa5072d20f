"""Joining the table: the join code, seat codes, remembered phones and paired TVs.

A page plugin (:mod:`server.plugins`).  Codes that let someone act at the table
(the join code, the seat codes, the host code) go only to the host and to
displays: TVs the host paired, and with ``serve --local-display`` the browser on
the table's own machine (the Pi's kiosk TV).  The host code on the lobby TV opens
the host page once: whoever scans it first is the host, and the TV stops showing
it (kept across restarts) until the host asks for a new one.  TVs hear ``join``
when the codes they show change.

    GET  /api/join                  host or display: the join code and where its QR codes are
                                    (anyone else: {"paired": false} and no code)
    POST /api/join/renew            host: a new join code (the old one stops working)
    GET  /qr/join.svg               host or display: the join code as a QR code (-> /join?code=...)
    GET  /qr/host.svg               host or display: the host code, while it is unused (-> /host/code#<code>)
    POST /api/host/code/use         {"code": ...}: the host token, once per host code (the code is then used up)
    POST /api/host/code/renew       host: a new host code for the TV (to open the host page on another phone)
    GET  /qr/seat/<n>.svg           host or display: seat n's code (-> /join?token=<seat token>)
    POST /api/devices/join          {"code": ..., "device": its stored token or absent}, or a seat
                                    token as Bearer: remember this phone (as that seat's player);
                                    answers {"token", "device", "seat"}
    GET  /api/devices/me            a phone's token: who it is and its seat in the running game
    POST /api/devices/me            a phone's token, {"player": name, "seat": n or null}: pick who it is
    GET  /api/devices               host: every remembered phone and display
    POST /api/devices/<id>/forget   host: forget one (its token stops working at once)
    POST /api/displays/request      a TV that wants pairing: {"request", "code"} (code shown on it)
    GET  /api/displays/request/<r>  that TV, polling: {"paired": false} until the host pairs it
    POST /api/displays/pair         host, {"code": ..., "label": ...}: pair the TV showing that code
"""
from __future__ import annotations

import io
import secrets
import threading
import time
from pathlib import Path

import segno
from flask import Blueprint, Response, jsonify, request, send_from_directory

from .devices import Device, seat_of
from .web_access import json_error, refuse_unless_host, request_role, request_token

#: Letters that cannot be mistaken for each other when read off a TV (no 0/O, 1/I/L).
_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_PAIR_SECONDS = 600          # a pairing request is good for ten minutes
_MAX_PAIR_REQUESTS = 32      # at most this many waiting at once (the oldest go first)


def _code(length: int, letters: str = _CODE_LETTERS) -> str:
    return "".join(secrets.choice(letters) for _ in range(length))


class Pairing:
    """The join code and the TVs waiting to be paired (in memory: both are short-lived)."""

    def __init__(self):
        self.join_code = _code(6)
        self._lock = threading.Lock()
        self._requests: dict[str, dict] = {}   # request id -> {"code", "at", "token"}

    def renew(self) -> str:
        self.join_code = _code(6)
        return self.join_code

    def request(self) -> tuple[str, str]:
        """A new pairing request: its secret id (for the TV) and its code (for the host)."""
        now = time.monotonic()
        with self._lock:
            for rid in [r for r, v in self._requests.items() if now - v["at"] > _PAIR_SECONDS]:
                del self._requests[rid]
            while len(self._requests) >= _MAX_PAIR_REQUESTS:
                del self._requests[min(self._requests, key=lambda r: self._requests[r]["at"])]
            codes = {v["code"] for v in self._requests.values()}
            code = next(c for c in iter(lambda: _code(6, "0123456789"), None) if c not in codes)
            rid = secrets.token_urlsafe(18)
            self._requests[rid] = {"code": code, "at": now, "token": None}
        return rid, code

    def approve(self, code: str, token: str) -> bool:
        """Hand ``token`` to the waiting TV showing ``code``; False if none shows it."""
        now = time.monotonic()
        with self._lock:
            for entry in self._requests.values():
                if entry["code"] == code and entry["token"] is None and now - entry["at"] <= _PAIR_SECONDS:
                    entry["token"] = token
                    return True
        return False

    def collect(self, rid: str) -> tuple[bool, str | None]:
        """(known, token): the token once the host approved (given out once), else None."""
        with self._lock:
            entry = self._requests.get(rid)
            if entry is None or time.monotonic() - entry["at"] > _PAIR_SECONDS:
                return False, None
            if entry["token"] is not None:
                del self._requests[rid]
            return True, entry["token"]


class HostCode:
    """The one-use code on the lobby TV that opens the host page; used up once scanned.

    Whether it was used is kept in ``<data dir>/host-code-used`` so a restart (a power cut)
    does not put a code that gives host rights back on the TV of a room full of players."""

    def __init__(self, data_dir):
        self._used_file = Path(data_dir) / "host-code-used"
        self._lock = threading.Lock()
        self.code = None if self._used_file.exists() else secrets.token_urlsafe(16)

    def use(self, code) -> bool:
        """Whether ``code`` is the unused host code (it is used from now on)."""
        with self._lock:
            if not (isinstance(code, str) and code.isascii() and self.code
                    and secrets.compare_digest(code.encode(), self.code.encode())):
                return False
            self.code = None
            self._used_file.write_text("used\n")
            return True

    def renew(self) -> None:
        """A new unused code (the TV shows it again)."""
        with self._lock:
            self.code = secrets.token_urlsafe(16)
            self._used_file.unlink(missing_ok=True)


def _svg(text: str) -> Response:
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2)
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def _player_name(value) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > 24:
        return None
    return value.strip()


def _not_joined():
    """The refusal for a phone the table does not know (never joined, or forgotten by the host)."""
    return json_error(403, "not_joined", "This phone has not joined the table (or the host forgot "
                      "it): scan the join code on the TV.")


def register(app, socketio, ctx) -> None:
    """Add the joining and pairing routes to ``app``."""
    bp = Blueprint("joining", __name__)
    pairing = Pairing()
    host_code = HostCode(ctx.data_dir)
    app.extensions["tofu_pairing"] = pairing

    def base() -> str:
        return (ctx.public_url or request.host_url).rstrip("/")

    def shows_codes() -> bool:
        """Whether this request comes from the host or a display (a paired TV, the kiosk TV)."""
        return request_role(ctx) in ("host", "display")

    def refuse_unless_display(what: str):
        if shows_codes():
            return None
        return json_error(403, "display_token_needed", f"{what} is shown only on the host page and on "
                          "TVs the host has paired: pair this screen at /pair, or open the host page.")

    def phone() -> Device | None:
        device = ctx.devices.find(request_token())
        return device if device is not None and device.kind == "phone" else None

    def about(device: Device) -> dict:
        seat = seat_of(device.player, ctx.table.state)
        return {"device": device.as_dict(), "seat": seat}

    def devices_changed() -> None:
        socketio.emit("devices", {"devices": [d.as_dict() for d in ctx.devices.all()]}, to="host")

    def codes_changed() -> None:
        """Tell the TVs to fetch their codes again (the message itself holds none)."""
        socketio.emit("join", {}, to="table")

    # ----- codes for the host and the displays ------------------------------------
    @bp.get("/api/join")
    def join_info():
        if not shows_codes():
            # a TV nobody paired asks too: it learns that it shows no codes (a 403 would be a
            # console error on every such screen), and no code
            return jsonify({"paired": False, "message": "This screen shows no join codes: pair it at /pair."})
        return jsonify({"paired": True, "code": pairing.join_code, "url": f"{base()}/join?code={pairing.join_code}",
                        "host_url": f"{base()}/host", "qr": "/qr/join.svg",
                        "host_qr": "/qr/host.svg" if host_code.code else None,
                        "seat_qr": {str(s): f"/qr/seat/{s}.svg" for s in ctx.table.seats()}})

    @bp.post("/api/join/renew")
    def join_renew():
        refusal = refuse_unless_host(ctx, "A new join code")
        if refusal:
            return refusal
        code = pairing.renew()
        codes_changed()
        return jsonify({"code": code})

    @bp.get("/qr/join.svg")
    def join_qr():
        return refuse_unless_display("The join code") or _svg(f"{base()}/join?code={pairing.join_code}")

    @bp.get("/qr/host.svg")
    def host_qr():
        refusal = refuse_unless_display("The host code")
        if refusal:
            return refusal
        code = host_code.code
        if code is None:
            return json_error(404, "host_code_used", "The host code was used: the host page can show a "
                              "new one (Phones and TVs: Show a host code on the TV).")
        return _svg(f"{base()}/host/code#{code}")

    @bp.post("/api/host/code/use")
    def host_code_use():
        body = request.get_json(silent=True)
        if not host_code.use(body.get("code") if isinstance(body, dict) else None):
            return json_error(403, "bad_host_code", "This host code was already used or is not the "
                              "table's: ask the host to show a new one on the TV (host page, Phones and "
                              "TVs), or open the address printed when the table started.")
        codes_changed()
        return jsonify({"token": ctx.access.host_token})

    @bp.post("/api/host/code/renew")
    def host_code_renew():
        refusal = refuse_unless_host(ctx, "A new host code")
        if refusal:
            return refusal
        host_code.renew()
        codes_changed()
        return jsonify({"ok": True})

    @bp.get("/qr/seat/<int:seat>.svg")
    def seat_qr(seat: int):
        refusal = refuse_unless_display("A seat's code")
        if refusal:
            return refusal
        token = ctx.access.seat_token(ctx.table.game_seq, seat)
        if token is None or seat not in ctx.table.seats():
            return json_error(404, "no_such_seat", f"Seat {seat} is not in the current game.")
        return _svg(f"{base()}/join?token={token}")

    # ----- phones ------------------------------------------------------------------
    @bp.post("/api/devices/join")
    def device_join():
        body = request.get_json(silent=True)
        body = body if isinstance(body, dict) else {}
        stored = ctx.devices.find(body.get("device") if isinstance(body.get("device"), str) else None)
        stored = stored if stored is not None and stored.kind == "phone" else None
        seat_role = ctx.access.role(request_token(), ctx.table.game_seq, ctx.table.seats())
        if seat_role.startswith("seat-"):
            # a seat code: this phone is that seat's player from now on, game after game
            seat = int(seat_role[5:])
            player = next(p["name"] for p in ctx.table.state["players"] if p["seat"] == seat)
            if stored is None:
                token, device = ctx.devices.add("phone", player=player)
            else:
                ctx.devices.set_player(stored.id, player, None)
                token, device = body["device"], ctx.devices.find(body["device"])
        elif stored is not None:
            token, device = body["device"], stored
        elif isinstance(body.get("code"), str) and secrets.compare_digest(
                body["code"].strip().upper().encode(), pairing.join_code.encode()):
            token, device = ctx.devices.add("phone")
        else:
            return json_error(403, "bad_join_code", "That join code is not the table's: scan the code on "
                              "the TV again, or type the letters shown under it.")
        devices_changed()
        return jsonify({"token": token, **about(device)})

    @bp.get("/api/devices/me")
    def device_me():
        device = phone()
        if device is None:
            return _not_joined()
        return jsonify(about(device))

    @bp.post("/api/devices/me")
    def device_pick():
        device = phone()
        if device is None:
            return _not_joined()
        body = request.get_json(silent=True)
        body = body if isinstance(body, dict) else {}
        player = _player_name(body.get("player"))
        if player is None:
            return json_error(400, "bad_player", "Say who you are: a name of 1 to 24 characters.")
        seat = body.get("seat")
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= 8):
            return json_error(400, "bad_seat", "A seat is a number from 1 to 8 (or none).")
        state = ctx.table.state
        if state is not None and not state.get("over") and seat_of(player, state) is None:
            names = ", ".join(p["name"] for p in state["players"])
            return json_error(409, "not_in_game", f"{player} is not in the running game ({names}): pick one "
                              "of them, or wait for the next game.")
        ctx.devices.set_player(device.id, player, seat)
        devices_changed()
        return jsonify(about(ctx.devices.find(request_token())))

    # ----- the host's list ---------------------------------------------------------
    @bp.get("/api/devices")
    def devices_list():
        refusal = refuse_unless_host(ctx, "The list of remembered phones and TVs")
        if refusal:
            return refusal
        return jsonify({"devices": [d.as_dict() for d in ctx.devices.all()]})

    @bp.post("/api/devices/<int:device_id>/forget")
    def device_forget(device_id: int):
        refusal = refuse_unless_host(ctx, "Forgetting a phone or TV")
        if refusal:
            return refusal
        if not ctx.devices.forget(device_id):
            return json_error(404, "no_such_device", f"No remembered phone or TV has number {device_id}.")
        app.extensions["tofu_regroup"]()   # its page leaves the seat it was in, now
        devices_changed()
        return jsonify({"ok": True})

    # ----- pairing a TV --------------------------------------------------------------
    @bp.post("/api/displays/request")
    def display_request():
        rid, code = pairing.request()
        return jsonify({"request": rid, "code": code, "expires_in": _PAIR_SECONDS})

    @bp.get("/api/displays/request/<rid>")
    def display_collect(rid: str):
        known, token = pairing.collect(rid)
        if not known:
            return json_error(404, "pairing_expired", "This pairing code has expired: reload the page for "
                              "a new one.")
        return jsonify({"paired": token is not None, **({"token": token} if token else {})})

    @bp.post("/api/displays/pair")
    def display_pair():
        refusal = refuse_unless_host(ctx, "Pairing a TV")
        if refusal:
            return refusal
        body = request.get_json(silent=True)
        body = body if isinstance(body, dict) else {}
        code = str(body.get("code", "")).strip()
        label = str(body.get("label") or "TV")[:40]
        token, device = ctx.devices.add("display", label=label)
        if not pairing.approve(code, token):
            ctx.devices.forget(device.id)
            return json_error(404, "no_such_pairing", f"No screen is showing the code {code[:12]!r}: open "
                              "/pair on the TV and type the six digits it shows.")
        devices_changed()
        return jsonify({"device": device.as_dict()})

    # ----- pages -------------------------------------------------------------------
    from .app import WEB_DIR
    bp.add_url_rule("/join", "join", lambda: send_from_directory(WEB_DIR, "join.html"))
    bp.add_url_rule("/pair", "pair", lambda: send_from_directory(WEB_DIR, "pair.html"))
    bp.add_url_rule("/seat", "my_seat", lambda: send_from_directory(WEB_DIR, "seat.html"))
    bp.add_url_rule("/host/code", "host_code", lambda: send_from_directory(WEB_DIR, "host-code.html"))

    app.register_blueprint(bp)
