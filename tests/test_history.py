"""Game history: every finished game recorded from the journal, rebuilt from it, and in step
with undo; tonight's standings; figures per player."""
import pytest

from server.app import create_app
from server.context import TableContext
from server.history import EVENING_GAP, History
from server.stats import player_stats, standings
from tests.support.scripts import script_inputs
from tests.support.sqlite_memory import sqlite_memory_used


def open_table(data):
    """The table as `tofu-table serve` builds it (roster and history extensions included)."""
    ctx = TableContext.open(data, simulate=True)
    create_app(ctx)
    return ctx


def play(ctx, script, drop_last=0):
    inputs = script_inputs(script)
    for inp in inputs[:len(inputs) - drop_last]:
        outcome = ctx.table.handle(inp, "test")
        assert outcome.accepted, (inp, outcome.error and outcome.error.message)


def records(data):
    history = History(data / "history.sqlite")
    try:
        return history.records()
    finally:
        history.close()


def lose_records(data):
    """Delete history.sqlite with the files SQLite keeps beside it."""
    for suffix in ("", "-wal", "-shm"):
        (data / f"history.sqlite{suffix}").unlink(missing_ok=True)


def test_a_finished_game_is_recorded_with_its_players_scores_and_progression(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-god-2p.jsonl")   # its header: Anna 6, Ben 9; Ben wins
    [record] = records(tmp_path)
    assert (record["game"], record["game_name"], record["seed"]) == ("tofu-god", "Tofu God", 2)
    assert record["players"] == [{"seat": 1, "name": "Anna", "score": 6, "winner": False},
                                 {"seat": 2, "name": "Ben", "score": 9, "winner": True}]
    assert record["winners"] == ["Ben"] and "Ben" in record["result"]
    assert record["options"]["set_aside"] == "physical" and record["options"]["turns"] == 3
    rows = ctx.table.journal.live_rows()
    assert record["id"] == rows[0][0]
    assert (record["started_at"], record["ended_at"]) == (rows[0][1], rows[-1][1])
    assert record["duration"] == round(rows[-1][1] - rows[0][1], 1)
    # the progression starts at nothing each, ends at the final scores, and each step is one
    # scoring moment named by what happened
    steps = record["progression"]
    assert steps[0]["scores"] == [0, 0] and steps[-1]["scores"] == [6, 9]
    assert all(a["scores"] != b["scores"] for a, b in zip(steps, steps[1:]))
    assert all(s["label"] for s in steps[1:])
    assert [s["seq"] for s in steps] == sorted(s["seq"] for s in steps)


def test_a_tie_settled_by_the_tofu_draw_says_how(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-god-tie.jsonl")
    [record] = records(tmp_path)
    assert [p["score"] for p in record["players"]] == [2, 2]   # the script's header: both on 2
    assert len(record["winners"]) == 1
    assert record["tie_break"]["winner"] in (1, 2) and record["tie_break"]["rounds"]
    assert "tofu" in record["result"].lower()
    assert ctx.table.view("table")["winners"] == record["winners"]


def test_food_for_thought_keeps_each_players_receipt(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "food-for-thought-2p-basic.jsonl")
    [record] = records(tmp_path)
    totals = {r["seat"]: r["total"] for r in record["receipts"]}
    assert totals == {p["seat"]: p["score"] for p in record["players"]}
    assert all(r["lines"] for r in record["receipts"])


def test_undoing_the_end_of_a_game_removes_its_record_and_replaying_it_restores_it(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-kingdom-3p-table.jsonl")   # its header: Ann 4, Ben 4, Cat 2
    [record] = records(tmp_path)
    assert record["winners"] == ["Ann", "Ben"]
    last = script_inputs("tofu-kingdom-3p-table.jsonl")[-1]
    assert ctx.table.handle({"host": {"action": "undo"}}).accepted
    assert records(tmp_path) == []
    assert ctx.table.handle(last).accepted
    [again] = records(tmp_path)
    assert again["players"] == record["players"] and again["id"] == record["id"]
    # the host ending the game afterwards keeps the record; a new game keeps it too
    assert ctx.table.handle({"host": {"action": "end_game"}}).accepted
    assert ctx.table.handle({"new_game": {"game": "tiny", "players": ["Ann"]}}).accepted
    assert [r["id"] for r in records(tmp_path)] == [record["id"]]


def test_a_game_the_host_ended_early_is_not_recorded(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-god-2p.jsonl", drop_last=1)
    assert ctx.table.handle({"host": {"action": "end_game"}}).accepted
    assert records(tmp_path) == []


def test_the_records_are_rebuilt_from_the_journal_alone(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-god-2p.jsonl")
    play(ctx, "tofu-kingdom-3p-table.jsonl")
    before = records(tmp_path)
    assert len(before) == 2
    ctx.table.journal.close()
    lose_records(tmp_path)
    reopened = open_table(tmp_path)   # a restart with the records lost
    assert records(tmp_path) == before
    assert reopened.table.journal.count() > 0


def test_a_restart_after_a_crash_between_journal_and_record_records_the_game(tmp_path):
    ctx = open_table(tmp_path)
    play(ctx, "tofu-god-2p.jsonl", drop_last=1)
    ctx.table.journal.append(script_inputs("tofu-god-2p.jsonl")[-1])   # journaled, never recorded
    assert records(tmp_path) == []
    open_table(tmp_path)
    assert [p["score"] for p in records(tmp_path)[0]["players"]] == [6, 9]


def _record(game_id, start, end, players, winners):
    return {"id": game_id, "game": "tiny", "game_name": "Tiny", "started_at": start, "ended_at": end,
            "players": [{"seat": i + 1, "name": n, "score": s, "winner": n in winners}
                        for i, (n, s) in enumerate(players)], "winners": winners}


def test_tonight_is_the_evening_of_the_newest_game(tmp_path):
    history = History(tmp_path / "history.sqlite")
    now = 1_700_000_000.0
    for record in (_record(1, now - 3 * EVENING_GAP, now - 3 * EVENING_GAP + 600, [("Ann", 1)], ["Ann"]),
                   _record(2, now - 7200, now - 6000, [("Ann", 3), ("Ben", 5)], ["Ben"]),
                   _record(3, now - 3000, now - 600, [("ann", 7), ("Ben", 5)], ["ann"])):
        history._put({**record, "progression": []})
    assert [g["id"] for g in history.tonight(now)] == [2, 3]
    assert history.tonight(now + EVENING_GAP + 1) == []   # the evening is over
    rows = standings(history.tonight(now), {})
    assert [(r["name"], r["played"], r["won"]) for r in rows] == [("ann", 2, 1), ("Ben", 2, 1)]
    history.close()


def test_reading_a_long_history_does_not_keep_it_in_memory(tmp_path):
    """Issue 20: the history page and the stats read every record; a file of many evenings' games
    must not stay in the server's memory once read (SQLite's default cache kept up to 2 MiB)."""
    if sqlite_memory_used() is None:
        pytest.skip("SQLite's library cannot be opened by name here")
    history = History(tmp_path / "history.sqlite")
    history._db.execute("PRAGMA synchronous=OFF")    # the memory is the point, not the disk
    steps = [{"seq": n, "at": float(n), "scores": [n, n + 1], "label": "Ann plays a tofu card"} for n in range(60)]
    for game_id in range(1, 401):    # a 2 MiB file: 400 games of 60 score changes
        history._put({**_record(game_id, game_id * 100.0, game_id * 100.0 + 60, [("Ann", 3), ("Ben", 5)], ["Ben"]),
                      "progression": steps})
    history.close()
    history = History(tmp_path / "history.sqlite")
    assert history.record(1)["players"][1]["name"] == "Ben"
    warm = sqlite_memory_used()
    if not warm:       # a second copy of the library, not the one the sqlite3 module uses: it holds nothing
        pytest.skip("the SQLite library opened by name is not the one the history uses here")
    assert len(history.records()) == 400
    assert history.tonight(400 * 100.0 + 600) != []
    assert sqlite_memory_used() - warm < 128 << 10
    history.close()


def test_player_figures_count_old_names_and_head_to_head():
    games = [_record(1, 0, 1, [("Ann", 3), ("Ben", 5)], ["Ben"]),
             _record(2, 2, 3, [("Annie", 7), ("Ben", 5)], ["Annie"]),
             _record(3, 4, 5, [("Ann", 4), ("Ben", 4), ("Cat", 1)], ["Ann", "Ben"])]
    ids = {"ann": 1, "annie": 1, "ben": 2}
    stats = player_stats(games, 1, ids)
    [tiny] = stats["per_game"]
    assert (tiny["played"], tiny["won"], tiny["best"], tiny["average"]) == (3, 2, 7, 4.7)
    ben = next(r for r in stats["head_to_head"] if r["name"] == "Ben")
    assert (ben["games"], ben["won"], ben["lost"]) == (3, 1, 1)   # game 3 was shared: neither
    cat = next(r for r in stats["head_to_head"] if r["name"] == "Cat")
    assert (cat["games"], cat["won"], cat["lost"]) == (1, 1, 0)


def test_a_game_the_rules_no_longer_know_is_left_out_and_the_rest_recorded(tmp_path):
    ctx = open_table(tmp_path)
    ctx.table.journal.append({"new_game": {"game": "retired-game", "players": ["Ann"]}})
    ctx.table.journal.append({"button": {"name": "advance"}})
    play(ctx, "tofu-god-2p.jsonl")
    ctx.table.journal.close()
    lose_records(tmp_path)
    open_table(tmp_path)
    assert [r["game"] for r in records(tmp_path)] == ["tofu-god"]
