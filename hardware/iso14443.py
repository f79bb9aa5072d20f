"""ISO/IEC 14443-3 type A framing: the commands, CRC_A, BCC and cascade levels.

Pure functions shared by the MFRC522 driver and the chip emulator used in the
tests, so both speak the same protocol::

    REQA / WUPA          7-bit short frames; a card answers with its 2-byte ATQA
    ANTICOLLISION  CLn   [SEL, 0x20]  -> 4 UID bytes (or CT + 3 bytes) + BCC
    SELECT         CLn   [SEL, 0x70, 4 bytes, BCC, CRC_A] -> SAK + CRC_A
    HLTA                 [0x50, 0x00, CRC_A]; the card goes quiet until a WUPA

A UID of 4 bytes needs one cascade level, 7 bytes two, 10 bytes three; every
level but the last starts with the cascade tag 0x88 and its SAK has bit 0x04
set ("UID not complete").
"""
from __future__ import annotations

REQA = 0x26
WUPA = 0x52
HLTA = 0x50
NVB_ANTICOLLISION = 0x20
NVB_SELECT = 0x70
#: SEL byte for cascade levels 1, 2 and 3.
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
#: SAK bit: the UID continues at the next cascade level.
SAK_UID_NOT_COMPLETE = 0x04
UID_LENGTHS = (4, 7, 10)


def crc_a(data: bytes | list[int]) -> bytes:
    """The CRC_A of ISO/IEC 14443-3 (initial value 0x6363), least significant byte first."""
    crc = 0x6363
    for byte in data:
        byte = (byte ^ (crc & 0xFF)) & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(four: bytes | list[int]) -> int:
    """The block check character of one cascade level: XOR of its four bytes."""
    out = 0
    for byte in four:
        out ^= byte
    return out


def cascade_parts(uid: bytes) -> list[bytes]:
    """The four bytes a card sends at each cascade level for ``uid`` (4, 7 or 10 bytes)."""
    if len(uid) not in UID_LENGTHS:
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    if len(uid) > 4 and uid[0] == CASCADE_TAG:
        raise ValueError("a multi-level UID cannot start with the cascade tag 0x88")
    parts, rest = [], bytes(uid)
    while len(rest) > 4:
        parts.append(bytes((CASCADE_TAG,)) + rest[:3])
        rest = rest[3:]
    parts.append(rest)
    return parts


def uid_hex(uid: bytes) -> str:
    """A UID as the protocol writes it: upper-case hex, no separators."""
    return uid.hex().upper()
