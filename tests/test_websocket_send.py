"""A websocket frame written with the interpreter kept: all of it arrives, in order, even when the
kernel takes only part of it at once (the rest is written blocking, as a slow screen's always was)."""
import socket
import threading

import pytest

from server.websocket_send import send_all


def test_a_frame_larger_than_the_send_buffer_arrives_whole_and_in_order():
    writer, reader = socket.socketpair()
    writer.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    data = bytes(range(256)) * 8192            # 2 MiB: far more than the kernel takes at once
    got = bytearray()

    def read_slowly():
        while len(got) < len(data):
            chunk = reader.recv(65536)
            if not chunk:
                return
            got.extend(chunk)

    thread = threading.Thread(target=read_slowly)
    thread.start()
    try:
        send_all(writer, data)
        thread.join(10)
    finally:
        writer.close()
        reader.close()
    assert bytes(got) == data


def test_a_closed_connection_is_an_error_as_before():
    writer, reader = socket.socketpair()
    reader.close()
    try:
        with pytest.raises(OSError):
            send_all(writer, b"x" * 100_000)
    finally:
        writer.close()
