"""Every number the Food for Thought rulebook gives, in one place.

Card contents, board tracks and the shopping list are data (see ``data.py``);
the numbers here are printed in the rulebook itself and are the same for
every copy of the game.
"""
from __future__ import annotations

GAME_ID = "food-for-thought"

#: The game lasts six rounds; each player places four action markers a round.
ROUNDS = 6
ACTIONS_PER_ROUND = 4
#: The action spaces printed on each player's own diet board (the others are on the main board).
DIET_SPACES = ("snack", "cook", "workout")


def no_diet_markers() -> dict:
    """A round's start: no marker on any of a diet board's action spaces."""
    return dict.fromkeys(DIET_SPACES, 0)


#: Grocery shopping action spaces by player count (1-2: 3, 3: 4, 4: 5).
SHOP_SPACES = {1: 3, 2: 3, 3: 4, 4: 5}
#: Shopping: what a player may spend, and the three prices.
BUDGET = 6
PRICE_ON_SALE = 1
PRICE_REGULAR = 3
PRICE_SPECIAL_ORDER = 5
#: The dice are ordinary six-sided dice.
DIE_FACES = 6

#: Farmers market: open spaces, but at most two visits per player per round.
MARKET_VISITS = 2
#: Chinese Buffet spaces: the "3+" space exists only with 3 or more players.
BUFFET_SPACES_SMALL = 1
BUFFET_SPACES_LARGE = 2
#: Snack: once per round.
SNACKS_PER_ROUND = 1

#: Recipes & Cook: take up to 3 recipes, move up to 3 tokens (freezer: thaw up to 2 of them).
RECIPES_PER_TAKE = 3
TOKENS_PER_COOK = 3
THAWS_PER_COOK = 2
#: Activities & Work Out: take up to 2 activities, move up to 3 tokens from the body.
ACTIVITIES_PER_TAKE = 2
TOKENS_PER_WORKOUT = 3

#: Face-up cards on the main board.
RECIPE_BOOK_SIZE = 4      # the deck in two face-up halves: each top card and the card below it
RECIPES_SHOWN_PER_PILE = RECIPE_BOOK_SIZE // 2
DAILY_PLANNER_SIZE = 3

#: End of game: -2 VP per trash token; activity set bonus by set size.
TRASH_VP = -2
SET_BONUS = {3: 5, 4: 7, 5: 10, 6: 14, 7: 19, 8: 25}
#: A set needs at least this many different icons to score; the table stops at 8.
MIN_SET = 3
MAX_SET = 8

#: 1-2 players: two out-of-stock cards a round; 2 players: 8 farmers market cards in all.
OUT_OF_STOCK_PER_ROUND = 2
TWO_PLAYER_MARKET_CARDS = 8

#: Modules: Potluck and Freezer each swap 8 base recipes for their own 8; Goals uses 2 goals.
MODULE_RECIPE_SWAP = 8
GOALS_IN_PLAY = 2
#: Freezer board capacities.
FREEZER_SPACES = 4
THAW_SPACES = 2

#: Solo rating chart: (lowest score of the band, verdict).  The printed chart puts 150 in two
#: bands (130-150 and 150+); the project reads 150 as the upper band (see NOTES.md).
SOLO_RATINGS = (
    (150, "top band: diet plan mastered"),
    (130, "excellent: goals well in hand"),
    (110, "very good: keep it up"),
    (90, "solid: keep at it"),
    (60, "a fair start for a beginner"),
    (None, "lowest band: a game to learn from"),
)


def shop_spaces(player_count: int) -> int:
    """How many grocery shopping action spaces a game of ``player_count`` has."""
    return SHOP_SPACES[player_count]


def buffet_spaces(player_count: int) -> int:
    """Chinese Buffet action spaces: none solo, one for 2 players, two (with "3+") for 3-4."""
    if player_count == 1:
        return 0
    return BUFFET_SPACES_LARGE if player_count >= 3 else BUFFET_SPACES_SMALL


def set_bonus(size: int) -> int:
    """VP for one set of ``size`` different activity icons (0 below 3; sizes past 8 as 8)."""
    if size < MIN_SET:
        return 0
    return SET_BONUS[min(size, MAX_SET)]


def solo_rating(score: int) -> str:
    """The solo chart's verdict for ``score`` (150 counts in the top band)."""
    for lowest, verdict in SOLO_RATINGS:
        if lowest is None or score >= lowest:
            return verdict
    raise AssertionError("unreachable")
