"""The /enrol page in a real browser against the real server: choose a set, enrol by typing
UIDs (as a host without readers would), answer the move question, and see each step confirmed."""
import pytest

from tests.support.browser import browser, screenshot
from tests.support.server import run_server

pytestmark = pytest.mark.browser
A, B = "04A224C2B31190", "A1B2C3D4"


def test_enrolling_on_the_page_confirms_each_tap_and_asks_before_moving(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        page = b.new_page()
        page.goto(f"{srv.url}/enrol")
        page.wait_for_selector("#need-token:not([hidden])")      # no token: says how to get one

        page.goto(f"{srv.url}/enrol?token={srv.host_token}")
        page.wait_for_selector("#set option[value='test']", state="attached")
        page.select_option("#set", "test")
        page.click("#start")
        page.wait_for_selector("text=Tap: test/red")
        page.fill("#uid", A)
        page.click("#manual button")
        page.wait_for_selector("text=Tap: test/blue")
        assert "now test/red" in page.inner_text("#step")
        page.fill("#uid", B)
        page.click("#manual button")
        page.wait_for_selector("text=All of Tiny Test Game cards is done.")

        page.select_option("#set", "tofu-kingdom")
        page.click("#start")
        page.wait_for_selector("text=Tap: tofu-kingdom/prince")
        page.fill("#uid", A)
        page.click("#manual button")
        page.wait_for_selector("#question:not([hidden])")
        assert "already test/red" in page.inner_text("#step")
        page.click("#move")
        page.wait_for_selector("text=Tap: tofu-kingdom/princess")
        screenshot(page, "enrol-page")
        page.click("#stop")
        page.wait_for_selector("#sitting", state="hidden")
        tags = page.evaluate("""async (t) => (await (await fetch('/api/enrol/export',
                                 {headers: {Authorization: 'Bearer ' + t}})).json()).tags""", srv.host_token)
        assert {(t["uid"], t["card"]) for t in tags} == {(A, "tofu-kingdom/prince"), (B, "test/blue")}
