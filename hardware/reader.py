"""The one interface every NFC reader driver implements, and what a poll returns.

A driver (MFRC522 over SPI, a USB PC/SC reader, the simulated reader) only
answers "what is on the reader right now?".  Turning a stream of polls into
``tap`` and ``lift`` inputs, debouncing and fault handling belong to the
reader hub (:mod:`hardware.hub`), so every driver behaves the same at the table.
"""
from __future__ import annotations

from dataclasses import dataclass

NO_TAG = "no_tag"
TAG = "tag"
#: Two or more tags answer at once; no UID can be trusted.
COLLISION = "collision"
#: Something answered but the frame failed a CRC/BCC/parity check: try again.
GARBLED = "garbled"


@dataclass(frozen=True)
class Poll:
    """The result of one poll: ``status`` is one of NO_TAG, TAG, COLLISION, GARBLED.

    ``uid`` is the full UID in upper-case hex (8, 14 or 20 digits) when
    ``status`` is TAG; ``detail`` says what went wrong otherwise.
    """

    status: str
    uid: str | None = None
    detail: str = ""


NOTHING = Poll(NO_TAG)


class ReaderDown(RuntimeError):
    """The reader does not answer at all (unplugged, SPI error, no driver): the hub retries later."""


class ReaderBusy(ReaderDown):
    """Another program holds the reader (its lock on the device is taken)."""


class TagReader:
    """A reader at one place on the table (``name`` is a protocol reader such as ``seat-2``).

    ``kind`` names the driver; readers with the same ``group`` share a bus
    and are polled one after another from one thread.
    """

    kind = "reader"

    def __init__(self, name: str):
        self.name = name

    @property
    def group(self) -> str:
        """Readers of one group are polled from the same thread (one per bus)."""
        return self.kind

    def open(self) -> None:
        """Claim the device; raises ReaderDown (with a plain reason) when it is not there."""

    def poll(self) -> Poll:
        """What is on the reader now; raises ReaderDown when the reader stopped answering."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device (safe to call twice, and after a failed open)."""

    def describe(self) -> str:
        """Where the reader is connected, in plain words (for doctor and health)."""
        return self.kind
