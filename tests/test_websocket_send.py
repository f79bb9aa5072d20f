"""A websocket frame written with the interpreter kept: all of it arrives, in order, even when the
kernel takes only part of it at once (the rest is written blocking, as a slow screen's always was)."""
import socket
import ssl
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


def test_a_tls_screens_frame_goes_through_tls_never_straight_to_the_kernel():
    """Should the server ever speak wss, a frame's plain bytes must not reach the wire."""
    writer, reader = socket.socketpair()
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).wrap_socket(writer, server_hostname="table.local",
                                                             do_handshake_on_connect=False)
    tls.settimeout(0.5)            # TLS's own sendall starts a handshake nobody answers here
    try:
        with pytest.raises(OSError):
            send_all(tls, b"seat 3's hand")
        reader.settimeout(5)
        on_the_wire = reader.recv(65536)
    finally:
        tls.close()
        reader.close()
    assert on_the_wire[:1] == b"\x16"          # a TLS handshake record, not the frame
    assert b"seat 3's hand" not in on_the_wire
