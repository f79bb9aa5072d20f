"""The game registry: every game the table can start, by id.

Built-in games are the modules named in ``BUILTIN``; each defines ``GAME``
(a :class:`server.games.base.Game`).  Tests may :func:`register` their own.
"""
from __future__ import annotations

import importlib
from pathlib import Path

from .base import Game, RuleError

#: Modules under server.games that define a built-in ``GAME``.
BUILTIN: list[str] = ["tofu_god", "tofu_kingdom", "food_for_thought"]

_games: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (replacing one with the same id)."""
    _games[game.id] = game
    return game


def _load_builtin() -> None:
    for name in BUILTIN:
        module = importlib.import_module(f"{__name__}.{name}")
        _games.setdefault(module.GAME.id, module.GAME)


def all_games() -> list[Game]:
    """Every registered game, built-in ones first loaded on demand."""
    _load_builtin()
    return list(_games.values())


def get(game_id: str) -> Game:
    """The game with ``game_id``, or a RuleError that lists the known ones."""
    _load_builtin()
    try:
        return _games[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_games)) or "none"
        raise RuleError("unknown_game", f"There is no game {game_id!r}; known games: {known}.") from None


def token_types(name: str, data_dir: Path | None = None) -> tuple[str, ...]:
    """The token types of the set ``name`` that a registered game names (``foods``: Food for
    Thought's food ids, the owner's data in ``data_dir`` over the sample); () when none does."""
    for game in all_games():
        found = game.tokens(data_dir).get(name)
        if found is not None:
            return tuple(found)
    return ()


def boards(state: dict | None) -> dict[str, dict]:
    """What the camera may watch in ``state`` (no game: nothing): ``{board: {slot: token}}``,
    the slots as the game's record has them (see ``Game.boards``)."""
    if not state:
        return {}
    return get(state["game"]).boards(state)
