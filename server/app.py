"""The web side of the table: HTTP API, Socket.IO rooms and the pages, in one Flask app.

Rooms: ``table`` (the TV, anyone), ``host`` (host token), ``seat-N`` (that
seat's token).  A client gets the full ``state`` for its audience on connect
and after every change, ``event`` for discrete happenings and ``refused`` for
refusals.  ``input`` (Socket.IO) and ``POST /api/input`` take one protocol
object and answer with the outcome.
"""
from __future__ import annotations

import json
import math
import secrets
from pathlib import Path

from flask import Flask, Request, Response, jsonify, request, send_from_directory
from flask_socketio import ConnectionRefusedError, SocketIO, join_room
from socketio import packet as socketio_packet
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge

from . import backlog, games, plugins, websocket_send
from .access import AccessError
from .context import TableContext
from .describe import describe_journal
from .journal import JournalError
from .protocol import (MAX_INPUT_BYTES, MAX_SOCKET_MESSAGE_BYTES, NestedTooDeeply, ProtocolError,
                       SocketJSON, check, check_key)
from .publisher import Publisher
from .throttle import Throttle
from .web_access import json_error, request_role, request_token, role_for
from .web_guard import Guard

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

_STATUS = {"busy": 503, "journal_failed": 503, "internal_error": 500, "queued": 202}


class TableRequest(Request):
    """A request whose JSON body, nested too deeply to parse, is a 400 rather than a crash."""

    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True):
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            if silent:
                return None
            raise BadRequest("The JSON body is nested too deeply.") from None


class SocketPacket(socketio_packet.Packet):
    """A Socket.IO packet whose JSON is made once, when it is made: python-socketio otherwise walks
    every value of each message to each room looking for bytes, then encodes it (for the views of an
    input the walk cost more than the encoding).  A message that cannot be JSON (bytes in it: a
    client's raw input echoed to the host) goes as python-socketio sends it, bytes as attachments."""

    def __init__(self, packet_type=socketio_packet.EVENT, data=None, namespace=None, id=None, binary=None,
                 encoded_packet=None):
        self.text = None
        if binary is None and encoded_packet is None and data is not None:
            try:
                self.text = self.json.dumps(data, separators=(",", ":"))
                binary = False
            except TypeError:
                pass
        super().__init__(packet_type, data, namespace, id, binary, encoded_packet)

    def encode(self):
        """The packet as sent (Socket.IO's encoding, with the JSON made already)."""
        if self.text is None:
            return super().encode()
        namespace = f"{self.namespace}," if self.namespace not in (None, "/") else ""
        return f"{self.packet_type}{namespace}{'' if self.id is None else self.id}{self.text}"


def create_app(ctx: TableContext) -> tuple[Flask, SocketIO]:
    """Build the Flask app and its Socket.IO server around ``ctx``'s table."""
    websocket_send.install()   # each screen's writer thread keeps the interpreter for the frames the kernel takes at once
    app = Flask(__name__, static_folder=None)
    app.request_class = TableRequest   # every extension's get_json too
    app.config["MAX_CONTENT_LENGTH"] = MAX_INPUT_BYTES
    # messages up to MAX_SOCKET_MESSAGE_BYTES are read, so one over MAX_INPUT_BYTES is answered
    socketio = SocketIO(app, async_mode="threading", max_http_buffer_size=MAX_SOCKET_MESSAGE_BYTES,
                        serializer=SocketPacket, json=SocketJSON, ping_interval=backlog.PING_INTERVAL_SECONDS,
                        ping_timeout=backlog.PING_TIMEOUT_SECONDS)
    # Socket.IO sid -> (the token it connected with, the view it asked for, the room it is in)
    clients: dict[str, tuple[str | None, str, str | None]] = {}

    def regroup() -> None:
        """Put every seat page in the room its token gives now (after a new game, or a phone
        forgotten): a remembered phone follows its player to the new seat, or to the table
        view when its player is not playing; a page opened with an old game's seat token is
        asked to scan again."""
        for sid, (token, wanted, room) in list(clients.items()):
            if wanted != "seat" and not (room or "").startswith("seat-"):
                continue
            try:
                new = ctx.access.audience(wanted, role_for(ctx, token))
            except AccessError:
                new = None
            if new == room:
                continue
            if room:
                socketio.server.leave_room(sid, room, namespace="/")
            clients[sid] = (token, wanted, new)
            if new is None:
                socketio.emit("reauth", {"message": "A new game has started: scan your seat's code "
                                                    "on the TV again."}, to=sid)
            else:
                socketio.server.enter_room(sid, new, namespace="/")
                socketio.emit("state", publisher.emitted_view(new), to=sid)

    publisher = Publisher(ctx, socketio, regroup)
    app.extensions["tofu"] = ctx
    app.extensions["tofu_publisher"] = publisher
    app.extensions["tofu_regroup"] = regroup

    throttle = Throttle()
    app.extensions["tofu_throttle"] = throttle

    def locked_out_message(wait: float) -> str:
        return (f"Too many wrong tokens came from this device: wait {math.ceil(wait)} s, then open "
                "the page again from the address printed when the table started.")

    def refusals_message(wait: float) -> str:
        return (f"Too many inputs from this device were refused: wait {math.ceil(wait)} s, then "
                "send one input at a time.")

    def too_many(code: str, message: str, wait: float):
        response, status = json_error(429, code, message)
        response.headers["Retry-After"] = str(math.ceil(wait))
        return response, status

    @app.before_request
    def throttled():
        """A device locked out for wrong tokens, or out of refusals, is answered 429 at once."""
        addr = request.remote_addr or ""
        if request_token() and (wait := throttle.token_wait(addr)):
            return too_many("too_many_tries", locked_out_message(wait), wait)
        if request.path == "/api/input" and (wait := throttle.refusal_wait(addr)):
            return too_many("too_many_refusals", refusals_message(wait), wait)
        return None

    @app.after_request
    def count_refusals(response):
        """Count a refused input, and an unknown token refused where the host's was needed."""
        addr = request.remote_addr or ""
        if request.path == "/api/input" and 400 <= response.status_code < 500 and response.status_code != 429:
            throttle.refused(addr)
        if response.status_code == 403 and response.is_json:
            error = (response.get_json(silent=True) or {}).get("error") or {}
            token = request_token()
            if error.get("code") == "host_token_needed" and token and role_for(ctx, token) == "table":
                throttle.wrong_host_token(addr)
        return response

    def process(raw, role: str, source: str, key=None) -> tuple[dict, int]:
        """Check, authorise and apply one input (sent with idempotency ``key``); the answer
        and its HTTP status."""
        try:
            key = check_key(key)
            inp = check(raw)
            ctx.access.check_input(inp, role)
            if "new_game" in inp and "seed" not in raw["new_game"]:
                # a game night deals a fresh game; the seed is journaled with it, so replays stay exact
                inp["new_game"]["seed"] = secrets.randbelow(2**63)
        except (ProtocolError, AccessError) as exc:
            # never reaches the table, but the host sees it beside the table's own refusals
            try:
                ctx.table.journal.refuse(raw, exc.code, exc.message, source)
            except JournalError:
                pass
            socketio.emit("refused", {**exc.as_dict(), "input": raw}, to="host")
            return {"ok": False, "error": exc.as_dict()}, 400 if isinstance(exc, ProtocolError) else 403
        outcome = ctx.table.submit(inp, source, key=key)
        if outcome.accepted:
            return outcome.as_dict(role), 200
        return outcome.as_dict(role), _STATUS.get(outcome.error.code, 409)

    # ----- HTTP API ---------------------------------------------------------
    @app.get("/api/games")
    def api_games():
        # "page": whether the game brings its own page part (web/games/<id>.js)
        return jsonify([{**g.describe(), "page": (WEB_DIR / "games" / f"{g.id}.js").is_file()}
                        for g in games.all_games()])

    @app.get("/api/state")
    def api_state():
        try:
            audience = ctx.access.audience(request.args.get("view", "table"), request_role(ctx))
        except AccessError as exc:
            return json_error(403, exc.code, exc.message)
        return jsonify(publisher.view(audience))

    @app.post("/api/input")
    def api_input():
        raw = request.get_data(cache=False)
        if request.content_length is None and len(raw) >= MAX_INPUT_BYTES:
            # a chunked body is cut at the limit without an error: never act on a prefix
            raise RequestEntityTooLarge()
        if request.mimetype != "application/json":   # a form or text/plain post from another site
            return json_error(415, "bad_content_type", "Send the input as JSON, with the header "
                              "Content-Type: application/json.")
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            return json_error(400, "bad_json", f"The body is not valid JSON ({exc}); send one protocol "
                          "object such as {\"button\": {\"name\": \"advance\"}}.")
        except RecursionError:
            return json_error(400, "bad_json", "The body is nested too deeply to be an input; send one "
                          "protocol object such as {\"button\": {\"name\": \"advance\"}}.")
        answer, status = process(body, request_role(ctx), "http", request.headers.get("Idempotency-Key"))
        if answer["ok"]:
            return jsonify(answer), status
        answer.pop("ok")
        return jsonify(answer), status

    @app.get("/api/health")
    def api_health():
        return jsonify({**ctx.health.snapshot(), "simulate": ctx.simulate, "seq": ctx.table.seq})

    @app.get("/api/journal")
    def api_journal():
        if request_role(ctx) != "host":
            return json_error(403, "host_token_needed", "The journal is for the host: add the host token.")
        limit = request.args.get("limit", "50")
        if not (limit.isascii() and limit.isdigit() and len(limit) <= 4 and 1 <= int(limit) <= 1000):
            return json_error(400, "bad_limit", "limit must be a whole number from 1 to 1000.")
        return jsonify(describe_journal(ctx.table.journal.recent(int(limit)), ctx.table.state))

    # ----- pages ------------------------------------------------------------
    def page(name: str):
        return send_from_directory(WEB_DIR, name)

    app.add_url_rule("/", "tv", lambda: page("tv.html"))
    app.add_url_rule("/favicon.ico", "favicon", lambda: send_from_directory(WEB_DIR, "favicon.svg",
                                                                            mimetype="image/svg+xml"))
    app.add_url_rule("/host", "host", lambda: page("host.html"))
    app.add_url_rule("/seat/<int:seat>", "seat", lambda seat: page("seat.html"))

    @app.get("/sim")
    def sim():
        if not ctx.simulate:
            return Response("The simulator runs only in simulation: start the table with "
                            "`tofu-table serve --simulate`.", status=404, mimetype="text/plain")
        return page("sim.html")

    @app.get("/web/<path:name>")
    def web(name: str):
        return send_from_directory(WEB_DIR, name)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if request.path.startswith("/api/") or exc.code == 413:
            code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(exc.code, "http_error")
            message = {413: f"The request is larger than {MAX_INPUT_BYTES} bytes; send one input at a time."
                       }.get(exc.code, exc.description)
            return json_error(exc.code, code, message)
        return exc

    # ----- Socket.IO ----------------------------------------------------------
    @socketio.on("connect")
    def on_connect(auth=None):
        auth = auth if isinstance(auth, dict) else {}
        token = auth.get("token") or request.args.get("token")
        token = token if isinstance(token, str) else None
        wanted = auth.get("view") or request.args.get("view") or "table"
        wanted = wanted if isinstance(wanted, str) else "?"
        addr = request.remote_addr or ""
        if token and (wait := throttle.token_wait(addr)):
            raise ConnectionRefusedError(locked_out_message(wait), {"code": "too_many_tries",
                                                                    "message": locked_out_message(wait)})
        role = role_for(ctx, token)
        try:
            audience = ctx.access.audience(wanted, role)
        except AccessError as exc:
            if exc.code == "host_token_needed" and token and role == "table":
                throttle.wrong_host_token(addr)
            raise ConnectionRefusedError(exc.message, exc.as_dict()) from None
        clients[request.sid] = (token, wanted, audience)
        join_room(audience)
        socketio.emit("state", publisher.emitted_view(audience), to=request.sid)

    @socketio.on("disconnect")
    def on_disconnect(reason=None):
        clients.pop(request.sid, None)
        publisher.backlog.disconnected(request.sid, reason)

    @socketio.on("input")
    def on_input(data=None, *extra):
        if extra:
            return {"ok": False, "error": {"code": "bad_input", "message": "Send one input object "
                                           "per message, with nothing after it."}}
        key = None
        if isinstance(data, dict) and "input" in data and set(data) <= {"input", "key"}:
            data, key = data["input"], data.get("key", None)   # {"input": {...}, "key": "..."}
        addr = request.remote_addr or ""
        if wait := throttle.refusal_wait(addr):
            return {"ok": False, "error": {"code": "too_many_refusals", "message": refusals_message(wait)}}
        if isinstance(data, NestedTooDeeply):
            throttle.refused(addr)
            return {"ok": False, "error": {"code": "bad_json", "message": "The input is nested too deeply "
                                           "to read; send one protocol object such as "
                                           "{\"button\": {\"name\": \"advance\"}}."}}
        # read, being under the transport's limit, so it is answered
        if len(json.dumps(data, separators=(",", ":"), default=repr)) > MAX_INPUT_BYTES:
            throttle.refused(addr)
            return {"ok": False, "error": {"code": "too_large", "message": f"The input is larger than "
                                           f"{MAX_INPUT_BYTES} bytes; send one input at a time."}}
        # the role now, not at connect: a seat token stops counting once its game is over
        token = clients.get(request.sid, (None,))[0]
        role = role_for(ctx, token)
        answer, status = process(data, role, "socket", key)
        if 400 <= status < 500:
            throttle.refused(addr)
            if answer["error"]["code"] == "host_token_needed" and token and role == "table":
                throttle.wrong_host_token(addr)
        return answer

    for _name, register in plugins.load(plugins.PAGES):
        register(app, socketio, ctx)
    app.wsgi_app = publisher.backlog.wrap(app.wsgi_app)   # notes each websocket's TCP socket
    app.wsgi_app = Guard(app.wsgi_app, ctx.public_url)   # outermost: HTTP and the Socket.IO handshake
    return app, socketio
