"""The host's diet board form in a real headless Chromium (issue 15, "owner entry that a person can
finish": diet boards entered with a form, not raw JSON). The owner enters a whole board (groups,
their foods, the VP of each space, the kitchen), is told in words what is wrong while typing, a bad
board is refused with nothing written, and the good one is saved as the schema's record."""
import json

import pytest

from server.games.food_for_thought import data
from tests.support.browser import browser, screenshot
from tests.support.server import run_server

pytestmark = pytest.mark.browser


def _sample_standard() -> dict:
    """The sample standard board, as the owner would copy it from a real board (another id and name)."""
    lines = [json.loads(l) for l in (data.SAMPLE_DIR / "boards.jsonl").read_text().splitlines()
             if l.strip() and not l.startswith("#")]
    board = next(b for b in lines if b["kind"] == "standard")
    return {**board, "id": "real-standard", "name": "Real Standard"}


def _enter(page, board: dict) -> None:
    """Type ``board`` into the form as a person would: field by field, group by group."""
    page.fill("input[name=board-name]", board["name"])
    page.fill("input[name=board-id]", board["id"])
    page.select_option("select[name=board-kind]", board["kind"])
    for i, group in enumerate(board["groups"]):
        if i:
            page.click("text=Add a group")
        page.fill(f"input[name=board-g{i}-name]", group["name"])
        page.fill(f"input[name=board-g{i}-id]", group["id"])
        for food in group["foods"]:
            page.check(f"input[name=board-g{i}-food-{food}]")
        page.fill(f"input[name=board-g{i}-zero]", str(group["zero_vp"]))
        spaces = page.locator(f"input[name^=board-g{i}-s]")
        box = page.locator("fieldset", has_text=f"Group {i + 1}")
        while spaces.count() != len(group["spaces"]):
            box.locator("text=+ space" if spaces.count() < len(group["spaces"]) else "text=− space").click()
        for k, vp in enumerate(group["spaces"]):
            page.fill(f"input[name=board-g{i}-s{k}]", str(vp))
    page.fill("input[name=board-columns]", str(board["kitchen"]["columns"]))
    for food, column in board["kitchen"]["entry"].items():
        page.select_option(f"select[name=board-entry-{food}]", str(column))


@pytest.mark.timeout(240)
def test_a_whole_diet_board_is_entered_checked_in_words_and_saved_as_the_schema_record(tmp_path):
    board = _sample_standard()
    saved = tmp_path / "data" / "food-for-thought" / "boards.jsonl"
    with run_server(tmp_path / "data") as srv, browser() as b:
        assert srv.post({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"]}}).ok
        page = b.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{srv.url}/host?token={srv.host_token}")
        page.click("#owner summary")
        page.click("text=Open the card entry form")
        page.select_option("select[name=kind]", "boards")
        page.wait_for_selector("input[name=board-name]")
        # the first group only: the form says, in words, which foods still have no group
        page.fill("input[name=board-g0-name]", "Fats & Oils")
        assert page.input_value("input[name=board-g0-id]") == "fats-oils"       # suggested from the name
        page.check("input[name=board-g0-food-fats]")
        page.wait_for_selector(".ftb .problems li:has-text('No group takes alcohol, dairy')")
        # the table moves on while the owner types (a score adjusted): the form keeps the text and the caret
        page.click("input[name=board-name]")
        page.keyboard.type("Real Stan")
        seq = srv.post({"host": {"action": "adjust", "seat": 1, "vp": 1, "reason": "test"}}).json()["seq"]
        page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {seq}")
        page.keyboard.type("dard")
        assert page.input_value("input[name=board-name]") == "Real Standard"
        assert page.input_value("input[name=board-g0-name]") == "Fats & Oils"

        _enter(page, board)
        page.wait_for_selector("text=Ready to save: the board follows the rules of a diet board.")
        # the preview draws each group's spaces with their VP (the standard Water row: none -4, then 1 2 4 6 6 3)
        water = page.locator(".ftb-group", has_text="Water").locator(".space").all_inner_texts()
        assert water == ["-4", "1", "2", "4", "6", "6", "3"]

        # water sent to no kitchen column: said in words while typing, refused on save, nothing written
        page.select_option("select[name=board-entry-water]", "")
        said = "The kitchen has no column for water"
        page.wait_for_selector(f".ftb .problems li:text-is('{said}')")
        page.click("text=Save the board")
        page.wait_for_selector(f".ftb .problems li:text-is('{said}')")
        assert not saved.exists()
        # and a food of another group is not offered: Dairy's foods leave out the Fats & Oils group's fats
        assert page.locator("input[name=board-g1-food-fats]").count() == 0
        assert "In other groups: Alcohol, Fats & Oils" in page.locator("fieldset", has_text="Group 2").inner_text()

        page.select_option("select[name=board-entry-water]", "1")
        page.wait_for_selector("text=Ready to save")
        screenshot(page, "food-for-thought-board-form-1280x800")
        page.click("text=Save the board")
        page.wait_for_selector('text=Saved "Real Standard" into boards.jsonl.')
        assert [json.loads(l) for l in saved.read_text().splitlines()] == [board]
        page.wait_for_selector("option:has-text('boards (sample; 1 of yours entered)')", state="attached")
        assert page.input_value("input[name=board-name]") == ""               # a fresh form for the next board

        page.set_viewport_size({"width": 390, "height": 844})
        screenshot(page, "food-for-thought-board-form-390x844")
