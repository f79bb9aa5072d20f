import pytest

from server import games
from tests.support import tiny_game


@pytest.fixture(autouse=True, scope="session")
def _register_tiny_game():
    games.register(tiny_game.GAME)
