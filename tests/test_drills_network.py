"""Drill: the server goes away and comes back; the TV and the seat pages reconnect by themselves
and show the right state (issue 8), in a real Chromium.

A game of Tofu God is under way (its replay script) with the TV page and both players' seat
pages open.  The server is cut off (SIGKILL, as in a power cut), then stopped cleanly after a
longer absence; each time it comes back on the same address while play goes on at once, before
the pages have reconnected.  Every page must drop its "lost the connection" banner by itself and
show what the server says now: the TV the table view (journal position, prompt, scores), each
phone its own seat view (prompt, score, the game's private part for that seat).
"""
from __future__ import annotations

import time
from functools import partial

import pytest

from tests.support.browser import browser, screenshot
from tests.support.hardware_helpers import wait_for
from tests.support.scripts import script_inputs
from tests.support.server import Server

pytestmark = pytest.mark.browser


wait_until = partial(wait_for, timeout=15.0, step=0.1)


def tv_matches(page, srv) -> bool:
    view = srv.state("table")
    return (page.evaluate("document.body.dataset.seq") == str(view["seq"])
            and page.locator("#prompt").inner_text() == view["prompt"]
            and all(page.locator(f"#players .seat-card[data-seat='{p['seat']}'] .name").inner_text() == p["name"]
                    and page.locator(f"#players .seat-card[data-seat='{p['seat']}'] .score")
                    .get_attribute("data-score") == str(p["score"])
                    for p in view["players"]))


def seat_matches(page, srv, seat: int) -> bool:
    view = srv.state(f"seat-{seat}", srv.host_token)
    me = next(p for p in view["players"] if p["seat"] == seat)
    return (page.locator("#prompt").inner_text() == view["prompt"]
            and page.locator("#score").inner_text() == f"Your score: {me['score']}"
            and page.locator("#who").inner_text().startswith(me["name"]))


def test_tv_and_seat_pages_reconnect_after_restarts_and_show_the_current_state(tmp_path):
    inputs = script_inputs("tofu-god-2p.jsonl")
    srv = Server(tmp_path / "data").start()
    played = 0

    def play(count: int) -> None:
        nonlocal played
        for inp in inputs[played:played + count]:
            assert srv.post(inp).status_code == 200, inp
        played += count

    try:
        play(12)
        with browser() as b:
            tv = b.new_page(viewport={"width": 1920, "height": 1080})
            tv.goto(srv.url + "/")
            phones = {}
            for seat in (1, 2):
                phones[seat] = b.new_page(viewport={"width": 390, "height": 844})
                phones[seat].goto(f"{srv.url}/seat/{seat}?token={srv.seat_token(seat)}")
            wait_until(lambda: tv_matches(tv, srv), what="the TV's first state")
            for seat, page in phones.items():
                wait_until(lambda: seat_matches(page, srv, seat), what=f"seat {seat}'s first state")

            for cut, (how, away) in enumerate([("kill", 0.5), ("stop", 4.0)]):
                getattr(srv, how)()            # SIGKILL (a power cut), then SIGTERM (a restart)
                for page in (tv, *phones.values()):
                    page.wait_for_selector("#banner.show", timeout=15000)
                time.sleep(away)
                srv = Server(tmp_path / "data", port=srv.port).start()
                play(6)                        # play goes on before the pages are back
                for page in (tv, *phones.values()):
                    page.wait_for_selector("#banner.show", state="hidden", timeout=20000)
                wait_until(lambda: tv_matches(tv, srv), what=f"the TV after restart {cut + 1}")
                for seat, page in phones.items():
                    wait_until(lambda: seat_matches(page, srv, seat), what=f"seat {seat} after restart {cut + 1}")
            screenshot(tv, "drill-network-tv")
            screenshot(phones[1], "drill-network-seat-1")
            # the game's own part (private on the phones) is what a freshly opened page shows
            fresh = b.new_page(viewport={"width": 1920, "height": 1080})
            for page, path in [(tv, "/"), *((phones[s], f"/seat/{s}?token={srv.seat_token(s)}") for s in phones)]:
                fresh.goto(srv.url + path)
                wait_until(lambda: fresh.locator("#prompt").inner_text() == page.locator("#prompt").inner_text()
                           and fresh.locator("#game-area").inner_text() == page.locator("#game-area").inner_text(),
                           what=f"{path} to match a fresh page")
                assert page.locator("#game-area").inner_text().strip(), f"{path}: the game's part is empty"
    finally:
        srv.stop()
