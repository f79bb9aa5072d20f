"""Drill: a reader unplugged in the middle of a game, and plugged back (issue 8).

The real server runs outside simulation with three MFRC522 readers wired as on a Pi (SPI0 CE0,
SPI0 CE1, SPI1 CE0, one shared reset line), each an emulated chip running the real mfrc522
package (tests/support/emulated_table.py).  Cards are enrolled tags.  Seat 2's reader is
unplugged during the game: the table must say which seat's reader is down (health, the host
page's device table, the TV), the other seats must play on, and seat 2's reader must come back
by itself when it is plugged in again, with its taps reaching the game.
"""
from __future__ import annotations

from functools import partial

import pytest
import requests

from hardware.registry import TagRegistry
from tests.support.browser import browser, screenshot
from tests.support.emulated_table import EmulatedTable
from tests.support.hardware_helpers import wait_for

pytestmark = pytest.mark.browser

CONFIG = """
[hub]
retry_first_s = 0.2
retry_max_s = 1

[[readers]]
name = "seat-1"
driver = "mfrc522"
bus = 0
device = 0
reset_pin = 25

[[readers]]
name = "seat-2"
driver = "mfrc522"
bus = 0
device = 1
reset_pin = 25

[[readers]]
name = "seat-3"
driver = "mfrc522"
bus = 1
device = 0
reset_pin = 25

[camera]
source = "off"
"""
RED, BLUE = "04A224C2B31190", "04B11C22A35E80"


def readers(srv) -> dict[str, dict]:
    return {r["name"]: r for r in requests.get(srv.url + "/api/health", timeout=5).json()["readers"]}


wait_until = partial(wait_for, timeout=10.0, step=0.05)


def journal_taps(srv) -> list[tuple[str, str]]:
    rows = requests.get(srv.url + "/api/journal", params={"limit": 100}, timeout=5,
                        headers={"Authorization": f"Bearer {srv.host_token}"}).json()["inputs"]
    return [(r["input"]["tap"]["reader"], r["input"]["tap"]["card"]) for r in reversed(rows) if "tap" in r["input"]]


def test_unplugged_reader_is_named_the_others_play_on_and_it_comes_back(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text(CONFIG)
    registry = TagRegistry.in_data_dir(data)
    for uid, card in ((RED, "test/red"), (BLUE, "test/blue")):
        registry.enrol(uid, card)
    registry.close()

    srv = EmulatedTable(data, simulate=False).start()
    try:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Ann", "Ben", "Cat"]}}).status_code == 200
        wait_until(lambda: all(r["status"] == "ok" for r in readers(srv).values()) and len(readers(srv)) == 3,
                   what="three readers up")
        with browser() as b:
            tv = b.new_page(viewport={"width": 1920, "height": 1080})
            tv.goto(srv.url + "/")
            host = b.new_page(viewport={"width": 1400, "height": 1000})
            host.goto(f"{srv.url}/host?token={srv.host_token}")

            srv.hardware(unplug="seat-2")
            down = wait_until(lambda: readers(srv)["seat-2"]["status"] == "down" and readers(srv), what="seat-2 down")
            assert down["seat-1"]["status"] == down["seat-3"]["status"] == "ok"
            tv.wait_for_selector("#problems.show", timeout=10000)
            assert "Seat 2's reader is not answering" in tv.locator("#problems").inner_text()
            seat_2 = host.locator("#health tr", has_text="seat-2")
            seat_2.locator("td.status-down").wait_for(timeout=10000)
            assert "readers" in seat_2.inner_text()
            screenshot(tv, "drill-reader-down-tv")

            # the rest play on: seats 1 and 3 choose their colours while seat 2 is down
            srv.hardware(place="seat-1", uid=RED)
            wait_until(lambda: ("seat-1", "test/red") in journal_taps(srv), what="seat 1's tap")
            srv.hardware(remove="seat-1")
            srv.hardware(place="seat-3", uid=RED)
            wait_until(lambda: ("seat-3", "test/red") in journal_taps(srv), what="seat 3's tap")
            assert srv.post({"button": {"name": "advance"}}).json()["error"]["code"] == "waiting"

            srv.hardware(plug="seat-2")          # plugged back: it comes back by itself
            wait_until(lambda: readers(srv)["seat-2"]["status"] == "ok", what="seat-2 back")
            tv.wait_for_selector("#problems.show", state="hidden", timeout=10000)
            srv.hardware(place="seat-2", uid=BLUE)
            wait_until(lambda: ("seat-2", "test/blue") in journal_taps(srv), what="seat 2's tap")
            assert srv.post({"button": {"name": "advance"}}).status_code == 200
            assert [p["score"] for p in srv.state("table")["players"]] == [1, 0, 1]
    finally:
        srv.stop()
