"""End-of-game scoring: food groups, activity sets, goals, the receipt and the winner.

Pure functions over a player's record in the game state (see ``setup.py``
for its shape); nothing here changes the state.
"""
from __future__ import annotations

from collections import Counter

from . import abilities, rules
from .tokens import body_count


def group_vp(group: dict, last: int) -> int:
    """VP of one body food group from the space of its ``last`` token (1-based; 0 = empty):
    the rulebook scores that space alone, or the group's zero value when it is empty."""
    if last == 0:
        return group["zero_vp"]
    return group["spaces"][min(last, len(group["spaces"])) - 1]


def _best_sets(counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Best total bonus for icon ``counts`` (cards per icon) and the set sizes used, biggest first.

    Any split can be rearranged so that each set, taken biggest first, uses the icons with
    the most cards left (swap an icon a set uses for one with more cards left, passing that
    card to a set that lacks it).  So only the set sizes need choosing: a search over the
    sorted counts left and the largest size still allowed, each state solved once.
    """
    memo: dict[tuple, tuple[int, tuple[int, ...]]] = {}

    def best(left: tuple[int, ...], largest: int) -> tuple[int, tuple[int, ...]]:
        key = (left, largest)
        if key not in memo:
            found = (0, ())
            for size in range(min(len(left), largest), rules.MIN_SET - 1, -1):
                rest = tuple(sorted([c - 1 for c in left[:size] if c > 1] + list(left[size:]), reverse=True))
                value, sizes = best(rest, size)
                value += rules.set_bonus(size)
                if value > found[0]:
                    found = (value, (size,) + sizes)
            memo[key] = found
        return memo[key]

    return best(tuple(sorted((c for c in counts if c), reverse=True)), rules.MAX_SET)


def activity_sets(icons: list[str]) -> tuple[int, list[list[str]]]:
    """Split completed activities' ``icons`` into sets of different icons for the most VP.

    Each card belongs to at most one set; returns (total bonus, the sets as icon lists,
    biggest first).
    """
    counter = Counter(icons)
    ordered = sorted(counter, key=lambda i: (-counter[i], i))
    value, sizes = _best_sets(tuple(counter[i] for i in ordered))
    # Rebuild concrete sets as the search chose them: biggest first, each from the icons with
    # the most cards left.
    left = Counter(counter)
    sets = []
    for size in sizes:
        pick = sorted((i for i in left if left[i] > 0), key=lambda i: (-left[i], i))[:size]
        for i in pick:
            left[i] -= 1
        sets.append(sorted(pick))
    return value, sets


def goal_awards(goal: dict, measures: dict[int, int]) -> dict[int, int]:
    """VP per seat for one goal from each seat's measure, with the rulebook's tie rules.

    Only seats with at least 1 take part.  A tie for first shares first+second VP
    (rounded down) and gives no second place; a tie for second shares the second VP.
    """
    ranked = sorted((m for m in set(measures.values()) if m >= 1), reverse=True)
    awards: dict[int, int] = {}
    if not ranked:
        return awards
    firsts = [s for s, m in measures.items() if m == ranked[0]]
    if len(firsts) > 1:
        for s in firsts:
            awards[s] = (goal["first"] + goal["second"]) // len(firsts)
        return awards
    awards[firsts[0]] = goal["first"]
    if len(ranked) > 1:
        seconds = [s for s, m in measures.items() if m == ranked[1]]
        for s in seconds:
            awards[s] = goal["second"] // len(seconds)
    return awards


def receipt(state: dict, p: dict) -> dict:
    """The end-of-game receipt for player ``p``: lines of (section, label, vp) and the total."""
    cards = state["cards"]
    lines = []

    def line(section, label, vp):
        lines.append({"section": section, "label": label, "vp": vp})

    for rid in p["recipes_done"]:
        r = cards["recipes"][rid]
        line("recipes", f"{r['name']} (completed)", r["vp"])
    for aid in p["activities_done"]:
        a = cards["activities"][aid]
        line("activities", f"{a['name']} (completed, icon {a['icon']})", a["vp"])
    for g in p["groups"]:
        tokens = p["body"].get(g["id"], [])
        n, last = body_count(tokens), len(tokens)     # the list ends at the group's last token
        vp = group_vp(g, last)
        label = (f"{g['name']}: empty, zero value" if n == 0 else
                 f"{g['name']}: {n} token{'s' if n != 1 else ''}, last on space {last}, a {vp:+d} VP space")
        line("body", label, vp)
    for rid in p["recipes_done"]:
        r = cards["recipes"][rid]
        if r["end_game_vp"]:
            line("end_game", f"{r['name']}: end game bonus", r["end_game_vp"])
        if (r.get("does") or {}).get("when") == "end_of_game":
            words = abilities.describe(r["does"], {f: food["name"] for f, food in state["foods"].items()})
            line("end_game", f"{r['name']}: {words}", abilities.end_vp(r["does"], p, cards))
    bonus, sets = activity_sets([cards["activities"][a]["icon"] for a in p["activities_done"]])
    for s in sets:
        line("sets", f"Set of {len(s)} icons ({', '.join(s)})", rules.set_bonus(len(s)))
    if p["trash"]:
        line("trash", f"Trash: {len(p['trash'])} token{'s' if len(p['trash']) != 1 else ''} x {rules.TRASH_VP}",
             rules.TRASH_VP * len(p["trash"]))
    for rid in p["recipes"]:
        r = cards["recipes"][rid]
        line("incomplete", f"{r['name']} (incomplete recipe)", -r["penalty"])
    for aid in p["activities"]:
        a = cards["activities"][aid]
        line("incomplete", f"{a['name']} (incomplete activity)", -a["penalty"])
    for gid, vp in p.get("goal_vp", {}).items():
        line("goals", f"Goal: {cards['goals'][gid]['name']}", vp)
    for adj in p["adjustments"]:
        line("host", f"Host: {adj['reason']}", adj["vp"])
    return {"seat": p["seat"], "name": p["name"], "lines": lines, "total": sum(l["vp"] for l in lines),
            "sets_bonus": bonus}


def winners(state: dict, totals: dict[int, int]) -> list[int]:
    """Seats that win: most VP, then most completed recipes, then most completed activities."""
    def key(seat):
        p = state["seats"][str(seat)]
        return (totals[seat], len(p["recipes_done"]), len(p["activities_done"]))
    best = max(key(s) for s in totals)
    return [s for s in totals if key(s) == best]
