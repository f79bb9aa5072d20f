"""The Tofu Kingdom narrator's voice: espeak-ng renders each line once into the data folder and
the server serves it; without espeak-ng the table still runs and says so (captions only)."""
from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from flask import Flask

from server import narrator
from tests.support.server import run_server


@pytest.mark.timeout(60)
def test_a_line_is_spoken_once_then_served_from_the_data_folder(tmp_path):
    """issue 17 item 4: speech made offline with espeak-ng, rendered once to WAV and cached in the
    data folder, served to the TV."""
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is not installed: scripts/install.sh installs it from Debian's packages")
    with run_server(tmp_path) as srv:
        info = requests.get(srv.url + "/api/narrator", timeout=10).json()
        assert info["voice"] is True and info["note"] is None
        assert "close your eyes" in info["lines"]["close_eyes"]
        first = requests.get(srv.url + "/api/narrator/close_eyes.wav", timeout=30)
        assert first.status_code == 200 and first.headers["Content-Type"] == "audio/wav"
        assert first.content[:4] == b"RIFF" and first.content[8:12] == b"WAVE"
        assert len(first.content) > 8000, "a spoken sentence, not an empty file"
        cached = tmp_path / "narrator" / "close_eyes.wav"
        made = cached.stat().st_mtime_ns
        again = requests.get(srv.url + "/api/narrator/close_eyes.wav", timeout=30)
        assert again.content == first.content and cached.stat().st_mtime_ns == made
        missing = requests.get(srv.url + "/api/narrator/sing.wav", timeout=10)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_line"


def test_without_espeak_the_narrator_says_so_and_serves_no_sound(tmp_path, monkeypatch):
    """issue 17 item 4: if espeak-ng is missing the table still runs (captions only) and says so."""
    monkeypatch.setattr(narrator, "voice_binary", lambda: None)
    app = Flask(__name__)
    narrator.register(app, None, type("Ctx", (), {"data_dir": tmp_path})())
    client = app.test_client()
    info = client.get("/api/narrator").get_json()
    assert info["voice"] is False and "espeak-ng is not installed" in info["note"]
    r = client.get("/api/narrator/all_down.wav")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "no_voice"
    assert not (tmp_path / "narrator" / "all_down.wav").exists()


@pytest.mark.timeout(60)
def test_several_tvs_asking_for_a_new_line_at_once_all_hear_it(tmp_path):
    """Three TVs (720p, 1080p, 4K in the screen tests) ask for a line not yet rendered at the same
    moment: each gets the WAV, none a 404."""
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is not installed: scripts/install.sh installs it from Debian's packages")
    with ThreadPoolExecutor(4) as pool:
        paths = list(pool.map(lambda _: narrator.render("all_down", tmp_path, shutil.which("espeak-ng")), range(4)))
    assert paths == [tmp_path / "all_down.wav"] * 4
    assert (tmp_path / "all_down.wav").read_bytes()[:4] == b"RIFF"
    assert not list(tmp_path.glob("*.part")), "no part file left behind"
