"""USB NFC readers through PC/SC (``pyscard`` and the ``pcscd`` service).

Why PC/SC rather than nfcpy: the common USB readers (ACR122U, ACR1252U,
Identiv and other CCID readers) all work through the system's ``pcscd``
daemon, which handles hot-plugging and lets several programs share a reader,
and one standard command (GET DATA, ``FF CA 00 00 00``) returns the full UID on
every one of them.  nfcpy drives a short list of chips directly over libusb,
needs the kernel's NFC modules unloaded and is barely maintained.

The driver keeps one PC/SC context and watches the reader with
``SCardGetStatusChange`` (the call pyscard's card monitoring is built on): a poll
waits up to ``WAIT_MS`` for the reader's state to change and otherwise reports
what it saw last, so no context is opened per poll.  Only when a card arrives is
it connected to, asked for its UID and left powered (``SCARD_LEAVE_CARD``):
disconnecting with "unpower" can power-cycle the card on every poll.

The reader does its own anticollision: with two tags on it, it picks one, so
a USB reader cannot report a collision the way an MFRC522 does.
``smartcard`` is imported only when the reader is opened.
"""
from __future__ import annotations

import importlib

from .reader import GARBLED, NOTHING, TAG, Poll, ReaderDown, TagReader

#: PC/SC part 3 "GET DATA": the UID of the card on the reader.
GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
#: How long one poll waits for the reader's state to change, in milliseconds.
WAIT_MS = 100


class PcscReader(TagReader):
    """The first PC/SC reader whose name contains ``match`` (any reader when empty)."""

    kind = "usb"

    def __init__(self, name: str, match: str = ""):
        super().__init__(name)
        self.match = match
        self.device: str | None = None
        self._scard = None
        self._context = None
        self._state = 0              # the reader's last event state (SCARD_STATE_UNAWARE at first)
        self._seen = NOTHING         # what is on it, as last read

    @property
    def group(self) -> str:
        return f"usb:{self.name}"

    def describe(self) -> str:
        found = f" ({self.device})" if self.device is not None else ""
        wanted = f" matching {self.match!r}" if self.match else ""
        return f"USB PC/SC reader{wanted}{found}"

    def open(self) -> None:
        try:
            scard = importlib.import_module("smartcard.scard")
        except ImportError as exc:
            raise ReaderDown("pyscard is not installed: pip install 'tofu-table[usb]' "
                             "(and apt install pcscd)") from exc
        self.close()
        hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hresult != scard.SCARD_S_SUCCESS:
            raise ReaderDown(f"PC/SC does not answer ({scard.SCardGetErrorMessage(hresult)}): is pcscd "
                             "installed and running, and may this user use it (see docs/pi.md)?")
        self._scard, self._context = scard, context
        hresult, readers = scard.SCardListReaders(context, [])
        found = [r for r in (readers if hresult == scard.SCARD_S_SUCCESS else [])
                 if self.match.lower() in r.lower()]
        if not found:
            self.close()
            raise ReaderDown(f"no USB reader{' matching ' + repr(self.match) if self.match else ''} "
                             "is connected")
        self.device, self._state, self._seen = found[0], scard.SCARD_STATE_UNAWARE, NOTHING

    def close(self) -> None:
        if self._context is not None:
            self._scard.SCardReleaseContext(self._context)
        self._context, self.device = None, None

    def poll(self) -> Poll:
        if self._context is None:
            raise ReaderDown("the reader is not open")
        scard = self._scard
        hresult, states = scard.SCardGetStatusChange(self._context, WAIT_MS, [(self.device, self._state)])
        if hresult == scard.SCARD_E_TIMEOUT:
            return self._seen
        if hresult != scard.SCARD_S_SUCCESS:
            raise ReaderDown(f"{self.device} was unplugged, or pcscd stopped "
                             f"({scard.SCardGetErrorMessage(hresult)})")
        _, event, _ = states[0]
        if event & (scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_UNAVAILABLE):
            raise ReaderDown(f"{self.device} was unplugged")
        self._state = event & ~scard.SCARD_STATE_CHANGED
        if event & scard.SCARD_STATE_PRESENT and not event & scard.SCARD_STATE_MUTE:
            self._seen = self._read_uid()
            if self._seen.status == GARBLED:
                self._state = scard.SCARD_STATE_UNAWARE     # ask again on the next poll
        else:
            self._seen = NOTHING
        return self._seen

    def _read_uid(self) -> Poll:
        """Connect to the card that arrived, ask for its UID and leave it powered."""
        scard = self._scard
        hresult, card, protocol = scard.SCardConnect(self._context, self.device, scard.SCARD_SHARE_SHARED,
                                                     scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
        if hresult != scard.SCARD_S_SUCCESS:
            return Poll(GARBLED, detail="the card left or did not answer the connect")
        try:
            hresult, answer = scard.SCardTransmit(card, protocol, GET_UID)
        finally:
            scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
        if hresult != scard.SCARD_S_SUCCESS or len(answer) < 2:
            return Poll(GARBLED, detail="the card left or did not answer GET DATA")
        data, status = answer[:-2], tuple(answer[-2:])
        if status != (0x90, 0x00) or len(data) not in (4, 7, 10):
            return Poll(GARBLED, detail=f"GET DATA answered {status[0]:02X}{status[1]:02X} with {len(data)} bytes")
        return Poll(TAG, uid=bytes(data).hex().upper())
