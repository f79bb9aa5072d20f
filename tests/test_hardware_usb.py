"""The USB (PC/SC) reader driver, on a fake ``smartcard`` package: no device needed.

The fake answers like pyscard does: ``readers()`` lists the connected readers,
``connect()`` raises NoCardException when the reader is empty, and the GET
DATA command returns the UID with status 90 00.
"""
import sys
import types

import pytest

from hardware.reader import GARBLED, NO_TAG, TAG, Poll, ReaderDown
from hardware.usb_reader import GET_UID, PcscReader


class NoCardException(Exception):
    pass


class CardConnectionException(Exception):
    pass


class FakeReader:
    def __init__(self, name):
        self.name, self.uid, self.status = name, None, (0x90, 0x00)

    def __str__(self):
        return self.name

    def createConnection(self):
        return FakeConnection(self)


class FakeConnection:
    def __init__(self, reader):
        self.reader = reader

    def connect(self):
        if self.reader not in PCSC.connected:
            raise CardConnectionException("The specified reader is not currently available for use.")
        if self.reader.uid is None:
            raise NoCardException("No smart card inserted.")

    def transmit(self, apdu):
        assert apdu == GET_UID
        return list(bytes.fromhex(self.reader.uid)), *self.reader.status

    def disconnect(self):
        pass


class PCSC:
    connected: list[FakeReader] = []


@pytest.fixture
def pcsc(monkeypatch):
    package = types.ModuleType("smartcard")
    system = types.ModuleType("smartcard.System")
    system.readers = lambda: list(PCSC.connected)
    errors = types.ModuleType("smartcard.Exceptions")
    errors.NoCardException, errors.CardConnectionException = NoCardException, CardConnectionException
    for name, module in (("smartcard", package), ("smartcard.System", system), ("smartcard.Exceptions", errors)):
        monkeypatch.setitem(sys.modules, name, module)
    PCSC.connected = [FakeReader("Generic Smart Card Reader 00 00"),
                      FakeReader("ACS ACR122U PICC Interface 01 00")]
    yield PCSC.connected
    PCSC.connected = []


def test_the_reader_matching_the_configured_name_reads_full_uids(pcsc):
    reader = PcscReader("center", match="acr122")
    reader.open()
    assert "ACR122U" in reader.describe()
    assert reader.poll() == Poll(NO_TAG)
    pcsc[1].uid = "04A224C2B31190"
    assert reader.poll() == Poll(TAG, uid="04A224C2B31190")


def test_a_card_that_answers_with_an_error_status_is_garbled_not_a_uid(pcsc):
    reader = PcscReader("center", match="ACR122")
    reader.open()
    pcsc[1].uid, pcsc[1].status = "04A224C2B31190", (0x63, 0x00)
    assert reader.poll().status == GARBLED


def test_an_unplugged_reader_is_down_and_a_missing_one_says_so(pcsc):
    reader = PcscReader("center", match="ACR122")
    reader.open()
    acr = pcsc.pop(1)
    with pytest.raises(ReaderDown, match="was unplugged"):
        reader.poll()
    with pytest.raises(ReaderDown, match="no USB reader matching 'ACR122' is connected"):
        reader.open()
    pcsc.append(acr)
    reader.open()
    assert reader.poll() == Poll(NO_TAG)


def test_without_pyscard_the_reader_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "smartcard.System", None)
    with pytest.raises(ReaderDown, match="pyscard is not installed"):
        PcscReader("center").open()
