"""The camera learns what it watches from the game contract, never from a game's own modules.

A game names its token sets (``Game.tokens``) and its boards (``Game.boards``);
vision/ asks the game registry for them (issue 12: "vision/ never imports a
game's modules").
"""
import ast
from pathlib import Path

from server import games
from server.games.base import Game
from tests.support import tiny_game
from vision.layout import Layout
from vision.tokens import named_types

VISION = Path(__file__).resolve().parents[1] / "vision"


def test_no_vision_module_imports_a_games_module():
    offenders = []
    for path in sorted(VISION.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("server.games.")]
    assert offenders == []


def test_a_layout_reads_the_token_set_its_game_names(monkeypatch):
    dice = Game(id="dice-test", name="Dice", min_players=1, max_players=2, setup=tiny_game.setup,
                show=tiny_game.show, phases=tiny_game.PHASES, moves=tiny_game.MOVES,
                tokens=lambda data_dir: {"dice-faces": ("one", "two", "six")})
    monkeypatch.setitem(games._games, dice.id, dice)
    layout = Layout(board="tray", size_mm=(100, 100), markers={0: (0, 0, 10), 1: (90, 0, 10), 2: (0, 90, 10)},
                    regions=[], tokens="dice-faces")
    assert layout.token_types() == ("one", "two", "six")
    assert named_types("no-game-names-this") == ()
