"""The TV page in a real headless Chromium: it shows the state, follows inputs, and survives
the server going away and coming back (issue 2, browser test)."""
import pytest

from tests.support.browser import browser, screenshot
from tests.support.server import Server

pytestmark = pytest.mark.browser


def _text(page, selector):
    return page.locator(selector).inner_text()


def test_tv_shows_state_follows_inputs_and_reconnects(tmp_path):
    srv = Server(tmp_path / "data", extra_args=["--local-display"]).start()
    try:
        srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 1}}})
        with browser() as b:
            page = b.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(srv.url + "/")
            page.wait_for_function("Number(document.body.dataset.seq) === 1")
            assert _text(page, "#prompt") == "Round 1: everyone taps a colour."
            assert "Anna" in _text(page, "#players") and "Ben" in _text(page, "#players")
            page.wait_for_selector(".seat-code")       # the seat codes are drawn after the state's seq is set
            assert page.locator(".seat-code").count() == 2, "one code per seat for the phones"

            # a change made over HTTP reaches the page by itself
            for seat, colour in ((1, "red"), (2, "blue")):
                assert srv.post({"tap": {"reader": f"seat-{seat}", "card": f"test/{colour}"}}).ok
            assert srv.post({"button": {"name": "advance"}}).ok
            page.wait_for_function("document.getElementById('prompt').textContent === 'Game over.'")
            # Anna's point floats up from her card while the number counts up, with a chime
            assert page.locator(".seat-card[data-seat='1'] .delta.plus").inner_text() == "+1"
            assert page.locator(".seat-card[data-seat='1']").get_attribute("class").split().count("bump") == 1
            assert {"score", "win"} <= set(page.evaluate("TofuTV.played"))
            assert _text(page, ".seat-card.winner").startswith("Anna")
            assert "\u2605 winner" in _text(page, ".seat-card.winner"), "a winner is told in words, not only colour"
            assert "Ben" not in _text(page, ".seat-card.winner")
            assert page.locator(".seat-code").count() == 0, "no codes once the game is over"

            # a refusal shows as one notice that names the problem, with its chime
            assert srv.post({"button": {"name": "advance"}}).status_code == 409
            page.wait_for_selector(".notice")
            assert "over" in _text(page, ".notice")
            assert page.evaluate("document.body.dataset.lastSound") == "refusal"
            assert srv.post({"tap": {"reader": "seat-1", "card": "test/red"}}).status_code == 409
            page.wait_for_function("document.querySelectorAll('.notice').length === 1 && "
                                   "document.querySelector('.notice').textContent.startsWith('The game is over')")
            screenshot(page, "tv-game-over")

            # the server goes away: the banner says so
            srv.kill()
            page.wait_for_selector("#banner.show", timeout=15000)
            assert "reconnecting" in _text(page, "#banner")
            screenshot(page, "tv-reconnecting")

            # it comes back on the same port: the page reconnects and shows the same state
            srv = Server(tmp_path / "data", port=srv.port, extra_args=["--local-display"]).start()
            page.wait_for_selector("#banner.show", state="hidden", timeout=15000)
            assert _text(page, "#prompt") == "Game over."
            assert srv.post({"button": {"name": "advance"}}).status_code == 409
            page.wait_for_selector(".notice")
            # the table moves on: the notice goes
            assert srv.post({"button": {"name": "undo"}}).ok
            page.wait_for_function("document.getElementById('prompt').textContent.startsWith('Round 1')")
            assert page.locator(".notice").count() == 0
    finally:
        srv.stop()
