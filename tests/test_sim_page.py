"""The simulator page in a real headless Chromium: its pads drive the simulated readers
through the reader hub, and the table's answer comes back (issue 2 /sim, issue 5 simulated reader);
each pad offers its seat's cards by name, a reload shows what lies on the readers, and a
collision is shown (issue 16)."""
import pytest
import requests

from tests.support.browser import browser, screenshot
from tests.support.server import run_server

pytestmark = pytest.mark.browser

STATUS = "((document.querySelector('[data-reader=\"seat-2\"] .on') || {}).textContent || '')"


def srv_journal(srv):
    r = requests.get(srv.url + "/api/journal", headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=10)
    return r.json()["inputs"]


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    """The server in simulation and one browser page, for the whole module."""
    with run_server(tmp_path_factory.mktemp("sim")) as srv, browser() as b:
        yield srv, b.new_page(viewport={"width": 1400, "height": 1000})


def _new_game(srv, page, game, players):
    assert srv.post({"new_game": {"game": game, "players": players, "seed": 3}}).ok
    page.goto(srv.url + "/sim")
    page.wait_for_selector(f'[data-reader="seat-{len(players)}"] optgroup', state="attached")


def test_sim_pads_tap_swap_and_lift_cards_and_show_refusals(sim):
    srv, page = sim
    _new_game(srv, page, "tofu-god", ["Anna", "Ben", "Cindy"])
    pad = page.locator('[data-reader="seat-2"]')
    pad.locator("select").select_option("tofu-god/set-2/elephant")
    pad.locator("button", has_text="Tap").click()
    page.wait_for_function(f"{STATUS} === 'On the reader: Elephant'")
    # the hub turned the placed card into a guess for question 1 (Ben is seat 2)
    page.wait_for_function(
        "fetch('/api/state').then(r => r.json()).then(v => v.last_events.join(' ').includes('Ben has guessed'))")
    rows = srv_journal(srv)
    newest = rows[0]
    assert newest["source"] == "reader:seat-2", ("the tap came through the reader hub, not as a posted tap", rows[:4])
    assert newest["input"]["tap"]["card"] == "tofu-god/set-2/elephant"
    assert newest["input"]["tap"]["uid"], "the simulated reader sent the card's virtual tag"

    # a card of a set that is not in the game: the table refuses, the page says why
    pad.locator("select").select_option("tofu-god/set-5/rat")
    pad.locator("button", has_text="Tap").click()
    page.wait_for_selector(".notice")
    assert "Set 5 is not in this game" in page.locator(".notices").inner_text()
    screenshot(page, "sim-refusal")

    pad.locator("button", has_text="Lift").click()
    page.wait_for_function(f"document.querySelector('[data-reader=\"seat-2\"] .on').textContent === ''")
    tags = page.evaluate("fetch('/api/readers/seat-2/remove', {method: 'POST'}).then(r => r.json())")
    assert tags["tags"] == []


def test_a_refused_advance_is_told_once(sim):
    """The simulator hears a refusal twice, in the answer to its input and as the `refused` event to
    the table's room; it shows one notice (counted until a later state proves the event came)."""
    srv, page = sim
    _new_game(srv, page, "tofu-god", ["Anna", "Ben", "Cindy"])
    page.evaluate("""window.noticesShown = [];
      new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => noticesShown.push(n.textContent))))
        .observe(document.getElementById('notices'), { childList: true });""")
    with page.expect_response(lambda r: r.url.endswith("/api/input")) as answer:
        page.get_by_role("button", name="Advance").click()
    assert answer.value.status == 409
    seq = srv.post({"host": {"action": "conundrum", "number": 7}}).json()["seq"]   # after the refused event
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")
    shown = page.evaluate("noticesShown")
    assert len(shown) == 1 and shown[0].startswith("Anna has locked 0 of 6 answers"), shown


def test_each_pad_offers_its_seats_cards_by_name(sim):
    """Tofu God: each player owns one silhouette set, so seat 2's pad offers Ben's set first, by the
    silhouette names the game uses; Tofu Kingdom with 8 players: all seven coasters besides the
    Prince's are in play (rulebook: 7-8 players, all), offered on every reader by name."""
    srv, page = sim
    _new_game(srv, page, "tofu-god", ["Anna", "Ben", "Cindy"])
    view = srv.state()
    group = page.locator('[data-reader="seat-2"] optgroup').first
    assert group.get_attribute("label") == "Cards for this reader"
    offered = {o.get_attribute("value"): o.inner_text() for o in group.locator("option").all()}
    assert offered == {f"tofu-god/set-{view['sets']['2']}/{s}": name for s, name in view["labels"].items()}
    shared = page.locator('[data-reader="table"] optgroup').first.locator("option").all_inner_texts()
    assert "Ben's Elephant" in shared and "Cindy's Rat" in shared and len(shared) == 3 * len(view["labels"])

    _new_game(srv, page, "tofu-kingdom", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"])
    for reader in ("seat-3", "center"):
        names = page.locator(f'[data-reader="{reader}"] optgroup').first.locator("option").all_inner_texts()
        assert names == ["Princess", "Queen", "Maid", "Guard", "Chef", "Minister", "Spy"]


def test_reload_shows_the_readers_and_a_collision(sim):
    """A reload asks the server what lies on each reader; two cards on one reader are a collision,
    which the table never reads as a tap (the hub's rule) and the pad says so."""
    srv, page = sim
    _new_game(srv, page, "tofu-god", ["Anna", "Ben", "Cindy"])
    pad = page.locator('[data-reader="seat-2"]')
    pad.locator("select").select_option("tofu-god/set-2/elephant")
    pad.locator("button", has_text="Tap").click()
    page.wait_for_function(f"{STATUS} === 'On the reader: Elephant'")
    page.wait_for_function("fetch('/api/state').then(r => r.json()).then(v => v.last_events.join(' ').includes('Ben has guessed'))")
    page.reload()
    page.wait_for_function(f"{STATUS} === 'On the reader: Elephant'")

    journal = len(srv_journal(srv))
    pad = page.locator('[data-reader="seat-2"]')
    pad.locator("select").select_option("tofu-god/set-2/rat")
    pad.locator("button", has_text="Add beside").click()
    page.wait_for_function(f"{STATUS}.startsWith('\u26A0 Collision: Elephant and Rat')")
    page.wait_for_function("fetch('/api/health').then(r => r.json()).then(h => "
                           "h.readers.some((r) => r.name === 'seat-2' && r.status === 'collision'))")
    page.reload()
    page.wait_for_function(f"{STATUS}.startsWith('\u26A0 Collision: Elephant and Rat')")
    screenshot(page, "sim-collision")
    assert len(srv_journal(srv)) == journal, "a collision is never read as an input"
    pad.locator("button", has_text="Lift").click()
    page.wait_for_function(f"document.querySelector('[data-reader=\"seat-2\"] .on').textContent === ''")
