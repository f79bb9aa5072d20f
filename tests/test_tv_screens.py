"""Every screen of every game at its largest player count, on the TV at 720p, 1080p and 4K and on a
phone, in a real headless Chromium driven through the real server (issue 16: the TV readable from
the sofa). A screen fails on scrolling, on anything cut off, on TV text under 24 px at 1080p, on a
seat code that is not whole, uncovered and at least 120 px at 1080p, on notices over the board or
each other, and on any console error. Screenshots and tests/artifacts/screens/index.html show them.
"""
from __future__ import annotations

import pytest

from tests.support.browser import browser
from tests.support.screens import Screens
from tests.support.scripts import script_inputs
from tests.support.server import run_server

pytestmark = pytest.mark.browser

#: the replay scripts played, each at its game's largest player count (and the tied Tofu God game)
SCRIPTS = ["tofu-god-6p.jsonl", "tofu-god-tie.jsonl", "tofu-kingdom-8p-seats.jsonl",
           "tofu-kingdom-8p-table.jsonl", "food-for-thought-4p-modules.jsonl"]


def screen_of(view: dict) -> str:
    """The name of the kind of screen a public view shows (one screenshot per kind and game)."""
    phase = view["phase"]
    turn = view.get("turn")
    if view["game"] == "tofu-god" and phase == "guessing" and turn and turn.get("guessed"):
        return "guessing, some guessed"
    if view["game"] == "tofu-kingdom" and phase == "deal" and view.get("down"):
        return "deal, some down"
    if view["game"] == "tofu-kingdom" and phase == "questions" and view.get("questions"):
        return "questions asked"
    return phase


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """One server and one browser with the pages, for the whole module; the gallery at the end."""
    # --local-display: the browser on this machine is the table's own TV (the Pi's kiosk), which
    # may show the join and seat codes
    with run_server(tmp_path_factory.mktemp("screens"), extra_args=["--local-display"]) as srv, browser() as b:
        screens = Screens(b, srv.url)
        yield srv, screens
        screens.write_gallery()


def _post(srv, inp) -> int:
    r = srv.post(inp)
    assert r.ok, (inp, r.text)
    return r.json()["seq"]


def test_lobby_screen(night):
    srv, screens = night
    screens.wait(srv.state()["seq"])
    tv = screens.tvs["1080p"]
    assert tv.locator("#prompt").inner_text().startswith("No game yet")
    tv.wait_for_function("document.querySelectorAll('.join-code').length === 2 && "
                         "[...document.querySelectorAll('.join-code')].every((i) => i.complete && i.naturalWidth)")
    problems = screens.check("lobby", "empty", phone=False)   # (the join codes count as seat codes)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.timeout(600)
def test_every_screen_of_a_game(night, script):
    srv, screens = night
    game = script.removesuffix(".jsonl")
    problems, seen = [], set()
    for i, inp in enumerate(script_inputs(script)):
        seq = _post(srv, inp)
        if "new_game" in inp:
            screens.open_phone(f"/seat/1?token={srv.seat_token(1)}")
        view = srv.state()
        screen = screen_of(view)
        if screen in seen:
            continue
        seen.add(screen)
        screens.wait(seq)
        problems += screens.check(game, screen)
    assert view["over"], "the script plays a whole game"
    assert "over" in seen
    # the host ends the finished game: the final ranking stays on the TV until the next game
    seq = _post(srv, {"host": {"action": "end_game"}})
    screens.wait(seq)
    tv = screens.tvs["1080p"]
    for name in view["winners"]:
        assert name in tv.locator("#game-area").inner_text()
    problems += screens.check(game, "ended", phone=False)
    assert not problems, "\n".join(problems)


@pytest.mark.xfail(strict=True, reason="the seat pages' notices cover their buttons and Food for Thought's "
                   "shopping grid is wider than a phone: the joining half of issue 16 redoes the phone pages")
def test_phone_screens(night):
    """The seat page of every screen above on a 390x844 phone: no sideways scrolling, nothing cut,
    no text under 14 px, notices clear of the buttons and fields, no console errors."""
    _srv, screens = night
    assert screens.shots, "runs after the games above"
    assert not screens.phone_problems, "\n".join(screens.phone_problems)
