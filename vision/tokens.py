"""The token types the camera tells apart: one place for their names.

Food token names are the token set ``foods`` that a game names through the
game contract (``Game.tokens``: Food for Thought's food ids, the owner's file
in the data dir over the shipped sample), so the camera and the engine always
use the same names and vision/ never imports a game's modules.  The
shopping list board holds shopping tokens, read as ``covered`` (the engine's
name for a bought or out-of-stock space).  The classifier never relies on the
colours below: it learns every type's look on the table during calibration.
``SYNTHETIC_COLOURS`` only paints tokens in the synthetic renderer (sample
data, BGR).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from server import games

#: What a slot with nothing on it reads as (the board input's ``null``).
EMPTY = None
#: What a slot reads as when the classifier is too unsure to say.
UNKNOWN = "unknown"
#: A shopping token on the shopping list (Food for Thought's ``covered``).
COVERED = "covered"
#: Layout ``tokens`` value meaning "every food token type".
FOODS = "foods"
#: The players' wooden action markers (a diet board's ``marker``, the main board's ``marker<seat>``) stand this tall,
#: mm (a food token is 2 mm of card): seen aslant, a marker's top face lies this many times the camera's parallax off
#: its slot (vision/classify.py looks for it there too).
MARKER_MM = 6.0


def is_marker(kind: str) -> bool:
    """Whether a token type is a player's wooden action marker (:data:`MARKER_MM` tall)."""
    return kind == "marker" or (kind.startswith("marker") and kind[len("marker"):].isdigit())


@lru_cache(maxsize=8)
def _named(name: str, data_dir: str | None) -> tuple[str, ...]:
    return games.token_types(name, Path(data_dir) if data_dir else None)


def named_types(name: str, data_dir: str | Path | None = None) -> tuple[str, ...]:
    """The token types of the set ``name`` that a game names (a layout's ``tokens = "foods"``)."""
    return _named(name, str(data_dir) if data_dir else None)


def food_types(data_dir: str | Path | None = None) -> tuple[str, ...]:
    """Every food token type, in the game data's order (the owner's foods over the sample)."""
    return named_types(FOODS, data_dir)


#: Token face colours for the synthetic renderer only (BGR), by the sample food ids.
SYNTHETIC_COLOURS: dict[str, tuple[int, int, int]] = {
    "fats": (40, 215, 240),         # yellow
    "dairy": (235, 200, 160),       # light steel blue
    "water": (215, 120, 35),        # blue
    "grain": (95, 175, 215),        # wheat
    "meat": (45, 35, 175),          # dark red
    "poultry": (50, 130, 240),      # orange
    "seafood": (165, 165, 30),      # teal
    "nuts": (40, 80, 125),          # brown
    "alcohol": (140, 45, 120),      # purple
    "fruit": (175, 110, 230),       # pink
    "veg": (60, 165, 60),           # green
    COVERED: (60, 60, 60),          # dark grey shopping token
}
_SPARE = [(120, 200, 120), (200, 120, 200), (120, 120, 200), (200, 200, 120), (100, 100, 100)]


def synthetic_colour(kind: str) -> tuple[int, int, int]:
    """The renderer's colour for a token type (a spare colour for names it does not know)."""
    if kind in SYNTHETIC_COLOURS:
        return SYNTHETIC_COLOURS[kind]
    return _SPARE[sum(kind.encode()) % len(_SPARE)]
