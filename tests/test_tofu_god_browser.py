"""Tofu God pages in a real headless Chromium: the TV at the reveal of a question (screenshot kept
in tests/artifacts/), a seat page and the host page, with the rulebook example's first question."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import browser, screenshot, tv_scores
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

        seq = _post_all(srv, [ADVANCE, ADVANCE])     # the guesses, then the best answer
        _wait_seq(page, seq)
        assert page.locator(".tgtv-answer.worst .tg-card.down").count() == 1, "the worst waits its turn"
        assert "Human" not in area.inner_text()
        seq = _post_all(srv, [ADVANCE])               # then the worst answer
        _wait_seq(page, seq)
        text = area.inner_text()
        assert text.count("Elephant") == 3          # Ben's and Cindy's guesses and Anna's best
        assert "Dolphin" in text and "Human" in text
        assert "Anna +2" in text and "+1" in text
        assert tv_scores(page) == [("Anna", 2), ("Ben", 1), ("Cindy", 1), ("Dax", 0)]
        assert "reveal" in page.evaluate("TofuTV.played") and "score" in page.evaluate("TofuTV.played")
        assert page.locator(".tgtv-answer .tg-card.flip").count() == 1, "the worst turns over on its own"
        # best and worst say so in words and shapes, not only in colour
        assert page.locator(".tgtv-answer.best").inner_text().startswith("\u2605 best")
        assert page.locator(".tgtv-answer.worst").inner_text().startswith("\u2716 worst")
        assert page.locator(".tgtv-guess.best .tgtv-note").first.inner_text() == "\u2605 best +1"
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
            if name == "host":
                page.click("#secrets summary")   # the host opens the folded answers and corrections
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
    """rulebook tie-break on the TV: seen live, the draws turn up one by one with the result held
    back, then the winner and the ranking, every draw on screen; a reloaded TV shows the result at
    once without playing the draw again; a new game started during the draw shows its own prompt."""
    inputs = script_inputs("tofu-god-tie.jsonl")
    with run_server(tmp_path) as srv, browser() as b:
        _post_all(srv, inputs[:-1])
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        page.wait_for_selector(".tgtv")
        _post_all(srv, inputs[-1:])
        winner = srv.state()["winners"][0]
        page.wait_for_selector(".tg-draws")
        assert page.locator("#prompt").inner_text() == "And the winner is\u2026", "the prompt holds the result back"
        assert page.locator(".final").count() == 0, "no ranking before the draws"
        assert page.locator(".events").evaluate("e => getComputedStyle(e).visibility") == "hidden", "nor the events"
        assert page.locator(".seat-card.winner .mark").evaluate_all(
            "els => els.every(e => getComputedStyle(e).visibility === 'hidden')"), "no winner marked before the draws"
        total = page.locator(".tg-card.tie").count()
        page.wait_for_function(f"document.querySelectorAll('.tg-card.tie:not(.down)').length >= 2 && "
                               f"document.querySelectorAll('.tg-card.tie:not(.down)').length < {total}")
        page.wait_for_function("!document.body.classList.contains('suspense')", timeout=30000)
        page.wait_for_selector(".final")
        assert f"{winner} draws the Tofu first!" in page.locator("#game-area").inner_text()
        assert page.locator(".tg-card.tie.down").count() == 0 and page.locator(".tg-card.tie").count() == total
        stage = page.locator("#stage").bounding_box()
        for box in page.locator(".tg-card.tie").evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
            assert stage["y"] <= box["y"] and box["y"] + box["height"] <= stage["y"] + stage["height"], "every draw on screen"
        assert page.locator("#prompt").inner_text() == srv.state()["prompt"]
        assert f"{winner} \u2605 winner" in page.locator(".final").inner_text()
        assert winner in page.locator(".seat-card.winner").inner_text()
        screenshot(page, "tofu-god-tv-tie-break")

        page.reload()
        page.wait_for_selector(".final")
        assert page.locator(".tg-card.tie.down").count() == 0, "a reload shows the draw whole, not again"
        assert "suspense" not in page.evaluate("document.body.className")

        # the next game begins while a draw plays out: its prompt, not the draw's suspense
        _post_all(srv, inputs[:-1])
        seq = _post_all(srv, inputs[-1:])
        _wait_seq(page, seq)
        page.wait_for_selector(".tg-draws")
        seq = _post_all(srv, inputs[:1])
        _wait_seq(page, seq)
        assert page.locator("#prompt").inner_text() == srv.state()["prompt"]
        assert "suspense" not in page.evaluate("document.body.className")


@pytest.mark.timeout(120)
def test_host_page_form_starts_tofu_god_with_options(tmp_path):
    """The host page's new-game form lists Tofu God's options and starts a game with them (the
    turns field left empty takes the rulebook default for the player count)."""
    with run_server(tmp_path) as srv, browser() as b:
        page = b.new_page()
        page.goto(srv.url + f"/host?token={srv.host_token}")
        page.click("#secrets summary")   # the host opens the folded answers and corrections
        page.select_option("#ng-game", "tofu-god")
        page.fill("#ng-players", "Anna\nBen\nCindy\nDax")
        page.select_option("#opt-set_aside", '"physical"')
        page.fill("#opt-sets", "4,3,2,1")
        page.click("#new-game button[type=submit], #new-game button")
        page.wait_for_selector(".tg")
        view = srv.state("host", srv.host_token)
        assert view["game"] == "tofu-god" and view["phase"] == "set_aside"
        assert view["total_turns"] == 8 and view["sets"] == {"1": 4, "2": 3, "3": 2, "4": 1}


@pytest.mark.timeout(180)
def test_a_turn_at_the_table_phone_swap_reveals_one_by_one_and_the_summary(tmp_path):
    """issue 17 through the real inputs: Anna taps two answers in the wrong order and swaps them on
    her phone (the TV shows only how many are locked); the guesses, the best and the worst come out
    at three presses with the explanation countdown on the TV; the first guess after a reveal is
    taken; after question 3 the TV sums up the turn ("Cindy: −1, stays at 0") until the next turn's
    first card. Screenshots at TV and phone sizes."""
    start = new_game(["Anna", "Ben", "Cindy", "Dax"], set_aside="physical", explain_timer=30)
    with run_server(tmp_path) as srv, browser() as b:
        errors = []
        _post_all(srv, [start, tap(1, "rat"), tap(1, "pig"), tap(1, "human"), tap(1, "elephant")])
        tv = b.new_page(viewport={"width": 1280, "height": 720})
        anna = b.new_page(viewport={"width": 390, "height": 844})
        for page in (tv, anna):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        tv.goto(srv.url + "/")
        anna.goto(srv.url + f"/seat/1?token={srv.seat_token(1)}")
        anna.wait_for_selector("[data-slot='1-best']")
        assert anna.locator("[data-slot='1-best']").inner_text() == "best: Human"
        anna.click("[data-slot='1-best']")
        anna.click("[data-slot='1-worst']")
        anna.wait_for_function("document.querySelector(\"[data-slot='1-best']\").innerText === 'best: Elephant'")
        assert anna.locator("[data-slot='1-worst']").inner_text() == "worst: Human"
        screenshot(anna, "tofu-god-seat-swap-390")
        area = tv.locator("#game-area")
        tv.wait_for_selector(".tgtv-locked")
        assert "2 of 6 locked" in area.inner_text()
        assert "Elephant" not in area.inner_text() and "Human" not in area.inner_text()

        seq = _post_all(srv, [tap(1, c) for c in ("spider", "beetle", "tofu", "meditator")]
                        + [tap(2, "elephant"), tap(3, "human"), tap(4, "dolphin"), ADVANCE])
        _wait_seq(tv, seq)
        timer = tv.locator(".tgtv-timer")
        first = int(timer.get_attribute("data-left"))
        assert 0 < first <= 30 and timer.inner_text().startswith("Explain: 0:")
        tv.wait_for_function(f"Number(document.querySelector('.tgtv-timer').dataset.left) < {first}")
        anna.wait_for_function("!document.querySelector(\"[data-slot]\")")   # arranging is over
        seq = _post_all(srv, [ADVANCE])
        _wait_seq(tv, seq)
        assert tv.locator(".tgtv-answer.worst .tg-card.down").count() == 1, "the best comes out alone"
        assert tv.locator(".tgtv-answer.best").inner_text().endswith("Elephant")
        seq = _post_all(srv, [ADVANCE])
        _wait_seq(tv, seq)
        assert "stays at 0" in tv.locator(".tgtv-guess.worst .tgtv-note").inner_text()
        screenshot(tv, "tofu-god-tv-worst-1280")
        # questions 2 and 3: the first guess after each reveal is taken at once
        for q, guesses in ((2, ("spider", "tenth", "tenth")), (3, ("tenth", "tenth", "tenth"))):
            for seat, card in zip((2, 3, 4), guesses):
                r = srv.post(tap(seat, card))
                assert r.ok, r.text
            _post_all(srv, [ADVANCE, ADVANCE])
            seq = _post_all(srv, [ADVANCE])
        _wait_seq(tv, seq)
        tv.wait_for_selector(".tgtv-summary")
        rows = tv.locator(".tgtv-summary-rows li").all_inner_texts()
        assert rows == ["Anna: +2", "Ben: +2", "Cindy: \u22121, stays at 0", "Dax: 0"]
        assert "Ben answers" in area.inner_text(), "the next turn is already up"
        assert tv.locator(".tgtv-timer").inner_text().startswith("Explain: 0:"), \
            "the last worst answer gets its explaining time too"
        tv.set_viewport_size({"width": 1920, "height": 1080})
        screenshot(tv, "tofu-god-tv-summary-1920")
        seq = _post_all(srv, [tap(2, "rat")])      # Ben sets his first card aside: the turn begins
        _wait_seq(tv, seq)
        assert tv.locator(".tgtv-summary").count() == 0
        assert not errors, errors
