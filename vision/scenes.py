"""A harder renderer for tests and the benchmark: boards as printed, tokens as made, light as it is.

Written to be unkind to the pipeline, independently of how it reads a board:

* every slot has printed art under it (coloured rows, a printed ring and a food picture, the
  shopping list's food pictures), on paper with a texture;
* tokens have a printed face, a 2 mm side wall (seen on the side away from the camera's
  nadir) and a cast shadow; they lie off centre (up to 3.5 mm, never overlapping) and turned;
  the players' action markers are painted wooden discs 6 mm high and the dice 16 mm cubes
  (ivory faces, the pips of the space they lie on), with their walls and longer shadows;
* the camera is tilted up to 25 degrees and its lens has barrel distortion;
* the light mixes a warm lamp and a cool window, and the mix changes between calibration and
  play; glare spots and the shadows of people come and go; the camera's exposure and white
  balance are locked at calibration (as ``settle_s`` does);
* sensor noise, the camera's sharpening and JPEG (65-96);
* hands with four skin tones and sleeves of any colour, including one fingertip resting on an
  edge space from the side.

:func:`shot` draws a random :class:`Shot` for a :data:`LEVELS` entry; :func:`render` turns a shot
into a BGR picture and its ground truth (per board: each slot's token, whether a hand is over
it).  :func:`calibration_shot` is the same table under the calibration light, with no hands,
glare or shadows.  Everything is deterministic from the seeds.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .layout import Layout
from .markers import marker_image
from .synthetic import DIE, Camera
from .tokens import synthetic_colour

#: Skin tones (BGR), light to dark.
SKINS = ((165, 185, 225), (120, 155, 205), (85, 120, 170), (50, 70, 105))
#: Printed colour of a region by its name's first part, and of each body group (BGR).
ROW_COLOURS = {"kitchen": (170, 215, 235), "trash": (150, 150, 150), "freezer": (225, 205, 170),
               "thaw": (200, 225, 235), "shop": (215, 230, 240), "actions": (200, 210, 200),
               "body.fats": (60, 200, 230), "body.dairy": (230, 205, 175), "body.water": (200, 140, 70),
               "body.grain": (110, 180, 215), "body.protein": (70, 80, 170), "body.nuts": (70, 100, 140),
               "body.alcohol": (150, 80, 135), "body.produce": (90, 170, 90)}
BOARD_PAPER = (200, 215, 225)
TABLE_WOOD = (55, 85, 120)
FOOD_PICTURES = ("fats", "dairy", "water", "grain", "meat", "poultry", "seafood", "nuts", "alcohol", "fruit", "veg")
#: The players' wooden action markers by the game's token type (``marker<seat>``; a diet board's
#: ``marker`` is its player's), painted red, blue, green and yellow (BGR), and their height, mm.
PLAYER_COLOURS = {"marker1": (40, 40, 190), "marker2": (170, 90, 30), "marker3": (60, 140, 40),
                  "marker4": (40, 200, 230)}
TOKEN_HEIGHT_MM = 2.0
PLAYER_HEIGHT_MM = 6.0
#: A die (the game's ``die``): a 16 mm cube, ivory faces with dark pips (BGR).
DIE_MM = 16.0
DIE_FACE = (215, 228, 235)
DIE_PIPS = (45, 40, 40)
SUPERSAMPLE = 2


@dataclass(frozen=True)
class Level:
    """How hard a level is: the ranges its shots are drawn from."""

    tilt: tuple[float, float]             # degrees
    blur: tuple[float, float]             # lens blur sigma, output px
    jpeg: tuple[int, int]
    off_centre_mm: float
    distortion: tuple[float, float]       # k1 (negative: barrel)
    light_change: tuple[float, float]     # daylight share change since calibration, points
    glare: tuple[float, float]            # peak added grey levels (0: none)
    people: int                           # most shadows of people
    noise: tuple[float, float]            # sensor noise sigma, grey levels
    sharpen: tuple[float, float]          # unsharp-mask amount


LEVELS = {
    "easy": Level(tilt=(0, 6), blur=(0.4, 0.8), jpeg=(90, 96), off_centre_mm=1.5, distortion=(0.0, -0.02),
                  light_change=(0, 3), glare=(0, 0), people=0, noise=(1.0, 2.0), sharpen=(0.0, 0.4)),
    "medium": Level(tilt=(6, 15), blur=(0.5, 1.0), jpeg=(80, 92), off_centre_mm=2.5, distortion=(-0.04, -0.1),
                    light_change=(5, 15), glare=(30, 90), people=1, noise=(1.5, 3.0), sharpen=(0.2, 0.8)),
    "hard": Level(tilt=(15, 25), blur=(0.6, 1.3), jpeg=(65, 80), off_centre_mm=3.5, distortion=(-0.12, -0.25),
                  light_change=(15, 35), glare=(90, 260), people=2, noise=(2.0, 4.5), sharpen=(0.4, 1.2)),
}


@dataclass
class Board:
    """A board on the table: its layout, top-left corner (table mm), turn (degrees) and tokens."""

    layout: Layout
    x: float
    y: float
    angle: float = 0.0
    tokens: dict[str, str] = field(default_factory=dict)      # slot id -> token type (absent: empty)
    off_centre_mm: float = 1.5
    seed: int = 0                                             # how the tokens happen to lie

    def pose(self) -> np.ndarray:
        """Board mm to table mm."""
        a = math.radians(self.angle)
        return np.array([[math.cos(a), -math.sin(a), self.x], [math.sin(a), math.cos(a), self.y], [0, 0, 1]])


@dataclass
class Light:
    """A warm lamp above the table plus a cool window to one side; ``daylight`` is the window's share."""

    lamp: tuple[float, float, float]      # table mm (x, y) and height
    window_angle: float                   # direction the daylight comes from, degrees
    daylight: float                       # 0..1
    shadows: list[tuple[float, float, float, float, float]] = field(default_factory=list)
    # each: centre x, y (table mm), length, angle (degrees), depth 0..1
    glare: list[tuple[float, float, float, float]] = field(default_factory=list)
    # each: image x, y (share of width / height), radius (share of width), peak grey levels


@dataclass
class Hand:
    """An arm from ``origin`` to the fingertip ``tip`` (table mm); ``finger`` draws only one finger near the tip."""

    tip: tuple[float, float]
    origin: tuple[float, float]
    skin: tuple[int, int, int] = SKINS[1]
    sleeve: tuple[int, int, int] = (90, 60, 40)
    finger: bool = False
    width_mm: float = 85.0


@dataclass
class Shot:
    """Everything :func:`render` draws."""

    camera: Camera
    k1: float
    boards: list[Board]
    light: Light
    calibration_daylight: float           # the mix the camera's exposure and white balance were locked for
    exposure: float = 0.85
    hands: list[Hand] = field(default_factory=list)
    blur: float = 0.5
    noise: float = 1.5
    sharpen: float = 0.3
    jpeg: int = 92
    seed: int = 0

    def lens(self) -> tuple[np.ndarray, np.ndarray]:
        """The true camera matrix and distortion coefficients (OpenCV's model)."""
        c = self.camera
        k = np.array([[c.focal, 0, c.width / 2], [0, c.focal, c.height / 2], [0, 0, 1]], np.float64)
        return k, np.array([self.k1, -self.k1 * 0.25, 0, 0, 0], np.float64)


# ----- printed boards -----------------------------------------------------------------------
_ART: dict[tuple, np.ndarray] = {}


def _row_colour(region: str) -> tuple[int, int, int]:
    if region in ROW_COLOURS:
        return ROW_COLOURS[region]
    return ROW_COLOURS.get(region.split(".")[0], (205, 205, 195))


def _food_picture(img, cx, cy, r, food: str, rng, S):
    """A small printed picture of a food: blobs in the food's colour with a dark outline."""
    colour = tuple(int(v * 0.9) for v in synthetic_colour(food))
    for _ in range(3):
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0, 0.35) * r
        rr = rng.uniform(0.25, 0.45) * r
        c = (int((cx + d * math.cos(a)) * S), int((cy + d * math.sin(a)) * S))
        cv2.circle(img, c, int(rr * S), colour, -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, c, int(rr * S), (40, 40, 40), max(1, int(r * 0.05)), cv2.LINE_AA, shift=4)


def printed_board(layout: Layout, scale: float) -> np.ndarray:
    """The board's printed artwork at ``scale`` px/mm (cached): paper, rows, slot art, patch, markers."""
    key = (layout.board, repr(layout.to_dict()), scale)
    if key in _ART:
        return _ART[key]
    rng = np.random.default_rng(zlib.crc32(layout.board.encode()))
    w, h = (int(round(v * scale)) for v in layout.size_mm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = BOARD_PAPER
    S = 16
    pts = lambda arr: (np.asarray(arr) * scale * S).astype(np.int32)
    for region in layout.regions:
        colour = _row_colour(region.name)
        cv2.fillPoly(img, [pts(region.corners)], colour, cv2.LINE_AA, shift=4)
        cv2.polylines(img, [pts(region.corners)], True, (70, 80, 90), max(1, int(scale * 0.5)), cv2.LINE_AA, shift=4)
    r = layout.token_mm / 2 + 1.5
    for slot in layout.slots:
        cx, cy = slot.x * scale, slot.y * scale
        base = np.array(_row_colour(slot.region), float)
        inner = tuple(int(v) for v in np.clip(base * rng.uniform(0.8, 1.15) + rng.uniform(-15, 15, 3), 0, 255))
        cv2.circle(img, (int(cx * S), int(cy * S)), int(r * scale * S), inner, -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, (int(cx * S), int(cy * S)), int(r * scale * S), (60, 60, 70), max(1, int(scale * 0.6)),
                   cv2.LINE_AA, shift=4)
        if slot.region.startswith("body."):
            food = slot.region.split(".", 1)[1]
            food = food if food in FOOD_PICTURES else FOOD_PICTURES[int(rng.integers(len(FOOD_PICTURES)))]
        else:
            food = FOOD_PICTURES[int(rng.integers(len(FOOD_PICTURES)))]
        _food_picture(img, cx / scale * scale, cy, r * scale * 0.7, food, rng, S)
    if layout.patch:
        x, y, pw, ph = (v * scale for v in layout.patch)
        cv2.rectangle(img, (int(x), int(y)), (int(x + pw), int(y + ph)), (245, 245, 245), -1)
        cv2.rectangle(img, (int(x), int(y)), (int(x + pw / 2), int(y + ph)), (128, 128, 128), -1)
    # paper texture: fibres and blotches, printed under the stickers
    grain = rng.normal(0, 1, (max(2, h // 24), max(2, w // 24))).astype(np.float32)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_CUBIC) * 0.025
    grain += rng.normal(0, 0.02, (h, w)).astype(np.float32)
    img = np.clip(img.astype(np.float32) * (1 + grain[..., None]), 0, 255).astype(np.uint8)
    for mid, (x, y, size) in layout.markers.items():
        quiet = size / 6                       # the sticker's white border, cut off at the board's edge
        x0, y0 = max(0, int(round((x - quiet) * scale))), max(0, int(round((y - quiet) * scale)))
        x1, y1 = int(round((x + size + quiet) * scale)), int(round((y + size + quiet) * scale))
        cv2.rectangle(img, (x0, y0), (x1, y1), (240, 242, 242), -1)
        side = int(round(size * scale))
        mk = cv2.resize(marker_image(mid, side * 4), (side, side), interpolation=cv2.INTER_AREA)
        mk = (mk.astype(np.float32) * 0.85 + 25).astype(np.uint8)       # ink is not pure black
        mx, my = int(round(x * scale)), int(round(y * scale))
        img[my:my + side, mx:mx + side] = mk[:, :, None]
    if len(_ART) > 24:
        _ART.clear()
    _ART[key] = img
    return img


# ----- tokens ---------------------------------------------------------------------------------
def piece(board: Board, kind: str) -> str:
    """What a token type on ``board`` is drawn as: a diet board's ``marker`` is its player's (``marker<seat>``)."""
    if kind == "marker" and board.layout.target.startswith("diet-"):
        return "marker" + board.layout.target.split("-")[1]
    return kind


def token_colour(kind: str) -> tuple[int, int, int]:
    """The face colour of a token type (foods: the sample colours; player markers: their paint; dice: ivory)."""
    return PLAYER_COLOURS.get(kind) or (DIE_FACE if kind == DIE else synthetic_colour(kind))


def _height(kind: str) -> float:
    return PLAYER_HEIGHT_MM if kind in PLAYER_COLOURS else DIE_MM if kind == DIE else TOKEN_HEIGHT_MM


def _token_offsets(board: Board) -> dict[str, np.ndarray]:
    """Where each token lies relative to its slot's centre (mm), never overlapping another token."""
    layout, out = board.layout, {}
    centres = {s.id: np.array([s.x, s.y]) for s in layout.slots}
    radius = layout.token_mm / 2
    for sid in sorted(board.tokens):
        rng = np.random.default_rng(zlib.crc32(f"{board.seed}:{sid}:{board.tokens[sid]}".encode()))
        for attempt in range(12):
            a, d = rng.uniform(0, 2 * math.pi), board.off_centre_mm * math.sqrt(rng.uniform(0, 1)) * (1 - attempt / 12)
            off = np.array([d * math.cos(a), d * math.sin(a)])
            here = centres[sid] + off
            if all(np.linalg.norm(here - centres[o] - v) >= 2 * radius + 0.3 for o, v in out.items()):
                break
        out[sid] = off
    return out


def _square(centre, half: float, turn: float, scale: float, S: int) -> np.ndarray:
    """A square's corners (board mm centre, half side, turn in radians) in ``S``-shifted picture px."""
    ca, sa = math.cos(turn), math.sin(turn)
    return np.array([[(centre[0] + (x * ca - y * sa) * half) * scale * S,
                      (centre[1] + (x * sa + y * ca) * half) * scale * S]
                     for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.int32)


#: Where a die face's pips lie, in halves of the face's half side.
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _draw_die(img, foot, top, turn: float, value: int, face: np.ndarray, scale: float, S: int) -> None:
    """A cube seen from above: its side walls between the foot and the top face, the face with ``value`` pips."""
    half = DIE_MM / 2
    hull = cv2.convexHull(np.concatenate([_square(foot, half, turn, scale, S), _square(top, half, turn, scale, S)]))
    cv2.fillPoly(img, [hull], tuple(int(v) for v in face * 0.68), cv2.LINE_AA, shift=4)
    cv2.fillPoly(img, [_square(top, half, turn, scale, S)], tuple(int(v) for v in face * 0.86), cv2.LINE_AA, shift=4)
    cv2.fillPoly(img, [_square(top, half * 0.9, turn, scale, S)], tuple(int(v) for v in face), cv2.LINE_AA, shift=4)
    ca, sa = math.cos(turn), math.sin(turn)
    for x, y in PIPS[value]:
        x, y = x * half * 0.5, y * half * 0.5
        q = (top[0] + x * ca - y * sa, top[1] + x * sa + y * ca)
        cv2.circle(img, (int(q[0] * scale * S), int(q[1] * scale * S)), int(half * 0.17 * scale * S), DIE_PIPS, -1,
                   cv2.LINE_AA, shift=4)


def _draw_disc(img, foot, top, r: float, face: np.ndarray, rng, scale: float, S: int) -> None:
    """A painted wooden disc: its side wall, the face with the wood's grain showing through, a worn edge."""
    wall = tuple(int(v) for v in face * 0.62)
    for t in np.linspace(0, 1, 6):
        p = (foot + (top - foot) * t) * scale
        cv2.circle(img, (int(p[0] * S), int(p[1] * S)), int(r * scale * S), wall, -1, cv2.LINE_AA, shift=4)
    ctr = (int(top[0] * scale * S), int(top[1] * scale * S))
    cv2.circle(img, ctr, int(r * scale * S), tuple(int(v) for v in face), -1, cv2.LINE_AA, shift=4)
    g = rng.uniform(0, math.pi)
    along, across = np.array([math.cos(g), math.sin(g)]), np.array([-math.sin(g), math.cos(g)])
    for o in rng.uniform(-0.85, 0.85, 5):
        h = math.sqrt(1 - o * o) * r * 0.95
        a, b = ((top + across * o * r + along * s * h) * scale * S for s in (-1, 1))
        grain = tuple(int(v) for v in face * rng.uniform(0.8, 0.92))
        cv2.line(img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), grain, max(1, int(scale * 0.35)), cv2.LINE_AA,
                 shift=4)
    cv2.circle(img, ctr, int(r * 0.94 * scale * S), tuple(int(v) for v in face * 0.84), max(1, int(scale * 0.5)),
               cv2.LINE_AA, shift=4)


def _draw_tokens(img: np.ndarray, board: Board, scale: float, parallax: np.ndarray, shadow_dir: np.ndarray) -> None:
    """Tokens onto the board's picture: cast shadow, side wall, face (printed art, wood or pips)."""
    layout = board.layout
    S = 16
    offsets = _token_offsets(board)
    shade = np.zeros(img.shape[:2], np.uint8)
    radius = layout.token_mm / 2
    slots = {s.id: s for s in layout.slots}
    kinds = {sid: piece(board, kind) for sid, kind in board.tokens.items()}
    turns = {sid: float(np.random.default_rng(zlib.crc32(f"{board.seed}:{sid}:{kind}:turn".encode())).uniform(0, 6.3))
             for sid, kind in kinds.items()}
    for sid, kind in kinds.items():
        s = slots[sid]
        foot = np.array([s.x, s.y]) + offsets[sid]
        c = foot + shadow_dir * _height(kind) * 0.8
        if kind == DIE:
            cv2.fillPoly(shade, [_square(c, DIE_MM / 2, turns[sid], scale, S)], 255, cv2.LINE_AA, shift=4)
        else:
            cv2.circle(shade, (int(c[0] * scale * S), int(c[1] * scale * S)), int(radius * scale * S), 255, -1,
                       cv2.LINE_AA, shift=4)
    shade = cv2.GaussianBlur(shade, (0, 0), max(0.8, 1.2 * scale))
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.45 * shade[..., None].astype(np.float32) / 255), 0, 255)
    for sid, kind in kinds.items():
        s = slots[sid]
        rng = np.random.default_rng(zlib.crc32(f"{board.seed}:{sid}:{kind}:face".encode()))
        foot = np.array([s.x, s.y]) + offsets[sid]
        top = foot + parallax(foot) * _height(kind)
        face = np.clip(np.array(token_colour(kind), float) * rng.uniform(0.94, 1.06, 3), 0, 255)
        if kind == DIE:
            last = sid.rsplit(".", 1)[-1]
            value = int(last) if last.isdigit() and 1 <= int(last) <= 6 else int(rng.integers(1, 7))
            _draw_die(img, foot, top, turns[sid], value, face, scale, S)
            continue
        if kind in PLAYER_COLOURS:
            _draw_disc(img, foot, top, radius * 0.9, face, rng, scale, S)
            continue
        r = radius
        wall = tuple(int(v) for v in face * 0.62)
        for t in np.linspace(0, 1, 4):       # the side wall between the foot and the top face
            p = (foot + (top - foot) * t) * scale
            cv2.circle(img, (int(p[0] * S), int(p[1] * S)), int(r * scale * S), wall, -1, cv2.LINE_AA, shift=4)
        p = top * scale
        ctr = (int(p[0] * S), int(p[1] * S))
        cv2.circle(img, ctr, int(r * scale * S), tuple(int(v) for v in face), -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, ctr, int(r * 0.9 * scale * S), tuple(int(v) for v in face * 0.9), max(1, int(scale * 0.4)),
                   cv2.LINE_AA, shift=4)
        # printed art on the face: an icon in white or dark ink, turned as the token lies
        ink = (245, 245, 240) if face.mean() < 150 else (50, 45, 40)
        ang = rng.uniform(0, 2 * math.pi)
        k = zlib.crc32(kind.encode()) % 4
        ca, sa = math.cos(ang), math.sin(ang)
        rot = lambda q: np.array([[(p[0] + (x * ca - y * sa) * r * scale) * S,
                                   (p[1] + (x * sa + y * ca) * r * scale) * S] for x, y in q], np.int32)
        if k == 0:
            cv2.fillPoly(img, [rot([(-0.35, -0.1), (0.35, -0.1), (0.35, 0.1), (-0.35, 0.1)])], ink, cv2.LINE_AA, shift=4)
            cv2.fillPoly(img, [rot([(-0.1, -0.35), (0.1, -0.35), (0.1, 0.35), (-0.1, 0.35)])], ink, cv2.LINE_AA, shift=4)
        elif k == 1:
            cv2.fillPoly(img, [rot([(0, -0.4), (0.35, 0.3), (-0.35, 0.3)])], ink, cv2.LINE_AA, shift=4)
        elif k == 2:
            for x, y in ((-0.25, 0), (0.25, 0), (0, 0.25)):
                q = rot([(x, y)])[0]
                cv2.circle(img, (int(q[0]), int(q[1])), int(0.13 * r * scale * S), ink, -1, cv2.LINE_AA, shift=4)
        else:
            cv2.ellipse(img, ctr, (int(0.35 * r * scale * S), int(0.2 * r * scale * S)), math.degrees(ang), 0, 360,
                        ink, max(1, int(0.08 * r * scale)), cv2.LINE_AA, shift=4)


# ----- hands ----------------------------------------------------------------------------------
def _draw_hand(img: np.ndarray, to_px, hand: Hand, px_per_mm: float) -> np.ndarray:
    """A sleeve, a hand and fingers (or one finger); returns the hand's mask (for the ground truth)."""
    tip, origin = np.array(hand.tip, float), np.array(hand.origin, float)
    d = tip - origin
    d /= np.linalg.norm(d) or 1.0
    n = np.array([-d[1], d[0]])
    w = hand.width_mm / 2
    if hand.finger:         # the hand rests beside the board; one finger reaches onto the edge space
        wrist = tip - d * 95
        palm = [wrist + n * w * 0.9, tip - d * 45 + n * w * 0.8, tip - d * 38 - n * w * 0.7, wrist - n * w * 0.9]
        fingers = [(tip - d * 42 + n * w * 0.1, tip)]
    else:
        wrist = tip - d * 110
        palm = [wrist + n * w * 0.85, tip - d * 35 + n * w, tip - d * 30 - n * w, wrist - n * w * 0.85]
        fingers = [(tip - d * 40 + n * w * f, tip - d * (12 if abs(f) > 0.5 else 0) + n * w * f * 1.1)
                   for f in (-0.75, -0.25, 0.25, 0.7)]
    sleeve = [origin + n * w * 1.25, wrist + n * w * 1.05, wrist - n * w * 1.05, origin - n * w * 1.25]
    mask = np.zeros(img.shape[:2], np.uint8)
    S = 16
    P = lambda q: (to_px(np.asarray(q, float)) * S).astype(np.int32)
    shadow = np.zeros(img.shape[:2], np.uint8)
    off = np.array([18.0, 24.0])
    cv2.fillPoly(shadow, [P([p + off for p in sleeve]), P([p + off for p in palm])], 255, cv2.LINE_AA, shift=4)
    for a, b in fingers:
        cv2.line(shadow, tuple(P([a + off])[0]), tuple(P([b + off])[0]), 255, max(1, int(16 * px_per_mm)), cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 12 * px_per_mm)).astype(np.float32) / 255
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.4 * shadow[..., None]), 0, 255)
    layer = img.copy()
    cv2.fillPoly(layer, [P(sleeve)], hand.sleeve, cv2.LINE_AA, shift=4)
    cv2.fillPoly(layer, [P(palm)], hand.skin, cv2.LINE_AA, shift=4)
    for a, b in fingers:
        cv2.line(layer, tuple(P([a])[0]), tuple(P([b])[0]), hand.skin, max(1, int(15 * px_per_mm)), cv2.LINE_AA, shift=4)
        cv2.circle(layer, tuple(P([b])[0]), int(7.5 * px_per_mm * S), hand.skin, -1, cv2.LINE_AA, shift=4)
    cv2.fillPoly(mask, [P(sleeve), P(palm)], 255, cv2.LINE_AA, shift=4)
    for a, b in fingers:
        cv2.line(mask, tuple(P([a])[0]), tuple(P([b])[0]), 255, max(1, int(15 * px_per_mm)), cv2.LINE_AA, shift=4)
        cv2.circle(mask, tuple(P([b])[0]), int(7.5 * px_per_mm * S), 255, -1, cv2.LINE_AA, shift=4)
    m = (mask > 0)
    img[m] = layer[m]
    return mask


# ----- light ----------------------------------------------------------------------------------
LAMP_BGR = np.array([0.55, 0.78, 1.0], np.float32)
WINDOW_BGR = np.array([1.0, 0.93, 0.82], np.float32)


def _components(shot: Shot, table_xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lamp and window brightness (no colour) at table points (H, W, 2) mm, with people's shadows."""
    lx, ly, lz = shot.light.lamp
    dx, dy = table_xy[..., 0] - lx, table_xy[..., 1] - ly
    lamp = (lz ** 3) / (dx * dx + dy * dy + lz * lz) ** 1.5
    a = math.radians(shot.light.window_angle)
    along = (table_xy[..., 0] - 800) * math.cos(a) + (table_xy[..., 1] - 450) * math.sin(a)
    window = np.clip(1.0 - along / 1800, 0.35, 1.6)
    for (sx, sy, length, ang, depth) in shot.light.shadows:
        b = math.radians(ang)
        u = (table_xy[..., 0] - sx) * math.cos(b) + (table_xy[..., 1] - sy) * math.sin(b)
        v = -(table_xy[..., 0] - sx) * math.sin(b) + (table_xy[..., 1] - sy) * math.cos(b)
        blob = np.exp(-(u / length) ** 2 - (v / (length * 0.45)) ** 2)
        lamp = lamp * (1 - depth * blob)
        window = window * (1 - depth * 0.6 * blob)
    return lamp.astype(np.float32), window.astype(np.float32)


def _light_field(shot: Shot, table_xy: np.ndarray) -> np.ndarray:
    """Per-pixel BGR gain: the lamp/window mix, with the exposure and white balance locked at calibration."""
    lamp, window = _components(shot, table_xy)
    d = shot.light.daylight
    field_ = (1 - d) * lamp[..., None] * LAMP_BGR + d * window[..., None] * WINDOW_BGR
    d0 = shot.calibration_daylight
    neutral = (1 - d0) * LAMP_BGR + d0 * WINDOW_BGR          # what the locked white balance cancels
    return field_ / neutral * shot.exposure


# ----- the picture ----------------------------------------------------------------------------
_LENS_MAPS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _lens_maps(shot: Shot, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """For each output pixel, where it comes from in the ideal (undistorted, margined) picture."""
    key = (shot.camera.width, shot.camera.height, shot.camera.focal, shot.k1, margin)
    if key not in _LENS_MAPS:
        k, dist = shot.lens()
        w, h = shot.camera.width, shot.camera.height
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        pts = np.stack([xs, ys], -1).reshape(-1, 1, 2)
        p_ideal = k.copy()
        p_ideal[0, 2] += margin
        p_ideal[1, 2] += margin
        und = cv2.undistortPoints(pts, k, dist, R=None, P=p_ideal,
                                  criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 0.01))
        und = und.reshape(h, w, 2)
        if len(_LENS_MAPS) > 8:
            _LENS_MAPS.clear()
        _LENS_MAPS[key] = (np.ascontiguousarray(und[..., 0]), np.ascontiguousarray(und[..., 1]))
    return _LENS_MAPS[key]


def board_homography(shot: Shot, board: Board) -> np.ndarray:
    """Board mm to ideal (undistorted) image pixels."""
    h = shot.camera.homography() @ board.pose()
    return h / h[2, 2]


def _camera_centre(cam: Camera) -> np.ndarray:
    h = cam.homography()
    k = np.array([[cam.focal, 0, cam.width / 2], [0, cam.focal, cam.height / 2], [0, 0, 1]])
    m = np.linalg.inv(k) @ h                 # [r1 r2 t]
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    return -rot.T @ t


def render(shot: Shot) -> tuple[np.ndarray, dict]:
    """Draw the shot; returns (BGR image, truth).

    truth = ``{"boards": {board: {"homography": ideal board mm -> px, "slots": {slot: type or None},
    "hand": a hand or finger is over the board}}}``.
    """
    rng = np.random.default_rng(shot.seed)
    cam = shot.camera
    ss = SUPERSAMPLE
    margin = int(max(cam.width, cam.height) * 0.25)
    W, H = (cam.width + 2 * margin) * ss, (cam.height + 2 * margin) * ss
    to_canvas = np.array([[ss, 0, (margin + 0.5) * ss - 0.5], [0, ss, (margin + 0.5) * ss - 0.5], [0, 0, 1]])
    table_h = to_canvas @ cam.homography()
    canvas = np.empty((H, W, 3), np.uint8)
    wood = rng.normal(0, 1, (H // 40 + 2, 3)).astype(np.float32)
    canvas[:] = TABLE_WOOD
    streaks = cv2.resize(wood[:, :1], (W, H), interpolation=cv2.INTER_CUBIC) * 0.08
    canvas = np.clip(canvas.astype(np.float32) * (1 + streaks[..., None]), 0, 255).astype(np.uint8)
    centre = _camera_centre(cam)
    lamp = np.array(shot.light.lamp)
    truth = {"boards": {}}
    for board in shot.boards:
        h = to_canvas @ shot.camera.homography() @ board.pose()
        px_per_mm = math.sqrt(abs(np.linalg.det(h[:2, :2] / h[2, 2])))
        scale = float(np.clip(round(px_per_mm * 1.5 * 2) / 2, 1.0, 4.0))
        art = printed_board(board.layout, scale).copy()
        pose = board.pose()
        rot = pose[:2, :2]

        def parallax(foot, pose=pose, rot=rot):
            """Board-mm shift of a point 1 mm above the board at ``foot``, as the camera sees it."""
            p = pose[:2, :2] @ foot + pose[:2, 2]
            return rot.T @ ((p - centre[:2]) / max(abs(centre[2]) - 1.0, 1.0))
        away = rot.T @ ((pose[:2, 2] + rot @ (np.array(board.layout.size_mm) / 2)) - lamp[:2])
        shadow_dir = away / (np.linalg.norm(away) or 1.0) * 0.6
        _draw_tokens(art, board, scale, parallax, shadow_dir)
        to_art = np.array([[scale, 0, -0.5], [0, scale, -0.5], [0, 0, 1]])
        cv2.warpPerspective(art, h @ np.linalg.inv(to_art), (W, H), dst=canvas, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        truth["boards"][board.layout.board] = {
            "homography": (board_homography(shot, board)).tolist(),
            "slots": {s.id: board.tokens.get(s.id) or None for s in board.layout.slots}, "hand": False}
    px_per_mm_table = math.sqrt(abs(np.linalg.det(table_h[:2, :2] / table_h[2, 2])))
    to_px = lambda q: cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(1, -1, 2), table_h)[0]
    hand_mask = np.zeros((H, W), np.uint8)
    for hand in shot.hands:
        hand_mask |= _draw_hand(canvas, to_px, hand, px_per_mm_table)
    for board in shot.boards:
        quad = np.zeros((H, W), np.uint8)
        w, hh = board.layout.size_mm
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, hh], [0, hh]]], np.float64),
                                           to_canvas @ shot.camera.homography() @ board.pose())[0]
        cv2.fillPoly(quad, [corners.astype(np.int32)], 255)
        truth["boards"][board.layout.board]["hand"] = bool(np.count_nonzero(quad & hand_mask))
    img = cv2.resize(canvas, (W // ss, H // ss), interpolation=cv2.INTER_AREA)
    # light on the table plane: each pixel's table point, then the lamp/window mix
    h_small = np.array([[1 / ss, 0, 0], [0, 1 / ss, 0], [0, 0, 1]]) @ table_h
    inv = np.linalg.inv(h_small)
    step = 8
    ys, xs = np.mgrid[0:img.shape[0]:step, 0:img.shape[1]:step].astype(np.float64)
    pts = cv2.perspectiveTransform(np.stack([xs, ys], -1).reshape(1, -1, 2), inv)[0].reshape(xs.shape + (2,))
    gain = cv2.resize(_light_field(shot, pts).astype(np.float32), (img.shape[1], img.shape[0]),
                      interpolation=cv2.INTER_LINEAR)
    lit = img.astype(np.float32) * gain
    ih, iw = img.shape[:2]
    for gx, gy, gr, peak in shot.light.glare:
        cx, cy, rad = margin + gx * cam.width, margin + gy * cam.height, gr * cam.width
        yy, xx = np.ogrid[0:ih, 0:iw]
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad * rad)).astype(np.float32)
        lit += (spot * peak)[..., None] * np.array([0.9, 0.97, 1.0], np.float32)
    if shot.blur > 0:
        lit = cv2.GaussianBlur(lit, (0, 0), shot.blur)
    mx, my = _lens_maps(shot, margin)
    out = cv2.remap(lit, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if shot.noise > 0:
        out += rng.normal(0, 1, out.shape).astype(np.float32) * (shot.noise * np.sqrt(np.clip(out, 1, 255) / 128))
    if shot.sharpen > 0:
        out = out + shot.sharpen * (out - cv2.GaussianBlur(out, (0, 0), 1.0))
    out = np.clip(out, 0, 255).astype(np.uint8)
    if shot.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(shot.jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, truth


# ----- random shots ---------------------------------------------------------------------------
def random_tokens(layout: Layout, rng: np.random.Generator, empty: float = 0.35, types=None) -> dict[str, str]:
    """A random token on each slot, except a share ``empty`` left empty."""
    types = tuple(types or layout.token_types())
    return {s.id: types[int(rng.integers(len(types)))] for s in layout.slots if rng.random() >= empty}


def _fit_focal(cam: Camera, boards: list[Board], fill: float = 0.9) -> Camera:
    """The focal length (zoom) that just fits every board in the picture."""
    for _ in range(3):
        pts = []
        for b in boards:
            w, h = b.layout.size_mm
            c = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
            pts.append(cv2.perspectiveTransform(c, cam.homography() @ b.pose())[0])
        p = np.concatenate(pts) - (cam.width / 2, cam.height / 2)
        need = max(np.abs(p[:, 0]).max() / (cam.width / 2), np.abs(p[:, 1]).max() / (cam.height / 2)) / fill
        cam = replace(cam, focal=cam.focal / need)
    return cam


def table(layouts: dict[str, Layout], rng: np.random.Generator) -> list[Board]:
    """The main board's areas at the top, up to four diet boards in a row below, freezers beside them."""
    boards = []
    top = [layouts[k] for k in sorted(layouts) if not k.startswith(("diet-", "freezer-"))]
    x = 800 - sum(l.size_mm[0] + 20 for l in top) / 2
    for layout in top:
        boards.append(Board(layout, x + rng.uniform(-10, 10), 30 + rng.uniform(-10, 10), rng.uniform(-3, 3)))
        x += layout.size_mm[0] + 20
    diets = [layouts[k] for k in sorted(layouts) if k.startswith("diet-")][:4]
    x = 800 - sum(l.size_mm[0] + 30 for l in diets) / 2
    for layout in diets:
        boards.append(Board(layout, x + rng.uniform(-10, 10), 420 + rng.uniform(-10, 10), rng.uniform(-4, 4)))
        x += layout.size_mm[0] + 30
    return boards


def shot(layouts: dict[str, Layout], level: str, seed: int, width: int = 1280, height: int = 720,
         tokens: dict[str, dict] | None = None) -> Shot:
    """A random play-time shot of ``level``: the table, its camera, lens and light, random tokens.

    Its calibration light is ``calibration_shot(shot)``'s.
    """
    lv = LEVELS[level]
    rng = np.random.default_rng(seed)
    boards = table(layouts, rng)
    for b in boards:
        b.tokens = dict(tokens.get(b.layout.board, {})) if tokens is not None else random_tokens(b.layout, rng)
        b.off_centre_mm = lv.off_centre_mm
        b.seed = int(rng.integers(1 << 30))
    tilt, turn = rng.uniform(*lv.tilt), rng.uniform(0, 2 * math.pi)
    cam = Camera(width=width, height=height, focal=width * 1000 / 1700, x=800 + rng.uniform(-20, 20),
                 y=470 + rng.uniform(-20, 20), z=1000, pitch=tilt * math.cos(turn), roll=tilt * math.sin(turn),
                 yaw=rng.uniform(-3, 3))
    cam = _fit_focal(cam, boards)
    d0 = rng.uniform(0.2, 0.7)
    change = rng.uniform(*lv.light_change) / 100 * rng.choice([-1, 1])
    d1 = float(np.clip(d0 + change, 0.0, 1.0))
    if abs(d1 - d0) < abs(change) - 1e-9:           # clipped: go the other way
        d1 = float(np.clip(d0 - change, 0.0, 1.0))
    shadows = [(rng.uniform(0, 1600), rng.uniform(0, 900), rng.uniform(200, 420), rng.uniform(0, 180),
                rng.uniform(0.3, 0.6)) for _ in range(int(rng.integers(0, lv.people + 1)))]
    glare = []
    if lv.glare[1] > 0:
        glare = [(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9), rng.uniform(0.015, 0.05), rng.uniform(*lv.glare))
                 for _ in range(int(rng.integers(1, 3)))]
    light = Light(lamp=(rng.uniform(300, 1300), rng.uniform(100, 800), rng.uniform(700, 1100)),
                  window_angle=rng.uniform(0, 360), daylight=d1, shadows=shadows, glare=glare)
    k1 = rng.uniform(*sorted(lv.distortion)) if lv.distortion != (0, 0) else 0.0
    return Shot(cam, float(k1), boards, light, calibration_daylight=float(d0), exposure=rng.uniform(0.75, 0.92),
                blur=rng.uniform(*lv.blur), noise=rng.uniform(*lv.noise), sharpen=rng.uniform(*lv.sharpen),
                jpeg=int(rng.integers(lv.jpeg[0], lv.jpeg[1] + 1)), seed=seed)


def calibration_shot(play: Shot, tokens: dict[str, dict], seed: int) -> Shot:
    """The same table when the owner calibrated: the calibration light mix, no glare, shadows or hands."""
    light = replace(play.light, daylight=play.calibration_daylight, shadows=[], glare=[])
    boards = [replace(b, tokens=dict(tokens.get(b.layout.board, {}))) for b in play.boards]
    jpeg = max(play.jpeg, 85)
    return replace(play, light=light, boards=boards, hands=[], seed=seed, jpeg=jpeg)


def with_tokens(s: Shot, tokens: dict[str, dict], seed: int, hands: list[Hand] | None = None) -> Shot:
    """The same shot with other tokens (by board), another noise seed and hands."""
    boards = [replace(b, tokens=dict(tokens.get(b.layout.board, {}))) for b in s.boards]
    return replace(s, boards=boards, seed=seed, hands=list(hands or []))


def random_hand(s: Shot, rng: np.random.Generator, board: Board | None = None, finger: bool = False) -> Hand:
    """A hand reaching onto ``board`` (a random one by default) from outside the picture.

    ``finger``: one fingertip resting on one of the board's edge spaces, the hand beside the board.
    """
    board = board or s.boards[int(rng.integers(len(s.boards)))]
    skin = SKINS[int(rng.integers(len(SKINS)))]
    sleeve = tuple(int(v) for v in rng.integers(0, 256, 3))
    pose = board.pose()
    if finger:
        w, h = board.layout.size_mm
        edge = [sl for sl in board.layout.slots if min(sl.x, sl.y, w - sl.x, h - sl.y) < 40] or board.layout.slots
        slot = edge[int(rng.integers(len(edge)))]
        tip = pose[:2, :2] @ np.array([slot.x, slot.y]) + pose[:2, 2]
        centre = pose[:2, :2] @ np.array([w / 2, h / 2]) + pose[:2, 2]
        out = tip - centre
        out /= np.linalg.norm(out) or 1.0
        origin = tip + out * 700
    else:
        slot = board.layout.slots[int(rng.integers(len(board.layout.slots)))]
        tip = pose[:2, :2] @ np.array([slot.x, slot.y]) + pose[:2, 2]
        origin = tip + np.array([rng.uniform(-300, 300), 900 if tip[1] > 300 else -700])
    return Hand(tip=tuple(float(v) for v in tip), origin=tuple(float(v) for v in origin), skin=skin,
                sleeve=sleeve, finger=finger)
