"""The USB (PC/SC) reader driver, on a fake ``smartcard.scard`` (pyscard's PC/SC calls): no device needed.

The fake behaves as pcscd does for the calls the driver makes: a context per
``SCardEstablishContext``; ``SCardGetStatusChange`` returns at once when the
reader's state differs from the one passed in (the event count in the high 16
bits changes with every card arriving or leaving) and otherwise waits up to its
timeout and returns ``SCARD_E_TIMEOUT``; ``SCardConnect`` fails on an empty
reader; ``SCardTransmit`` answers GET DATA with the UID and 90 00; a disconnect
with anything but ``SCARD_LEAVE_CARD`` powers the card down and up again.
"""
import sys
import threading
import types

import pytest

from hardware.hub import ReaderHub
from hardware.reader import GARBLED, NO_TAG, TAG, Poll, ReaderDown
from hardware.usb_reader import GET_UID, PcscReader
from tests.support.hardware_helpers import Recorder, wait_for

SUCCESS, TIMEOUT, UNKNOWN_READER, NO_SMARTCARD = 0, 0x8010000A, 0x80100009, 0x8010000C
UNAWARE, CHANGED, UNKNOWN, UNAVAILABLE, EMPTY, PRESENT, MUTE = 0, 2, 4, 8, 0x10, 0x20, 0x200
LEAVE_CARD, UNPOWER_CARD = 0, 2


class Pcscd:
    """The pcscd service with its readers: {name: uid or None}, and what was done to it."""

    def __init__(self):
        self.readers: dict[str, str | None] = {}
        self.events: dict[str, int] = {}
        self.status = (0x90, 0x00)
        self.contexts = self.connects = self.power_cycles = self.status_calls = 0
        self.changed = threading.Condition()

    def plug(self, name):
        with self.changed:
            self.readers[name] = None
            self.events[name] = 0
            self.changed.notify_all()

    def unplug(self, name):
        with self.changed:
            del self.readers[name]
            self.changed.notify_all()

    def put(self, name, uid):
        """A card arrives (uid) or leaves (None)."""
        with self.changed:
            self.readers[name] = uid
            self.events[name] += 1
            self.changed.notify_all()

    def state(self, name):
        if name not in self.readers:
            return UNKNOWN
        return (self.events[name] << 16) | (PRESENT if self.readers[name] else EMPTY)

    # ----- the smartcard.scard calls ---------------------------------------------
    def SCardEstablishContext(self, scope):
        self.contexts += 1
        return SUCCESS, self.contexts

    def SCardReleaseContext(self, context):
        return SUCCESS

    def SCardListReaders(self, context, groups):
        return (SUCCESS, list(self.readers)) if self.readers else (0x8010002E, [])

    def SCardGetStatusChange(self, context, timeout_ms, states):
        self.status_calls += 1
        (name, current), = states
        with self.changed:
            if current != UNAWARE and name in self.readers and self.state(name) == current:
                self.changed.wait(timeout_ms / 1000)
            if name in self.readers and self.state(name) == current:
                return TIMEOUT, []
            if name not in self.readers and current != UNAWARE:
                return UNKNOWN_READER, []
            return SUCCESS, [(name, self.state(name) | CHANGED, [])]

    def SCardConnect(self, context, name, share, protocols):
        if not self.readers.get(name):
            return NO_SMARTCARD, None, 0
        self.connects += 1
        return SUCCESS, name, 2

    def SCardTransmit(self, card, protocol, apdu):
        assert apdu == GET_UID
        uid = self.readers.get(card)
        if uid is None:
            return 0x80100069, []         # SCARD_W_REMOVED_CARD
        return SUCCESS, list(bytes.fromhex(uid)) + list(self.status)

    def SCardDisconnect(self, card, disposition):
        if disposition != LEAVE_CARD:
            self.power_cycles += 1
        return SUCCESS


ACR = "ACS ACR122U PICC Interface 01 00"


@pytest.fixture
def pcscd(monkeypatch):
    service = Pcscd()
    scard = types.ModuleType("smartcard.scard")
    for name in ("SCardEstablishContext", "SCardReleaseContext", "SCardListReaders", "SCardGetStatusChange",
                 "SCardConnect", "SCardTransmit", "SCardDisconnect"):
        setattr(scard, name, getattr(service, name))
    scard.SCardGetErrorMessage = lambda code: f"error 0x{code:08X}"
    constants = dict(SCARD_S_SUCCESS=SUCCESS, SCARD_E_TIMEOUT=TIMEOUT, SCARD_SCOPE_USER=0,
                     SCARD_STATE_UNAWARE=UNAWARE, SCARD_STATE_CHANGED=CHANGED, SCARD_STATE_UNKNOWN=UNKNOWN,
                     SCARD_STATE_UNAVAILABLE=UNAVAILABLE, SCARD_STATE_EMPTY=EMPTY,
                     SCARD_STATE_PRESENT=PRESENT, SCARD_STATE_MUTE=MUTE, SCARD_SHARE_SHARED=2,
                     SCARD_PROTOCOL_T0=1, SCARD_PROTOCOL_T1=2, SCARD_LEAVE_CARD=LEAVE_CARD)
    for name, value in constants.items():
        setattr(scard, name, value)
    monkeypatch.setitem(sys.modules, "smartcard", types.ModuleType("smartcard"))
    monkeypatch.setitem(sys.modules, "smartcard.scard", scard)
    service.plug("Generic Smart Card Reader 00 00")
    service.plug(ACR)
    return service


def test_the_reader_matching_the_configured_name_reads_full_uids(pcscd):
    reader = PcscReader("center", match="acr122")
    reader.open()
    assert "ACR122U" in reader.describe()
    assert reader.poll() == Poll(NO_TAG)
    pcscd.put(ACR, "04A224C2B31190")
    assert reader.poll() == Poll(TAG, uid="04A224C2B31190")


def test_a_resting_card_is_read_once_left_powered_and_one_context_serves_every_poll(pcscd):
    """Issue 18 item 10: no new context per poll, no connect while nothing changes, and the
    card is never powered down by a disconnect."""
    reader = PcscReader("center", match="ACR122")
    reader.open()
    pcscd.put(ACR, "04A224C2B31190")
    polls = [reader.poll() for _ in range(5)]
    assert polls == [Poll(TAG, uid="04A224C2B31190")] * 5
    assert (pcscd.contexts, pcscd.connects, pcscd.power_cycles) == (1, 1, 0)
    pcscd.put(ACR, None)
    assert reader.poll() == Poll(NO_TAG)
    pcscd.put(ACR, "A1B2C3D4")
    assert reader.poll() == Poll(TAG, uid="A1B2C3D4")
    assert (pcscd.contexts, pcscd.connects, pcscd.power_cycles) == (1, 2, 0)


def test_a_card_that_answers_with_an_error_status_is_garbled_and_asked_again(pcscd):
    reader = PcscReader("center", match="ACR122")
    reader.open()
    pcscd.status = (0x63, 0x00)
    pcscd.put(ACR, "04A224C2B31190")
    assert reader.poll().status == GARBLED
    pcscd.status = (0x90, 0x00)
    assert reader.poll() == Poll(TAG, uid="04A224C2B31190")


def test_an_unplugged_reader_is_down_and_a_missing_one_says_so(pcscd):
    reader = PcscReader("center", match="ACR122")
    reader.open()
    assert reader.poll() == Poll(NO_TAG)
    pcscd.unplug(ACR)
    with pytest.raises(ReaderDown, match="was unplugged"):
        reader.poll()
    with pytest.raises(ReaderDown, match="no USB reader matching 'ACR122' is connected"):
        reader.open()
    pcscd.plug(ACR)
    reader.open()
    assert reader.poll() == Poll(NO_TAG)


def test_the_hub_on_a_usb_reader_taps_once_and_lifts_once(pcscd):
    sink = Recorder()
    hub = ReaderHub([PcscReader("center", match="ACR122")], sink, lift_after=0.05)
    hub.start()
    try:
        wait_for(lambda: hub.health()[0]["status"] == "ok", what="the reader up")
        pcscd.put(ACR, "04A224C2B31190")
        wait_for(lambda: sink.inputs, what="the tap")
        calls = pcscd.status_calls
        wait_for(lambda: pcscd.status_calls > calls + 3, what="more polls")
        pcscd.put(ACR, None)
        wait_for(lambda: len(sink.inputs) == 2, what="the lift")
    finally:
        hub.stop()
    assert sink.kinds() == ["tap", "lift"] and pcscd.connects == 1 and pcscd.power_cycles == 0


def test_without_pyscard_the_reader_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "smartcard.scard", None)
    with pytest.raises(ReaderDown, match="pyscard is not installed"):
        PcscReader("center").open()
