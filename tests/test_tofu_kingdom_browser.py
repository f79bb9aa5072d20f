"""Tofu Kingdom in a real headless Chromium: the TV during a round and after the flip, the
Prince's phone asking a question, a player's phone and the host page (screenshots kept in
tests/artifacts/)."""
import pytest

from tests.support.browser import browser, screenshot, tv_scores
from tests.support.server import run_server
from tests.support.tofu_kingdom import ask, leaks, lift, new_game, tap

pytestmark = pytest.mark.browser

DEAL = {"seat-2": "queen", "seat-3": "princess", "seat-4": "maid", "seat-5": "guard", "center": "chef"}


def _wait_seq(page, seq):
    page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {seq}")


def test_tv_during_a_round_and_after_the_flip(tmp_path):
    with run_server(tmp_path) as srv, browser() as b:
        assert srv.post(new_game(5)).ok
        tv = b.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(srv.url + "/")
        tv.wait_for_selector(".tk-coaster")
        for position in ("seat-2", "seat-3", "seat-4"):
            seq = srv.post(tap(position, DEAL[position])).json()["seq"]
        _wait_seq(tv, seq)
        assert tv.locator(".tk-coaster.down").count() == 3
        assert "3 of 5 down" in tv.locator("#prompt").inner_text()
        for position in ("seat-5", "center"):
            srv.post(tap(position, DEAL[position]))
        srv.post(ask(1, 3, "who_is", about="center"))
        seq = srv.post(ask(1, 2, "where")).json()["seq"]
        _wait_seq(tv, seq)
        text = tv.locator("body").inner_text()
        assert "Round 1 of 10" in text and "Prince Ann" in text
        assert "Who is she? (about the centre coaster)" in text and "Where is Princess Tofu?" in text
        assert "2 asked, 3 left" in text and "Not asked yet: Dan, Eve" in text
        assert not leaks(text.replace("Where is Princess Tofu?", ""), set(DEAL.values()))
        screenshot(tv, "tofu-kingdom-tv-round")

        seq = srv.post(lift("seat-3", "princess")).json()["seq"]
        _wait_seq(tv, seq)
        result = tv.locator(".tk-result").inner_text()
        assert "Princess Tofu: the heart" in result and "Ann, Cat" in result
        assert tv.locator(".tk-coaster.flipped").inner_text().startswith("\u2665")
        still_hidden = {r for p, r in DEAL.items() if p != "seat-3"}
        assert not leaks(tv.locator("body").inner_text(), still_hidden)
        assert ("Ann", 1) in tv_scores(tv)
        screenshot(tv, "tofu-kingdom-tv-after-flip")


def test_host_records_a_coaster_prince_asks_from_the_phone_host_sets_the_flip(tmp_path):
    with run_server(tmp_path) as srv, browser() as b:
        assert srv.post(new_game(4)).ok
        for position, role in {"seat-2": "queen", "seat-3": "princess", "seat-4": "maid"}.items():
            srv.post(tap(position, role))
        host = b.new_page(viewport={"width": 1280, "height": 900})
        host.goto(f"{srv.url}/host?token={srv.host_token}")
        host.click("#secrets summary")   # the host opens the folded answers and corrections
        host.wait_for_selector("text=Record a coaster")
        form = ".tk-form:has-text('Record a coaster')"
        host.select_option(f"{form} select >> nth=0", "center")
        host.select_option(f"{form} select >> nth=1", "guard")
        host.click(f"{form} button")
        host.wait_for_selector("text=Set flip")
        assert srv.state("host", srv.host_token)["host"]["placed"]["center"] == "guard"

        phone = b.new_page(viewport={"width": 412, "height": 915})
        phone.goto(f"{srv.url}/seat/1?token={srv.seat_token(1)}")
        phone.wait_for_selector("text=You are the Prince")
        assert not leaks(phone.locator("body").inner_text().replace("Where is Princess Tofu?", ""),
                         {"queen", "princess", "maid", "guard"})
        phone.select_option("select[name=to]", "3")
        phone.click("button[data-question=who_are_you]")
        phone.wait_for_selector("text=Ann \u2192 Cat: Who are you?")
        assert srv.state("table")["questions"][0]["to"] == 3
        screenshot(phone, "tofu-kingdom-seat-prince")

        other = b.new_page(viewport={"width": 412, "height": 915})
        other.goto(f"{srv.url}/seat/2?token={srv.seat_token(2)}")
        other.wait_for_selector(".tk-role")
        assert "Queen Tofu" in other.locator(".tk-role").inner_text()
        assert "You always lie." in other.locator("body").inner_text()
        screenshot(other, "tofu-kingdom-seat-player")

        host.select_option(".tk-form:has-text('The Prince flipped') select", "center")
        host.click("text=Set flip")
        host.wait_for_selector(".tk-result")
        assert srv.state("table")["flip"]["role"] == "guard"
        screenshot(host, "tofu-kingdom-host")
