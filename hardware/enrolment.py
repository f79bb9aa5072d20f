"""Enrolment: stick tags on a set of cards, then tap them one by one in the order shown.

Shared by the /enrol page and ``tofu-table enrol``.  A *card set* is what
you tag in one sitting: one Tofu God set (``tofu-god/set-3``), the Tofu
Kingdom coasters (``tofu-kingdom``), or any other game's cards, taken from
the games' ``Game.cards()``.

Each tap answers with a :class:`Step` (what happened, in words, and whether
it was accepted).  A tag that belongs to a card of another set is not moved
silently: the session asks, and :meth:`Enrolment.answer` moves it or not.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from server import games

from .registry import RegistryError, TagRegistry, TagTaken, normalise_uid


def card_sets() -> list[dict]:
    """Every set of cards that can be enrolled: ``{"id", "title", "cards"}``."""
    sets: dict[str, dict] = {}
    for game in games.all_games():
        for card in game.cards():
            parts = card.split("/")
            set_id = "/".join(parts[:2]) if len(parts) > 2 else parts[0]
            title = f"{game.name} {parts[1].replace('-', ' ')}" if len(parts) > 2 else f"{game.name} cards"
            sets.setdefault(set_id, {"id": set_id, "title": title, "cards": []})["cards"].append(card)
    return list(sets.values())


def card_set(set_id: str) -> dict:
    """One set by id; RegistryError naming the known sets otherwise."""
    for entry in card_sets():
        if entry["id"] == set_id:
            return entry
    known = ", ".join(s["id"] for s in card_sets())
    raise RegistryError("unknown_set", f"There is no card set {set_id!r}; choose one of: {known}.")


@dataclass
class Step:
    """The answer to one tap or question: ``result`` is one of enrolled, already,
    ask_move, refused, moved, kept; ``accepted`` says which signal to give."""

    result: str
    message: str
    accepted: bool

    def as_dict(self) -> dict:
        return {"result": self.result, "message": self.message, "accepted": self.accepted}


class Enrolment:
    """One sitting: the cards of one set, tapped in order into ``registry``."""

    def __init__(self, registry: TagRegistry, set_id: str):
        entry = card_set(set_id)
        self.registry = registry
        self.set_id, self.title, self.cards = entry["id"], entry["title"], list(entry["cards"])
        self.index = 0
        self.pending: tuple[str, str] | None = None    # (uid, card it belongs to) awaiting an answer
        self.history: list[dict] = []
        self._this_sitting: set[str] = set()
        self._lock = threading.Lock()

    @property
    def done(self) -> bool:
        return self.index >= len(self.cards)

    @property
    def current(self) -> str | None:
        """The card to tap next."""
        return None if self.done else self.cards[self.index]

    def _record(self, step: Step) -> Step:
        self.history = (self.history + [step.as_dict()])[-20:]
        return step

    def _enrolled(self, uid: str, card: str, move: bool) -> Step:
        words = self.registry.enrol(uid, card, move=move)
        self._this_sitting.add(uid)
        self.index += 1
        nxt = f" Next: {self.current}." if self.current else " That was the last card of the set."
        return Step("moved" if move else "enrolled", words + nxt, True)

    def tap(self, uid: str) -> Step:
        """A tag was tapped: enrol it to the current card, or say why not."""
        with self._lock:
            try:
                uid = normalise_uid(uid)
            except RegistryError as exc:
                return self._record(Step("refused", exc.message, False))
            if self.pending is not None:
                return self._record(Step("refused", f"First answer the question about tag {self.pending[0]}.",
                                         False))
            if self.done:
                return self._record(Step("refused", f"Every card of {self.title} is enrolled; "
                                         "choose another set.", False))
            card = self.current
            owner = self.registry.card_of(uid)
            if owner == card:
                self.index += 1
                return self._record(Step("already", f"Tag {uid} was already {card}.", True))
            if owner is not None and uid in self._this_sitting:
                return self._record(Step("refused", f"That tag is {owner}, enrolled a moment ago; "
                                         f"now tap {card}.", False))
            try:
                return self._record(self._enrolled(uid, card, move=False))
            except TagTaken as exc:
                self.pending = (uid, exc.card)
                return self._record(Step("ask_move", f"Tag {uid} is already {exc.card}. Move it to {card}? "
                                         f"({exc.card} would then have no tag.)", False))

    def answer(self, move: bool) -> Step:
        """Answer the pending question: move the tag to the current card, or keep it where it is."""
        with self._lock:
            if self.pending is None:
                return self._record(Step("refused", "There is no question to answer.", False))
            uid, owner = self.pending
            self.pending = None
            if move:
                return self._record(self._enrolled(uid, self.current, move=True))
            return self._record(Step("kept", f"Tag {uid} stays {owner}. Tap another tag for {self.current}.",
                                     False))

    def skip(self) -> None:
        """Leave the current card without a tag for now."""
        with self._lock:
            self.pending = None
            if not self.done:
                self.index += 1

    def view(self) -> dict:
        """Everything the enrol screens show."""
        with self._lock:
            return {"set": self.set_id, "title": self.title, "index": self.index, "done": self.done,
                    "current": self.current,
                    "cards": [{"card": c, "uid": self.registry.uid_of(c)} for c in self.cards],
                    "question": ({"uid": self.pending[0], "card": self.pending[1]} if self.pending else None),
                    "history": list(self.history)}
