"""Which space of a card each placed token fills, whatever order the tokens are named in.

A recipe needing ``["wild", "dairy"]`` takes dairy and water in either order: the
dairy belongs on the dairy space and the water on the wild one.  Tokens placed
one by one on the first space that fits would put the dairy on the wild space
and leave no space for the water, so the engine looks for a whole assignment
(a small bipartite matching: a card has a handful of spaces and a cook moves at
most three tokens).  Among valid assignments it prefers the most specific
spaces (one food, then either of two, then wild), keeping wild spaces open for
later tokens.
"""
from __future__ import annotations

from itertools import combinations

from .data import WILD

#: A token that counts as wild (through an ability): it fits any space.
ANY = "*"


def specificity(need: str) -> int:
    """How many kinds of food a space takes (a wild one: more than any other)."""
    return 1_000 if need == WILD else len(need.split("|"))


def fits(need: str, food: str) -> bool:
    """Whether a recipe space printed with ``need`` takes a ``food`` token (:data:`ANY` fits all)."""
    return need == WILD or food == ANY or food in need.split("|")


def assign(needs: list[str], filled: list, foods: list[str], chosen: list[int | None]) -> list[int] | None:
    """0-based spaces for ``foods`` on a card with ``needs``, or None when no assignment exists.

    ``filled`` holds what already lies on each space (None: empty); ``chosen[i]``
    is the 0-based space the player named for ``foods[i]``, or None to let the
    engine choose.  Named spaces are kept as named (and must fit).
    """
    taken = {i for i, f in enumerate(filled) if f is not None}
    result: list[int | None] = list(chosen)
    for i, space in enumerate(chosen):
        if space is None:
            continue
        if space in taken or not 0 <= space < len(needs) or not fits(needs[space], foods[i]):
            return None
        taken.add(space)
    free = [i for i, space in enumerate(chosen) if space is None]
    order = sorted(range(len(needs)), key=lambda s: (specificity(needs[s]), s))

    def place(k: int) -> bool:
        if k == len(free):
            return True
        item = free[k]
        for s in order:
            if s not in taken and fits(needs[s], foods[item]):
                taken.add(s)
                result[item] = s
                if place(k + 1):
                    return True
                taken.discard(s)
        return False

    return [int(s) for s in result] if place(0) else None


def assign_with_wild(needs: list[str], filled: list, foods: list[str], chosen: list[int | None],
                     spare: int) -> tuple[list[int] | None, int]:
    """Like :func:`assign`, letting up to ``spare`` of the tokens count as wild (an ability's) when
    no assignment exists without: (the spaces or None, how many tokens were counted as wild)."""
    for k in range(0, min(spare, len(foods)) + 1):
        for wild in combinations([i for i, f in enumerate(foods) if f != ANY], k):
            spaces = assign(needs, filled, [ANY if i in wild else f for i, f in enumerate(foods)], chosen)
            if spaces is not None:
                return spaces, k
    return None, 0
