"""The roster: players as people that last across games, evenings and restarts."""
import pytest
import requests

from server.players import PALETTE, Roster, RosterError
from tests.support.server import run_server

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 1}}}


@pytest.fixture
def roster(tmp_path):
    r = Roster(tmp_path / "players.sqlite")
    yield r
    r.close()


def test_a_new_player_gets_a_colour_of_their_own_and_initials(roster):
    anna = roster.add("Anna Maria")
    ben = roster.add("ben", colour="#00AA00", avatar="🐼")
    assert (anna.name, anna.avatar, anna.colour) == ("Anna Maria", "AM", PALETTE[0])
    assert (ben.avatar, ben.colour) == ("🐼", "#00aa00")
    assert roster.add("Cindy").colour == PALETTE[1]   # ben chose his own: the palette goes on


def test_ids_are_stable_and_names_compare_without_case(roster, tmp_path):
    anna = roster.add("Anna")
    assert roster.find("ANNA").id == anna.id
    with pytest.raises(RosterError) as exc:
        roster.add("anna")
    assert exc.value.code == "name_taken" and exc.value.status == 409
    roster.close()
    again = Roster(tmp_path / "players.sqlite")   # a restart
    assert again.find("anna").id == anna.id and not again.created
    again.close()


def test_ensure_adds_only_the_names_the_roster_does_not_know(roster):
    anna = roster.add("Anna")
    players = roster.ensure(["anna", "Ben"])
    assert players[0].id == anna.id and players[1].name == "Ben"
    assert [p.name for p in roster.all()] == ["Anna", "Ben"]


def test_a_renamed_player_keeps_their_old_name_for_old_games(roster):
    anna = roster.add("Anna")
    renamed = roster.update(anna.id, name="Anna K")
    assert renamed.name == "Anna K" and renamed.id == anna.id
    assert roster.find("Anna").id == anna.id and roster.find("anna k").id == anna.id
    assert renamed.names == ("Anna", "Anna K")


def test_renaming_to_someone_elses_name_is_refused_and_says_merge(roster):
    anna, ben = roster.add("Anna"), roster.add("Ben")
    with pytest.raises(RosterError) as exc:
        roster.update(anna.id, name="ben")
    assert exc.value.code == "name_taken" and "merge" in exc.value.message
    assert roster.get(anna.id).name == "Anna" and roster.find("ben").id == ben.id


def test_merge_moves_every_name_to_the_player_kept(roster):
    anna, annie = roster.add("Anna"), roster.add("Annie")
    kept = roster.merge(annie.id, anna.id)
    assert kept.id == anna.id and set(kept.names) == {"Anna", "Annie"}
    assert roster.find("Annie").id == anna.id
    with pytest.raises(RosterError) as exc:
        roster.get(annie.id)
    assert exc.value.status == 404
    with pytest.raises(RosterError) as exc:
        roster.merge(anna.id, anna.id)
    assert exc.value.code == "same_player"


def test_forget_removes_the_player_and_their_names(roster):
    anna = roster.add("Anna")
    roster.update(anna.id, name="Anna K")
    assert roster.forget(anna.id).name == "Anna K"
    assert roster.find("Anna") is None and roster.find("Anna K") is None and roster.all() == []
    assert roster.add("Anna").id != anna.id   # ids are never reused


@pytest.mark.parametrize("field, value, code", [
    ("name", "   ", "bad_name"), ("name", "x" * 25, "bad_name"), ("name", "a\x07b", "bad_name"),
    ("name", 7, "bad_name"), ("colour", "red", "bad_colour"), ("avatar", "<b>", "bad_avatar"),
    ("avatar", "ABCDEFGHI", "bad_avatar"),
])
def test_bad_fields_are_refused_and_change_nothing(roster, field, value, code):
    args = {"name": "Anna", field: value}
    with pytest.raises(RosterError) as exc:
        roster.add(**args)
    assert exc.value.code == code and exc.value.status == 400
    assert roster.all() == []


# ----- the real server ------------------------------------------------------------

def _api(srv, method, path, token="host", **kwargs):
    headers = {"Authorization": f"Bearer {srv.host_token if token == 'host' else token}"} if token else {}
    return requests.request(method, srv.url + path, headers=headers, timeout=10, **kwargs)


def test_starting_a_game_adds_its_new_names_and_the_host_manages_the_roster(tmp_path):
    with run_server(tmp_path / "data") as srv:
        before = _api(srv, "POST", "/api/players", json={"name": "Cindy", "avatar": "🦊"})
        assert before.status_code == 201, before.text
        assert srv.post(GAME).status_code == 200
        players = {p["name"]: p for p in _api(srv, "GET", "/api/players").json()["players"]}
        assert set(players) == {"Anna", "Ben", "Cindy"} and players["Cindy"]["avatar"] == "🦊"
        anna, ben = players["Anna"], players["Ben"]

        renamed = _api(srv, "POST", f"/api/players/{anna['id']}", json={"name": "Anna K", "colour": "#123456"})
        assert renamed.json()["name"] == "Anna K" and renamed.json()["id"] == anna["id"]
        taken = _api(srv, "POST", f"/api/players/{anna['id']}", json={"name": "Ben"})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
        merged = _api(srv, "POST", f"/api/players/{players['Cindy']['id']}/merge", json={"into": ben["id"]})
        assert merged.status_code == 200 and set(merged.json()["names"]) == {"Ben", "Cindy"}
        gone = _api(srv, "POST", f"/api/players/{players['Cindy']['id']}/forget")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "no_such_player"
        bad = _api(srv, "POST", "/api/players", json={"name": "Dax", "age": 9})
        assert bad.status_code == 400 and "age" in bad.json()["error"]["message"]

        # the same game again: Anna is found under her old name, nobody new is added
        assert srv.post(GAME).status_code == 200
        names = sorted(p["name"] for p in _api(srv, "GET", "/api/players").json()["players"])
        assert names == ["Anna K", "Ben"]

    with run_server(tmp_path / "data") as srv:   # a restart keeps the roster and its ids
        again = {p["name"]: p["id"] for p in _api(srv, "GET", "/api/players").json()["players"]}
        assert again == {"Anna K": anna["id"], "Ben": ben["id"]}
        assert _api(srv, "POST", f"/api/players/{ben['id']}/forget").status_code == 200
        assert [p["name"] for p in _api(srv, "GET", "/api/players").json()["players"]] == ["Anna K"]


def test_the_roster_needs_the_host_token(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post(GAME).status_code == 200
        seat = srv.seat_token(1)
        for token in (None, seat, "wrong"):
            r = _api(srv, "GET", "/api/players", token=token)
            assert r.status_code == 403 and r.json()["error"]["code"] == "host_token_needed"
            assert "Anna" not in r.text
            r = _api(srv, "POST", "/api/players", token=token, json={"name": "Eve"})
            assert r.status_code == 403
        assert [p["name"] for p in _api(srv, "GET", "/api/players").json()["players"]] == ["Anna", "Ben"]


def test_a_table_from_before_the_roster_finds_its_players_in_the_journal(tmp_path):
    from server.app import create_app
    from server.context import TableContext
    from server.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite")
    journal.append(GAME)
    journal.append({"new_game": {"game": "tiny", "players": ["Cindy", "anna"]}})
    journal.close()
    ctx = TableContext.open(tmp_path, simulate=True)
    create_app(ctx)
    assert [p.name for p in ctx.roster.all()] == ["Anna", "Ben", "Cindy"]


def test_the_host_page_offers_the_roster_and_a_tap_adds_a_player(tmp_path):
    from tests.support.browser import browser, screenshot

    with run_server(tmp_path / "data") as srv:
        assert _api(srv, "POST", "/api/players", json={"name": "Dax", "avatar": "🦊"}).status_code == 201
        with browser() as b:
            page = b.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{srv.url}/host?token={srv.host_token}")
            page.get_by_role("button", name="🦊 Dax").click()
            assert page.input_value("#ng-players").split("\n") == ["Anna", "Ben", "Cindy", "Dax"]
            page.get_by_role("button", name="🦊 Dax").click()   # twice is still once
            page.fill("#ng-players", "Dax\nEve")
            page.select_option("#ng-game", "tiny")
            page.get_by_role("button", name="Start new game").click()
            page.get_by_role("button", name="E Eve").wait_for()   # Eve joined the roster
            screenshot(page, "players-host-picker-390x844")


def test_a_remembered_phone_follows_its_player_through_rename_merge_and_forget(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post(GAME).status_code == 200
        code = _api(srv, "GET", "/api/join").json()["code"]
        phone = requests.post(srv.url + "/api/devices/join", json={"code": code}, timeout=10).json()["token"]
        assert _api(srv, "POST", "/api/devices/me", token=phone, json={"player": "Anna", "seat": None}).ok
        ids = {p["name"]: p["id"] for p in _api(srv, "GET", "/api/players").json()["players"]}

        _api(srv, "POST", f"/api/players/{ids['Anna']}", json={"name": "Anna K"})
        assert _api(srv, "GET", "/api/devices/me", token=phone).json()["device"]["player"] == "Anna K"
        _api(srv, "POST", f"/api/players/{ids['Anna']}/merge", json={"into": ids["Ben"]})
        me = _api(srv, "GET", "/api/devices/me", token=phone).json()
        assert me["device"]["player"] == "Ben" and me["seat"] == 2   # Ben's seat in the running game
        _api(srv, "POST", f"/api/players/{ids['Ben']}/forget")
        gone = _api(srv, "GET", "/api/devices/me", token=phone)
        assert gone.status_code == 403 and gone.json()["error"]["code"] == "not_joined"
