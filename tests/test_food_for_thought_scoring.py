"""Food for Thought scoring: set bonus, activity set split, food groups, goals, tie-breaks, solo chart."""
import functools
import itertools
from collections import Counter

from hypothesis import given, settings, strategies as st

from server.games.food_for_thought import rules, scoring


def test_set_bonus_table_rulebook():
    """rulebook: a set of 3 icons scores 5 VP, 4 -> 7, 5 -> 10, 6 -> 14, 7 -> 19, 8 -> 25."""
    icons = ["a", "b", "c", "d", "e", "f", "g", "h"]
    got = {n: scoring.activity_sets(icons[:n])[0] for n in range(1, 9)}
    assert got == {1: 0, 2: 0, 3: 5, 4: 7, 5: 10, 6: 14, 7: 19, 8: 25}


def test_rulebook_example_two_sets_of_3_and_4_score_12():
    """rulebook: one player's completed activities form a set of 3 and a set of 4 icons: 5 + 7 = 12 VP."""
    icons = ["racquet", "water", "team", "running", "racquet", "water", "team"]
    value, sets = scoring.activity_sets(icons)
    assert value == 12
    assert sorted(len(s) for s in sets) == [3, 4]
    assert sorted(i for s in sets for i in s) == sorted(icons)   # each card in one set
    assert all(len(set(s)) == len(s) for s in sets)               # sets of different icons


def test_the_best_split_is_not_the_greedy_one():
    """rulebook: several sets may score, each card in one set.  Icons a,a,b,b,c,d: one big set
    {a,b,c,d} (7 VP) leaves a,b unscored; two sets {a,b,c} and {a,b,d} score 5 + 5 = 10."""
    value, sets = scoring.activity_sets(list("aabbcd"))
    assert value == 10
    assert sorted(map(len, sets)) == [3, 3]


def _brute_force(icons):
    best = 0
    n = len(icons)
    for labels in itertools.product(range(n // rules.MIN_SET + 1), repeat=n):   # 0 = in no set
        sets = {}
        ok = True
        for icon, label in zip(icons, labels):
            if label:
                s = sets.setdefault(label, set())
                if icon in s:
                    ok = False
                    break
                s.add(icon)
        if ok:
            best = max(best, sum(rules.set_bonus(len(s)) for s in sets.values()))
    return best


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from("abcdefghi"), min_size=0, max_size=8))
def test_activity_set_split_matches_brute_force(icons):
    """rulebook: the best split of completed activities into sets of different icons, each card in one set."""
    value, sets = scoring.activity_sets(icons)
    assert value == _brute_force(icons)
    assert all(len(set(s)) == len(s) >= rules.MIN_SET for s in sets)
    used = Counter(i for s in sets for i in s)
    assert all(used[i] <= c for i, c in Counter(icons).items()) and set(used) <= set(icons)
    assert sum(rules.set_bonus(len(s)) for s in sets) == value


@functools.lru_cache(maxsize=None)
def _every_icon_choice(counts):
    """The former exhaustive search: try every choice of icons for the next set (exponential)."""
    best = 0
    for mask in range(1, 1 << len(counts)):
        size = bin(mask).count("1")
        if size >= rules.MIN_SET:
            rest = sorted((c - 1 if mask >> i & 1 else c for i, c in enumerate(counts)), reverse=True)
            rest = tuple(c for c in rest if c)
            best = max(best, rules.set_bonus(size) + _every_icon_choice(rest))
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=3), min_size=0, max_size=7))
def test_activity_sets_equal_the_exhaustive_icon_search(counts):
    """rulebook: sets of different icons, each card in one set; the fast search scores what trying
    every choice of icons for every set scores (up to 7 icons, up to 3 cards each)."""
    icons = [f"icon{i}" for i, c in enumerate(counts) for _ in range(c)]
    assert scoring.activity_sets(icons)[0] == _every_icon_choice(tuple(sorted(counts, reverse=True)))


def test_many_icons_and_cards_score_their_best_sets():
    """rulebook: sets stop paying more past 8 icons, so 16 different icons make two sets of 8 (25 + 25);
    48 cards of 6 icons, 8 of each, make eight sets of 6 (8 x 14 VP)."""
    value, sets = scoring.activity_sets([f"icon{i}" for i in range(16)])
    assert value == 50 and sorted(map(len, sets)) == [8, 8]
    value, sets = scoring.activity_sets([f"icon{i}" for i in range(6)] * 8)
    assert value == 8 * 14 and sorted(map(len, sets)) == [6] * 8


GROUP = {"id": "nuts", "name": "Nuts & Seeds", "foods": ["nuts"], "zero_vp": -3, "spaces": [2, 5, 1, -2]}


def test_food_group_scores_the_last_tokens_space():
    """rulebook: a group scores only the VP of the space of its last token (example: last token on 5 VP)."""
    assert scoring.group_vp(GROUP, 2) == 5
    assert scoring.group_vp(GROUP, 4) == -2


def test_empty_food_group_scores_its_zero_value():
    """rulebook: a group with no tokens scores the value in its top-right corner (e.g. -3 for Nuts & Seeds)."""
    assert scoring.group_vp(GROUP, 0) == -3


def test_goal_awards_rulebook_ties():
    """rulebook goals: 1st and 2nd place VP; a tie for 1st splits 1st+2nd (rounded down) and gives no
    2nd; a tie for 2nd splits 2nd; at least one of something to take part."""
    goal = {"first": 7, "second": 4}
    assert scoring.goal_awards(goal, {1: 5, 2: 3, 3: 1}) == {1: 7, 2: 4}
    assert scoring.goal_awards(goal, {1: 5, 2: 5, 3: 1}) == {1: 5, 2: 5}          # (7+4)//2
    assert scoring.goal_awards(goal, {1: 5, 2: 5, 3: 5}) == {1: 3, 2: 3, 3: 3}    # 11//3
    assert scoring.goal_awards(goal, {1: 5, 2: 2, 3: 2}) == {1: 7, 2: 2, 3: 2}    # 4//2
    assert scoring.goal_awards(goal, {1: 0, 2: 0}) == {}
    assert scoring.goal_awards(goal, {1: 2, 2: 0}) == {1: 7}


def _state(records):
    return {"seats": {str(s): {"recipes_done": ["r"] * r, "activities_done": ["a"] * a}
                      for s, (r, a) in records.items()}}


def test_tie_break_most_recipes_then_activities_then_shared():
    """rulebook: ties go to most completed recipes, then most completed activities, else shared."""
    assert scoring.winners(_state({1: (2, 0), 2: (3, 0)}), {1: 50, 2: 50}) == [2]
    assert scoring.winners(_state({1: (3, 4), 2: (3, 2)}), {1: 50, 2: 50}) == [1]
    assert scoring.winners(_state({1: (3, 2), 2: (3, 2), 3: (9, 9)}), {1: 50, 2: 50, 3: 49}) == [1, 2]


def test_solo_rating_chart_with_150_in_the_upper_band():
    """rulebook solo chart: 0-59, 60-89, 90-109, 110-129, 130-150, 150+; 150 counts as the top band."""
    band = {s: rules.solo_rating(s) for s in (-5, 0, 59, 60, 89, 90, 109, 110, 129, 130, 149, 150, 151, 300)}
    bands = [band[0], band[60], band[90], band[110], band[130], band[150]]
    assert len(set(bands)) == 6
    assert band[-5] == band[0] == band[59]
    assert band[60] == band[89] and band[90] == band[109] and band[110] == band[129]
    assert band[130] == band[149] != band[150]
    assert band[150] == band[151] == band[300] == rules.SOLO_RATINGS[0][1]
