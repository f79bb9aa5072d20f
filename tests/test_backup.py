"""`tofu-table backup` of a running table and `tofu-table restore` into a new folder."""
import subprocess
import sys
import tarfile
import threading

import requests

from server.backup import MANIFEST
from tests.support.scripts import script_inputs
from tests.support.server import ROOT, run_server

TINY = {"new_game": {"game": "tiny", "players": ["Ann", "Ben"], "options": {"rounds": 50}}}


def tofu_table(*args):
    return subprocess.run([sys.executable, "-m", "server.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_a_backup_taken_while_the_table_plays_restores_to_a_table_that_carries_on(tmp_path):
    data, archive = tmp_path / "data", tmp_path / "night.tar.gz"
    with run_server(data) as srv:
        for inp in script_inputs("tofu-god-2p.jsonl"):
            assert srv.post(inp).status_code == 200
        assert srv.post(TINY).status_code == 200
        owner = data / "food-for-thought" / "recipes.json"   # the owner's card data rides along
        owner.parent.mkdir(exist_ok=True)
        owner.write_text("[]\n")

        stop = threading.Event()
        posted = []

        def keep_playing():   # taps go on while the backup runs
            while not stop.is_set():
                if srv.post({"tap": {"reader": "seat-1", "card": "test/red"}}).status_code == 200:
                    posted.append(1)

        player = threading.Thread(target=keep_playing)
        player.start()
        try:
            made = tofu_table("backup", str(archive), "--data", str(data))
        finally:
            stop.set()
            player.join()
        assert made.returncode == 0, made.stderr
        assert posted, "no input was applied while the backup ran"
        token, live_journal = srv.host_token, srv.state()["seq"]

    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    assert {"journal.sqlite", "history.sqlite", "players.sqlite", "host-token", MANIFEST,
            "food-for-thought/recipes.json"} <= names
    assert not any(n.endswith(("-wal", "-shm")) for n in names)

    restored = tmp_path / "restored"
    done = tofu_table("restore", str(archive), "--data", str(restored))
    assert done.returncode == 0, done.stderr
    with run_server(restored) as srv:
        assert srv.host_token == token
        state = srv.state()
        assert state["game"] == "tiny" and 0 < state["seq"] <= live_journal   # as of the backup
        auth = {"Authorization": f"Bearer {token}"}
        history = requests.get(srv.url + "/api/history", headers=auth, timeout=10).json()
        assert [[p["score"] for p in g["players"]] for g in history["games"]] == [[6, 9]]
        assert {p["name"] for p in history["players"]} == {"Anna", "Ben", "Ann"}
        assert srv.post({"tap": {"reader": "seat-2", "card": "test/blue"}}).status_code == 200


def test_restore_keeps_the_old_folder_and_refuses_what_is_not_a_backup(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "host-token").write_text("old\n")
    archive = tmp_path / "b.tar.gz"
    assert tofu_table("backup", str(archive), "--data", str(data)).returncode == 0
    (data / "host-token").write_text("newer\n")
    done = tofu_table("restore", str(archive), "--data", str(data))
    assert done.returncode == 0 and "before-restore" in done.stdout
    assert (data / "host-token").read_text() == "old\n"
    [aside] = tmp_path.glob("data.before-restore-*")
    assert (aside / "host-token").read_text() == "newer\n"

    bogus = tmp_path / "bogus.tar.gz"
    with tarfile.open(bogus, "w:gz") as tar:
        tar.add(data / "host-token", arcname="../escape")
    refused = tofu_table("restore", str(bogus), "--data", str(data))
    assert refused.returncode == 1 and "not a Tofu Table backup" in refused.stderr
    assert (data / "host-token").read_text() == "old\n" and not (tmp_path / "escape").exists()
    with tarfile.open(bogus, "w:gz") as tar:   # a manifest does not make a path outside safe
        tar.add(data / "host-token", arcname=MANIFEST)
        tar.add(data / "host-token", arcname="../escape")
    refused = tofu_table("restore", str(bogus), "--data", str(data))
    assert refused.returncode == 1 and "'../escape'" in refused.stderr
    assert (data / "host-token").read_text() == "old\n" and not (tmp_path / "escape").exists()
    missing = tofu_table("backup", str(archive), "--data", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no data folder" in missing.stderr
