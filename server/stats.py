"""Figures from the game records: tonight's standings and a player's games, wins and rivals.

Records name players as they were typed at the game; ``ids`` (the roster's
casefolded names -> player id) ties those names to people, so a renamed or
merged player's old games count as theirs.  A name the roster does not know
stands for itself.
"""
from __future__ import annotations


def _who(name: str, ids: dict[str, int]):
    return ids.get(name.casefold(), name.casefold())


def standings(records: list[dict], ids: dict[str, int]) -> list[dict]:
    """Per person over ``records``: name (as last played), games played and won, best first."""
    table: dict = {}
    for record in records:
        for p in record["players"]:
            row = table.setdefault(_who(p["name"], ids), {"name": p["name"], "played": 0, "won": 0})
            row.update(name=p["name"], played=row["played"] + 1, won=row["won"] + p["winner"])
    return sorted(table.values(), key=lambda r: (-r["won"], r["played"], r["name"].casefold()))


def player_stats(records: list[dict], player_id: int, ids: dict[str, int]) -> dict:
    """For one person: per game played, won, average and best score; head-to-head per rival."""
    per_game: dict[str, dict] = {}
    rivals: dict = {}
    games = []
    for record in records:
        mine = next((p for p in record["players"] if _who(p["name"], ids) == player_id), None)
        if mine is None:
            continue
        games.append(record)
        row = per_game.setdefault(record["game"], {"game": record["game"], "game_name": record["game_name"],
                                                   "played": 0, "won": 0, "scores": []})
        row["played"] += 1
        row["won"] += mine["winner"]
        row["scores"].append(mine["score"])
        for other in record["players"]:
            key = _who(other["name"], ids)
            if key == player_id:
                continue
            rival = rivals.setdefault(key, {"name": other["name"], "games": 0, "won": 0, "lost": 0})
            rival["games"] += 1
            rival["won"] += mine["winner"] and not other["winner"]
            rival["lost"] += other["winner"] and not mine["winner"]
    for row in per_game.values():
        scores = row.pop("scores")
        row["average"] = round(sum(scores) / len(scores), 1)
        row["best"] = max(scores)
    return {"games": games, "per_game": sorted(per_game.values(), key=lambda r: r["game_name"]),
            "head_to_head": sorted(rivals.values(), key=lambda r: (-r["games"], r["name"].casefold()))}
