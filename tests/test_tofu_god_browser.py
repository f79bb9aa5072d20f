"""Tofu God pages in a real headless Chromium: the TV at the reveal of a question (screenshot kept
in tests/artifacts/), a seat page and the host page, with the rulebook example's first question."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import browser, screenshot
from tests.support.scripts import script_inputs
from tests.support.server import run_server
from tests.support.tofu_god import ADVANCE, new_game, tap

pytestmark = pytest.mark.browser
SCRIPTS = Path(__file__).parent / "scripts"

EXAMPLE = [new_game(["Anna", "Ben", "Cindy", "Dax"], set_aside="physical"),
           {"host": {"action": "conundrum", "number": 43}},
           tap(1, "rat"), tap(1, "pig"),
           *[tap(1, c) for c in ("elephant", "human", "spider", "beetle", "tofu", "meditator")],
           tap(2, "elephant"), tap(3, "elephant"), tap(4, "dolphin")]


def _post_all(srv, inputs):
    seq = None
    for inp in inputs:
        r = srv.post(inp)
        assert r.ok, r.text
        seq = r.json()["seq"]
    return seq


def _wait_seq(page, seq):
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


@pytest.mark.timeout(120)
def test_tv_at_the_reveal_of_a_question(tmp_path):
    """issue: the TV page at the reveal of a question, kept as a screenshot. It shows whose turn,
    the conundrum number, the set-aside cards, the guesses, best and worst and the points."""
    with run_server(tmp_path) as srv, browser() as b:
        errors = []
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _post_all(srv, EXAMPLE)
        page.goto(srv.url + "/")
        page.wait_for_selector(".tg")
        area = page.locator("#game-area")
        text = area.inner_text()
        assert "Anna answers" in text and "Conundrum #43" in text
        assert "Rat" in text and "Pig" in text
        assert "Elephant" not in text and "Human" not in text, "nothing secret before the reveal"
        screenshot(page, "tofu-god-tv-guessing")

        seq = _post_all(srv, [ADVANCE, ADVANCE])
        _wait_seq(page, seq)
        text = area.inner_text()
        assert text.count("Elephant") == 3          # Ben's and Cindy's guesses and Anna's best
        assert "Dolphin" in text and "Human" in text
        assert "Anna +2" in text and "+1" in text
        assert page.locator("#players").inner_text().split() == ["Anna", "2", "Ben", "1", "Cindy", "1", "Dax", "0"]
        screenshot(page, "tofu-god-tv-reveal")
        assert not errors, errors


@pytest.mark.timeout(120)
def test_seat_and_host_pages_show_their_part(tmp_path):
    """issue: the active player's seat shows the six answers as locked and which are to come;
    another seat shows its guess and hand; the host sees everything and can correct."""
    with run_server(tmp_path) as srv, browser() as b:
        errors = []
        _post_all(srv, EXAMPLE[:6] + [EXAMPLE[-3]])   # Anna has locked 2 answers; Ben guessed
        pages = {}
        for name, path in (("anna", f"/seat/1?token={srv.seat_token(1)}"),
                           ("ben", f"/seat/2?token={srv.seat_token(2)}"),
                           ("host", f"/host?token={srv.host_token}")):
            page = b.new_page(viewport={"width": 430, "height": 900} if name != "host" else None)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(srv.url + path)
            page.wait_for_selector(".tg")
            pages[name] = page
        anna = pages["anna"].locator("#game-area").inner_text()
        assert "Elephant" in anna and "Human" in anna and "next: best" in anna
        ben = pages["ben"].locator("#game-area").inner_text()
        assert "Your guess for question 1" in ben and "Elephant" in ben and "Human" not in ben.split("In your hand")[0]
        screenshot(pages["anna"], "tofu-god-seat-active")
        screenshot(pages["ben"], "tofu-god-seat-guesser")

        # Ben changes his guess from his phone: his page follows
        pages["ben"].get_by_role("button", name="Dolphin").click()
        pages["ben"].wait_for_function("document.getElementById('game-area').innerText.includes('Your guess for question 1\\nDolphin')")
        host = pages["host"].locator("#game-area").inner_text()
        assert "Anna's answers" in host
        pages["host"].wait_for_function("document.getElementById('game-area').innerText.includes('Dolphin')")
        screenshot(pages["host"], "tofu-god-host")
        assert not errors, errors


@pytest.mark.timeout(120)
def test_tv_shows_the_tie_break_draw(tmp_path):
    """rulebook tie-break on the TV: the draws appear one by one, then the winner."""
    inputs = script_inputs("tofu-god-tie.jsonl")
    with run_server(tmp_path) as srv, browser() as b:
        _post_all(srv, inputs)
        winner = srv.state()["winners"][0]
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        page.wait_for_selector(".tg-draws")
        assert "Final ranking" not in page.locator("#game-area").inner_text(), "no spoiler before the draws"
        assert page.locator("#players li.winner").evaluate_all(
            "els => els.every(e => getComputedStyle(e).backgroundColor === 'rgba(0, 0, 0, 0)')"), \
            "no winner highlighted before the draws"
        assert winner not in page.evaluate("getComputedStyle(document.getElementById('prompt'), '::before').content")
        assert page.locator("#prompt").evaluate("e => getComputedStyle(e).fontSize") == "0px", "the prompt holds the result back"
        assert page.locator(".events").evaluate("e => getComputedStyle(e).visibility") == "hidden", "so do the events"
        page.wait_for_function("document.querySelector('.tg-draws').innerText.includes('first!')", timeout=30000)
        assert f"{winner} draws the Tofu first!" in page.locator(".tg-draws").inner_text()
        page.wait_for_function("document.getElementById('game-area').innerText.includes('Final ranking')")
        page.wait_for_function("!document.body.classList.contains('suspense')")
        assert winner in page.locator("#players li.winner").inner_text()
        ranking = page.locator("#game-area").bounding_box()
        assert page.get_by_text("Final ranking").bounding_box()["y"] < ranking["y"] + ranking["height"], \
            "the final ranking fits on the TV"
        screenshot(page, "tofu-god-tv-tie-break")


@pytest.mark.timeout(120)
def test_host_page_form_starts_tofu_god_with_options(tmp_path):
    """The host page's new-game form lists Tofu God's options and starts a game with them (the
    turns field left empty takes the rulebook default for the player count)."""
    with run_server(tmp_path) as srv, browser() as b:
        page = b.new_page()
        page.goto(srv.url + f"/host?token={srv.host_token}")
        page.select_option("#ng-game", "tofu-god")
        page.fill("#ng-players", "Anna\nBen\nCindy\nDax")
        page.select_option("#opt-set_aside", '"physical"')
        page.fill("#opt-sets", "4,3,2,1")
        page.click("#new-game button[type=submit], #new-game button")
        page.wait_for_selector(".tg")
        view = srv.state("host", srv.host_token)
        assert view["game"] == "tofu-god" and view["phase"] == "set_aside"
        assert view["total_turns"] == 8 and view["sets"] == {"1": 4, "2": 3, "3": 2, "4": 1}
