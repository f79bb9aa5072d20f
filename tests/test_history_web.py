"""The history over HTTP on the real server: its data, exports, privacy and pages in Chromium."""
import csv
import io

import pytest
import requests

from server.history_web import CSV_COLUMNS
from tests.support.browser import browser, screenshot
from tests.support.scripts import script_inputs
from tests.support.server import run_server


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    """A table that has played a Tofu God game and a Food for Thought game to their ends."""
    with run_server(tmp_path_factory.mktemp("history") / "data") as server:
        for script in ("tofu-god-2p.jsonl", "food-for-thought-2p-basic.jsonl"):
            for inp in script_inputs(script):
                r = server.post(inp)
                assert r.status_code == 200, (inp, r.text)
        yield server


def get(srv, path, token="host", **kwargs):
    headers = {"Authorization": f"Bearer {srv.host_token if token == 'host' else token}"} if token else {}
    return requests.get(srv.url + path, headers=headers, timeout=10, **kwargs)


def test_the_history_lists_both_games_newest_first_with_roster_ids(srv):
    data = get(srv, "/api/history").json()
    assert [g["game"] for g in data["games"]] == ["food-for-thought", "tofu-god"]
    ids = {p["name"]: p["id"] for p in data["players"]}
    god = data["games"][1]
    assert [(p["name"], p["score"], p["winner"], p["player_id"]) for p in god["players"]] == [
        ("Anna", 6, False, ids["Anna"]), ("Ben", 9, True, ids["Ben"])]
    only = get(srv, "/api/history", params={"game": "tofu-god"}).json()["games"]
    assert [g["id"] for g in only] == [god["id"]]
    anns = get(srv, "/api/history", params={"player": ids["Ann"]}).json()["games"]
    assert [g["game"] for g in anns] == ["food-for-thought"]
    assert get(srv, "/api/history", params={"player": "x"}).status_code == 400
    assert get(srv, "/api/history/999999").json()["error"]["code"] == "no_such_game"


def test_the_csv_export_has_the_documented_columns_and_a_row_per_player(srv):
    r = get(srv, "/api/history/export.csv")
    assert r.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(row["game"], row["player"], row["winner"]) for row in rows[:2]] == [
        ("tofu-god", "Anna", "0"), ("tofu-god", "Ben", "1")]
    assert len(rows) == 4 and rows[1]["score"] == "9" and rows[1]["winners"] == "Ben"
    assert rows[0]["started_at"].endswith("+00:00")
    exported = get(srv, "/api/history/export.json").json()
    assert [g["game"] for g in exported["games"]] == ["tofu-god", "food-for-thought"]
    assert exported["games"][1]["receipts"] and exported["games"][0]["progression"]


def test_history_needs_the_host_token_and_tonight_shows_only_names_and_wins(srv):
    seat = srv.seat_token(1)   # a seat code of this game is not a remembered player
    for path in ("/api/history", "/api/history/export.csv", "/api/history/export.json",
                 "/api/history/players/1"):
        for token in (None, "wrong", seat):
            r = get(srv, path, token=token)
            assert r.status_code == 403 and r.json()["error"]["code"] == "host_token_needed"
            assert "Anna" not in r.text
    tonight = get(srv, "/api/tonight", token=None).json()
    assert [g["game_name"] for g in tonight["games"]] == ["Tofu God", "Food for Thought"]
    assert {s["name"] for s in tonight["standings"]} == {"Anna", "Ben", "Ann"}
    assert set(tonight["standings"][0]) == {"name", "played", "won"}
    assert "receipts" not in str(tonight) and "score" not in str(tonight)
    view = srv.state()   # the game is over: the public view carries the same standings for the TV
    assert view["over"] and view["tonight"] == tonight


def test_the_tv_shows_tonights_standings_after_a_game_and_not_during_one(srv):
    with browser() as b:
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        page.wait_for_selector("#tonight li")
        items = page.locator("#tonight li").all_inner_texts()
        assert len(items) == 3 and "Ann" in items[0] and "1 of 1 won" in items[0]
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#tonight li')).fontSize)")
        assert size >= 24, f"tonight's standings are {size} px at 1080p, too small for the sofa"
        screenshot(page, "history-tv-tonight-1920x1080")
        assert srv.post({"new_game": {"game": "tiny", "players": ["Ann", "Ben"]}}).status_code == 200
        page.wait_for_function("!document.querySelector('#tonight li')")
        assert "tonight" not in srv.state()
        assert srv.post({"host": {"action": "undo"}}).status_code == 200
        page.wait_for_selector("#tonight li")


def test_a_remembered_players_phone_may_read_the_history_but_not_export_it(srv):
    code = get(srv, "/api/join").json()["code"]
    joined = requests.post(srv.url + "/api/devices/join", json={"code": code}, timeout=10)
    assert joined.status_code == 200, joined.text
    phone = joined.json()["token"]
    r = get(srv, "/api/history", token=phone)   # joined, but not yet anyone
    assert r.status_code == 403 and "Anna" not in r.text
    me = requests.post(srv.url + "/api/devices/me", json={"player": "Anna", "seat": None},
                       headers={"Authorization": f"Bearer {phone}"}, timeout=10)
    assert me.status_code == 200, me.text
    games = get(srv, "/api/history", token=phone).json()["games"]
    assert [g["game"] for g in games] == ["food-for-thought", "tofu-god"]
    assert get(srv, "/api/history/export.csv", token=phone).status_code == 403
    with browser() as b:   # between games the phone's seat page leads to the history
        page = b.new_page(viewport={"width": 390, "height": 844})
        page.goto(srv.url + "/join")
        page.evaluate(f"localStorage.setItem('tofu-phone', {phone!r})")
        page.goto(srv.url + "/seat")
        page.get_by_role("link", name="Your games and tonight's standings").click()
        page.wait_for_selector("table.games")
        assert page.locator("table.games tr").count() == 3
        assert not page.is_visible("#export-csv") and not page.is_visible("#nav-host")
        screenshot(page, "history-phone-390x844")


def test_the_pages_show_the_games_a_chart_and_the_receipts(srv):
    data = get(srv, "/api/history").json()
    fft, god = data["games"]
    ben = next(p["id"] for p in data["players"] if p["name"] == "Ben")
    token = srv.host_token
    with browser() as b:
        for width, height in ((1920, 1080), (390, 844)):
            page = b.new_page(viewport={"width": width, "height": height})
            errors = []
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.goto(f"{srv.url}/history?token={token}")
            page.wait_for_selector("table.games")
            assert page.locator("table.games tr").count() == 3
            assert "Ben" in page.inner_text("#tonight")
            screenshot(page, f"history-list-{width}x{height}")

            page.click(f"a[href^='/history/game/{god['id']}?']")
            page.wait_for_selector("svg.chart polyline")
            assert page.locator("svg.chart polyline").count() == 2
            assert page.locator("table.breakdown tr").count() == len(god["progression"])
            assert "Ben 9" in page.text_content("svg.chart")
            screenshot(page, f"history-game-{width}x{height}")

            page.goto(f"{srv.url}/history/game/{fft['id']}?token={token}")
            page.wait_for_selector("table.receipt")
            assert page.locator("table.receipt").count() == 2
            screenshot(page, f"history-receipts-{width}x{height}")

            page.goto(f"{srv.url}/history/player/{ben}?token={token}")
            page.wait_for_selector("text=Head to head")
            assert "Tofu God" in page.inner_text("main") and "Anna" in page.inner_text("main")
            screenshot(page, f"history-player-{width}x{height}")
            overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
            assert not overflow, f"the player page scrolls sideways at {width} px"
            assert errors == []

            page.goto(f"{srv.url}/history")   # no token: the page says what it needs, shows no games
            page.wait_for_selector("#refused:not([hidden])")
            assert "host token" in page.inner_text("#refused") and page.locator("table.games").count() == 0
            page.close()
