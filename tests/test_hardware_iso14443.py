"""ISO/IEC 14443-3 framing, checked against frames as they appear in real reader traces
(the driver and the emulator share these functions, so they must be right on their own)."""
import pytest

from hardware.iso14443 import bcc, cascade_parts, crc_a


@pytest.mark.parametrize("frame, crc", [
    ("5000", "57cd"),     # HLTA
    ("08", "b6dd"),       # SAK of a MIFARE Classic 1K
    ("04", "da17"),       # SAK "UID not complete"
    ("00", "fe51"),       # SAK of an NTAG / Ultralight
])
def test_crc_a_matches_real_traces(frame, crc):
    assert crc_a(bytes.fromhex(frame)).hex() == crc


def test_a_7_byte_uid_is_sent_as_cascade_tag_plus_3_bytes_then_4_bytes():
    parts = cascade_parts(bytes.fromhex("04A224C2B31190"))
    assert [p.hex().upper() for p in parts] == ["8804A224", "C2B31190"]
    assert bcc(parts[0]) == 0x88 ^ 0x04 ^ 0xA2 ^ 0x24


def test_a_10_byte_uid_needs_three_levels_and_bad_lengths_are_refused():
    assert [p.hex().upper() for p in cascade_parts(bytes.fromhex("04112233445566778899"))] == \
        ["88041122", "88334455", "66778899"]
    with pytest.raises(ValueError, match="4, 7 or 10 bytes"):
        cascade_parts(bytes(5))
