"""Entry point for test servers: the real `tofu-table serve`, with the test games registered."""
import sys

from server import games
from server.cli import main
from tests.support import faulty_game, tiny_game

if __name__ == "__main__":
    games.register(tiny_game.GAME)
    games.register(faulty_game.GAME)
    sys.exit(main(sys.argv[1:]))
