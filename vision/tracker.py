"""From per-frame readings to committed board snapshots.

While a board is busy nothing happens and the votes are dropped.  Once it has
been still for ``still_frames`` frames, each slot's majority label over those
frames is the candidate; a slot without a clear majority, or whose majority is
``unknown``, keeps its committed value and is reported as unsure.  A candidate
that changes more than ``max_changes`` slots at once is held for a second look:
it is committed only if the next ``still_frames // 2`` still frames give the same
changes.  When something changed, the committed input carries every slot the camera is sure
of (not only the changed ones), so the game always has the camera's whole view; a reading that
changes nothing is never sent.
"""
from __future__ import annotations

from collections import Counter, deque

from .tokens import UNKNOWN


class SnapshotTracker:
    """Votes per slot across still frames; commits plausible changes."""

    def __init__(self, board: str, slots: list[str], still_frames: int = 8, max_changes: int = 6):
        self.board = board
        self.slots = slots
        self.still_frames = max(1, still_frames)
        self.max_changes = max_changes
        self.committed: dict[str, str | None] | None = None
        self.votes: deque = deque(maxlen=self.still_frames)
        self.held: dict | None = None
        self.unsure: list[str] = []
        self.state = "waiting"          # waiting, busy, settling, still, held

    def reset(self) -> None:
        """Drop the votes (the board moved, or was lost)."""
        self.votes.clear()
        self.held = None

    def update(self, labels: list | None, busy: bool) -> dict | None:
        """Feed one frame (labels in slot order, or None when unreadable); a ``board`` input or None."""
        if busy or labels is None:
            self.votes.clear()
            self.state = "busy"
            return None
        self.votes.append(labels)
        needed = self.still_frames if self.held is None else max(1, self.still_frames // 2)
        if len(self.votes) < needed:
            if self.state not in ("still", "held"):
                self.state = "settling"
            return None
        candidate, unsure = {}, []
        first = self.votes[0]
        # the same reading in every frame (a board not read again in between): no need to count
        same = all(v is first or v == first for v in self.votes)
        for i, slot in enumerate(self.slots):
            if same:
                label, count = first[i], len(self.votes)
            else:
                label, count = Counter(v[i] for v in self.votes).most_common(1)[0]
            if label == UNKNOWN or count * 2 <= len(self.votes):
                unsure.append(slot)
            else:
                candidate[slot] = label
        self.unsure = unsure
        if self.committed is None:
            changes = candidate
        else:
            changes = {s: v for s, v in candidate.items() if self.committed.get(s) != v}
        self.votes.clear()
        if not changes:
            self.held, self.state = None, "still"
            return None
        if self.committed is not None and len(changes) > self.max_changes and self.held != changes:
            self.held, self.state = changes, "held"
            return None
        self.held, self.state = None, "still"
        self.committed = {**(self.committed or {}), **changes}
        return {"board": {"board": self.board, "slots": dict(sorted(candidate.items()))}}
