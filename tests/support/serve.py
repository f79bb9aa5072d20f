"""Entry point for test servers: the real `tofu-table serve`, with the test games registered.

``TOFU_TEST_REFUSAL_BURST``, ``TOFU_TEST_REFUSALS_PER_SECOND`` and ``TOFU_TEST_WRONG_TOKENS_ALLOWED``
set the per-device limits (server/throttle.py): small, so a test reaches them with a few dozen
requests on any machine; large, for a test that sends hundreds of bad requests on purpose.
"""
import os
import sys

from server import games, throttle
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
    sys.exit(main(sys.argv[1:]))
