"""Per-slot classification: empty, a token type with a confidence, or ``unknown``.

For each slot the pipeline samples two zones of the slot's centre (an inner
disc and a ring around it) through the board's homography.  The features are
the log ratios of those zones' mean colours to the same zones on the empty
board (recorded at calibration), after the frame's colour has been corrected
with the board's grey reference patch.  Ratios to the empty board cancel the
table's uneven light (it is the same lamp at calibration and at play); the
patch cancels later drift of exposure and white balance.

The empty class sits at zero; each token type sits where its calibration
capture put it.  A slot gets the nearest class by a scaled distance; the
confidence is that class's share of the Gaussian likelihoods; a slot too far
from every class, or with too small a margin, is ``unknown``.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .layout import Layout
from .tokens import EMPTY, UNKNOWN

#: Sample zones as fractions of the token radius: inner disc and outer ring.
INNER = 0.45
RING = (0.56, 0.72)
#: Spread of each feature around its class centre (log colour ratio units): the inner
#: disc varies more (the token's printed icon falls differently in it), the ring less.
SIGMA = np.array([0.15, 0.15, 0.15, 0.06, 0.06, 0.06], np.float32)
#: Grey levels of spread that do not shrink with brightness (noise, blur, JPEG colour bleeding).
LEVEL_NOISE = 4
#: Added to every grey level before taking ratios, so dark channels do not dominate with noise.
DARK = 12.0
#: Farther than this many sigmas from every class: unknown.
MAX_DISTANCE = 4.0
#: Below this share of the likelihood: unknown.
MIN_CONFIDENCE = 0.9


def sample_offsets(radius_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Sample points (mm, relative to a slot centre) of the inner disc and of the ring."""
    g = np.linspace(-1, 1, 9)
    xx, yy = np.meshgrid(g, g)
    r = np.hypot(xx, yy)
    inner = np.column_stack([xx[r <= 1], yy[r <= 1]]) * INNER * radius_mm
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = np.concatenate([np.column_stack([np.cos(angles), np.sin(angles)]) * f * radius_mm
                           for f in np.linspace(RING[0], RING[1], 2)])
    return inner.astype(np.float32), ring.astype(np.float32)


def zone_means(samples: np.ndarray, n_inner: int) -> np.ndarray:
    """Mean BGR per slot of each zone: (N, K, 3) samples -> (N, 6) = inner BGR + ring BGR."""
    s = samples.astype(np.float32)
    return np.concatenate([s[:, :n_inner].mean(1), s[:, n_inner:].mean(1)], axis=1)


@dataclass
class Reference:
    """One board's calibration: the empty board, the patch colour, and every token type's look."""

    board: str
    empty: np.ndarray                        # (N, 6) zone means of the empty board, per slot
    patch: np.ndarray | None                 # (3,) mean BGR of the grey patch at calibration
    tokens: dict[str, np.ndarray] = field(default_factory=dict)   # type -> (6,) feature centre
    slots: list[str] = field(default_factory=list)
    centres: list[list[float]] = field(default_factory=list)    # slot centres (mm) it was measured at
    view: np.ndarray | None = None           # the empty board, rectified, coarse and grey (what a hand is told from)

    def missing_types(self, types) -> list[str]:
        """Those of ``types`` without a colour reference yet."""
        return [t for t in types if t not in self.tokens]

    def to_dict(self) -> dict:
        return {"board": self.board, "slots": self.slots, "centres": self.centres, "empty": np.round(self.empty, 2).tolist(),
                "patch": None if self.patch is None else np.round(self.patch, 2).tolist(),
                "tokens": {k: np.round(v, 4).tolist() for k, v in self.tokens.items()},
                "view_png": None if self.view is None else
                base64.b64encode(cv2.imencode(".png", self.view)[1].tobytes()).decode()}

    @classmethod
    def from_dict(cls, data: dict) -> "Reference":
        return cls(board=data["board"], slots=list(data["slots"]), centres=list(data.get("centres", [])),
                   empty=np.asarray(data["empty"], np.float32),
                   patch=None if data.get("patch") is None else np.asarray(data["patch"], np.float32),
                   tokens={k: np.asarray(v, np.float32) for k, v in data.get("tokens", {}).items()},
                   view=_png(data.get("view_png")))

    def save(self, folder: str | Path) -> Path:
        """Write ``folder/<board>.json`` (atomically)."""
        path = Path(folder) / f"{self.board}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_dict()))
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, folder: str | Path, board: str) -> "Reference | None":
        """The board's reference from ``folder``, or None when it was never calibrated."""
        path = Path(folder) / f"{board}.json"
        if not path.exists():
            return None
        try:
            return cls.from_dict(json.loads(path.read_text()))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path} is not a colour reference ({exc!r}): capture the board again.") from None

    def fits(self, layout: Layout) -> bool:
        """True when the reference was measured on this layout's slots, where they are now."""
        return (self.slots == [s.id for s in layout.slots] and len(self.centres) == len(layout.slots)
                and bool(np.allclose(self.centres, layout.slot_centres(), atol=0.5)))


def _png(text: str | None) -> np.ndarray | None:
    if not text:
        return None
    view = cv2.imdecode(np.frombuffer(base64.b64decode(text), np.uint8), cv2.IMREAD_GRAYSCALE)
    if view is None:
        raise ValueError("its picture of the empty board is not a PNG")
    return view


def features(means: np.ndarray, empty: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """Log ratios of colour-corrected zone means to the empty board's: (N, 6)."""
    m = means if gain is None else means * np.tile(gain, 2)
    return np.log((m + DARK) / (empty + DARK))


def patch_gain(reference: Reference, patch_now: np.ndarray | None) -> np.ndarray | None:
    """Per-channel factor that brings the patch back to its calibration colour."""
    if reference.patch is None or patch_now is None:
        return None
    return (reference.patch + DARK) / (np.asarray(patch_now, np.float32) + DARK)


@dataclass
class Reading:
    """The classifier's answer for each slot of a board: label (type, None or 'unknown') + confidence."""

    labels: list
    confidence: np.ndarray


def classify(reference: Reference, means: np.ndarray, gain: np.ndarray | None = None,
             min_confidence: float = MIN_CONFIDENCE) -> Reading:
    """Classify every slot from its zone means (N, 6)."""
    f = features(means, reference.empty, gain)
    names = [EMPTY] + list(reference.tokens)
    centres = np.vstack([np.zeros(6, np.float32)] + [reference.tokens[t] for t in names[1:]])
    # a class expecting a dark channel there tolerates more spread (noise, colour bleeding)
    level = np.exp(centres)[None] * (reference.empty[:, None, :] + DARK)        # (N, C, 6)
    sigma = np.sqrt(SIGMA ** 2 + (LEVEL_NOISE / level) ** 2)
    z2 = (((f[:, None, :] - centres[None]) / sigma) ** 2).sum(-1)              # (N, C)
    score = z2 + 2 * np.log(sigma).sum(-1)                                      # -2 log likelihood
    best = score.argmin(1)
    rows = np.arange(len(f))
    rel = np.exp(-(score - score[rows, best][:, None]) / 2)
    conf = rel[rows, best] / rel.sum(1)
    far = np.sqrt(z2[rows, best]) > MAX_DISTANCE
    labels = [UNKNOWN if (far[i] or conf[i] < min_confidence) else names[b] for i, b in enumerate(best)]
    return Reading(labels, np.where(far, 0.0, conf).astype(np.float32))


def token_centre(means: np.ndarray, empty: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """A token type's class centre from its calibration samples (zone means of its slots, (M, 6))."""
    return features(np.atleast_2d(means), np.atleast_2d(empty), gain).mean(0)
