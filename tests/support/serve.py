"""Entry point for test servers: the real `tofu-table serve`, with the test games registered.

``TOFU_TEST_REFUSAL_BURST``, ``TOFU_TEST_REFUSALS_PER_SECOND`` and ``TOFU_TEST_WRONG_TOKENS_ALLOWED``
set the per-device limits (server/throttle.py): small, so a test reaches them with a few dozen
requests on any machine; large, for a test that sends hundreds of bad requests on purpose.
``TOFU_TEST_PING_INTERVAL``, ``TOFU_TEST_PING_TIMEOUT`` (Engine.IO's ping) and
``TOFU_TEST_DROP_AFTER_SECONDS`` (server/backlog.py) let a test choose what closes a stalled screen
first.
"""
import os
import sys

from server import backlog, games, publisher, throttle
from server.cli import main
from tests.support import faulty_game, tiny_game

if __name__ == "__main__":
    games.register(tiny_game.GAME)
    games.register(faulty_game.GAME)
    throttle.WRONG_TOKENS_ALLOWED = int(os.environ.get("TOFU_TEST_WRONG_TOKENS_ALLOWED",
                                                       throttle.WRONG_TOKENS_ALLOWED))
    throttle.REFUSAL_BURST = int(os.environ.get("TOFU_TEST_REFUSAL_BURST", throttle.REFUSAL_BURST))
    throttle.REFUSALS_PER_SECOND = float(os.environ.get("TOFU_TEST_REFUSALS_PER_SECOND",
                                                        throttle.REFUSALS_PER_SECOND))
    backlog.PING_INTERVAL_SECONDS = int(os.environ.get("TOFU_TEST_PING_INTERVAL", backlog.PING_INTERVAL_SECONDS))
    backlog.PING_TIMEOUT_SECONDS = int(os.environ.get("TOFU_TEST_PING_TIMEOUT", backlog.PING_TIMEOUT_SECONDS))
    publisher.DROP_AFTER_SECONDS = float(os.environ.get("TOFU_TEST_DROP_AFTER_SECONDS",
                                                        publisher.DROP_AFTER_SECONDS))
    sys.exit(main(sys.argv[1:]))
