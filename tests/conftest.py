import hashlib
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from server import games, plugins
from tests.support import tiny_game


ROOT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session):
    """Stop at once, saying what to do, when the venv's install predates pyproject.toml (its plugins)."""
    stamp = ROOT / ".venv" / "tofu-installed"   # scripts/install.sh: pyproject.toml's sha256 at install
    if stamp.exists() and not stamp.read_text().startswith(hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()):
        pytest.exit("pyproject.toml changed since .venv was installed (new plugins or dependencies): "
                    "run `bash scripts/install.sh --dev` and try again.", returncode=4)
    try:
        for group in (plugins.DEVICES, plugins.PAGES, plugins.COMMANDS):
            plugins.found(group)
    except plugins.PluginsMissing as exc:
        pytest.exit(str(exc), returncode=4)


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
