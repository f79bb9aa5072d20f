"""A game started without a seed gets a fresh one from the operating system, journaled with it."""
import requests

from tests.support.server import run_server


def test_a_game_started_without_a_seed_gets_a_fresh_one_and_the_journal_keeps_it(tmp_path):
    """Every game night deals a new game, and the journal still replays it exactly."""
    with run_server(tmp_path / "data") as srv:
        seeds = []
        for _ in range(2):
            assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"]}}).status_code == 200
            journal = requests.get(srv.url + "/api/journal?limit=1", timeout=10,
                                   headers={"Authorization": f"Bearer {srv.host_token}"}).json()
            seeds.append(journal["inputs"][0]["input"]["new_game"]["seed"])
        assert seeds[0] != seeds[1] and all(isinstance(s, int) and s > 0 for s in seeds)
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna"], "seed": 5}}).status_code == 200
        journal = requests.get(srv.url + "/api/journal?limit=1", timeout=10,
                               headers={"Authorization": f"Bearer {srv.host_token}"}).json()
        assert journal["inputs"][0]["input"]["new_game"]["seed"] == 5
