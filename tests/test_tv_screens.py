"""Every screen of every game at its largest player count, on the TV at 720p, 1080p and 4K and on a
phone, in a real headless Chromium driven through the real server (issue 16: the TV readable from
the sofa). A screen fails on scrolling, on anything cut off, on TV text under 24 px at 1080p, on a
prompt over two lines, on fewer or more seat codes than seats, on a seat code that is not whole,
uncovered and at least 120 px at 1080p, on notices or the caption over the board or each other, and
on any console error. Screenshots and tests/artifacts/screens/index.html show them.
"""
from __future__ import annotations

import pytest
import requests

from tests.support.browser import browser
from tests.support.screens import CHECKS, Screens
from tests.support.scripts import script_inputs
from tests.support.server import run_server

pytestmark = pytest.mark.browser

#: the replay scripts played, each at its game's largest player count (and the tied Tofu God game)
SCRIPTS = ["tofu-god-6p.jsonl", "tofu-god-tie.jsonl", "tofu-kingdom-8p-seats.jsonl",
           "tofu-kingdom-8p-table.jsonl", "food-for-thought-4p-modules.jsonl"]


def _manual_tie() -> list[dict]:
    """The tied game, with the host entering who won a real tofu draw (tie_break=manual)."""
    inputs = script_inputs("tofu-god-tie.jsonl")
    inputs[0]["new_game"]["options"]["tie_break"] = "manual"
    return [*inputs, {"host": {"action": "tie_break_winner", "seat": 2}}]


#: screens the whole games above never show, each reached by playing a script, with only those
#: screens checked on the way: game -> (its inputs, the screens)
OTHER_SCREENS = {"tofu-god-tie-manual": (_manual_tie, {"tie_break", "over"}),
                 "food-for-thought-4p-basic": (lambda: script_inputs("food-for-thought-4p-basic.jsonl"),
                                               {"pizza_extra"})}


def _tofu_god_summary(view: dict) -> bool:
    """Whether the Tofu God TV shows the last turn's summary (web/games/tofu-god.js showsSummary):
    from the end of a turn until the next turn's first card."""
    turn, last = view["turn"], view.get("last_turn")
    if not last or last["number"] != turn["number"] - 1:
        return False
    if view["phase"] == "set_aside":
        return not turn["set_aside"]
    return (view["phase"] == "guessing" and not turn["answers_locked"] and not turn["guessed"]
            and not view["results"])


def screen_of(view: dict) -> str:
    """The name of the kind of screen a public view shows (one screenshot per kind and game)."""
    phase = view["phase"]
    turn = view.get("turn")
    if view["game"] == "tofu-god" and turn and not view["over"] and _tofu_god_summary(view):
        return "turn summary"
    if view["game"] == "tofu-god" and phase == "guessing" and turn and turn.get("guessed"):
        return "guessing, some guessed"
    if view["game"] == "tofu-kingdom" and phase == "deal" and view.get("down"):
        return "deal, some down"
    if view["game"] == "tofu-kingdom" and phase == "questions" and view.get("questions"):
        return "questions asked"
    return phase


def acting_seat(inp: dict) -> tuple[int, str] | None:
    """The seat whose phone (or reader) sends ``inp``, with what it does; None for the host's inputs."""
    if "seat" in inp:
        return inp["seat"]["seat"], inp["seat"]["action"]
    reader = next((v["reader"] for k, v in inp.items() if k in ("tap", "lift")), "")
    return (int(reader.split("-")[1]), next(iter(inp))) if reader.startswith("seat-") else None


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
    problems = screens.check("lobby", "empty", seat_codes=0, phone=False)   # (the join codes count as seat codes)
    assert not problems, "\n".join(problems)


def _play(srv, screens, game: str, inputs: list[dict], only: set[str] | None = None) -> tuple[list[str], set, dict]:
    """Post ``inputs``, checking each kind of screen (of ``only``, if given) the first time it shows,
    and the phone of the player about to act once per kind of move and screen; the TV's problems,
    the screens and moves seen, and the last view."""
    problems, seen = [], set()
    view = srv.state()
    for inp in inputs:
        # the phone of the player about to act, once per kind of move and screen: the form they use
        actor = acting_seat(inp)
        if (actor and not view["over"] and (screen_of(view), actor[1]) not in seen
                and (only is None or screen_of(view) in only)):
            seen.add((screen_of(view), actor[1]))
            screens.open_phone(f"/seat/{actor[0]}?token={srv.seat_token(actor[0])}")
            screens.wait(view["seq"])
            problems += screens.check(game, f"{screen_of(view)}, seat {actor[0]} to {actor[1]}", seat_codes=0, tv=False)
        seq = _post(srv, inp)
        if "new_game" in inp:
            screens.open_phone(f"/seat/1?token={srv.seat_token(1)}")
        view = srv.state()
        screen = screen_of(view)
        if screen in seen or (only is not None and screen not in only):
            continue
        seen.add(screen)
        screens.wait(seq)
        problems += screens.check(game, screen, seat_codes=0 if view["over"] else len(view["players"]))
    return problems, seen, view


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.timeout(600)
def test_every_screen_of_a_game(night, script):
    srv, screens = night
    game = script.removesuffix(".jsonl")
    problems, seen, view = _play(srv, screens, game, script_inputs(script))
    assert view["over"], "the script plays a whole game"
    assert "over" in seen
    if game == "tofu-god-6p":
        assert "turn summary" in seen
    if game.startswith("tofu-kingdom"):
        assert screens.captions_checked, "the narrator's caption was on a checked screen (the deal)"
    # the host ends the finished game: the final ranking stays on the TV until the next game
    seq = _post(srv, {"host": {"action": "end_game"}})
    screens.wait(seq)
    tv = screens.tvs["1080p"]
    for name in view["winners"]:
        assert name in tv.locator("#game-area").inner_text()
    problems += screens.check(game, "ended", seat_codes=0, phone=False)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", OTHER_SCREENS)
@pytest.mark.timeout(300)
def test_screens_the_whole_games_do_not_reach(night, game):
    """Tofu God's tie settled by the host (tie_break=manual) and Food for Thought's Pizza To Go
    extra action (the basic game: the modules game above never takes it)."""
    srv, screens = night
    inputs, wanted = OTHER_SCREENS[game]
    problems, seen, _view = _play(srv, screens, game, inputs(), only=wanted)
    assert wanted <= seen
    assert not problems, "\n".join(problems)


def test_phone_screens(night):
    """The seat page of every screen above on a 390x844 phone (seat 1's, and the phone of each player
    about to act, once per kind of move and screen): no sideways scrolling, nothing cut, no text
    under 14 px, notices clear of the buttons and fields, no console errors."""
    _srv, screens = night
    assert screens.shots, "runs after the games above"
    assert not screens.phone_problems, "\n".join(screens.phone_problems)


def test_contrast_check_measures_rendered_text(night):
    """The screens' contrast check (WCAG AA: 4.5:1, 3:1 for text of 24 px or more) reads the colours
    Chromium rendered: a refusal notice passes, faint text fails, and the same faint
    colours pass when the text is large."""
    srv, screens = night
    phone = screens.phone
    phone.goto(f"{srv.url}/sim")                         # a page with notices, open without a token
    phone.wait_for_selector("#readers .pad")
    phone.evaluate("TofuTable.notice(document.getElementById('notices'), 'That card is not yours: tap your own set.')")
    phone.evaluate("document.body.append(Object.assign(document.createElement('p'), {id: 'faint', "
                   "textContent: 'grey on grey', style: 'color:#999;background:#444;font-size:16px'}))")
    found = phone.evaluate(CHECKS, {"tv": False, "minTextPx": 14, "codes": "none", "width": 390, "height": 844})
    faint = [p for p in found if p.startswith("contrast")]
    assert len(faint) == 1 and 'p#faint "grey on grey" at 3.42:1' in faint[0], found
    phone.evaluate("document.getElementById('faint').style.fontSize = '24px'")
    found = phone.evaluate(CHECKS, {"tv": False, "minTextPx": 14, "codes": "none", "width": 390, "height": 844})
    assert not [p for p in found if p.startswith("contrast")], found


#: the pages around the games on a phone, each with what it shows once it has loaded
AROUND = {"host": "document.querySelectorAll('#journal tr').length > 0",
          "join": "document.getElementById('prompt').textContent !== 'Joining\u2026'",
          "pair": "/^\\d{3} \\d{3}$/.test(document.getElementById('code').textContent)",
          "sim": "document.body.dataset.seq !== undefined"}


def test_contrast_of_the_host_join_pair_and_sim_pages(night):
    """WCAG AA contrast (the screens' check) on the pages around the games, on a phone: the host
    console with its folds open, joining with the TV's code, pairing a TV and the simulator."""
    srv, screens = night
    code = requests.get(srv.url + "/api/join", headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=10).json()["code"]
    paths = {"host": f"/host?token={srv.host_token}", "join": f"/join?code={code}", "pair": "/pair", "sim": "/sim"}
    page, problems = screens.phone, []
    for name, path in paths.items():
        page.goto(srv.url + path)
        if name == "host":
            page.click("#secrets summary")
            page.click("#advanced summary")
        page.wait_for_function(AROUND[name])
        found = page.evaluate(CHECKS, {"tv": False, "codes": "none", "width": 390, "height": 844})
        problems += [f"{name}: {p}" for p in found if p.startswith("contrast")]
    assert not problems, "\n".join(problems)


def test_the_overlap_check_counts_the_caption_as_a_notice(night):
    """The narrator's caption is held to the notices' rule: laid over the ticker, where it used to
    be fixed, it is reported as covering the refusal notice there."""
    _srv, screens = night
    tv = screens.tvs["1080p"]
    tv.evaluate("TofuTable.notice(document.getElementById('notices'), 'Advance waits for the flip.'); "
                "TofuTV.caption('Lay your coasters face down.')")
    assert not [p for p in tv.evaluate(CHECKS, {"tv": True}) if "caption" in p]   # at the foot of the stage
    tv.evaluate("Object.assign(document.getElementById('caption').style, {position: 'fixed', right: '1rem', bottom: '1rem'})")
    found = tv.evaluate(CHECKS, {"tv": True})
    tv.evaluate("TofuTV.caption(''); document.getElementById('caption').removeAttribute('style'); "
                "document.getElementById('notices').replaceChildren()")
    assert any(p.startswith('notices overlap: div#caption.caption "Lay your coasters face down."') for p in found), found


def test_the_checks_count_prompt_lines_and_seat_codes(night):
    """A prompt laid out on three lines fails, and so do fewer seat codes than seats (the lobby
    shows none)."""
    _srv, screens = night
    tv = screens.tvs["1080p"]
    kept = tv.evaluate("[document.getElementById('prompt').textContent, document.getElementById('prompt').style.fontSize]")
    tv.evaluate("Object.assign(document.getElementById('prompt'), {textContent: 'Round 1 of 8. Prince Ann, close your "
                "eyes. Everyone else: see who is who, then lay your coaster face down on your reader. 0 of 7 down, "
                "and the Prince waits.'}).style.fontSize = '1.85rem'")
    found = tv.evaluate(CHECKS, {"tv": True, "seatCodes": 8})
    tv.evaluate("([text, size]) => Object.assign(document.getElementById('prompt'), {textContent: text}).style.fontSize = size",
                kept)
    assert any(p.startswith('the prompt takes 3 lines: div#prompt') for p in found), found
    assert "0 seat codes shown for 8 seats" in found
