"""A small run of bench/bench_physical_fft.py: whole games played physical-first by a scripted group
through camera readings and reader taps score the same as the guided replay of the same decisions,
with few phone inputs, the boards of a move read in shuffled orders, and the hard cases (questions,
wrong moves listed to put back, a move the host accepts) happen and are resolved; and a round played
through the synthetic camera and the real pipeline is recorded as the group played it."""
import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "bench" / "bench_physical_fft.py"
_spec = importlib.util.spec_from_file_location("bench_physical_fft", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("players,dice,seed", [(1, "camera", 6), (3, "physical", 16)])
def test_a_physical_first_game_scores_like_the_guided_replay(players, dice, seed):
    """Whole games with the Freezer and Food Allergy modules, every action kind the group takes seen
    from the boards; the final scores are the guided replay's and phone inputs stay under the target.
    The dice come from the one place the option names (rulebook Grocery Shopping: the shopper rolls both
    dice): the camera reads them on their tracks (no input), or the shopper taps the roll on the phone (one
    input a trip, left out of the target: the option a group picks to type its own roll).
    Cards completed by laying their food on them and tapping them again count as completed once (rulebook
    Recipes & Cook, Activities & Work Out: a full card scores and its food leaves it).
    (Seeds in which each kind of wrong move the bench makes happens, and a special order: rulebook Grocery
    Shopping, $5 from the supply for a food gone from the shopping list, no shopping token placed, worked
    out from the kitchen with no tap; the solo game has no recipe pair for an ambiguous cook.)"""
    game = bench.play_game(players, seed=seed, dice=dice)
    assert game["physical"] == game["guided"]
    actions = sum(game["actions"].values())
    assert actions + 3 * game["actions"]["pass"] >= 6 * 4 * players     # each marker placed or set aside
    per_action = (sum(game["phone"].values()) - game["rolls"]) / actions
    assert per_action <= 0.25, game["phone"]
    kinds = {"shop", "market", "snack", "cook", "workout", "pass"} | ({"pizza", "buffet", "pizza extra"} if players > 1 else set())
    assert kinds <= set(game["actions"]), game["actions"]
    assert game["phone"]["market"] == 0
    trips = game["actions"]["shop"]
    assert game["phone"]["shop"] == (trips if dice == "physical" else 0) and trips >= 3
    assert game["rolls"] >= trips if dice == "physical" else game["rolls"] == 0
    assert sum(game["second_taps"].values()) >= 1, game["second_taps"]
    assert game["specials"] >= 1, "no special order made"
    assert game["phone"]["snack"] == game["cases"]["host accepted: a snack of two tokens"]   # the host's one press
    assert not game["wrong"]                        # every move recorded as the group made it
    wrong_moves = ["illegal snack of two tokens", "illegal second snack", "illegal purchase over $6",
                   "illegal third market visit", "illegal market food put where its stand does not send it",
                   "illegal work out: a token no activity of theirs takes",
                   "illegal cook: a token no recipe of theirs takes"]
    for case in wrong_moves + ["host accepted: a snack of two tokens"] + (
            ["illegal marker on a taken space", "ambiguous Chinese Buffet", "ambiguous Cook"] if players == 3 else []):
        assert game["cases"][case] >= 1, (case, game["cases"])
    if players == 3:                                # boards read in shuffled orders, the diet board first too
        assert any(o.index("diet") < o.index("main") for o in game["orders"] if "diet" in o and "main" in o)


def test_a_last_round_waiting_for_end_of_round_abilities_ends_the_game_with_the_host_continue(monkeypatch):
    """Rulebook: the game is scored after the sixth round's end, end-of-round abilities used first.  In this
    2-player game (digital dice, seed 8) Ben holds one nobody uses, so the last clean-up waits for the host:
    a round's out-of-stock card, a card drawn, a pass and a dining-out lay-out read then are refused or change
    nothing of the record, the host's continue scores the guided replay's scores, and nothing follows it (the
    bench once laid out a seventh round and ran out of out-of-stock cards)."""
    from server.games.food_for_thought import physical
    tried = []
    clean_up = bench.Group.clean_up

    def then_try(group):
        clean_up(group)
        state = group.state
        if state["phase"] != "cleanup":
            return
        before = bench._record(state)
        for inp in [{"tap": {"reader": "center", "card": physical.card_id("out_of_stock", c)}} for c in state["cards"]["out_of_stock"]] + [
                {"tap": {"reader": "seat-1", "card": physical.card_id("recipes", next(iter(state["cards"]["recipes"])))}},
                {"seat": {"seat": 1, "action": "pass"}},
                {"board": {"board": "main", "slots": {"pizza.1": "grain", "buffet.1.1": "meat"}}}]:
            outcome = group.table.handle(inp)
            tried.append(outcome.accepted or outcome.error.code)
            assert bench._record(group.state) == before, inp
        assert "internal_error" not in tried

    monkeypatch.setattr(bench.Group, "clean_up", then_try)
    game = bench.play_game(2, seed=8, dice="digital")
    assert tried and game["phone"]["clean-up"] == 1          # the host's one continue
    assert game["physical"] == game["guided"]


def test_a_round_through_the_camera_pipeline_is_recorded_as_the_group_played_it():
    """The group's tokens, markers and dice lie on the synthetic table and only what the calibrated
    pipeline commits reaches the table: the round's moves (wrong ones first, each listed to put back
    until put right) are worked out with no phone input, and the record scores like the guided replay."""
    game = bench.play_game(1, seed=3, camera="easy", rounds=1, dice="camera")   # (seed 3: shop, snack, market, cook)
    assert game["stalled"] is None
    assert set(game["actions"]) == {"shop", "snack", "market", "cook"} and sum(game["phone"].values()) == 0
    assert not game["wrong"] and game["physical"] == game["guided"]
    assert sum(game["cases"].values()) >= 2, game["cases"]          # wrong moves made, refused, put right
    assert game["frames"] > 50 and not game["beyond"] and not game["refused"]


def test_a_simulated_table_whose_camera_feeds_it_is_played_by_moving_its_tokens(tmp_path):
    """The live simulation with its camera feeding the table (``[camera] commit = true``) and the shipped
    layouts (each diet board's has its marker spaces): the synthetic table is laid out from the record
    when the game starts; then Ann dines at Pizza To Go by moving the tokens and her marker on the
    synthetic table (what /api/camera/simulate does) and the table learns it through the camera thread's own step, the real
    pipeline and the table's queue, with no phone input (rulebook Pizza To Go: every token of the
    brochure into the body)."""
    import copy

    from server.context import TableContext
    from server.games.food_for_thought import inference
    from server.games.food_for_thought.boards import implied
    from tests.support.food_for_thought import ok, pick_assistants
    from vision import camera

    data = tmp_path / "table"
    ctx = TableContext.open(data, simulate=True)
    service = camera.build(ctx, {"commit": True})
    table = ctx.table
    table.start()
    try:
        ok(table, {"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"], "seed": 2,
                                "options": {"data": "sample", "mode": "physical"}}})
        pick_assistants(table)
        service.prepare()                                  # the camera thread's calibration, here
        service.prepare = None

        def run_until(done) -> bool:
            for _ in range(200):
                service.step()
                assert table.ping(5)                       # the commits put on the queue are applied
                if done():
                    return True
            return False
        seen = lambda b: table.state["boards"].get(b, {}).get("areas")   # noqa: E731
        assert run_until(lambda: seen("diet-1") and seen("diet-2") and seen("main"))
        turn, brochure = table.state["turn"], list(table.state["pizza"])
        before = len(table.journal.live_since_last_game())
        trial = copy.deepcopy(table.state)
        inference.play(trial, turn, {"action": "pizza"})
        diet = f"diet-{turn}"
        for board in (diet, "main"):       # the group's hands: the tokens into the body, then the marker down
            after = implied(trial, board)
            for place in service.source.scene.boards:
                if place.layout.target == board:
                    service.source.set_slots(place.layout.board, {s.id: after.get(s.id) for s in place.layout.slots})
            if board == diet:              # read before the marker is seen: nothing decided yet
                assert run_until(lambda: table.state["boards"][diet]["seen"].get("markers.4") is None)
                assert table.state["spaces"]["pizza"] is None and not table.state["put_back"]
        assert run_until(lambda: table.state["spaces"]["pizza"] == turn), table.state["put_back"]
        p = table.state["seats"][str(turn)]
        assert sorted(f for g in p["body"].values() for f in g if f) == sorted(brochure)
        assert p["actions_left"] == 3 and table.state["turn"] != turn and not table.state["question"]
        assert {next(iter(inp)) for _row, inp in table.journal.live_since_last_game()[before:]} == {"board"}
    finally:
        table.stop()
        service.stop()
