"""Board layouts: where a board's markers, reference patch and slots are, in millimetres.

A layout is a JSON file, one per physical board (see docs/camera.md)::

    {"board": "diet-1", "target": "diet-1", "tokens": "diet-board", "title": "...", "sample": true,
     "size_mm": [340, 290], "token_mm": 20,
     "markers": {"10": {"x": 4, "y": 4, "size": 36}, ...},     # top-left corner + side, mm
     "patch": {"x": 150, "y": 4, "w": 40, "h": 22},            # grey reference patch (optional)
     "regions": [{"name": "kitchen", "ids": "kitchen.{col}.{row}", "rows": 3, "cols": 5, "holds": "foods",
                  "corners": [[44, 8], [296, 8], [296, 82], [44, 82]]}, ...]}

``board`` names the physical board (and the file); ``target`` is the engine's
board id its slots belong to (a freezer board's slots belong to its player's
``diet-N``); ``tokens`` names a token set a game declares (``"foods"``: every
food type, see ``Game.tokens``) or lists token names (the shopping list holds
``["covered"]``).  A region's ``holds`` says which of those types can lie on its slots in play (a token
set's name or a list of names; default: every type of the board): a diet board's action spaces hold only
the player's markers.  The camera self-test lays each type only where it can lie (calibration's token plan
spreads every type over the whole board: learnt at the sides only, a type read worse); classification weighs
every type of the board, so a token put where it does not belong reads as what it is (or unknown), and
the game refuses it, never as a type the space holds.

Coordinates are millimetres on the board, x to the right and y down, from the
board's top-left corner.  A region is a grid of ``rows`` x ``cols`` slots filling
the quadrilateral ``corners`` (top-left, top-right, bottom-right, bottom-left);
``ids`` names each slot with ``{row}``, ``{col}`` (from 1) and ``{n}`` (1, 2, ...
reading order).  The slot ids are the ones the game engine uses.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from .tokens import FOODS, named_types


#: A marker's white border (quiet zone), as a share of its side: one of its six cells.
QUIET = 1 / 6
#: How far a token may lie off its slot's centre, mm (what the quiet-zone check allows for).
OFF_CENTRE_MM = 3.5
#: Board beyond a token's reach that must stay clear of its edge, mm: a token's wall and shadow (a
#: wooden marker is 6 mm high) must not reach the edge, where the motion detector takes any change
#: for a hand coming in (vision/motion.py).
EDGE_CLEAR_MM = 6.0


class LayoutError(ValueError):
    """A layout file that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Slot:
    """One place a token can lie: its engine id and centre on the board (mm)."""

    id: str
    x: float
    y: float
    region: str


@dataclass
class Region:
    """A grid of slots filling a quadrilateral of the board."""

    name: str
    ids: str
    rows: int
    cols: int
    corners: list[list[float]]
    holds: str | list[str] | None = None      # the token types that can lie here (None: every type of the board)

    def slots(self) -> list[Slot]:
        """The region's slots in reading order, centred in their grid cells."""
        tl, tr, br, bl = (np.asarray(c, float) for c in self.corners)
        out, n = [], 0
        for row in range(self.rows):
            v = (row + 0.5) / self.rows
            for col in range(self.cols):
                u = (col + 0.5) / self.cols
                n += 1
                top, bottom = tl + (tr - tl) * u, bl + (br - bl) * u
                x, y = top + (bottom - top) * v
                sid = self.ids.format(row=row + 1, col=col + 1, n=n)
                out.append(Slot(sid, float(x), float(y), self.name))
        return out


@dataclass
class Layout:
    """One board: its markers, optional reference patch and slot regions."""

    board: str
    size_mm: tuple[float, float]
    markers: dict[int, tuple[float, float, float]]          # id -> (x, y, size) mm
    regions: list[Region]
    token_mm: float = 20.0
    patch: tuple[float, float, float, float] | None = None  # x, y, w, h mm
    title: str = ""
    sample: bool = False
    target: str = ""
    tokens: str | list[str] = FOODS
    slots: list[Slot] = field(init=False)

    def __post_init__(self):
        self.target = self.target or self.board
        self.slots = [s for r in self.regions for s in r.slots()]
        ids = [s.id for s in self.slots]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise LayoutError(f"Layout {self.board}: slot id {dupes[0]!r} is used twice; "
                              "give each region its own id pattern.")
        if len(self.markers) < 3:
            raise LayoutError(f"Layout {self.board} has {len(self.markers)} markers; "
                              "a board needs at least 3 (4 to 6 is best).")

    def token_types(self, data_dir=None) -> tuple[str, ...]:
        """The token types that can lie on this board."""
        return named_types(self.tokens, data_dir) if isinstance(self.tokens, str) else tuple(self.tokens)

    def slot_types(self, data_dir=None) -> dict[str, tuple[str, ...]]:
        """The token types that can lie on each slot in play (its region's ``holds``), by slot id."""
        every = self.token_types(data_dir)
        out = {}
        for region in self.regions:
            held = every if region.holds is None else (
                named_types(region.holds, data_dir) if isinstance(region.holds, str) else tuple(region.holds))
            alien = [t for t in held if t not in every]
            if alien or not held:
                raise LayoutError(f"Layout {self.board}: region {region.name!r} holds "
                                  f"{', '.join(alien) if alien else 'nothing'}, not among the board's tokens "
                                  f"({', '.join(every)}); name types of its 'tokens' in 'holds'.")
            out.update({s.id: held for s in region.slots()})
        return out

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The four corners (TL, TR, BR, BL) of a marker on the board, mm, shape (4, 2)."""
        x, y, s = self.markers[marker_id]
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)

    def marker_problems(self) -> list[str]:
        """Markers whose white border leaves the board or reaches a token's place: say what to move.

        A marker needs a white border of a sixth of its side all round to be found; the board's
        edge (the table beyond it) or a token lying over the border loses the marker.
        """
        out = []
        w, h = self.size_mm
        reach = self.token_mm / 2 + OFF_CENTRE_MM
        for mid, (x, y, s) in sorted(self.markers.items()):
            q = s * QUIET
            x0, y0, x1, y1 = x - q, y - q, x + s + q, y + s + q
            if x0 < -0.01 or y0 < -0.01 or x1 > w + 0.01 or y1 > h + 0.01:
                out.append(f"{self.board}: marker {mid}'s white border ({q:.0f} mm) leaves the board; "
                           f"place the marker at least {q:.0f} mm from every edge.")
            near = [sl.id for sl in self.slots
                    if np.hypot(max(x0 - sl.x, 0, sl.x - x1), max(y0 - sl.y, 0, sl.y - y1)) < reach]
            if near:
                out.append(f"{self.board}: marker {mid}'s white border reaches the place of a token on "
                           f"{', '.join(near[:3])}; a token there can hide the marker: move the marker "
                           f"or make it smaller.")
        return out

    def edge_problems(self) -> list[str]:
        """Token places so near the board's edge that a token's wall or shadow reaches it: say what to move.

        Anything changed that touches a board's edge makes the board busy (a hand always comes in
        over an edge), so a token lying there would keep its board busy and unread for good.
        """
        w, h = self.size_mm
        reach = self.token_mm / 2 + OFF_CENTRE_MM + EDGE_CLEAR_MM
        near = [s.id for s in self.slots if min(s.x, s.y, w - s.x, h - s.y) < reach]
        if not near:
            return []
        return [f"{self.board}: the place of a token on {', '.join(near[:3])} is within {EDGE_CLEAR_MM:.0f} mm "
                f"of the board's edge (a token's shadow there looks like a hand coming in): move it "
                f"inward or make the board's size larger, so every place's centre is at least "
                f"{reach:.1f} mm from every edge."]

    def slot_centres(self) -> np.ndarray:
        """Every slot's centre, mm, shape (N, 2), in ``slots`` order."""
        return np.array([[s.x, s.y] for s in self.slots], np.float32).reshape(-1, 2)

    # ----- files -------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict) -> "Layout":
        """Build a layout from its JSON form, with a clear LayoutError when a field is wrong."""
        try:
            board = str(data["board"])
            size = tuple(float(v) for v in data["size_mm"])
            markers = {int(k): (float(m["x"]), float(m["y"]), float(m["size"]))
                       for k, m in data["markers"].items()}
            regions = []
            for r in data.get("regions", []):
                corners = [[float(a), float(b)] for a, b in r["corners"]]
                if len(corners) != 4:
                    raise LayoutError(f"Region {r.get('name')!r} of {board} needs 4 corners.")
                rows, cols = int(r["rows"]), int(r["cols"])
                if not (1 <= rows <= 40 and 1 <= cols <= 40):
                    raise LayoutError(f"Region {r.get('name')!r} of {board}: rows and cols must be 1 to 40.")
                holds = r.get("holds")
                if not (holds is None or (isinstance(holds, str) and holds)
                        or (isinstance(holds, list) and holds and all(isinstance(t, str) and t for t in holds))):
                    raise LayoutError(f"Region {r.get('name')!r} of {board}: 'holds' must name a token set or "
                                      f"list token names, not {holds!r}.")
                regions.append(Region(str(r["name"]), str(r["ids"]), rows, cols, corners,
                                      holds if holds is None or isinstance(holds, str) else list(holds)))
            patch = data.get("patch")
            patch = (float(patch["x"]), float(patch["y"]), float(patch["w"]), float(patch["h"])) if patch else None
            return cls(board=board, size_mm=size, markers=markers, regions=regions,
                       token_mm=float(data.get("token_mm", 20.0)), patch=patch,
                       title=str(data.get("title", "")), sample=bool(data.get("sample", False)),
                       target=str(data.get("target", "")),
                       tokens=data.get("tokens", FOODS) if isinstance(data.get("tokens", FOODS), str)
                       else [str(t) for t in data["tokens"]])
        except LayoutError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LayoutError(f"Layout {data.get('board', '?') if isinstance(data, dict) else '?'} "
                              f"is malformed ({exc!r}); see docs/camera.md for the format.") from None

    def to_dict(self) -> dict:
        """The JSON form (what :meth:`from_dict` reads)."""
        out = {"board": self.board, "target": self.target, "tokens": self.tokens,
               "title": self.title, "sample": self.sample,
               "size_mm": list(self.size_mm), "token_mm": self.token_mm,
               "markers": {str(k): {"x": x, "y": y, "size": s} for k, (x, y, s) in self.markers.items()},
               "regions": [{"name": r.name, "ids": r.ids, "rows": r.rows, "cols": r.cols, "corners": r.corners,
                            **({} if r.holds is None else {"holds": r.holds})} for r in self.regions]}
        if self.patch:
            out["patch"] = dict(zip(("x", "y", "w", "h"), self.patch))
        return out

    @classmethod
    def load(cls, path: str | Path) -> "Layout":
        """Read a layout file."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise LayoutError(f"Cannot read layout {path}: {exc}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        """Write the layout file (atomically, so a crash never leaves half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1))
        tmp.replace(path)


def sample_layouts() -> dict[str, Layout]:
    """The sample layouts shipped in vision/data/layouts (sample geometry, not the real boards)."""
    folder = resources.files("vision") / "data" / "layouts"
    out = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            layout = Layout.from_dict(json.loads(entry.read_text()))
            out[layout.board] = layout
    return out


def load_layouts(data_dir: str | Path | None) -> dict[str, Layout]:
    """The table's layouts: ``DATA/vision/layouts/*.json`` over the shipped samples (each checked: markers on
    one board only, every region holding types of its board)."""
    layouts = sample_layouts()
    folder = Path(data_dir) / "vision" / "layouts" if data_dir else None
    if folder and folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            layout = Layout.load(path)
            layouts[layout.board] = layout
    used: dict[int, str] = {}
    for layout in layouts.values():
        layout.slot_types(data_dir)         # a region holding a type its board lacks: refused here, with the region
        for mid in layout.markers:
            if mid in used:
                raise LayoutError(f"Marker {mid} is on both {used[mid]} and {layout.board}; "
                                  "every board needs its own markers.")
            used[mid] = layout.board
    return layouts
