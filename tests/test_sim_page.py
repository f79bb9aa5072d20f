"""The simulator page in a real headless Chromium: its pads drive the simulated readers
through the reader hub, and the table's answer comes back (issue 2 /sim, issue 5 simulated reader)."""
import pytest
import requests

from tests.support.browser import browser, screenshot
from tests.support.server import run_server

pytestmark = pytest.mark.browser


def srv_journal(srv):
    r = requests.get(srv.url + "/api/journal", headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=10)
    return r.json()["inputs"]


def test_sim_pads_tap_swap_and_lift_cards_and_show_refusals(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post({"new_game": {"game": "tofu-god", "players": ["Anna", "Ben", "Cindy"], "seed": 3}}).ok
        with browser() as b:
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(srv.url + "/sim")
            pad = page.locator('[data-reader="seat-2"]')
            pad.locator("select").select_option("tofu-god/set-2/elephant")
            pad.locator("button", has_text="Tap").click()
            page.wait_for_function("document.querySelector('[data-reader=\"seat-2\"] .on').textContent.includes('elephant')")
            # the hub turned the placed card into a guess for question 1 (Ben is seat 2)
            page.wait_for_function(
                "fetch('/api/state').then(r => r.json()).then(v => v.last_events.join(' ').includes('Ben has guessed'))")
            newest = srv_journal(srv)[0]
            assert newest["source"] == "reader:seat-2", "the tap came through the reader hub, not as a posted tap"
            assert newest["input"]["tap"]["card"] == "tofu-god/set-2/elephant"
            assert newest["input"]["tap"]["uid"], "the simulated reader sent the card's virtual tag"

            # a card of a set that is not in the game: the table refuses, the page says why
            pad.locator("select").select_option("tofu-god/set-5/rat")
            pad.locator("button", has_text="Tap").click()
            page.wait_for_selector(".notice")
            assert "Set 5 is not in this game" in page.locator(".notices").inner_text()
            screenshot(page, "sim-refusal")

            pad.locator("button", has_text="Lift").click()
            page.wait_for_function("document.querySelector('[data-reader=\"seat-2\"] .on').textContent === ''")
            tags = page.evaluate("fetch('/api/readers/seat-2/remove', {method: 'POST'}).then(r => r.json())")
            assert tags["tags"] == []
