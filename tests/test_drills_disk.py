"""Drill: the disk fills up, or the data folder is read-only (issue 8).

The table must say so clearly on the host page and the TV, refuse every input with
``journal_failed`` rather than drop it silently, keep the journal intact, and carry on once
the disk can be written again.

How the faults are made, on the real server process:
- *disk full while playing*: the server's file-size limit (RLIMIT_FSIZE, set from outside with
  prlimit) is lowered to 1 byte, so every write into the journal fails in the kernel exactly as
  it would on a full card (SQLite reports it; the server cannot tell a quota from a full disk);
- *read-only data folder*: the data folder is a bind mount that is remounted read-only while the
  server is stopped (a card that the kernel remounted read-only after errors comes back like
  this after a reboot). Linux refuses to remount a folder read-only while a file in it is open
  for writing, so "read-only under a running server" is not something that can happen to it.
  This part needs mount privileges (root with CAP_SYS_ADMIN) and is skipped without them.
"""
from __future__ import annotations

import json
import resource
import sqlite3
import subprocess
import sys

import pytest

from server.journal import Journal, JournalError
from tests.support.browser import browser, screenshot
from tests.support.server import ROOT, Server

NEW_GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 0, "options": {"rounds": 3}}}


def journal_inputs(path) -> list[dict]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return [json.loads(s) for (s,) in db.execute("SELECT input FROM inputs ORDER BY id")]
    finally:
        db.close()


def set_file_size_limit(pid: int, limit: int) -> None:
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))


def journal_record(srv) -> dict:
    return srv.state("host", srv.host_token)["health"]["journal"][0]


@pytest.mark.browser
def test_disk_full_refuses_inputs_says_so_on_tv_and_host_then_recovers(tmp_path):
    srv = Server(tmp_path / "data").start()
    accepted = [NEW_GAME, {"tap": {"reader": "seat-1", "card": "test/red"}}]
    try:
        for inp in accepted:
            assert srv.post(inp).status_code == 200
        with browser() as b:
            tv = b.new_page(viewport={"width": 1920, "height": 1080})
            tv.goto(srv.url + "/")
            tv.wait_for_function("Number(document.body.dataset.seq) === 2")
            host = b.new_page(viewport={"width": 1400, "height": 1000})
            host.goto(f"{srv.url}/host?token={srv.host_token}")
            host.wait_for_selector("#health td.status-ok")
            before = srv.state("table")

            set_file_size_limit(srv.proc.pid, 1)      # the disk is full
            tap = {"tap": {"reader": "seat-2", "card": "test/blue"}}
            for attempt in range(3):                 # every attempt refused, none dropped silently
                r = srv.post(tap)
                assert r.status_code == 503, r.text
                error = r.json()["error"]
                assert error["code"] == "journal_failed"
                assert "NOT applied" in error["message"] and "disk space" in error["message"]
            sio = srv.client("table")
            answer = sio.send(tap)                   # the same over Socket.IO
            sio.close()
            assert answer["ok"] is False and answer["error"]["code"] == "journal_failed"
            assert srv.state("table") == before, "a refused input changed the game"
            record = journal_record(srv)
            assert record["status"] == "error" and "could not be written" in record["detail"]

            # the TV says so, and keeps saying so (not a notice that fades)
            tv.wait_for_selector("#problems.show", timeout=10000)
            assert "cannot save" in tv.locator("#problems").inner_text()
            tv.reload()
            tv.wait_for_selector("#problems.show", timeout=10000)
            screenshot(tv, "drill-disk-full-tv")
            # the host page's device table shows the journal's record
            host.wait_for_selector("#health td.status-error", timeout=10000)
            row = host.locator("#health tr", has=host.locator("td.status-error")).inner_text()
            assert "journal" in row and "could not be written" in row
            screenshot(host, "drill-disk-full-host")

            set_file_size_limit(srv.proc.pid, resource.RLIM_INFINITY)   # space freed
            assert srv.post(tap).status_code == 200
            accepted.append(tap)
            tv.wait_for_selector("#problems.show", state="hidden", timeout=10000)
            assert journal_record(srv)["status"] == "ok"
            host.wait_for_selector("#health td.status-error", state="detached", timeout=10000)
    finally:
        srv.stop()
    assert journal_inputs(tmp_path / "data" / "journal.sqlite") == [
        {"new_game": {**NEW_GAME["new_game"], "seed": 0}}, *accepted[1:]]


@pytest.fixture
def bind_mounted(tmp_path):
    """``tmp_path/data``: a bind mount of ``tmp_path/disk`` that a test can make read-only."""
    disk, data = tmp_path / "disk", tmp_path / "data"
    disk.mkdir()
    data.mkdir()
    r = subprocess.run(["mount", "--bind", str(disk), str(data)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot bind-mount here (needs root with CAP_SYS_ADMIN): {r.stderr.strip()}")
    yield data
    subprocess.run(["umount", "-l", str(data)], check=False)


def test_read_only_data_folder_keeps_the_game_visible_and_refuses_inputs(bind_mounted, tmp_path):
    srv = Server(bind_mounted)
    srv.start()
    try:
        for inp in (NEW_GAME, {"tap": {"reader": "seat-1", "card": "test/red"}}):
            assert srv.post(inp).status_code == 200
        before = srv.state("table")
    finally:
        srv.stop()
    subprocess.run(["mount", "-o", "remount,bind,ro", str(bind_mounted)], check=True)

    srv.start()          # comes up on the read-only folder, with the game where it was
    try:
        assert srv.state("table") == before
        r = srv.post({"tap": {"reader": "seat-2", "card": "test/blue"}})
        assert r.status_code == 503 and r.json()["error"]["code"] == "journal_failed"
        assert "readonly" in r.json()["error"]["message"].replace("read-only", "readonly")
        assert srv.state("table") == before
        record = journal_record(srv)
        assert record["status"] == "error" and "could not be written" in record["detail"]
    finally:
        srv.stop()
    assert len(journal_inputs(tmp_path / "disk" / "journal.sqlite")) == 2


def test_a_journal_opened_on_a_read_only_folder_takes_inputs_once_the_folder_is_writable(bind_mounted):
    # a table that stopped without closing its journal (its WAL files stay, as after a power cut)
    subprocess.run([sys.executable, "-c", "import os, sys; from server.journal import Journal; "
                    f"Journal(sys.argv[1]).append({NEW_GAME!r}); os._exit(0)",
                    str(bind_mounted / "journal.sqlite")], check=True, cwd=ROOT)
    subprocess.run(["mount", "-o", "remount,bind,ro", str(bind_mounted)], check=True)
    journal = Journal(bind_mounted / "journal.sqlite")     # the table starts on the read-only folder
    try:
        with pytest.raises(JournalError, match="readonly"):
            journal.append({"button": {"name": "advance"}})
        subprocess.run(["mount", "-o", "remount,bind,rw", str(bind_mounted)], check=True)
        assert journal.append({"button": {"name": "advance"}}, key="after-remount-1") == 2   # no restart
        assert journal.row_for_key("after-remount-1") == 2
    finally:
        journal.close()
