"""Entry point for test servers: the real `tofu-table serve`, with the tiny test game registered."""
import sys

from server import games
from server.cli import main
from tests.support import tiny_game

if __name__ == "__main__":
    games.register(tiny_game.GAME)
    sys.exit(main(sys.argv[1:]))
