"""Enrolment and the tag registry end to end, through the real server (`tofu-table serve`).

The host opens /enrol, picks a card set and taps tags (typed in here, as the
page allows); the table then knows those tags, refuses unknown ones with a
message saying how to enrol them, asks before moving a tag to another card,
and exports/imports the registry.
"""
import requests

from hardware.registry import virtual_uid
from tests.support.server import run_server

A, B, STRANGER = "04A224C2B31190", "A1B2C3D4", "04FFFFFFFFFF01"


def call(srv, path, body=None, token="host"):
    headers = {"Authorization": f"Bearer {srv.host_token}"} if token == "host" else {}
    if body is None:
        return requests.get(srv.url + path, headers=headers, timeout=10)
    return requests.post(srv.url + path, json=body, headers=headers, timeout=10)


def test_enrol_play_move_and_refuse_through_the_real_server(tmp_path):
    with run_server(tmp_path / "data") as srv:
        page = requests.get(srv.url + "/enrol", timeout=10)
        assert page.ok and "Enrol tags" in page.text
        refused = call(srv, "/api/enrol", token=None)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "host_token_needed"

        state = call(srv, "/api/enrol/start", {"set": "test"}).json()
        assert state["session"]["current"] == "test/red"
        step = call(srv, "/api/enrol/tap", {"uid": A}).json()["step"]
        assert step["result"] == "enrolled" and "Next: test/blue" in step["message"]
        assert call(srv, "/api/enrol/tap", {"uid": B}).json()["session"]["done"]

        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 1,
                                      "options": {}}}).ok
        assert srv.post({"tap": {"reader": "seat-1", "uid": A}}).ok
        assert srv.post({"tap": {"reader": "seat-2", "uid": B}}).ok
        assert srv.state("host", srv.host_token)["secrets"] == {"1": "red", "2": "blue"}

        unknown = srv.post({"tap": {"reader": "seat-1", "uid": STRANGER}})
        assert unknown.status_code == 409
        error = unknown.json()["error"]
        assert error["code"] == "unknown_tag" and "/enrol" in error["message"]

        # In simulation every card also has a virtual tag: no enrolment needed.
        assert srv.post({"tap": {"reader": "seat-1", "uid": virtual_uid("test/blue")}}).ok
        assert srv.state("host", srv.host_token)["secrets"]["1"] == "blue"

        # Tag A belongs to test/red: enrolling it as the Prince asks first.
        call(srv, "/api/enrol/start", {"set": "tofu-kingdom"})
        asked = call(srv, "/api/enrol/tap", {"uid": A}).json()
        assert asked["step"]["result"] == "ask_move" and asked["session"]["question"]["card"] == "test/red"
        moved = call(srv, "/api/enrol/answer", {"move": True}).json()
        assert moved["step"]["result"] == "moved"
        not_red = srv.post({"tap": {"reader": "seat-1", "uid": A}})
        assert not_red.status_code == 409 and "tofu-kingdom/prince" in not_red.json()["error"]["message"]

        exported = call(srv, "/api/enrol/export").json()
        assert {(t["uid"], t["card"]) for t in exported["tags"]} == {(A, "tofu-kingdom/prince"),
                                                                      (B, "test/blue")}
        call(srv, "/api/enrol/stop", {})

    with run_server(tmp_path / "fresh") as srv:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Cat"], "seed": 1, "options": {}}}).ok
        assert srv.post({"tap": {"reader": "seat-1", "uid": B}}).json()["error"]["code"] == "unknown_tag"
        imported = requests.post(srv.url + "/api/enrol/import", json=exported, timeout=10,
                                 headers={"Authorization": f"Bearer {srv.host_token}"})
        assert imported.json() == {"imported": 2}
        sets = {s["id"]: s for s in call(srv, "/api/enrol").json()["sets"]}
        assert sets["tofu-kingdom"]["enrolled"] == 1 and sets["test"]["enrolled"] == 1
        assert srv.post({"tap": {"reader": "seat-1", "uid": B}}).ok
        assert srv.state("host", srv.host_token)["secrets"] == {"1": "blue"}
