"""USB NFC readers through PC/SC (``pyscard`` and the ``pcscd`` service).

Why PC/SC rather than nfcpy: the common USB readers (ACR122U, ACR1252U,
Identiv and other CCID readers) all work through the system's ``pcscd``
daemon, which handles hot-plugging and lets several programs share a reader,
and one standard command (GET DATA, ``FF CA 00 00 00``) returns the full UID on
every one of them.  nfcpy drives a short list of chips directly over libusb,
needs the kernel's NFC modules unloaded and is barely maintained.

The reader does its own anticollision: with two tags on it, it picks one, so
a USB reader cannot report a collision the way an MFRC522 does.
``smartcard`` is imported only when the reader is opened.
"""
from __future__ import annotations

import importlib

from .reader import GARBLED, NOTHING, TAG, Poll, ReaderDown, TagReader

#: PC/SC part 3 "GET DATA": the UID of the card on the reader.
GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]


class PcscReader(TagReader):
    """The first PC/SC reader whose name contains ``match`` (any reader when empty)."""

    kind = "usb"

    def __init__(self, name: str, match: str = ""):
        super().__init__(name)
        self.match = match
        self.device = None
        self._system = self._exceptions = None

    @property
    def group(self) -> str:
        return f"usb:{self.name}"

    def describe(self) -> str:
        found = f" ({self.device})" if self.device is not None else ""
        wanted = f" matching {self.match!r}" if self.match else ""
        return f"USB PC/SC reader{wanted}{found}"

    def _readers(self) -> list:
        try:
            return list(self._system.readers())
        except Exception as exc:   # pyscard raises its own error types when pcscd is not running
            raise ReaderDown(f"PC/SC does not answer ({exc}): is pcscd installed and running?") from exc

    def open(self) -> None:
        try:
            self._system = importlib.import_module("smartcard.System")
            self._exceptions = importlib.import_module("smartcard.Exceptions")
        except ImportError as exc:
            raise ReaderDown("pyscard is not installed: pip install 'tofu-table[usb]' "
                             "(and apt install pcscd)") from exc
        found = [r for r in self._readers() if self.match.lower() in str(r).lower()]
        if not found:
            raise ReaderDown(f"no USB reader{' matching ' + repr(self.match) if self.match else ''} "
                             "is connected")
        self.device = found[0]

    def close(self) -> None:
        self.device = None

    def poll(self) -> Poll:
        if self.device is None:
            raise ReaderDown("the reader is not open")
        errors = self._exceptions
        connection = self.device.createConnection()
        try:
            connection.connect()
        except errors.NoCardException:
            return NOTHING
        except errors.CardConnectionException as exc:
            if str(self.device) not in [str(r) for r in self._readers()]:
                raise ReaderDown(f"{self.device} was unplugged") from exc
            return NOTHING     # a card that left during the connect, or does not answer
        try:
            data, sw1, sw2 = connection.transmit(GET_UID)
        except errors.CardConnectionException:
            return Poll(GARBLED, detail="the card left or did not answer GET DATA")
        finally:
            try:
                connection.disconnect()
            except errors.CardConnectionException:
                pass
        if (sw1, sw2) != (0x90, 0x00) or len(data) not in (4, 7, 10):
            return Poll(GARBLED, detail=f"GET DATA answered {sw1:02X}{sw2:02X} with {len(data)} bytes")
        return Poll(TAG, uid=bytes(data).hex().upper())
