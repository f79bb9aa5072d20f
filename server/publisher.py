"""Publishing: after every outcome, the views go to the Socket.IO rooms.

Views are built on the applying thread (so they match the state exactly and
cost the table only microseconds to hand over); a separate thread emits them,
so a slow client never delays the table.  A client that falls behind is left out
of the emits and gets only the newest state emitted once it catches up (never one
still queued, so no screen steps back), or is dropped (server/backlog.py).  The
latest views are also cached for HTTP readers.  A room with no one in it is sent
nothing (no view encoded for it), and the host's view gets the devices' health the
first time it leaves (HTTP, Socket.IO), not on the applying thread after every
input: the camera's part of it was the largest share of building the views.
"""
from __future__ import annotations

import logging
import queue
import threading
import time

from .backlog import DROP_AFTER_SECONDS, Backlog
from .describe import describe
from .games.base import RuleError

log = logging.getLogger(__name__)

#: How often the publisher looks whether a client that fell behind has caught up.
CATCH_UP_SECONDS = 0.25


class Publisher:
    """Builds views after each outcome and emits ``state``, ``event`` and ``refused``."""

    def __init__(self, ctx, socketio, regroup=None):
        self.ctx = ctx
        self.socketio = socketio
        self.regroup = regroup
        self.views: dict[str, dict] = {}
        #: Extensions that add to the views (:meth:`add_to_views`): each is called with every new set.
        self.additions: list = []
        self._game_seq = ctx.table.game_seq
        self._queue: queue.Queue = queue.Queue()
        self.backlog = Backlog(socketio)
        #: Socket.IO sid of a client left out of a state -> when it first was
        self._owed: dict[str, float] = {}
        #: the latest host view as it left: (the view built, the view with the devices' health)
        self._host_sent: tuple[dict, dict] | None = None
        ctx.health.register("screens", self._screens_health)
        #: the views of the newest state emitted: what a client that catches up is sent (the views
        #: built meanwhile are still queued, and a newer one sent first would arrive before them)
        self._emitted: dict[str, dict] = self.snapshot()
        ctx.table.listeners.append(self.on_outcome)
        threading.Thread(target=self._run, name="publisher", daemon=True).start()

    def add_to_views(self, addition) -> None:
        """Call ``addition(views)`` on every new set of views from now on, this one included (before
        the server serves)."""
        self.additions.append(addition)
        self._emitted = self.snapshot()

    def snapshot(self) -> dict[str, dict]:
        """Build every audience's view from the table (call on the applying thread)."""
        table = self.ctx.table
        views = {"table": table.view("table"), "host": table.view("host")}
        for seat in table.seats():
            views[f"seat-{seat}"] = table.view(f"seat-{seat}")
        views["host"]["seat_links"] = [
            {"seat": p["seat"], "name": p["name"],
             "path": f"/seat/{p['seat']}?token={self.ctx.access.seat_token(table.game_seq, p['seat'])}"}
            for p in views["host"]["players"]]
        # what Undo takes back, said so the host can check before pressing it
        views["host"]["undo"] = describe(table.newest, table.state) if table.newest else None
        for add in self.additions:
            try:
                add(views)
            except Exception:   # a broken addition must not stop the views
                log.exception("a view addition failed")
        self.views = views
        return views

    def view(self, audience: str) -> dict:
        """The latest view for ``audience`` as sent (a seat outside the game sees the table view)."""
        return self._as_sent(audience, self._view_in(self.views, audience))

    def emitted_view(self, audience: str) -> dict:
        """``audience``'s view of the newest state emitted, as sent: what a screen that joins or
        catches up is sent, so that no state still queued reaches it after a newer one."""
        return self._as_sent(audience, self._view_in(self._emitted, audience))

    @staticmethod
    def _view_in(views: dict, audience: str) -> dict:
        """``audience``'s view among ``views`` (a seat outside the game sees the table view)."""
        return views.get(audience) or {**views["table"], "audience": audience,
                                       "prompt": "This seat is not in the current game."}

    def _as_sent(self, audience: str, view: dict) -> dict:
        """``audience``'s ``view`` as it leaves: the host's with the devices' health as of the first
        time that view left (the same every time after, until the next view)."""
        if audience != "host":
            return view
        sent = self._host_sent
        if sent is None or sent[0] is not view:
            sent = self._host_sent = (view, {**view, "health": self.ctx.health.snapshot()})
        return sent[1]

    def on_outcome(self, outcome, inp: dict) -> None:
        if outcome.accepted:
            self.ctx.health.journal_ok()
            previous = self.views
            views = self.snapshot()
            for audience in previous.keys() - views.keys():   # seats that just left (game ended)
                views[audience] = self.view(audience)
            new_game = self.ctx.table.game_seq != self._game_seq
            self._game_seq = self.ctx.table.game_seq
            self._queue.put(("state", outcome, inp, views, new_game))
        else:
            if outcome.error.code == "journal_failed":
                self.ctx.health.journal_failed(outcome.error.message)
                self.snapshot()
            self._queue.put(("refused", outcome, inp, None, False))

    def _screens_health(self) -> list[dict]:
        """The screens' health record, with the screens owed a state now counted by their view."""
        behind: dict[str, int] = {}
        for sid in list(self._owed):
            room = self.backlog.room_of(sid)
            if room is not None:
                behind[room] = behind.get(room, 0) + 1
        return self.backlog.health(behind)

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=CATCH_UP_SECONDS if self._owed else None)
            except queue.Empty:
                item = None
            try:
                if item is not None:
                    self._emit(*item)
                self._catch_up()
            except Exception:   # keep publishing whatever one emit did
                log.exception("publishing failed")

    def _send(self, event: str, data: dict, to: str) -> None:
        """Emit to room ``to`` except the clients that are behind; a state is owed to them, and no
        longer to one that takes this one.  An empty room is sent nothing."""
        present = self.backlog.members(to)
        if not present:
            return
        lagging = self.backlog.lagging(present)
        if event == "state":
            now = time.monotonic()
            for sid in present:
                if sid in lagging:
                    self._owed.setdefault(sid, now)
                else:
                    self._owed.pop(sid, None)
            data = self._as_sent(to, data)
        self.socketio.emit(event, data, to=to, skip_sid=lagging or None)

    def _catch_up(self) -> None:
        """Send the newest state emitted to each client owed one that has caught up; drop one that
        stays behind."""
        for sid, since in list(self._owed.items()):
            room = self.backlog.room_of(sid)
            if room is None:
                del self._owed[sid]   # gone meanwhile
            elif self.backlog.caught_up(sid):
                del self._owed[sid]
                self.socketio.emit("state", self.emitted_view(room), to=sid)
            elif time.monotonic() - since > DROP_AFTER_SECONDS:
                del self._owed[sid]
                self.backlog.drop(sid)

    def _emit(self, what: str, outcome, inp: dict, views: dict | None, new_game: bool) -> None:
        emit = self._send
        if what == "refused":
            error = outcome.error
            is_rule = isinstance(error, RuleError)
            if is_rule:
                emit("refused", error.as_dict("table"), to="table")
                if error.seat:
                    emit("refused", error.as_dict(f"seat-{error.seat}"), to=f"seat-{error.seat}")
            emit("refused", {**error.as_dict("host"), "input": inp}, to="host")
            return
        self._emitted = views
        if new_game and self.regroup is not None:
            self.regroup()   # phones move to their players' new seats before the new views go out
        for audience, view in views.items():
            emit("state", view, to=audience)
        for ev in outcome.events:
            seat = ev.get("seat")
            if seat is None:
                emit("event", ev, to="table")
            else:
                emit("event", ev, to=f"seat-{seat}")
            emit("event", ev, to="host")
