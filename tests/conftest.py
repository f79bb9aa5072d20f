import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from server import games
from tests.support import tiny_game


@pytest.fixture(autouse=True, scope="session")
def _register_tiny_game():
    games.register(tiny_game.GAME)


@pytest.fixture
def pins():
    """gpiozero's MockFactory as the pin factory for one test (no Pi needed); the old one after."""
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old
