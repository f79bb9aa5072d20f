"""Drill: the camera gone in the middle of a Food for Thought game, and back (issue 8).

The real server runs outside simulation with a camera configured (the synthetic frame source
stands in for the Pi camera; tests/support/emulated_table.py makes it disappear: opening fails
and no frames come, as when the ribbon comes loose).  While it is gone the table must say so on
the host page and the TV, and the boards must follow the recorded actions: play goes on from the
seat and host pages and every board in the views is what those inputs make it.  When the camera
is back the table finds it again by itself.
"""
from __future__ import annotations

import json
from functools import partial

import pytest
import requests

from server.journal import Journal
from server.table import Table
from tests.support.browser import browser, screenshot
from tests.support.emulated_table import EmulatedTable
from tests.support.hardware_helpers import wait_for
from tests.support.scripts import script_inputs

pytestmark = pytest.mark.browser


def camera(srv) -> dict:
    records = requests.get(srv.url + "/api/health", timeout=5).json()["camera"]
    return next(r for r in records if r["name"] == "camera")


wait_until = partial(wait_for, timeout=20.0, step=0.1)


def test_camera_gone_boards_follow_recorded_actions_and_it_comes_back(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[camera]\nsource = "synthetic"\nfps = 10\n')
    inputs = script_inputs("food-for-thought-2p-basic.jsonl")
    srv = EmulatedTable(data, simulate=False).start(timeout=60)
    try:
        for inp in inputs[:12]:
            assert srv.post(inp).status_code == 200, inp
        wait_until(lambda: camera(srv)["status"] in ("ok", "simulated"), what="the camera to start")
        with browser() as b:
            tv = b.new_page(viewport={"width": 1920, "height": 1080})
            tv.goto(srv.url + "/")
            host = b.new_page(viewport={"width": 1400, "height": 1000})
            host.goto(f"{srv.url}/host?token={srv.host_token}")

            srv.hardware(camera="gone")
            wait_until(lambda: camera(srv)["status"] == "down", what="the camera to be reported down")
            tv.wait_for_selector("#problems.show", timeout=10000)
            assert "the boards follow the recorded actions" in tv.locator("#problems").inner_text()
            host.locator("#health tr", has_text="camera").first.locator("td.status-down").wait_for(timeout=10000)

            # play goes on from the seat and host pages; the boards are what those inputs make them
            for inp in inputs[12:30]:
                assert srv.post(inp).status_code == 200, inp
            replay = Table(Journal(":memory:"))
            for inp in inputs[:30]:
                assert replay.handle(inp).accepted
            assert srv.state("table") == json.loads(json.dumps(replay.view("table")))
            screenshot(tv, "drill-camera-gone-tv")

            srv.hardware(camera="back")          # the table reopens it by itself
            wait_until(lambda: camera(srv)["status"] in ("ok", "simulated"), what="the camera back")
            tv.wait_for_selector("#problems.show", state="hidden", timeout=10000)
        rows = requests.get(srv.url + "/api/journal", params={"limit": 100}, timeout=5,
                            headers={"Authorization": f"Bearer {srv.host_token}"}).json()["inputs"]
        assert len(rows) == 30 and not any(r["source"] == "camera" for r in rows)
    finally:
        srv.stop()


def test_glare_hiding_spaces_of_a_board_is_told_on_the_tv_with_the_cure(tmp_path):
    """Issue 13: a token laid under a lamp's reflection is not seen, and the players would wait for the table
    to notice it; while a game watches the boards the TV says which board the glare hides spaces of and what to
    do, until the light is changed (the simulated camera blows out the board's middle as a reflection would).
    With no game watching the boards (the lobby, a card game) only the host's health line says it."""
    from tests.support.server import run_server

    def post(srv, path, body):
        r = requests.post(srv.url + path, json=body, timeout=10, headers={"Authorization": f"Bearer {srv.host_token}"})
        assert r.status_code == 200, r.text

    def board_record(srv) -> dict:
        records = requests.get(srv.url + "/api/health", timeout=5).json()["camera"]
        return next(r for r in records if r["name"] == "board diet-2")

    with run_server(tmp_path / "data") as srv, browser() as b:
        tv = b.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(srv.url + "/")
        post(srv, "/api/camera/simulate/diet-2", {"glare": True})
        wait_until(lambda: "washed out by a reflection" in board_record(srv)["detail"])
        assert board_record(srv)["glare"] == 0
        with tv.expect_response(lambda r: "/api/health" in r.url, timeout=10000):
            pass                                          # the TV's next look at the health, glare in it
        assert not tv.locator("#problems.show").count(), "no game waits on the boards"
        post(srv, "/api/input", {"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"], "seed": 4}})
        post(srv, "/api/camera/simulate/diet-2", {"glare": True})       # the table laid out for the game, lit so
        wait_until(lambda: board_record(srv)["glare"] > 0)
        hidden = board_record(srv)["glare"]
        tv.wait_for_selector("#problems.show", timeout=10000)
        assert (f"Glare on the diet-2 board: the camera cannot see {hidden} of its spaces. Shade or move the lamp, "
                "or tilt the board.") in tv.locator("#problems").inner_text()
        screenshot(tv, "tv-glare")
        post(srv, "/api/camera/simulate/diet-2", {"glare": False})
        tv.wait_for_selector("#problems.show", state="hidden", timeout=20000)
