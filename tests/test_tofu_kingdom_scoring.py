"""Tofu Kingdom scoring, coasters in play and game length, checked against the rulebook.

The expectations here are written from the rulebook and NOTES.md, not from the
engine: which coasters are in play per player count, which symbol each
flipped coaster reveals (the data file's defaults) and which roles take a
soybean for each symbol.
"""
import json

import pytest

from server.games import tofu_kingdom
from tests.support.tofu_kingdom import (ADVANCE, PLAYERS, accept, flip_inputs, new_game, refuse,
                                        table, tap)

#: Rulebook "Preparar": the character coasters in play by player count.
RULEBOOK_IN_PLAY = {
    3: {"princess", "queen", "maid"},
    4: {"princess", "queen", "maid", "guard"},
    5: {"princess", "queen", "maid", "guard", "chef"},
    6: {"princess", "queen", "maid", "guard", "chef", "minister"},
    7: {"princess", "queen", "maid", "guard", "chef", "minister", "spy"},
    8: {"princess", "queen", "maid", "guard", "chef", "minister", "spy"},
}
#: Rulebook "Premiación de soja": who takes a soybean for each winning symbol.
RULEBOOK_AWARDS = {
    "heart": {"prince", "princess", "chef"},
    "mask": {"maid", "spy"},
    "crown": {"queen", "minister", "guard"},
}
#: NOTES.md default for the upper-left symbol: Princess heart, Queen crown, every other mask.
DEFAULT_WINNING_SYMBOL = {"princess": "heart", "queen": "crown"}


def _deal(count: int, prince: int, role: str, in_centre: bool) -> dict:
    """A deal of the coasters in play with ``role`` in the centre, or at the Prince's left."""
    others = [(prince + i - 1) % count + 1 for i in range(1, count)]
    places = [f"seat-{s}" for s in others] + (["center"] if count < 8 else [])
    roles = sorted(RULEBOOK_IN_PLAY[count] - {role})
    if in_centre:
        return dict(zip(places, roles + [role]))
    return dict(zip(places, [role] + roles))


def _flip_cases():
    for count in range(3, 9):
        for role in sorted(RULEBOOK_IN_PLAY[count]):
            yield count, role, False
            if count < 8:
                yield count, role, True


@pytest.mark.parametrize("readers", ["seats", "table"])
@pytest.mark.parametrize("count,role,in_centre", list(_flip_cases()))
def test_every_flip_scores_as_the_rulebook_says(count, role, in_centre, readers):
    """rulebook: the flipped coaster's upper-left symbol gives a soybean to every player whose
    lower-right symbol matches (heart: Prince, Princess, Chef; mask: Maid, Spy; crown: Queen,
    Minister, Guard); the centre coaster belongs to nobody."""
    prince = count % 3 + 1            # not always seat 1
    t = table()
    accept(t, new_game(count, first_seat=prince, readers=readers))
    deal = _deal(count, prince, role, in_centre)
    order = t.view("table")["positions"]
    for position in order:
        reader = position if readers == "seats" else "table"
        accept(t, tap(reader, deal[position]))
    flipped = "center" if in_centre else order[0]
    for inp in flip_inputs(deal, flipped, readers):
        accept(t, inp)

    symbol = DEFAULT_WINNING_SYMBOL.get(role, "mask")
    holders = {int(p[5:]): r for p, r in deal.items() if p != "center"} | {prince: "prince"}
    expected = {seat for seat, r in holders.items() if r in RULEBOOK_AWARDS[symbol]}
    scores = {p["seat"]: p["score"] for p in t.view("table")["players"]}
    assert {s for s, v in scores.items() if v == 1} == expected
    assert set(scores.values()) <= {0, 1}
    flip = t.view("table")["flip"]
    assert (flip["role"], flip["symbol"], set(flip["scorers"])) == (role, symbol, expected)


@pytest.mark.parametrize("count", range(3, 9))
def test_coasters_in_play_follow_the_player_count_table(count):
    """rulebook: 3 players play Princess, Queen, Maid; each more player adds Guard, Chef,
    Minister, then Spy; with 8 players every coaster is dealt and none lies in the centre."""
    assert set(tofu_kingdom.coasters_in_play(count)) == RULEBOOK_IN_PLAY[count]
    t = table()
    accept(t, new_game(count))
    view = t.view("table")
    assert view["has_center"] == (count < 8)
    assert len(view["positions"]) == len(RULEBOOK_IN_PLAY[count])
    assert ("center" in view["positions"]) == (count < 8)


@pytest.mark.parametrize("count,times", [(3, 3), (4, 3), (5, 2), (6, 2), (7, 1), (8, 1)])
def test_game_length_everyone_is_prince_the_rulebook_number_of_times(count, times):
    """rulebook "Fin del juego": 3-4 players are each Prince 3 times, 5-6 twice, 7-8 once;
    the Prince passes to the left (the next seat) after each round."""
    t = table()
    accept(t, new_game(count, first_seat=2))
    princes = []
    while not t.state["over"]:
        view = t.view("table")
        princes.append(view["prince"]["seat"])
        roles = sorted(RULEBOOK_IN_PLAY[count])
        deal = dict(zip(view["positions"], roles))
        for position, role in deal.items():
            accept(t, tap(position, role))
        for inp in flip_inputs(deal, view["positions"][0], "seats")[:2]:
            accept(t, inp)
        if not t.state["over"]:
            accept(t, ADVANCE)
    assert len(princes) == count * times
    assert all(princes.count(seat) == times for seat in range(1, count + 1))
    assert princes[:count] == [(1 + i) % count + 1 for i in range(count)]
    refuse(t, ADVANCE, "game_over")


def test_ties_share_the_victory():
    """rulebook: most soybeans wins; when tied, the tied players share the victory."""
    t = table()
    accept(t, new_game(3, times_prince=1))
    rounds = [  # (deal, flipped): Ann and Ben flip the Princess, Cat flips the Queen (Ann's)
        ({"seat-2": "princess", "seat-3": "queen", "center": "maid"}, "seat-2"),
        ({"seat-3": "princess", "seat-1": "maid", "center": "queen"}, "seat-3"),
        ({"seat-1": "queen", "seat-2": "maid", "center": "princess"}, "seat-1"),
    ]
    for deal, flipped in rounds:
        for position, role in deal.items():
            accept(t, tap(position, role))
        for inp in flip_inputs(deal, flipped, "seats"):
            accept(t, inp)
        if not t.state["over"]:
            accept(t, ADVANCE)
    view = t.view("table")
    assert [p["score"] for p in view["players"]] == [2, 2, 1]
    assert view["over"] and view["winners"] == ["Ann", "Ben"]
    assert "share the victory" in view["prompt"]


# ----- the coaster data file ----------------------------------------------------------

def test_shipped_data_file_matches_the_rules_notes():
    """NOTES.md: truth (upper right), team (lower right) and the default winning symbols."""
    coasters = tofu_kingdom.load_coasters()
    truth = {r: c["truth"] for r, c in coasters.items() if r != "prince"}
    assert truth == {"princess": "truth", "chef": "truth", "queen": "lie", "minister": "lie",
                     "guard": "lie", "maid": "choose", "spy": "choose"}
    teams = {}
    for role, c in coasters.items():
        teams.setdefault(c["team"], set()).add(role)
    assert teams == RULEBOOK_AWARDS
    assert {r: c["winning_symbol"] for r, c in coasters.items() if r != "prince"} == {
        r: DEFAULT_WINNING_SYMBOL.get(r, "mask") for r in truth}


def _write(tmp_path, change):
    data = json.loads(tofu_kingdom.DATA_FILE.read_text(encoding="utf-8"))
    change(data["coasters"])
    path = tmp_path / "coasters.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change,words", [
    (lambda c: c["queen"].update(team="crwn"), ["'queen'", "team 'crwn'", "heart, crown, mask"]),
    (lambda c: c["chef"].update(winning_symbol="star"), ["'chef'", "winning_symbol 'star'"]),
    (lambda c: c["maid"].update(truth="maybe"), ["'maid'", "truth 'maybe'", "truth, lie, choose"]),
    (lambda c: c["spy"].pop("team"), ["'spy'", "needs 'team'"]),
    (lambda c: c["guard"].update(winning_symbl="mask"), ["'guard'", "unknown field 'winning_symbl'"]),
    (lambda c: c.pop("minister"), ["'minister'", "missing"]),
    (lambda c: c.update(jester={"name": "Jester"}), ["no coaster 'jester'"]),
    (lambda c: c["princess"].update(name=" "), ["'princess'", "non-empty name"]),
])
def test_a_broken_data_file_is_refused_with_a_message_saying_what_to_fix(tmp_path, change, words):
    path = _write(tmp_path, change)
    with pytest.raises(tofu_kingdom.CoasterDataError) as err:
        tofu_kingdom.load_coasters(path)
    assert str(path) in str(err.value)
    for word in words:
        assert word in str(err.value)


def test_a_data_file_that_is_not_json_names_the_file(tmp_path):
    path = tmp_path / "coasters.json"
    path.write_text('{"coasters": {', encoding="utf-8")
    with pytest.raises(tofu_kingdom.CoasterDataError, match="not valid JSON"):
        tofu_kingdom.load_coasters(path)
    with pytest.raises(tofu_kingdom.CoasterDataError, match="Cannot read"):
        tofu_kingdom.load_coasters(tmp_path / "missing.json")


def test_a_broken_shipped_file_refuses_only_a_new_tofu_kingdom_game(monkeypatch):
    monkeypatch.setattr(tofu_kingdom, "COASTER_DATA_ERROR", "coasters.json: coaster 'queen' is bad.")
    t = table()
    refuse(t, new_game(3), "bad_data")
    assert "coaster 'queen' is bad" in t.handle(new_game(3)).error.message


def test_an_owner_can_change_a_winning_symbol_without_code(tmp_path, monkeypatch):
    """The data file decides: if the owner's Chef shows the heart, flipping the Chef scores hearts."""
    path = _write(tmp_path, lambda c: c["chef"].update(winning_symbol="heart"))
    monkeypatch.setattr(tofu_kingdom, "COASTERS", tofu_kingdom.load_coasters(path))
    t = table()
    accept(t, new_game(5))
    deal = {"seat-2": "chef", "seat-3": "princess", "seat-4": "queen", "seat-5": "maid",
            "center": "guard"}
    for position, role in deal.items():
        accept(t, tap(position, role))
    for inp in flip_inputs(deal, "seat-2", "seats")[:2]:
        accept(t, inp)
    assert t.view("table")["flip"]["symbol"] == "heart"
    assert [p["score"] for p in t.view("table")["players"]] == [1, 1, 1, 0, 0]


def test_first_seat_chooses_the_first_prince_and_must_be_a_seat_in_the_game():
    """rulebook: the youngest starts as Prince; the host says who that is with first_seat."""
    t = table()
    accept(t, new_game(4, first_seat=4))
    assert t.view("table")["prince"] == {"seat": 4, "name": PLAYERS[3]}
    assert t.view("table")["positions"] == ["seat-1", "seat-2", "seat-3", "center"]
    refuse(t, new_game(4, first_seat=5), "bad_option")
