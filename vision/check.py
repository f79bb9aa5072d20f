"""Scoring readings against the truth: per-slot errors, boards fully right, confusion pairs.

Used by ``tofu-table vision check`` (an owner's photos with a ground-truth file), the
calibrate page's self-test, the benchmark and the tests, so all of them count alike.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .tokens import UNKNOWN


@dataclass
class Tally:
    """Slots and boards read, and what went wrong."""

    slots: int = 0
    errors: int = 0
    unknown: int = 0                 # read "unknown" (unsure: no harm done, but no reading)
    wrong: int = 0                   # read as another value with confidence (the harmful kind)
    boards: int = 0
    boards_right: int = 0
    unread_boards: int = 0           # not found or not readable at all: every slot counts as an error
    confusions: Counter = field(default_factory=Counter)     # (truth, read) -> count

    def add_board(self, truth: dict[str, str | None], read: dict[str, object] | None) -> None:
        """One board in one picture: the true value of each slot and what was read (None: board unread)."""
        self.boards += 1
        if read is None:
            self.unread_boards += 1
        ok = True
        for slot, want in truth.items():
            got = read.get(slot, UNKNOWN) if read is not None else UNKNOWN
            self.slots += 1
            if got == want:
                continue
            ok = False
            self.errors += 1
            if got == UNKNOWN:
                self.unknown += 1
            else:
                self.wrong += 1
            self.confusions[(want or "empty", got or "empty")] += 1
        self.boards_right += ok

    def merge(self, other: "Tally") -> "Tally":
        """This tally plus ``other`` (a new tally)."""
        out = Tally()
        for name in ("slots", "errors", "unknown", "wrong", "boards", "boards_right", "unread_boards"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        out.confusions = self.confusions + other.confusions
        return out

    @property
    def error_rate(self) -> float:
        return self.errors / self.slots if self.slots else 0.0

    def summary(self, pairs: int = 6) -> dict:
        """The figures as a dict (what the CLI and the page print)."""
        return {"slots": self.slots, "errors": self.errors, "error_percent": round(100 * self.error_rate, 3),
                "unknown": self.unknown, "wrong": self.wrong, "boards": self.boards,
                "boards_right": self.boards_right, "unread_boards": self.unread_boards,
                "boards_right_percent": round(100 * self.boards_right / self.boards, 1) if self.boards else 0.0,
                "confusions": [{"truth": t, "read": r, "count": n}
                               for (t, r), n in self.confusions.most_common(pairs)]}
