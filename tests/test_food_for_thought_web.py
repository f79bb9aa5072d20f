"""Food for Thought over the real server: the host's card entry routes and a game over HTTP."""
import requests

from tests.support.server import run_server


def test_card_entry_routes_write_the_owner_folder(tmp_path):
    with run_server(tmp_path) as srv:
        auth = {"Authorization": f"Bearer {srv.host_token}"}
        url = f"{srv.url}/api/food-for-thought"
        assert requests.get(f"{url}/data", timeout=10).status_code == 403
        info = requests.get(f"{url}/data", headers=auth, timeout=10).json()
        assert info["kinds"]["recipes"]["source"] == "sample"
        assert info["owner_dir"] == str(tmp_path / "food-for-thought")
        card = {"id": "real-r1", "name": "Real Porridge", "needs": ["grain", "water"], "vp": 2, "penalty": 1, "module": "base", "solo": True}
        bad = requests.post(f"{url}/cards", json={"kind": "recipes", "record": {**card, "needs": ["oats"]}},
                            headers=auth, timeout=10)
        assert bad.status_code == 400 and "'oats' is not a food id" in bad.json()["error"]["message"]
        assert not (tmp_path / "food-for-thought" / "recipes.jsonl").exists()
        good = requests.post(f"{url}/cards", json={"kind": "recipes", "record": card}, headers=auth, timeout=10)
        assert good.status_code == 200, good.text
        recipes = good.json()["kinds"]["recipes"]
        assert (recipes["source"], recipes["entered"], recipes["complete"]) == ("sample", 1, False)
        assert (tmp_path / "food-for-thought" / "recipes.jsonl").read_text().count("real-r1") == 1
        # one card entered does not replace the deck: the owner marks the kind complete first
        bad = requests.post(f"{url}/complete", json={"kind": "recipes", "complete": "yes"}, headers=auth, timeout=10)
        assert bad.status_code == 400 and '"complete": true' in bad.json()["error"]["message"]
        done = requests.post(f"{url}/complete", json={"kind": "recipes", "complete": True}, headers=auth, timeout=10)
        assert done.status_code == 200, done.text
        assert done.json()["kinds"]["recipes"] == {**done.json()["kinds"]["recipes"], "source": "owner", "count": 1,
                                                   "complete": True}
        # a new game uses the owner's recipe file and no longer calls recipes sample data
        srv.post({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"]}}).raise_for_status()
        view = srv.state("table")
        assert "recipes" not in view["sample_kinds"] and view["data_label"] == "SAMPLE DATA"
        assert [r["id"] for r in view["recipe_book"]] == ["real-r1"]
        # the host can tell whether the files still match the running game's data
        fingerprint = srv.state("host", token=srv.host_token)["host"]["data_fingerprint"]
        assert requests.get(f"{url}/data", headers=auth, timeout=10).json()["fingerprint"] == fingerprint
        requests.post(f"{url}/cards", json={"kind": "recipes", "record": {**card, "id": "real-r2"}},
                      headers=auth, timeout=10).raise_for_status()
        assert requests.get(f"{url}/data", headers=auth, timeout=10).json()["fingerprint"] != fingerprint
        # the entry form previews a card's ability in words (issue 15), host only
        does = {"when": "own_turn", "often": "once", "effects": [{"kind": "extra_action"}]}
        assert requests.post(f"{url}/ability", json={"kind": "recipes", "does": does}, timeout=10).status_code == 403
        said = requests.post(f"{url}/ability", json={"kind": "recipes", "does": does}, headers=auth, timeout=10)
        assert said.json() == {"text": ["During your turn, once (then the card flips): take 1 extra action this round."]}
        bad = requests.post(f"{url}/ability", json={"kind": "goals", "does": does}, headers=auth, timeout=10)
        assert bad.status_code == 400 and "recipes" in bad.json()["error"]["message"]
