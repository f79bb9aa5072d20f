"""The HTTP API of the real server, as the pages and a user's scripts use it."""
import re
import sqlite3
from xml.etree import ElementTree

import cv2
import numpy as np
import pytest
import requests

from server.app import create_app
from server.context import TableContext
from tests.support.server import run_server

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 3}}}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    """One simulated table for the module, with a two-player tiny game running."""
    with run_server(tmp_path_factory.mktemp("http") / "data") as server:
        assert server.post(GAME).status_code == 200
        assert server.post({"tap": {"reader": "seat-1", "card": "test/red"}}).status_code == 200
        yield server


@pytest.fixture(scope="module")
def hardware_srv(tmp_path_factory):
    """A table outside simulation: its data dir has a config.toml and no --simulate is given."""
    data = tmp_path_factory.mktemp("hw") / "data"
    data.mkdir()
    (data / "config.toml").write_text("")
    with run_server(data, simulate=False) as server:
        yield server


def get(srv, path, **kwargs) -> requests.Response:
    return requests.get(srv.url + path, timeout=10, **kwargs)


def error_of(r: requests.Response, status: int, code: str) -> str:
    """Check a refusal's status and code; its message."""
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) >= {"code", "message"}
    assert body["error"]["code"] == code
    return body["error"]["message"]


# ----- /api/games --------------------------------------------------------------

def test_games_lists_each_game_with_players_options_and_cards(srv):
    games = {g["id"]: g for g in get(srv, "/api/games").json()}
    tiny = games["tiny"]
    assert (tiny["name"], tiny["min_players"], tiny["max_players"]) == ("Tiny Test Game", 1, 8)
    assert tiny["cards"] == ["test/red", "test/blue"]
    rounds = next(o for o in tiny["options"] if o["name"] == "rounds")
    assert (rounds["default"], rounds["type"], rounds["minimum"], rounds["maximum"]) == (2, "int", 1, 99)
    for game in games.values():
        assert game["name"] and 1 <= game["min_players"] <= game["max_players"] <= 8
        assert any(o["name"] == "first_seat" for o in game["options"])


ARG_KEYS = {"name", "kind", "help", "optional", "default", "nullable", "choices", "minimum", "maximum",
            "items", "max_items"}


def test_games_describe_each_move_with_its_arguments_who_and_when(srv):
    """issue 12: /api/games describes each game's moves (arguments, who, when) for the pages."""
    for game in get(srv, "/api/games").json():
        phases = [p["id"] for p in game["phases"]]
        assert len(set(phases)) == len(phases), game["id"]
        assert all(p["help"] for p in game["phases"])
        named = set()
        for move in game["moves"]:
            assert set(move) == {"input", "name", "help", "who", "phases", "after_the_end", "args"}
            assert move["input"] in {"tap", "lift", "button", "board", "seat", "host"}
            assert (move["name"] is None) == (move["input"] in {"tap", "lift", "board"}), move
            assert move["help"] and move["who"], move
            assert move["phases"] is None or set(move["phases"]) <= set(phases) | {"*"}, move
            assert (move["input"], move["name"]) not in named, move   # one row per input
            named.add((move["input"], move["name"]))
            for arg in move["args"]:
                assert set(arg) == ARG_KEYS, arg
                assert arg["kind"] in {"int", "bool", "str", "choice", "seat", "list", "object", "any"}
                assert arg["kind"] != "choice" or arg["choices"], arg


# ----- /api/state ----------------------------------------------------------------

def test_the_public_state_needs_no_token_and_holds_no_secret(srv):
    view = get(srv, "/api/state").json()
    assert view["audience"] == "table" and view["game"] == "tiny" and view["chosen"] == [1]
    assert "my_colour" not in view and "secrets" not in view and "seat_links" not in view


@pytest.mark.parametrize("how", ["bearer", "header", "query"])
def test_the_host_view_opens_with_the_host_token_however_it_is_sent(srv, how):
    token = srv.host_token
    kwargs = {"bearer": {"headers": {"Authorization": f"Bearer {token}"}},
              "header": {"headers": {"X-Tofu-Token": token}},
              "query": {"params": {"token": token}}}[how]
    r = get(srv, "/api/state?view=host", **kwargs)
    assert r.status_code == 200
    view = r.json()
    assert view["audience"] == "host" and view["secrets"] == {"1": "red"}
    assert [link["seat"] for link in view["seat_links"]] == [1, 2]
    assert "journal" in view["health"]


@pytest.mark.parametrize("token", [None, "", "wrong-token", "jeton-é", "令牌"])
def test_the_host_view_without_the_host_token_is_refused_saying_what_is_needed(srv, token):
    message = error_of(get(srv, "/api/state", params={"view": "host", "token": token}), 403,
                       "host_token_needed")
    assert "host token" in message and "printed when the server starts" in message


def test_a_seat_view_opens_with_that_seats_token_only(srv):
    seat_1, seat_2 = srv.seat_token(1), srv.seat_token(2)
    mine = srv.state("seat-1", seat_1)
    assert mine["audience"] == "seat-1" and mine["my_colour"] == "red"
    assert srv.state("seat-2", seat_2)["my_colour"] is None
    message = error_of(get(srv, "/api/state", params={"view": "seat-2", "token": seat_1}), 403,
                       "seat_token_needed")
    assert "seat-2" in message and "QR code" in message
    error_of(get(srv, "/api/state", params={"view": "host", "token": seat_1}), 403, "host_token_needed")
    assert srv.state("seat-2", srv.host_token)["audience"] == "seat-2"   # the host may look


# ----- /api/input ----------------------------------------------------------------

def test_an_accepted_input_answers_with_its_journal_row(srv):
    seq = srv.state()["seq"]
    r = srv.post({"tap": {"reader": "seat-2", "card": "test/blue"}})
    assert r.status_code == 200 and r.json() == {"ok": True, "seq": seq + 1, "quiet": False}
    assert srv.state()["seq"] == seq + 1 and srv.state()["chosen"] == [1, 2]
    assert srv.post({"button": {"name": "undo"}}).json()["seq"] == seq
    assert srv.state()["chosen"] == [1]


def test_a_refusal_by_the_rules_is_a_409_with_the_rules_message(srv):
    message = error_of(srv.post({"button": {"name": "advance"}}), 409, "waiting")
    assert message == "Not everyone has chosen a colour yet."


def test_a_malformed_input_is_a_400_naming_the_problem(srv):
    message = error_of(srv.post({"tap": {"reader": "seat-1"}}), 400, "bad_input")
    assert "exactly one of card" in message
    error_of(requests.post(srv.url + "/api/input", data="{tap", timeout=10,
                           headers={"Content-Type": "application/json"}), 400, "bad_json")


def test_host_and_seat_inputs_need_their_tokens(srv):
    message = error_of(srv.post({"host": {"action": "end_game"}}, token=None), 403, "host_token_needed")
    assert "host page" in message
    error_of(srv.post({"seat": {"seat": 2, "action": "ask"}}, token=srv.seat_token(1)), 403,
             "seat_token_needed")
    error_of(srv.post({"seat": {"seat": 1, "action": "ask"}}, token=srv.seat_token(1)), 409, "unknown_move")
    assert srv.state()["game"] == "tiny"


def test_in_simulation_a_tap_needs_no_token(srv):
    r = srv.post({"tap": {"reader": "seat-1", "card": "test/red"}}, token=None)
    assert r.status_code == 200


def test_outside_simulation_hardware_inputs_over_http_need_the_host_token(hardware_srv):
    tap = {"tap": {"reader": "seat-1", "card": "test/red"}}
    message = error_of(hardware_srv.post(tap, token=None), 403, "host_token_needed")
    assert "outside simulation" in message
    error_of(hardware_srv.post(tap), 409, "no_game")   # with the token it reaches the table


# ----- /api/health and /api/journal -------------------------------------------------

def test_health_reports_every_device_kind_and_the_journal(srv):
    health = get(srv, "/api/health").json()
    assert {"readers", "buttons", "camera", "journal", "ok", "simulate", "seq"} <= set(health)
    assert health["simulate"] is True and health["seq"] == srv.state()["seq"]
    journal, = health["journal"]
    assert journal["name"] == "journal" and journal["status"] == "ok"
    assert isinstance(journal["last_seen"], float)
    for kind in ("readers", "buttons", "camera", "journal"):
        for record in health[kind]:
            assert {"name", "status", "last_seen"} <= set(record)


def test_the_journal_is_for_the_host_only(srv):
    message = error_of(get(srv, "/api/journal"), 403, "host_token_needed")
    assert "host token" in message
    error_of(get(srv, "/api/journal", params={"token": srv.seat_token(1)}), 403, "host_token_needed")
    error_of(get(srv, "/api/journal", headers={"Authorization": "Bearer jeton-\xe9"}), 403,
             "host_token_needed")


def test_the_journal_shows_inputs_newest_first_and_refusals_with_why(srv):
    srv.post({"button": {"name": "advance"}})
    journal = get(srv, "/api/journal", params={"token": srv.host_token, "limit": 2}).json()
    assert len(journal["inputs"]) == 2
    assert journal["inputs"][0]["id"] > journal["inputs"][1]["id"]
    assert journal["inputs"][-1]["input"] != GAME   # only the newest two
    refusal = journal["refusals"][0]
    assert refusal["code"] == "waiting" and refusal["message"] == "Not everyone has chosen a colour yet."
    assert refusal["source"] == "http" and "advance" in refusal["input"]
    assert refusal["described"] == {"text": "the advance button", "secret": None}   # in words for the host page
    everything = get(srv, "/api/journal", params={"token": srv.host_token, "limit": 1000}).json()
    first = everything["inputs"][-1]["input"]["new_game"]      # sent without a seed: the server chose one
    assert first == {**GAME["new_game"], "seed": first["seed"]} and isinstance(first["seed"], int)


def test_malformed_and_unauthorised_inputs_are_listed_for_the_host_with_why(srv):
    error_of(srv.post({"tap": {"reader": "seat-9", "card": "test/red"}}), 400, "unknown_reader")
    error_of(srv.post({"host": {"action": "end_game"}}, token=None), 403, "host_token_needed")
    refusals = get(srv, "/api/journal", params={"token": srv.host_token}).json()["refusals"]
    assert [r["code"] for r in refusals[:2]] == ["host_token_needed", "unknown_reader"]
    assert "end_game" in refusals[0]["input"] and "seat-9" in refusals[1]["input"]
    assert "There is no reader 'seat-9'" in refusals[1]["message"]
    assert refusals[1]["described"] == {"text": "seat 9's card", "secret": "red"}   # the card kept apart
    assert srv.state()["game"] == "tiny", "nothing was applied"


@pytest.mark.parametrize("limit", ["0", "1001", "-1", "ten", "²", "1" * 5000, ""])
def test_a_bad_journal_limit_is_a_400(srv, limit):
    r = get(srv, "/api/journal", params={"token": srv.host_token, "limit": limit})
    assert "1 to 1000" in error_of(r, 400, "bad_limit")


# ----- QR codes, pages, unknown paths ------------------------------------------------

def scan(svg: str) -> str:
    """What a phone reads from a QR code drawn as segno's one-path SVG (M/h/m in module units)."""
    path = ElementTree.fromstring(svg).find("{http://www.w3.org/2000/svg}path")
    modules = round(float(ElementTree.fromstring(svg).get("width")) / 6)
    grid = np.full((modules, modules), 255, np.uint8)
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.get("d")):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            grid[int(y), int(x):int(x + float(a))] = 0
            x += float(a)
    image = cv2.resize(grid, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    # the TV shows the code on white: give the detector the full four-module quiet zone; OpenCV's
    # ArUco-based detector reads every code (its classic one misses about 2 in 100 long addresses)
    image = cv2.copyMakeBorder(image, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=255)
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    return text


@pytest.mark.parametrize("seat", [1, 2])
def test_a_seats_qr_code_opens_the_join_page_with_a_working_seat_token(srv, seat):
    r = get(srv, f"/qr/seat/{seat}.svg", params={"token": srv.host_token})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("image/svg+xml")
    url = scan(r.text)
    assert url.startswith(f"{srv.url}/join?token=")
    assert get(srv, url.split(srv.url)[1]).status_code == 200
    token = url.split("token=")[1]
    assert srv.state(f"seat-{seat}", token)["audience"] == f"seat-{seat}"


@pytest.mark.parametrize("seat", [3, 8, 9, 0])
def test_a_seat_outside_the_game_has_no_qr_code(srv, seat):
    r = get(srv, f"/qr/seat/{seat}.svg", params={"token": srv.host_token})
    assert r.status_code == 404


def test_no_qr_code_before_a_game_starts(hardware_srv):
    assert get(hardware_srv, "/qr/seat/1.svg", params={"token": hardware_srv.host_token}).status_code == 404


@pytest.mark.parametrize("path", ["/", "/host", "/seat/1", "/seat", "/join", "/pair", "/sim"])
def test_the_pages_are_served_in_simulation(srv, path):
    r = get(srv, path)
    assert r.status_code == 200 and "<html" in r.text.lower()


def test_the_simulator_page_is_not_there_outside_simulation(hardware_srv):
    r = get(hardware_srv, "/sim")
    assert r.status_code == 404 and "--simulate" in r.text
    assert get(hardware_srv, "/api/health").json()["simulate"] is False
    assert get(hardware_srv, "/").status_code == 200


def test_unknown_api_paths_and_methods_answer_in_json(srv):
    error_of(get(srv, "/api/nothing"), 404, "not_found")
    error_of(get(srv, "/api/input"), 405, "method_not_allowed")


# ----- a journal that cannot be written ---------------------------------------------

def test_an_unwritable_journal_is_a_503_and_the_health_report_says_why(tmp_path, monkeypatch):
    """In-process (Flask's test client: HTTP only), to swap the journal for a read-only one."""
    ctx = TableContext.open(tmp_path, simulate=True)
    client = create_app(ctx)[0].test_client()
    host = {"Authorization": f"Bearer {ctx.access.host_token}"}
    assert client.post("/api/input", json=GAME, headers=host).status_code == 200
    before = client.get("/api/state").json
    def read_only():
        return sqlite3.connect(f"file:{tmp_path / 'journal.sqlite'}?mode=ro", uri=True,
                               isolation_level=None, check_same_thread=False)
    monkeypatch.setattr(ctx.table.journal, "_db", read_only())
    monkeypatch.setattr(ctx.table.journal, "_connect", read_only)   # the folder stays read-only
    r = client.post("/api/input", json={"tap": {"reader": "seat-1", "card": "test/red"}}, headers=host)
    assert r.status_code == 503
    error = r.json["error"]
    assert error["code"] == "journal_failed" and "NOT applied" in error["message"]
    assert client.get("/api/state").json == before
    health = client.get("/api/health").json
    assert health["ok"] is False and health["journal"][0]["status"] == "error"
    assert "readonly" in health["journal"][0]["detail"]
    monkeypatch.undo()   # the folder is writable again: the journal opens itself afresh
    assert client.post("/api/input", json={"tap": {"reader": "seat-1", "card": "test/red"}},
                       headers=host).status_code == 200
    assert client.get("/api/health").json["journal"][0]["status"] == "ok"
