"""A player's phone (issue 16): a refusal is one notice that goes when the table moves on and
covers no button; in Food for Thought what the player chooses is in sight and in words, and the
allergy tile's choices are made from the phone. The real server, the replay script
food-for-thought-2p-modules (Ann has the Nut Allergy tile, Ben Dairy Sensitivity) and one headless
Chromium on a 390x844 phone for the whole module; the layout of every phone screen is checked by
tests/test_tv_screens.py."""
from __future__ import annotations

import pytest

from server.games.food_for_thought.tokens import shift_kitchen
from tests.support.browser import browser, screenshot, under_the_notice
from tests.support.scripts import script_inputs
from tests.support.server import run_server

pytestmark = pytest.mark.browser

INPUTS = script_inputs("food-for-thought-2p-modules.jsonl")
#: the script's work out in which Ben takes a token off his tile as the dairy he is allergic to
TILE_WORKOUT = next(i for i, inp in enumerate(INPUTS)
                    if inp.get("seat", {}).get("action") == "workout" and any("group" in p for p in inp["seat"]["place"]))


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The server with the script's new game, and a phone page."""
    with run_server(tmp_path_factory.mktemp("phones")) as srv, browser() as b:
        assert srv.post(INPUTS[0]).ok
        phone = b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        yield srv, phone


def test_a_refusal_is_one_notice_until_the_table_moves_on(tmp_path):
    """Tofu God: the active player saves two conundrum numbers the game refuses; the phone shows one
    notice, the newest, in sight above the buttons rather than over them, and it goes when the next
    state comes."""
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "tofu-god", "players": ["Anna", "Ben", "Cindy"], "seed": 3}}).ok
        active = srv.state()["turn"]["active"]
        phone = b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        _open(srv, phone, active)
        for number in ("1000", "0"):
            phone.fill("input[name=conundrum]", number)
            phone.get_by_role("button", name="Save").click()
            phone.wait_for_selector("#notices .notice:not([data-seen])")   # this refusal's notice
            phone.evaluate("document.querySelectorAll('.notice').forEach((n) => { n.dataset.seen = 1; })")
        notices = phone.locator("#notices .notice")
        assert notices.count() == 1, notices.all_inner_texts()
        assert "from 1 to 999" in notices.inner_text()
        box = notices.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, "the notice is on the screen, not scrolled away"
        assert under_the_notice(phone) == []
        screenshot(phone, "phone-refusal-notice")
        seq = srv.post({"host": {"action": "conundrum", "number": 7}}).json()["seq"]
        phone.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")
        assert notices.count() == 0


def test_a_game_without_a_phone_part_is_played_from_its_declared_seat_moves(tmp_path):
    """issue 12 (the pages build their controls from /api/games): the tiny test game ships no page
    code; Ben's phone offers the seat move the game declares for the phase ("Choose your colour"
    with its choices) and sends it as Ben."""
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"]}}).ok
        phone = b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        _open(srv, phone, 2)
        move = phone.locator("#game-area select[name=move]")
        move.wait_for()
        assert move.locator("option").all_inner_texts() == ["Choose your colour"]
        colour = phone.locator("#game-area select[name=arg-colour]")
        assert colour.locator("option").all_inner_texts() == ["red", "blue"]
        colour.select_option(label="blue")
        phone.get_by_role("button", name="Send").click()
        phone.wait_for_function("document.getElementById('events').innerText.includes('Ben has chosen')")
        assert srv.state("host", token=srv.host_token)["secrets"] == {"2": "blue"}
        screenshot(phone, "phone-declared-moves")


def _open(srv, phone, seat: int):
    phone.goto(f"{srv.url}/seat/{seat}?token={srv.seat_token(seat)}")
    phone.wait_for_function(f"Number(document.body.dataset.seq || -1) >= {srv.state()['seq']}")


def _me(srv, seat: int) -> dict:
    return srv.state(f"seat-{seat}", token=srv.seat_token(seat))["me"]


def test_assistant_choices_show_what_each_does(table):
    """Picking an assistant, the player reads each one's options on the phone itself (a phone has no
    hover): every choice's options are visible text beside its button, in words worked out from the
    card's abilities where the card has them (issue 15), else the card's text."""
    srv, phone = table
    me = _me(srv, 2)                                     # Ben picks first (the script's first pick)
    assert me["can"] == ["assistant"]
    _open(srv, phone, 2)
    for choice in me["assistant"]["choices"]:
        box = phone.locator(".ft-choice", has=phone.locator(f"button:text-is('{choice['name']}')"))
        text = box.locator(".ft-why")
        said = [d["text"] for d in choice["does"]] or choice["options"]
        text.wait_for(state="visible")               # the game area is drawn after the seq is set
        assert text.inner_text() == " / ".join(said)
    screenshot(phone, "phone-food-for-thought-assistants")


def test_allergy_tile_foods_chosen_from_the_phone(table):
    """Food Allergy module: the tile's spaces take only the foods it shows, and those foods also have
    their own group; the player taps a food to send it to the tile first or to its own group
    (the rulebook leaves the order to the player), and taps again to undo."""
    srv, phone = table
    tile = _me(srv, 2)["tile"]
    assert tile["name"] == "Dairy Sensitivity" and tile["first"] == tile["foods"] == ["nuts", "water"]
    _open(srv, phone, 2)
    water = phone.locator(".ft-box:has-text('Your Dairy Sensitivity tile') button.ft-space:has-text('Water')")
    assert "on the tile first" in water.inner_text() and water.get_attribute("aria-pressed") == "true"
    water.click()
    phone.wait_for_function("() => [...document.querySelectorAll('button.ft-space')]"
                            ".some((b) => b.textContent.includes('Water') && b.textContent.includes('on its own group first'))")
    assert _me(srv, 2)["tile"]["first"] == ["nuts"]
    assert water.get_attribute("aria-pressed") == "false"
    water.click()                                        # back as the script plays it
    phone.wait_for_function("() => [...document.querySelectorAll('button.ft-space')]"
                            ".some((b) => b.textContent.includes('\u2713 Water'))")
    assert _me(srv, 2)["tile"]["first"] == ["nuts", "water"]


def test_kitchen_says_when_each_food_spoils(table):
    """The kitchen in words: each food's name and the round after which it reaches the trash, as the
    clean-up moves every kitchen token one space right and the last space's into the trash
    (rulebook, The Kitchen & Trash), checked against the engine's own clean-up step."""
    srv, phone = table
    for inp in INPUTS[1:TILE_WORKOUT]:
        assert srv.post(inp).ok, inp
    view = srv.state()
    ann = next(p for p in view["seats"] if p["name"] == "Ann")
    assert ann["kitchen"] == [["water", "water"], ["veg"], [], []]     # what the script leaves her
    _open(srv, phone, 1)
    shown = phone.locator(".ft-kitchen").inner_text()
    board = {"kitchen": [list(c) for c in ann["kitchen"]], "thaw": [], "trash": []}
    for rounds in range(1, len(ann["kitchen"]) + 1):                   # the clean-ups to come, one by one
        before = len(board["trash"])
        shift_kitchen(board)
        spoiled = board["trash"][before:]
        if spoiled:
            names = ", ".join(view["foods"][f] for f in spoiled)
            when = "at the end of this round" if rounds == 1 else f"after round {view['round'] + rounds - 1}"
            assert f"{names}: to the trash {when}" in shown, shown
    assert "Kitchen: empty" not in shown and "1:" not in shown


def test_work_out_with_a_tile_token_counted_as_the_forbidden_food(table):
    """Food Allergy module: in a work out, a token from the allergy tile counts as the food the player
    is allergic to. Ben chooses it on his phone (from his Dairy Sensitivity tile, as Dairy) and
    completes Tennis as the script does."""
    srv, phone = table
    move = INPUTS[TILE_WORKOUT]["seat"]
    assert move["seat"] == 2 and _me(srv, 2)["can"]
    before = next(p for p in srv.state()["seats"] if p["seat"] == 2)
    tile = next(g for g in before["groups"] if g["tile"])
    _open(srv, phone, 2)
    box = phone.locator(".ft-box:has-text('Activities & Work Out')")
    for card in move["take"]:
        box.locator(f"label:has-text('{card}') input").check()
    for i, place in enumerate(move["place"]):
        box.locator("select[name=activity]").nth(i).select_option(place["activity"])
        box.locator("select[name=food]").nth(i).select_option(place["food"])
        if "group" in place:
            label = box.locator("select[name=group]").nth(i).select_option(place["group"])
            assert label == [tile["id"]]
    assert "from your tile, as Dairy" in box.locator("select[name=group]").first.inner_text()
    screenshot(phone, "phone-food-for-thought-tile-workout")
    seq = srv.state()["seq"]
    box.locator("button:has-text('Work out')").click()
    phone.wait_for_function(f"Number(document.body.dataset.seq) > {seq} || document.querySelector('.notice.refusal')")
    assert phone.locator(".notice.refusal").count() == 0, phone.locator(".notice.refusal").all_inner_texts()
    after = next(p for p in srv.state()["seats"] if p["seat"] == 2)
    done = [a["id"] for a in after["activities_done"]]
    assert done == move["take"]
    held = lambda group: sum(t is not None for t in group["tokens"])   # noqa: E731 (a lifted token leaves its space empty)
    assert held(next(g for g in after["groups"] if g["tile"])) == held(tile) - 1
    assert not any(t == "dairy" for g in after["groups"] for t in g["tokens"])    # never dairy in his body
