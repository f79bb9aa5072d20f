"""server/fanout.py hooks Engine.IO's own driver table (issue 20): it must take effect on the
Engine.IO this project installs, and a changed Engine.IO must leave the server working as before."""
import logging
from types import SimpleNamespace

import engineio

from server import fanout


def test_the_installed_engineio_writes_every_websocket_through_the_one_writer():
    eio = engineio.Server(async_mode="threading")
    assert isinstance(fanout.install(eio), fanout.Fanout)
    assert eio._async["websocket"] is fanout.FanoutWebSocket
    assert isinstance(eio._async["queue"](), fanout.FanoutQueue)


def test_a_driver_table_it_does_not_know_is_left_as_it_is_and_said(caplog):
    unknown = SimpleNamespace(async_mode="threading", _async={"thread": object})
    with caplog.at_level(logging.WARNING, logger="server.fanout"):
        assert fanout.install(unknown) is None
    assert unknown._async == {"thread": object}
    assert "each screen keeps a writer thread of its own" in caplog.text
