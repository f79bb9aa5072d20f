"""The host page as a live console, on the real server and in a real headless Chromium: Undo says
what it will take back, a running game is not ended without asking, secrets stay folded away
(refusals too: in words, what was sent under Advanced), one toast per refusal, the TV's sound, and
the page fits a 390 px phone."""
import pytest
import requests

from tests.support.browser import browser, screenshot, under_the_notice
from tests.support.server import run_server

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 3}}}


def host_view(srv) -> dict:
    return srv.state("host", srv.host_token)


def test_the_host_view_says_what_undo_takes_back_and_keeps_the_card_apart(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert host_view(srv)["undo"] is None
        srv.post(GAME)
        assert host_view(srv)["undo"]["text"] == "the start of the game of Tiny Test Game (Anna, Ben)"
        srv.post({"tap": {"reader": "seat-2", "card": "test/red"}})
        assert host_view(srv)["undo"] == {"text": "Ben's card", "secret": "red"}
        assert "undo" not in srv.state("table")   # the TV is not told what lies on Ben's reader
        srv.post({"host": {"action": "undo"}})
        assert host_view(srv)["undo"]["text"].startswith("the start of the game")
        journal = requests.get(srv.url + "/api/journal", params={"token": srv.host_token}, timeout=10).json()
        assert journal["inputs"][0]["described"] == {"text": "Ben's card", "secret": "red"}


@pytest.mark.browser
def test_the_host_console_in_a_browser(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        srv.post(GAME)
        host = b.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}).new_page()
        errors = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{srv.url}/host?token={srv.host_token}")
        seq = srv.post({"tap": {"reader": "seat-2", "card": "test/red"}}).json()["seq"]
        host.wait_for_function("document.getElementById('undo').textContent === \"Undo: Ben's card\"")
        assert "red" not in host.locator("body").inner_text()
        host.click("#secrets summary")   # the toggle event comes after the click returns
        host.wait_for_function("document.getElementById('undo').textContent === \"Undo: Ben's card: red\"")
        host.click("#secrets summary")

        # half-typed players survive a state update
        host.fill("#ng-players", "Cleo\nDan\nEv")
        seq = srv.post({"tap": {"reader": "seat-1", "card": "test/blue"}}).json()["seq"]
        host.wait_for_function("document.getElementById('undo').textContent.startsWith(\"Undo: Anna's card\")")
        assert host.input_value("#ng-players") == "Cleo\nDan\nEv"

        # a running game is not ended without asking
        host.once("dialog", lambda d: d.dismiss())
        host.get_by_role("button", name="Start new game").click()
        assert host_view(srv)["seq"] == seq and host_view(srv)["players"][0]["name"] == "Anna"
        host.once("dialog", lambda d: d.accept())
        host.get_by_role("button", name="Start new game").click()
        host.wait_for_function("document.getElementById('undo').textContent.includes('Cleo, Dan, Ev')")

        # the mute box reaches the TV's sound setting
        host.check("#mute")
        host.wait_for_function("fetch('/api/sound').then((r) => r.json()).then((s) => s.muted)")

        # one toast per refusal (advance before everyone chose), and a newer refusal replaces it
        with host.expect_response(lambda r: r.url.endswith("/api/input") and "advance" in r.request.post_data) as answer:
            host.click("#advance")
        assert answer.value.status == 409
        # the refusal has come as an event and the refusals table has been read again since
        host.wait_for_function("document.getElementById('refusals').innerText.includes('Not everyone has chosen')")
        notices = host.locator("#notices .notice")
        assert notices.count() == 1, notices.all_inner_texts()
        assert srv.post({"tap": {"reader": "seat-1", "card": "test/green"}}).status_code == 409
        host.wait_for_function("document.querySelector('#notices .notice').textContent.includes('test/green')")
        assert notices.count() == 1, notices.all_inner_texts()
        assert under_the_notice(host) == [], "the toast has its own room above Advance and Undo"
        assert host.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(host, "host-console-phone-notice")
        # the table moves on: the toast goes
        seq = srv.post({"tap": {"reader": "seat-1", "card": "test/red"}}).json()["seq"]
        host.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")
        assert notices.count() == 0
        # a refusal in words, naming no card; the card and what was sent only when the host asks
        assert srv.post({"tap": {"reader": "center", "card": "test/blue"}}).status_code == 409
        refusal = "The centre reader's card. Refused: Tap your colour on your own seat reader."
        host.wait_for_function(f"document.getElementById('refusals').innerText.includes({refusal!r})")
        assert "blue" not in host.locator("#refusals").inner_text()
        assert not host.locator("#refusals-raw").is_visible()
        host.click("#secrets summary")
        host.wait_for_function("document.getElementById('refusals').innerText.includes(\"The centre reader's card: blue.\")")
        host.click("#secrets summary")
        host.click("#advanced summary")
        host.wait_for_function("document.getElementById('journal').innerText.includes(\"Anna's card\")")
        assert '"card":"test/blue"' in host.locator("#refusals-raw").inner_text()
        assert host.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(host, "host-console-phone")
        wide = b.new_context(bypass_csp=True, viewport={"width": 1920, "height": 1080}).new_page()
        wide.goto(f"{srv.url}/host?token={srv.host_token}")
        wide.wait_for_function(f"Number(document.body.dataset.seq) >= {host_view(srv)['seq']}")   # connected
        assert srv.post({"button": {"name": "advance"}}).status_code == 409
        wide.wait_for_selector("#notices .notice")
        assert under_the_notice(wide) == []
        screenshot(wide, "host-console-1080p")
        assert errors == []
