"""Device health for /api/health and the host page: readers, buttons, camera, journal.

Each part of the program registers a provider: a function returning a list of
``{"name", "status", "detail", "last_seen"}`` records (status ``ok``, ``down``,
``off`` ...).  The journal's own record is kept here.
"""
from __future__ import annotations

import threading
import time
from typing import Callable


class Health:
    """Collects health records from registered providers."""

    def __init__(self):
        self._providers: dict[str, list[Callable[[], list[dict]]]] = {}
        self._lock = threading.Lock()
        self.journal = {"name": "journal", "status": "ok", "detail": "", "last_seen": None}

    def register(self, kind: str, provider: Callable[[], list[dict]]) -> None:
        """Add a provider of records under ``kind`` (readers, buttons, camera, ...)."""
        with self._lock:
            self._providers.setdefault(kind, []).append(provider)

    def journal_ok(self) -> None:
        self.journal.update(status="ok", detail="", last_seen=time.time())

    def journal_failed(self, detail: str) -> None:
        self.journal.update(status="error", detail=detail)

    def snapshot(self) -> dict:
        """Every record by kind; a provider that fails reports itself as an error."""
        out: dict[str, list[dict]] = {"readers": [], "buttons": [], "camera": []}
        with self._lock:
            providers = {k: list(v) for k, v in self._providers.items()}
        for kind, funcs in providers.items():
            for func in funcs:
                try:
                    out.setdefault(kind, []).extend(func())
                except Exception as exc:   # a broken device must not break the health page
                    out.setdefault(kind, []).append(
                        {"name": getattr(func, "__name__", kind), "status": "error",
                         "detail": f"health check failed: {exc}", "last_seen": None})
        out["journal"] = [dict(self.journal)]
        out["ok"] = all(r["status"] in ("ok", "off", "simulated", "starting")   # starting: no fault yet
                        for records in out.values() if isinstance(records, list) for r in records)
        return out
