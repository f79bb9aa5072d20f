"""Host forms in a real headless Chromium keep what the host is typing while the table moves on.

issue 12: "Every host form keeps half-typed input across state updates: today Tofu God's and
Tofu Kingdom's host forms are rebuilt on every update, so a correction in progress is lost
whenever anyone taps a card."  Once the table's own value changes (the correction went
through), the table's value shows again.
"""
import pytest

from tests.support import tofu_god, tofu_kingdom
from tests.support.browser import browser
from tests.support.hardware_helpers import wait_for
from tests.support.server import run_server

pytestmark = pytest.mark.browser


def _wait_seq(page, seq):
    page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {seq}")


def _open_host(b, srv):
    host = b.new_page(viewport={"width": 1280, "height": 900})
    host.goto(f"{srv.url}/host?token={srv.host_token}")
    host.click("#secrets summary")   # the folded answers and corrections
    return host


@pytest.mark.timeout(120)
def test_a_half_typed_tofu_god_score_survives_a_tap_and_gives_way_to_the_set_score(tmp_path):
    with run_server(tmp_path) as srv, browser() as b:
        assert srv.post(tofu_god.new_game(["Anna", "Ben", "Cindy"], set_aside="physical")).ok
        host = _open_host(b, srv)
        score = host.locator("input[name=score-2]")
        score.wait_for()
        score.fill("1")                                  # the host has typed one digit of "12"
        seq = srv.post(tofu_god.tap(1, "rat")).json()["seq"]   # meanwhile a card is laid
        _wait_seq(host, seq)
        assert "Rat" in host.locator("#game-area").inner_text()   # the form was rebuilt
        assert score.input_value() == "1"
        assert host.evaluate("document.activeElement.name") == "score-2"   # still typing there
        host.keyboard.type("2")
        assert score.input_value() == "12"
        host.locator("tr:has(input[name=score-2]) button").click()
        host.wait_for_function("document.querySelector('input[name=score-2]').dataset.shown === '12'")
        assert srv.state("table")["players"][1]["score"] == 12

        # another correction changes the table's value: the table's value replaces a stale draft
        score.fill("5")
        seq = srv.post({"host": {"action": "score", "seat": 2, "score": 7}}).json()["seq"]
        _wait_seq(host, seq)
        assert score.input_value() == "7"


@pytest.mark.timeout(120)
def test_a_half_made_tofu_kingdom_coaster_record_survives_a_tap(tmp_path):
    with run_server(tmp_path) as srv, browser() as b:
        assert srv.post(tofu_kingdom.new_game(4)).ok
        host = _open_host(b, srv)
        host.wait_for_selector("text=Record a coaster")
        host.select_option("select[name=place-at]", "center")
        host.select_option("select[name=place-role]", "guard")
        seq = srv.post(tofu_kingdom.tap("seat-2", "queen")).json()["seq"]
        _wait_seq(host, seq)
        assert host.locator("select[name=place-at]").input_value() == "center"
        assert host.locator("select[name=place-role]").input_value() == "guard"
        host.locator(".tk-form:has-text('Record a coaster') button").click()
        wait_for(lambda: srv.state("host", srv.host_token)["host"]["placed"].get("center") == "guard",
                 timeout=10, what="the recorded coaster")


@pytest.mark.timeout(120)
def test_the_any_correction_form_is_built_from_the_games_declared_host_moves(tmp_path):
    """issue 12: the host page builds correction controls from /api/games, not per game."""
    with run_server(tmp_path) as srv, browser() as b:
        assert srv.post(tofu_god.new_game(["Anna", "Ben", "Cindy"], set_aside="physical")).ok
        described = next(g for g in srv_games(srv) if g["id"] == "tofu-god")
        legal = [m["help"] for m in described["moves"] if m["input"] == "host"
                 and (m["phases"] is None or "set_aside" in m["phases"])]
        host = _open_host(b, srv)
        form = host.locator("#correction")
        form.locator("select[name=move]").wait_for()
        assert form.locator("select[name=move] option").all_inner_texts() == legal
        form.locator("select[name=move]").select_option(label="Set a player's score")
        form.locator("select[name=arg-seat]").select_option(label="Ben")
        form.locator("input[name=arg-score]").fill("9")
        seq = srv.post(tofu_god.tap(1, "rat")).json()["seq"]     # a tap meanwhile keeps the form
        _wait_seq(host, seq)
        assert form.locator("input[name=arg-score]").input_value() == "9"
        form.locator("button", has_text="Send").click()
        wait_for(lambda: srv.state("table")["players"][1]["score"] == 9, timeout=10, what="Ben's score")

        form.locator("input[name=arg-score]").fill("")            # a required number left out
        form.locator("button", has_text="Send").click()
        host.wait_for_selector("#notices .notice:has-text('score')")


def srv_games(srv) -> list[dict]:
    import requests
    return requests.get(srv.url + "/api/games", timeout=10).json()
