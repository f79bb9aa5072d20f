"""Joining in a real headless Chromium: a phone joins with the TV's code and stays joined when a
new game starts; a seat's code makes a phone that seat's player; a TV pairs with the host; the
lobby's host code opens the host page once.
Screenshots land in tests/artifacts/."""
import pytest
import requests

from tests.support.browser import browser, screenshot
from tests.support.server import run_server
from tests.test_http_api import scan

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def join_code(srv) -> str:
    r = requests.get(srv.url + "/api/join", headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=10)
    return r.json()["code"]


def no_horizontal_overflow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_phone_joins_with_the_code_and_stays_joined_through_a_new_game(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"]}}).ok
        phone = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        errors = []
        phone.on("pageerror", lambda e: errors.append(str(e)))
        phone.goto(f"{srv.url}/join?code={join_code(srv)}")
        phone.get_by_role("button", name="Anna · seat 1").click()
        phone.wait_for_url(f"{srv.url}/seat")
        phone.wait_for_function("document.getElementById('who').textContent === 'Anna (seat 1)'")
        assert "code=" not in phone.evaluate("localStorage.getItem('tofu-phone') + location.href")
        no_horizontal_overflow(phone)
        screenshot(phone, "joining-phone-seated")

        phone.evaluate("window.stillTheSamePage = true")
        assert srv.post({"new_game": {"game": "tiny", "players": ["Ben", "Anna"]}}).ok
        phone.wait_for_function("document.getElementById('who').textContent === 'Anna (seat 2)'")
        assert phone.evaluate("window.stillTheSamePage") is True   # no reload, no rescan
        srv.post({"tap": {"reader": "seat-2", "card": "test/red"}})
        phone.wait_for_function("document.body.innerText.includes('Round 1')")

        # the next evening: the same phone opens the table's address and is Anna straight away
        again = phone.context.new_page()
        again.goto(f"{srv.url}/seat")
        again.wait_for_function("document.getElementById('who').textContent === 'Anna (seat 2)'")

        assert srv.post({"new_game": {"game": "tiny", "players": ["Ben", "Cleo"]}}).ok
        phone.wait_for_function("document.getElementById('prompt')?.textContent.includes('Anna is not in this game')")
        no_horizontal_overflow(phone)
        screenshot(phone, "joining-phone-not-in-this-game")
        assert errors == []


def test_a_seat_code_makes_the_phone_that_seats_player(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"]}}).ok
        phone = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        phone.goto(f"{srv.url}/join?token={srv.seat_token(2)}")
        phone.wait_for_url(f"{srv.url}/seat")
        phone.wait_for_function("document.getElementById('who').textContent === 'Ben (seat 2)'")


def test_a_phone_without_a_game_says_who_it_is_and_waits(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        phone = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        phone.goto(f"{srv.url}/join?code={join_code(srv)}")
        phone.fill("#name", "Dora")
        phone.select_option("#seat", "3")
        no_horizontal_overflow(phone)
        screenshot(phone, "joining-phone-lobby")
        phone.get_by_role("button", name="That's me").click()
        phone.wait_for_function("document.getElementById('prompt')?.textContent.includes('Waiting for the host')")
        assert phone.locator("#table-events").is_hidden(), "no empty 'Table' heading before anything happened"
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Dora"]}}).ok
        phone.wait_for_function("document.getElementById('who').textContent === 'Dora (seat 2)'")


def test_a_tv_pairs_with_the_host_and_then_shows_the_seat_codes(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"]}}).ok
        tv = b.new_context(bypass_csp=True, viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(srv.url + "/pair")
        tv.wait_for_function("/^\\d{3} \\d{3}$/.test(document.getElementById('code').textContent)")
        screenshot(tv, "joining-tv-pairing")
        code = tv.locator("#code").inner_text()
        host = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        host.goto(f"{srv.url}/host?token={srv.host_token}")
        host.fill("#pair-code", code)
        host.get_by_role("button", name="Pair").click()
        tv.wait_for_url(srv.url + "/")
        host.wait_for_function("document.getElementById('devices').innerText.includes('TV')")
        tv.wait_for_function("[...document.querySelectorAll('img[src*=\"/qr/seat/\"]')]"
                             ".filter((i) => i.complete && i.naturalWidth > 0).length === 2")


def test_the_lobby_host_code_opens_the_host_page_on_one_phone_and_leaves_the_tv(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        tv = b.new_context(bypass_csp=True, viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(f"{srv.url}/?token={srv.host_token}")
        tv.wait_for_function("[...document.querySelectorAll('img.host-code')]"
                             ".some((i) => i.complete && i.naturalWidth > 0)")
        svg = requests.get(srv.url + tv.locator("img.host-code").get_attribute("src"), timeout=10).text
        url = scan(svg)
        phone = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        errors = []
        phone.on("pageerror", lambda e: errors.append(str(e)))
        phone.goto(url)
        phone.wait_for_url(f"{srv.url}/host?token=*")
        phone.wait_for_function("document.getElementById('devices').innerText.length > 0")
        assert phone.locator("#need-token").is_hidden()
        tv.wait_for_function("document.querySelectorAll('img.host-code').length === 0")
        assert tv.locator("img.join-code").count() == 1          # the join code stays
        other = b.new_context(bypass_csp=True, viewport=PHONE).new_page()
        other.goto(url)
        other.wait_for_function("document.getElementById('status').textContent.includes('already used')")
        screenshot(other, "joining-host-code-used")
        assert other.url.startswith(f"{srv.url}/host/code")
        phone.get_by_role("button", name="Show a host code on the TV").click()
        tv.wait_for_function("[...document.querySelectorAll('img.host-code')]"
                             ".some((i) => i.complete && i.naturalWidth > 0)")
        assert errors == []
