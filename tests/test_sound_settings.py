"""The TV's sound settings (issue 16: a mute and a volume on the host page): the host sets them,
the TV's room hears of it at once, they survive a restart, and bad values or a missing token are
refused with what to send instead."""
import requests

from tests.support.server import Server, run_server


def test_the_host_sets_volume_and_mute_and_the_tv_is_told(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert requests.get(srv.url + "/api/sound", timeout=5).json() == {"volume": 70, "muted": False}
        tv = srv.client("table")
        headers = {"Authorization": f"Bearer {srv.host_token}"}
        r = requests.post(srv.url + "/api/sound", json={"volume": 35}, headers=headers, timeout=5)
        assert r.ok and r.json() == {"volume": 35, "muted": False}
        assert tv.wait_for("sound") == {"volume": 35, "muted": False}
        r = requests.post(srv.url + "/api/sound", json={"muted": True}, headers=headers, timeout=5)
        assert tv.wait_for("sound") == {"volume": 35, "muted": True}
        tv.close()

        for body, word in (({"volume": 101}, "0 to 100"), ({"volume": True}, "0 to 100"),
                           ({"muted": "yes"}, "true or false"), ({"loud": 1}, "nothing else"), ([], "nothing else")):
            r = requests.post(srv.url + "/api/sound", json=body, headers=headers, timeout=5)
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_sound" and word in r.json()["error"]["message"]
        r = requests.post(srv.url + "/api/sound", json={"volume": 0}, timeout=5)
        assert r.status_code == 403 and r.json()["error"]["code"] == "host_token_needed"
        assert requests.get(srv.url + "/api/sound", timeout=5).json() == {"volume": 35, "muted": True}
    srv = Server(tmp_path / "data").start()
    try:
        assert requests.get(srv.url + "/api/sound", timeout=5).json() == {"volume": 35, "muted": True}
    finally:
        srv.stop()
