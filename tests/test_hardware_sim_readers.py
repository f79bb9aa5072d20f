"""Simulated readers in the real server: a card put on a reader over HTTP is one tap however
long it lies there, taking it off is one lift after the configured time, two cards collide.
(Unlike a tap posted to /api/input, these go through the reader hub like real tags.)"""
import time

import requests

from tests.support.hardware_helpers import wait_for
from tests.support.server import run_server


def test_placing_and_removing_cards_on_simulated_readers(tmp_path):
    with run_server(tmp_path / "data") as srv:
        def reader(name, action, body):
            return requests.post(f"{srv.url}/api/readers/{name}/{action}", json=body, timeout=10)

        def journal():
            r = requests.get(srv.url + "/api/journal", params={"limit": 100}, timeout=10,
                             headers={"Authorization": f"Bearer {srv.host_token}"})
            return [row["input"] for row in r.json()["inputs"]][::-1]    # oldest first

        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 1,
                                      "options": {}}}).ok
        placed = reader("seat-1", "place", {"card": "test/red"})
        assert placed.ok and len(placed.json()["tags"]) == 1
        wait_for(lambda: srv.state("host", srv.host_token)["secrets"].get("1") == "red", timeout=5)
        time.sleep(0.6)                                 # lying there: still one tap
        assert [next(iter(i)) for i in journal()] == ["new_game", "tap"]
        assert reader("seat-1", "remove", {}).json()["tags"] == []
        wait_for(lambda: [next(iter(i)) for i in journal()] == ["new_game", "tap", "lift"], timeout=5)
        lift = journal()[-1]["lift"]
        assert lift["reader"] == "seat-1" and lift["card"] == "test/red"

        assert reader("seat-9", "place", {"card": "test/red"}).status_code == 404
        assert reader("seat-2", "place", {}).status_code == 400
        reader("seat-2", "place", {"card": "test/red"})
        wait_for(lambda: srv.state("host", srv.host_token)["secrets"].get("2") == "red", timeout=5)
        assert len(reader("seat-2", "place", {"card": "test/blue"}).json()["tags"]) == 2
        reader("seat-2", "remove", {"card": "test/red"})
        wait_for(lambda: srv.state("host", srv.host_token)["secrets"].get("2") == "blue", timeout=5)
        # while both lay there the reader saw a collision: no tap of blue until red was gone
        seat_2 = [(kind, body["card"]) for i in journal() for kind, body in i.items()
                  if kind in ("tap", "lift") and body["reader"] == "seat-2"]
        assert seat_2 == [("tap", "test/red"), ("lift", "test/red"), ("tap", "test/blue")]
