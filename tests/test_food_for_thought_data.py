"""Food for Thought data: the schema, the sample set, the owner's folder, `tofu-table data check`."""
import json

import pytest

from server.cli import main as cli_main
from server.games.food_for_thought import data
from tests.support.food_for_thought import new_table, ok
from server.journal import Journal
from server.table import Table


def test_sample_data_follows_the_schema_and_is_marked_sample():
    cat = data.load(sample_only=True)
    assert cat.problems == []
    assert cat.sample_kinds() == list(data.KINDS)
    for kind in data.KINDS:
        first = (data.SAMPLE_DIR / data.SCHEMA[kind]["file"]).read_text().splitlines()[0]
        assert first.startswith("# SAMPLE DATA"), f"{kind} file does not say it is sample data"


def test_rulebook_facts_in_the_sample_data():
    """rulebook: 11 food types, 10 of each in the bag, 6 assistants (Life Coach out with 2, Restaurateur solo)."""
    cat = data.load(sample_only=True)
    assert len(cat.records["foods"]) == 11
    assert cat.records["main_board"][0]["bag_per_food"] == 10
    assistants = {a["id"]: a for a in cat.records["assistants"]}
    assert len(assistants) == 6
    assert assistants["life-coach"]["left_out_with"] == [2]
    assert assistants["restaurateur"]["left_out_with"] == [1]
    assert sorted(a["name"] for a in cat.records["allergies"]) == [
        "Dairy Sensitivity", "Gluten Free", "Nut Allergy", "Seafood Allergy"]


def test_the_table_view_says_sample_data():
    view = new_table(["Ann", "Ben"]).view("table")
    assert view["data_label"] == "SAMPLE DATA"
    assert view["sample_data"] is True
    assert "recipes" in view["sample_kinds"]


def _write(folder, name, lines):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("".join(json.dumps(l) if not isinstance(l, str) else l + "\n" for l in lines)
                               .replace("}{", "}\n{") + "\n")


def test_owner_file_replaces_the_sample_file_as_a_whole(tmp_path):
    sample = data.load(sample_only=True)
    recipe = {"id": "real-1", "name": "Real Recipe", "needs": ["dairy", "grain"], "vp": 3, "penalty": 1, "module": "base", "solo": True}
    _write(tmp_path, "recipes.jsonl", [recipe])
    data.mark_complete("recipes", owner=tmp_path)
    cat = data.load(tmp_path)
    assert cat.problems == []
    assert [r["id"] for r in cat.records["recipes"]] == ["real-1"]
    assert cat.sources["recipes"] == "owner"
    assert "recipes" not in cat.sample_kinds() and "activities" in cat.sample_kinds()
    assert cat.records["activities"] == sample.records["activities"]
    assert any("1 of the published game's 72" in n for n in cat.notes)


def test_a_bad_line_is_named_by_file_and_line(tmp_path):
    (tmp_path / "recipes.jsonl").write_text(
        "# my recipes\n"
        '{"id": "r1", "name": "Fine", "needs": ["dairy"], "vp": 1, "penalty": 1, "module": "base", "solo": true}\n'
        '{"id": "r2", "name": "Typo", "needs": ["diary"], "vp": 1, "penalty": 1, "module": "base", "solo": true}\n'
        "{not json\n"
        '{"id": "r1", "name": "Again", "needs": ["water"], "vp": 1, "penalty": 1, "module": "base", "solo": true}\n'
        '{"id": "r4", "name": "No vp", "needs": ["water"], "penalty": 1, "module": "base", "solo": true, "colour": "red"}\n')
    problems = data.load(tmp_path).problems
    path = tmp_path / "recipes.jsonl"
    assert any(p.startswith(f"{path} line 3:") and "'diary' is not a food id" in p for p in problems)
    assert any(p.startswith(f"{path} line 4:") and "not valid JSON" in p for p in problems)
    assert any(p.startswith(f"{path} line 5:") and "already appears on line 2" in p for p in problems)
    assert any(p.startswith(f"{path} line 6:") and "missing field 'vp'" in p for p in problems)
    assert any(p.startswith(f"{path} line 6:") and "unknown field 'colour'" in p for p in problems)
    assert len(problems) == 5


def test_board_schema_checks_groups_and_kitchen(tmp_path):
    good = json.loads((data.SAMPLE_DIR / "boards.jsonl").read_text().splitlines()[2])
    bad = json.loads(json.dumps(good))
    bad["groups"][1]["foods"].append("fats")          # fats now in two groups
    del bad["kitchen"]["entry"]["water"]               # water has no kitchen column
    bad["groups"][0]["spaces"] = []
    bad["groups"].append({"id": "spare", "name": "Spare", "foods": [], "zero_vp": 0, "spaces": [1]})
    _write(tmp_path, "boards.jsonl", [bad])
    problems = data.load(tmp_path).problems
    text = "\n".join(problems)
    assert "line 1" in text
    assert "'fats' is already in group 'fats'" in text
    assert "kitchen.entry has no column for water" in text
    assert "groups[0].spaces must be a non-empty list" in text
    assert f"groups[{len(bad['groups']) - 1}].foods must list at least one food" in text


def test_data_check_command(tmp_path, capsys):
    assert cli_main(["data", "check", str(tmp_path / "none")]) == 0
    out = capsys.readouterr().out
    assert "SAMPLE (invented)" in out and "still sample data: foods" in out
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "goals.jsonl").write_text('{"id": "g1", "name": "G", "measure": "vibes", "first": 5, "second": 2}\n')
    assert cli_main(["data", "check", str(tmp_path / "own")]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'own' / 'goals.jsonl'} line 1: field 'measure' 'vibes' is not a measure name" in out
    assert "1 problem(s)" in out
    (tmp_path / "table" / "food-for-thought").mkdir(parents=True)
    (tmp_path / "table" / "food-for-thought" / "goals.jsonl").write_text(
        '{"id": "g1", "name": "G", "measure": "recipes_completed", "first": 5, "second": 2}\n')
    assert cli_main(["data", "complete", "goals", "--data", str(tmp_path / "table")]) == 0
    assert "goals complete: new games use your file" in capsys.readouterr().out
    assert cli_main(["data", "check", "--data", str(tmp_path / "table")]) == 0
    out = capsys.readouterr().out
    assert "goals.jsonl            1 entries  owner" in out


def test_append_record_adds_one_card_and_refuses_bad_ones(tmp_path):
    card = {"id": "real-a1", "name": "Real Badminton", "icon": "racquet", "needs": ["fats", "grain"],
            "vp": 2, "penalty": 1}
    path = data.append_record("activities", card, tmp_path)
    assert path == tmp_path / "activities.jsonl"
    assert data.load(tmp_path).sources["activities"] == "sample"       # one card never replaces the deck
    data.mark_complete("activities", owner=tmp_path)
    assert data.load(tmp_path).records["activities"] == [card]
    with pytest.raises(data.DataError, match="already an entry with id 'real-a1'"):
        data.append_record("activities", card, tmp_path)
    with pytest.raises(data.DataError, match="'wild3' is not a food id"):
        data.append_record("activities", {**card, "id": "x", "needs": ["wild3"]}, tmp_path)
    assert len(data.load(tmp_path).records["activities"]) == 1


def test_a_board_is_checked_as_typed_without_writing_and_refused_alike_when_saved(tmp_path):
    """The diet board form checks the board as the owner types (record_problems) and the save refuses
    the same problems; neither writes a bad board."""
    board = json.loads((data.SAMPLE_DIR / "boards.jsonl").read_text().splitlines()[2])
    board = {**board, "id": "real-standard"}
    assert data.record_problems("boards", board, tmp_path) == []
    assert not (tmp_path / "boards.jsonl").exists()
    board["groups"][2]["foods"].append("dairy")      # dairy in two groups
    said = data.record_problems("boards", board, tmp_path)
    assert said == ["new board: groups[2].foods: 'dairy' is already in group 'dairy'; a food belongs to one group"]
    with pytest.raises(data.DataError) as refused:
        data.append_record("boards", board, tmp_path)
    assert refused.value.problems == said and not (tmp_path / "boards.jsonl").exists()
    board["groups"][2]["foods"].remove("dairy")
    data.append_record("boards", board, tmp_path)
    assert data.record_problems("boards", board, tmp_path) == [
        f"{tmp_path / 'boards.jsonl'}: there is already an entry with id 'real-standard'"]


def test_a_game_refuses_to_start_on_bad_owner_data(tmp_path):
    (tmp_path / "food-for-thought").mkdir()
    (tmp_path / "food-for-thought" / "foods.jsonl").write_text('{"id": "Bad Id", "name": "x"}\n')
    data.configure(tmp_path)
    try:
        table = Table(Journal(":memory:"))
        outcome = table.handle({"new_game": {"game": "food-for-thought", "players": ["A", "B"]}})
        assert not outcome.accepted and outcome.error.code == "bad_data"
        assert "tofu-table data check" in outcome.error.message
        assert table.state is None
        # the sample-only option still plays
        ok(table, {"new_game": {"game": "food-for-thought", "players": ["A", "B"], "options": {"data": "sample"}}})
    finally:
        data.configure(None)


def test_owner_data_is_used_and_not_marked_sample(tmp_path):
    owner = tmp_path / "food-for-thought"
    for kind in data.KINDS:
        name = data.SCHEMA[kind]["file"]
        owner.mkdir(exist_ok=True)
        (owner / name).write_text((data.SAMPLE_DIR / name).read_text())
        data.mark_complete(kind, owner=owner)
    data.configure(tmp_path)
    try:
        table = Table(Journal(":memory:"))
        ok(table, {"new_game": {"game": "food-for-thought", "players": ["A", "B"]}})
        view = table.view("table")
        assert view["data_label"] == "" and view["sample_kinds"] == []
    finally:
        data.configure(None)


def test_append_record_keeps_one_main_board_line_and_one_entry_per_shopping_space(tmp_path):
    board = {"pizza_fixed": "fats", "pizza_spaces": 6, "buffet_rows": 2, "buffet_row_spaces": 4, "bag_per_food": 10}
    data.append_record("main_board", board, tmp_path)
    with pytest.raises(data.DataError, match="already entered"):
        data.append_record("main_board", board, tmp_path)
    data.append_record("shopping", {"row": 1, "col": 1, "food": "water"}, tmp_path)
    with pytest.raises(data.DataError, match="space 1.1 is already entered"):
        data.append_record("shopping", {"row": 1, "col": 1, "food": "dairy"}, tmp_path)
    data.append_record("shopping", {"row": 2, "col": 2, "food": "dairy"}, tmp_path)
    with pytest.raises(data.DataError, match="2 rows x 2 columns need 4 lines, found 2"):   # holes: no game
        data.mark_complete("shopping", owner=tmp_path)
    data.mark_complete("main_board", owner=tmp_path)
    cat = data.load(tmp_path)
    assert cat.records["main_board"] == [board]
    assert any("2 rows x 2 columns need 4 lines, found 2" in p for p in cat.problems)


def test_sample_diet_boards_share_one_layout():
    """The sample camera layouts (vision/data/layouts/diet-N.json) are drawn for one board shape, so
    every sample diet board has the same groups with the same number of spaces: a snapshot of a
    solo Cleanse board uses the same slot ids as a Standard one."""
    boards = data.load(sample_only=True).records["boards"]
    shapes = {b["id"]: [(g["id"], len(g["spaces"])) for g in b["groups"]] for b in boards}
    assert len({tuple(s) for s in shapes.values()}) == 1, shapes
    assert len({b["kitchen"]["columns"] for b in boards}) == 1


def test_absurdly_many_cards_are_refused_at_load(tmp_path):
    """The published game has 48 activities; a file of 97 (more than twice that) is a mistake and is
    refused with what to do, so end-of-game scoring never searches an absurd hand."""
    card = {"icon": "racquet", "needs": ["fats"], "vp": 1, "penalty": 1}
    _write(tmp_path, "activities.jsonl", [{**card, "id": f"a{i}", "name": f"A{i}"} for i in range(96)])
    assert data.load(tmp_path).problems == []
    _write(tmp_path, "activities.jsonl", [{**card, "id": f"a{i}", "name": f"A{i}"} for i in range(97)])
    problems = data.load(tmp_path).problems
    assert problems == [f"{tmp_path / 'activities.jsonl'}: 97 activities is more than 96 (twice the published "
                        "game's 48); remove the extra lines"]


def test_data_check_refuses_files_without_the_rule_bearing_fields(tmp_path, capsys):
    """rulebook p.15: the Life Coach is left out with 2 players, the Restaurateur solo, and asterisk
    recipes solo; the Freezer and Potluck modules shuffle their own recipes in, and the Freezer takes
    only freezable foods.  Files that leave those fields out would silently play with the wrong cards
    or foods, so `tofu-table data check` refuses every such line and says what to add."""
    own = tmp_path / "own"
    foods = [json.loads(line) for line in (data.SAMPLE_DIR / "foods.jsonl").read_text().splitlines()
             if line.startswith("{")]
    del foods[0]["freezable"]
    _write(own, "foods.jsonl", foods)
    _write(own, "recipes.jsonl", [{"id": "r1", "name": "Soup", "needs": ["water"], "vp": 1, "penalty": 1}])
    _write(own, "assistants.jsonl", [{"id": "life-coach", "name": "Life Coach", "helps": "balance",
                                      "options": ["a", "b"]}])
    assert cli_main(["data", "check", str(own)]) == 1
    out = capsys.readouterr().out
    assert (f"{own / 'foods.jsonl'} line 1: missing field 'freezable' (add \"freezable\": true to a food the "
            "Freezer module lets you freeze") in out
    assert (f"{own / 'recipes.jsonl'} line 1: missing field 'module' (add \"module\": \"base\" to a recipe of "
            "the base deck") in out
    assert (f"{own / 'recipes.jsonl'} line 1: missing field 'solo' (add \"solo\": false to a recipe the rulebook "
            "marks with an asterisk") in out
    assert (f"{own / 'assistants.jsonl'} line 1: missing field 'left_out_with' (add \"left_out_with\": the player "
            "counts the card is left out with: [2] for the Life Coach, [1] for the Restaurateur") in out
    assert "4 problem(s)" in out
    with pytest.raises(data.DataError, match="missing field 'solo'"):      # the entry form refuses it too
        data.append_record("recipes", {"id": "r2", "name": "Stew", "needs": ["meat"], "vp": 1, "penalty": 1}, own)


def test_a_kind_stays_sample_until_the_owner_marks_it_complete(tmp_path, capsys):
    """Entering the first recipe must not replace a whole deck with one card: new games keep the
    sample recipes (and say so) until the owner marks recipes complete; unmarking brings them back."""
    sample_ids = [r["id"] for r in data.load(sample_only=True).records["recipes"]]
    card = {"id": "real-1", "name": "Real Recipe", "needs": ["dairy"], "vp": 3, "penalty": 1, "module": "base", "solo": True}
    data.append_record("recipes", card, tmp_path)
    cat = data.load(tmp_path)
    assert [r["id"] for r in cat.records["recipes"]] == sample_ids and "recipes" in cat.sample_kinds()
    assert any("recipes.jsonl: 1 entered, not marked complete" in n and "tofu-table data complete recipes" in n
               for n in cat.notes)
    assert cli_main(["data", "complete", "activities", str(tmp_path)]) == 1        # nothing entered yet
    assert "no activities entered yet" in capsys.readouterr().out
    data.mark_complete("recipes", owner=tmp_path)
    assert [r["id"] for r in data.load(tmp_path).records["recipes"]] == ["real-1"]
    data.mark_complete("recipes", False, owner=tmp_path)
    assert [r["id"] for r in data.load(tmp_path).records["recipes"]] == sample_ids
    (tmp_path / data.COMPLETE_FILE).write_text("recipes")
    assert any("complete.json: must be" in p for p in data.load(tmp_path).problems)


def test_all_owner_data_goes_out_and_back_in_one_file(tmp_path, capsys):
    """One file carries every kind the owner entered and which are complete; importing it into a
    fresh folder gives the same data, and a broken export is refused whole, writing nothing."""
    home, other = tmp_path / "home", tmp_path / "other"
    recipe = {"id": "real-1", "name": "Real Recipe", "needs": ["dairy"], "vp": 3, "penalty": 1, "module": "base", "solo": True}
    data.append_record("recipes", recipe, home)
    data.mark_complete("recipes", owner=home)
    data.append_record("activities", {"id": "real-a1", "name": "Rowing", "icon": "water", "needs": ["water"],
                                      "vp": 2, "penalty": 1}, home)
    bundle = tmp_path / "my-cards.json"
    assert cli_main(["data", "export", str(bundle), str(home)]) == 0
    assert "Exported 2 file(s)" in capsys.readouterr().out
    assert cli_main(["data", "import", str(bundle), str(other)]) == 0
    again = data.load(other)
    assert again.records == data.load(home).records and again.sources == data.load(home).sources
    assert [r["id"] for r in again.records["recipes"]] == ["real-1"] and again.sources["activities"] == "sample"
    assert any("activities.jsonl: 1 entered, not marked complete" in n for n in again.notes)
    broken = json.loads(bundle.read_text())
    broken["files"]["recipes.jsonl"] += '{"id": "bad", "name": "Bad", "needs": ["oats"], "vp": 1, "penalty": 1}\n'
    bundle.write_text(json.dumps(broken))
    before = (other / "recipes.jsonl").read_text()
    assert cli_main(["data", "import", str(bundle), str(other)]) == 1
    out = capsys.readouterr().out
    assert "in the export: recipes.jsonl line 2: field 'needs'[0] 'oats' is not a food id" in out and "Nothing was imported" in out
    assert (other / "recipes.jsonl").read_text() == before
    bundle.write_text('{"files": {}}')
    assert cli_main(["data", "import", str(bundle), str(other)]) == 1
    assert "not a Food for Thought data export" in capsys.readouterr().out
