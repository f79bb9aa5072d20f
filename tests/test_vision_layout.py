"""Layouts: the shipped samples name slots as the Food for Thought engine does; files round-trip; bad files are refused clearly."""
import json

import pytest

from server.journal import Journal
from server.table import Table
from vision.layout import Layout, LayoutError, load_layouts, sample_layouts
from vision.tokens import COVERED, food_types


def _fft_table():
    table = Table(Journal(":memory:"))
    out = table.handle({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben", "Cy", "Di"], "seed": 1,
                                     "options": {"freezer": True}}})
    assert out.accepted, out.error
    return table


def test_every_sample_slot_is_a_slot_the_engine_accepts():
    """A board input naming every slot of every sample layout (empty) is accepted by the engine."""
    table = _fft_table()
    for layout in sample_layouts().values():
        out = table.handle({"board": {"board": layout.target, "slots": {s.id: None for s in layout.slots}}})
        assert out.accepted, (layout.board, out.error.as_dict() if out.error else None)


def test_sample_diet_board_has_every_body_space_of_the_standard_diet():
    from server.games.food_for_thought import data
    std = next(b for b in data.load(sample_only=True).records["boards"] if b["id"] == "standard")
    ids = {s.id for s in sample_layouts()["diet-1"].slots}
    for group in std["groups"]:
        for n in range(1, len(group["spaces"]) + 1):
            assert f"body.{group['id']}.{n}" in ids
    assert {f"kitchen.{c}.1" for c in range(1, std["kitchen"]["columns"] + 1)} <= ids


def test_token_types_are_the_games_food_ids_and_the_shop_holds_shopping_tokens():
    """A diet board holds food tokens and its player's action markers (rulebook: the unused markers are
    kept near the diet board, and Snack, Recipes & Cook and Activities & Work Out are spaces on it)."""
    from server.games.food_for_thought import data
    foods = [f["id"] for f in data.load(sample_only=True).records["foods"]]
    assert list(food_types()) == foods
    ls = sample_layouts()
    assert ls["diet-1"].token_types() == (*foods, "marker")
    assert ls["shop"].token_types() == (COVERED,)


def test_owner_foods_file_renames_the_token_types(tmp_path):
    from server.games.food_for_thought import data
    src = data.SAMPLE_DIR / "foods.jsonl"
    owner = tmp_path / data.OWNER_SUBDIR
    owner.mkdir()
    (owner / "foods.jsonl").write_text(src.read_text().replace('"id": "veg"', '"id": "vegetables"'))
    data.mark_complete("foods", owner=owner)
    assert "vegetables" in food_types(tmp_path) and "veg" not in food_types(tmp_path)


def test_layout_round_trips_through_its_file(tmp_path):
    layout = sample_layouts()["diet-2"]
    layout.save(tmp_path / "diet-2.json")
    again = Layout.load(tmp_path / "diet-2.json")
    assert again.to_dict() == layout.to_dict()
    assert [(s.id, s.x, s.y) for s in again.slots] == [(s.id, s.x, s.y) for s in layout.slots]


def test_region_slots_fill_the_grid_in_reading_order():
    layout = Layout.from_dict({"board": "t", "size_mm": [100, 100], "markers": {"1": {"x": 0, "y": 0, "size": 10},
                               "2": {"x": 90, "y": 0, "size": 10}, "3": {"x": 0, "y": 90, "size": 10}},
                               "regions": [{"name": "k", "ids": "k.{col}.{row}.{n}", "rows": 2, "cols": 2,
                                            "corners": [[20, 20], [60, 20], [60, 60], [20, 60]]}]})
    assert [(s.id, s.x, s.y) for s in layout.slots] == [
        ("k.1.1.1", 30, 30), ("k.2.1.2", 50, 30), ("k.1.2.3", 30, 50), ("k.2.2.4", 50, 50)]


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("markers"), "malformed"),
    (lambda d: d["regions"][0].update(rows=0), "rows and cols"),
    (lambda d: d["regions"][0].update(corners=[[0, 0], [1, 1]]), "4 corners"),
    (lambda d: d["regions"].append(dict(d["regions"][0])), "used twice"),
    (lambda d: d.update(markers={"1": {"x": 0, "y": 0, "size": 10}}), "at least 3"),
    (lambda d: d["regions"][0].update(holds=5), "'holds' must name a token set"),
    (lambda d: d["regions"][0].update(holds=[]), "'holds' must name a token set"),
])
def test_bad_layouts_are_refused_with_what_to_fix(change, words):
    data = sample_layouts()["diet-1"].to_dict()
    change(data)
    with pytest.raises(LayoutError, match=words):
        Layout.from_dict(data)


def test_a_region_holding_a_type_its_board_does_not_is_refused_with_what_to_fix(tmp_path):
    data = sample_layouts()["diet-1"].to_dict()
    data["regions"][0]["holds"] = ["marker", "covered"]
    layout = Layout.from_dict(data)
    with pytest.raises(LayoutError, match="region 'kitchen.1' holds covered, not among the board's tokens"):
        layout.slot_types()
    folder = tmp_path / "vision" / "layouts"
    folder.mkdir(parents=True)
    layout.save(folder / "diet-1.json")
    with pytest.raises(LayoutError, match="region 'kitchen.1' holds covered"):
        load_layouts(tmp_path)


def test_each_region_holds_what_the_rulebook_lets_lie_there():
    """Rulebook: a diet board's Snack, Recipes & Cook and Activities & Work Out spaces take the player's action
    markers, and the unused ones are kept beside the board; food goes in the kitchen, the trash, the body and on
    cards.  A body row is not only its own food: a Food Allergy tile laid over a group takes other foods ("Spaces on
    the food allergy tiles can only be filled with food tokens matching any one of the tokens displayed"), so every
    body row holds every food.  The main board's dice lie on the dice spaces, the players' markers on its action
    spaces, the bag's foods on Pizza To Go and the buffet."""
    from server.games.food_for_thought import data
    catalog = data.load(sample_only=True)
    foods = tuple(f["id"] for f in catalog.records["foods"])
    ls = sample_layouts()
    for n in range(1, 5):
        holds = ls[f"diet-{n}"].slot_types()
        for slot, held in holds.items():
            marker_space = slot.split(".")[0] in ("action", "markers")
            assert held == (("marker",) if marker_space else foods), slot
        for tile in catalog.records["allergies"]:
            assert set(tile["foods"]) <= set(holds[f"body.{tile['replaces']}.1"])
    main = ls["main"].slot_types()
    assert {main[s] for s in main if s.startswith("die.")} == {("die",)}
    assert {main[s] for s in main if s.startswith("action.")} == {tuple(f"marker{k}" for k in range(1, 5))}
    assert {main[s] for s in main if s.startswith(("pizza.", "buffet."))} == {foods}
    # a board without holds: every slot holds every type of the board
    assert set(ls["shop"].slot_types().values()) == {(COVERED,)}


def test_a_marker_on_two_boards_is_refused(tmp_path):
    data = sample_layouts()["diet-1"].to_dict()
    data["board"] = "diet-9"
    folder = tmp_path / "vision" / "layouts"
    folder.mkdir(parents=True)
    (folder / "diet-9.json").write_text(json.dumps(data))
    with pytest.raises(LayoutError, match="own markers"):
        load_layouts(tmp_path)


def test_owner_layout_replaces_the_sample_of_the_same_board(tmp_path):
    layout = sample_layouts()["shop"]
    data = layout.to_dict()
    data["regions"][0]["rows"] = 5
    Layout.from_dict(data).save(tmp_path / "vision" / "layouts" / "shop.json")
    assert len(load_layouts(tmp_path)["shop"].slots) == 30


def test_sample_markers_keep_their_white_border_on_the_board_and_clear_of_tokens():
    every = sample_layouts()
    assert {b: l.marker_problems() for b, l in every.items() if l.marker_problems()} == {}


def test_a_marker_at_the_edge_or_beside_a_space_is_reported_with_what_to_move():
    data = sample_layouts()["diet-1"].to_dict()
    data["markers"]["10"] = {"x": 2, "y": 2, "size": 36}          # border 6 mm: off the board
    data["markers"]["11"] = {"x": 289, "y": 40, "size": 36}       # over the kitchen's spaces
    problems = Layout.from_dict(data).marker_problems()
    assert any("marker 10" in p and "leaves the board" in p and "6 mm" in p for p in problems)
    assert any("marker 11" in p and "kitchen.4" in p for p in problems)


def test_no_sample_token_place_lets_a_shadow_reach_the_board_edge():
    """The motion detector takes anything changed at a board's edge for a hand (vision/motion.py):
    a wooden marker's shadow on a place 5 mm from the edge kept a diet board busy for good."""
    every = sample_layouts()
    assert {b: l.edge_problems() for b, l in every.items() if l.edge_problems()} == {}


def test_a_token_place_at_the_edge_is_reported_with_what_to_move():
    data = sample_layouts()["diet-1"].to_dict()
    data["size_mm"] = [data["size_mm"][0] - 8, data["size_mm"][1]]   # the activity column now at the edge
    problems = Layout.from_dict(data).edge_problems()
    assert len(problems) == 1 and "onactivity.1" in problems[0] and "move it inward" in problems[0]


def test_sample_diet_boards_hold_what_played_games_reach():
    """Rulebook, "The Kitchen & Trash" and clean-up step 1: every round each kitchen space's tokens move
    one space right and the last space's go to the trash, where they stay to the end.  Played games
    reach 9-10 tokens in one kitchen column and 20+ in the trash (issue 15): a sample diet board has
    10 places in every kitchen column and 24 in the trash."""
    from server.games.food_for_thought import data
    std = next(b for b in data.load(sample_only=True).records["boards"] if b["id"] == "standard")
    for n in range(1, 5):
        ids = [s.id for s in sample_layouts()[f"diet-{n}"].slots]
        for col in range(1, std["kitchen"]["columns"] + 1):
            assert sum(i.startswith(f"kitchen.{col}.") for i in ids) == 10
        assert sum(i.startswith("trash.") for i in ids) == 24


def test_a_full_kitchen_column_and_trash_are_read_in_the_engines_order():
    """A camera reading of 10 tokens in kitchen column 2 and 24 in the trash, accepted by the host on a
    watched board, becomes the player's record: column 2 holds the 10, the trash the 24."""
    table = _fft_table()
    layout = sample_layouts()["diet-1"]
    full = {s.id: ("water" if s.id.startswith(("kitchen.2.", "trash.")) else None) for s in layout.slots}
    for inp in ({"host": {"action": "watch_board", "board": "diet-1"}}, {"board": {"board": "diet-1", "slots": full}},
                {"host": {"action": "accept_board", "board": "diet-1"}}):
        out = table.handle(inp)
        assert out.accepted, out.error
    ann = table.state["seats"]["1"]
    assert ann["kitchen"][1] == ["water"] * 10 and ann["trash"] == ["water"] * 24
    assert [len(col) for i, col in enumerate(ann["kitchen"]) if i != 1] == [0] * (len(ann["kitchen"]) - 1)


def test_sample_diet_boards_have_the_rulebooks_spaces_where_the_rulebook_puts_them():
    """Rulebook, the diet board's actions: Recipes & Cook is on the left side of the diet board and
    Activities & Work Out on the right side (each takes any number of markers: room for a round's
    four), Snack once a round (room for a second, so the table sees the wrong one); taken recipes are
    placed to the left of the diet board and activities to its right, and the unused markers are kept
    near it.  The sample layouts hold them all, the cards beyond the printed board (outside its
    markers), and any five of the six markers or the four corners still place the whole layout."""
    import itertools

    import cv2
    import numpy as np

    from vision.localize import WHOLE_FIT_SPREAD
    for n in range(1, 5):
        layout = sample_layouts()[f"diet-{n}"]
        xs = {r: [s.x for s in layout.slots if s.region == r] for r in
              ("action.cook", "action.workout", "action.snack", "onrecipe", "onactivity", "markers", "kitchen.1",
               "kitchen.4")}
        left = min(x for x, _, _ in layout.markers.values())
        right = max(x + size for x, _, size in layout.markers.values())
        centre = (left + right) / 2
        assert [len(xs[r]) for r in ("action.cook", "action.workout", "action.snack", "markers")] == [4, 4, 2, 4]
        assert max(xs["action.cook"]) < min(xs["kitchen.1"]) and min(xs["action.workout"]) > max(xs["kitchen.4"])
        assert min(xs["action.snack"]) > centre
        assert max(xs["onrecipe"] + xs["markers"]) < left and min(xs["onactivity"]) > right
        w, h = layout.size_mm
        for five in itertools.combinations(layout.markers, 5):
            hull = cv2.convexHull(np.concatenate([layout.marker_corners(m) for m in five]))
            assert cv2.contourArea(hull) >= WHOLE_FIT_SPREAD * w * h, five
        assert layout.marker_problems() == [] and len(layout.markers) == 6


def test_the_camera_self_test_lays_each_token_where_it_lies_in_play():
    """The self-test on /calibrate (docs/camera.md, step 4) measures the camera as a game uses it: a plan puts a
    diet board's markers only on its action and marker spaces and foods elsewhere; more markers than those 14
    spaces is refused with what to do, and nothing is planned."""
    from vision.selftest import SelfTestError, make_plan
    layout = sample_layouts()["diet-1"]
    holds = layout.slot_types()
    types = list(layout.token_types())
    plan = make_plan(layout, types, count=60, seed=3)
    assert len(plan) == 60 and {s: k for s, k in plan.items() if k not in holds[s]} == {}
    assert sum(k == "marker" for k in plan.values()) == 5 and set(plan.values()) == set(types)
    with pytest.raises(SelfTestError, match="fewer spaces that hold marker than the plan's 15"):
        make_plan(layout, ["marker"], count=15, seed=3)
