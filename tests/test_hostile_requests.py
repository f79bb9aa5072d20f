"""Odd and hostile requests to every JSON endpoint and the camera stream get a 4xx, never a 5xx.

(Issue 11, item 11: a JSON body nested 30,000 deep used to crash the readers', enrolment,
Food for Thought cards and camera layout endpoints with a RecursionError; ``seconds=abc``
crashed the camera stream and ``seconds=inf`` streamed for ever.)
"""
import pytest
import requests

from tests.support.server import run_server

DEEP = "[" * 30000 + "]" * 30000
JSON_ENDPOINTS = ["/api/readers/seat-1/place", "/api/enrol/start", "/api/enrol/import",
                  "/api/food-for-thought/cards", "/api/camera/layout/diet-1", "/api/players"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("hostile") / "data") as server:
        yield server


@pytest.mark.parametrize("path", JSON_ENDPOINTS)
def test_json_nested_too_deeply_is_a_client_error_on_every_endpoint(srv, path):
    r = requests.post(srv.url + path, data=DEEP, timeout=30,
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {srv.host_token}"})
    assert 400 <= r.status_code < 500, (path, r.status_code, r.text[:200])
    assert requests.get(srv.url + "/api/health", timeout=10).ok


@pytest.mark.parametrize("seconds", ["abc", "0x10", "", "inf", "nan", "-1", "0", "1e9", "99999"])
def test_a_camera_stream_length_that_is_not_a_sensible_number_is_refused(srv, seconds):
    r = requests.get(srv.url + "/api/camera/stream.mjpg", params={"seconds": seconds},
                     headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=10, stream=True)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seconds", seconds


def test_a_short_camera_stream_ends_by_itself(srv):
    r = requests.get(srv.url + "/api/camera/stream.mjpg", params={"seconds": "1"},
                     headers={"Authorization": f"Bearer {srv.host_token}"}, timeout=20)
    assert r.status_code == 200 and r.content.count(b"--frame") >= 1
