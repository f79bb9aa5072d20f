"""A synthetic camera: boards with markers and food tokens, drawn as a camera would see them.

Everything is deterministic from a seed.  A :class:`Scene` says where the
camera is, where each board lies on the table (mm), which token is on which
slot, where hands are and what the light is like; :func:`render` turns it into
a BGR image and the ground truth (each board's homography from board mm to
image pixels, each slot's token, the markers a hand covers).

Used by tests, the benchmark, the ``synthetic`` frame source (simulation) and
the marker sheet preview.  The token colours here are sample data
(``tokens.synthetic_colour``); the classifier learns colours from calibration.
"""
from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .layout import Layout
from .markers import marker_image
from .tokens import synthetic_colour

#: Printed board colours (BGR): background, region fills by name prefix, slot spots.
BOARD_COLOUR = (176, 200, 214)
REGION_COLOURS = {"kitchen": (165, 215, 230), "trash": (150, 155, 160), "body": (170, 215, 180),
                  "shop": (200, 220, 235), "die": (225, 225, 225), "pizza": (150, 190, 235),
                  "buffet": (160, 170, 215), "action": (205, 205, 190), "markers": (190, 195, 200),
                  "onrecipe": (215, 235, 245), "onactivity": (235, 230, 215)}   # (the last two: cards)
#: The main board's wooden pieces (BGR): a solid disc per player colour (``marker<seat>``, Food for
#: Thought's action markers) and the dice; their hues keep clear of the food tokens' (sample colours).
PIECE_COLOURS = {"marker1": (25, 25, 25), "marker2": (235, 225, 70), "marker3": (70, 240, 160),
                 "marker4": (215, 40, 215), "die": (110, 50, 30)}
DIE = "die"
SPOT_COLOUR = (214, 226, 232)
PATCH_GREY = 150
TABLE_COLOUR = (70, 100, 135)


@dataclass
class Camera:
    """A pinhole camera ``z`` mm from the table point (x, y) it looks at, tilted (degrees), focal (px)."""

    width: int = 1280
    height: int = 720
    focal: float = 800.0
    x: float = 800.0
    y: float = 450.0
    z: float = 1000.0
    pitch: float = 0.0
    roll: float = 0.0
    yaw: float = 0.0

    def homography(self) -> np.ndarray:
        """Table plane (mm) to image pixels."""
        p, r, w = (math.radians(a) for a in (self.pitch, self.roll, self.yaw))
        rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
        ry = np.array([[math.cos(r), 0, math.sin(r)], [0, 1, 0], [-math.sin(r), 0, math.cos(r)]])
        rz = np.array([[math.cos(w), -math.sin(w), 0], [math.sin(w), math.cos(w), 0], [0, 0, 1]])
        rot = rx @ ry @ rz
        centre = np.array([self.x, self.y, 0.0]) - self.z * rot.T @ np.array([0.0, 0.0, 1.0])
        t = -rot @ centre
        k = np.array([[self.focal, 0, self.width / 2], [0, self.focal, self.height / 2], [0, 0, 1]])
        return k @ np.column_stack([rot[:, 0], rot[:, 1], t])


@dataclass
class Placement:
    """A board on the table: its layout, top-left corner (mm) and rotation (degrees)."""

    layout: Layout
    x: float
    y: float
    angle: float = 0.0
    tokens: dict[str, str | None] = field(default_factory=dict)   # slot id -> type (absent = empty)
    jitter_mm: float = 1.5
    seed: int = 0                 # how the tokens happen to lie (offset, turn, print shade)

    def pose(self) -> np.ndarray:
        """Board mm to table mm."""
        a = math.radians(self.angle)
        return np.array([[math.cos(a), -math.sin(a), self.x], [math.sin(a), math.cos(a), self.y], [0, 0, 1]])


@dataclass
class Hand:
    """An arm reaching in from outside the picture to ``tip`` (table mm)."""

    tip: tuple[float, float]
    origin: tuple[float, float]
    width_mm: float = 85.0
    skin: tuple[int, int, int] = (110, 145, 200)


@dataclass
class Light:
    """Light on the table: overall colour gain (BGR), a tinted gradient, vignette and a bright spot."""

    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: float = 0.0                 # relative brightness change across the picture
    angle: float = 0.0                    # direction of the gradient, degrees
    tint: tuple[float, float, float] = (0.0, 0.0, 0.0)   # per-channel extra on the gradient
    vignette: float = 0.0
    spot: float = 0.0                     # strength of a soft highlight
    spot_at: tuple[float, float] = (0.5, 0.5)


@dataclass
class Scene:
    """Everything :func:`render` draws."""

    camera: Camera
    boards: list[Placement]
    light: Light = field(default_factory=Light)
    hands: list[Hand] = field(default_factory=list)
    blur: float = 0.0            # Gaussian sigma, px
    noise: float = 0.0           # sensor noise sigma, grey levels
    jpeg: int = 0                # JPEG quality, 0 = none
    seed: int = 0                # sensor noise of this frame


# ----- boards -------------------------------------------------------------------
_BASE_CACHE: dict[tuple, np.ndarray] = {}


def _fingerprint(layout: Layout) -> str:
    """The layout's content (two layouts drawn alike have the same one)."""
    return json.dumps(layout.to_dict(), sort_keys=True)


def _tex(layout: Layout, scale: float) -> np.ndarray:
    """The printed board (no tokens) at ``scale`` px/mm, cached."""
    key = (_fingerprint(layout), scale)
    if key in _BASE_CACHE:
        return _BASE_CACHE[key]
    w, h = (int(round(v * scale)) for v in layout.size_mm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = BOARD_COLOUR
    S = 16                                    # drawing sub-pixel shift
    pts = lambda arr: (np.asarray(arr) * scale * S).astype(np.int32)
    for region in layout.regions:
        colour = REGION_COLOURS.get(region.name.split(".")[0], BOARD_COLOUR)
        cv2.fillPoly(img, [pts(region.corners)], colour, cv2.LINE_AA, shift=4)
        cv2.polylines(img, [pts(region.corners)], True, (90, 100, 110), 1, cv2.LINE_AA, shift=4)
    r = layout.token_mm / 2 + 1
    for slot in layout.slots:
        c = (int(slot.x * scale * S), int(slot.y * scale * S))
        cv2.circle(img, c, int(r * scale * S), SPOT_COLOUR, -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, c, int(r * scale * S), (120, 130, 140), max(1, int(scale * 0.6)), cv2.LINE_AA, shift=4)
    if layout.patch:
        x, y, pw, ph = layout.patch
        cv2.rectangle(img, (int(x * scale), int(y * scale)), (int((x + pw) * scale), int((y + ph) * scale)),
                      (245, 245, 245), -1)
        cv2.rectangle(img, (int(x * scale), int(y * scale)), (int((x + pw / 2) * scale), int((y + ph) * scale)),
                      (PATCH_GREY,) * 3, -1)
    for mid, (x, y, size) in layout.markers.items():
        quiet = size / 6 * 0.8                    # white sticker around the marker
        x0, y0 = int(round((x - quiet) * scale)), int(round((y - quiet) * scale))
        x1, y1 = int(round((x + size + quiet) * scale)), int(round((y + size + quiet) * scale))
        cv2.rectangle(img, (x0, y0), (x1, y1), (245, 245, 245), -1)
        side = int(round(size * scale))
        mk = marker_image(mid, side * 4)
        mk = cv2.resize(mk, (side, side), interpolation=cv2.INTER_AREA)
        mx, my = int(round(x * scale)), int(round(y * scale))
        img[my:my + side, mx:mx + side] = mk[:, :, None]
    _BASE_CACHE[key] = img
    return img


_ICONS = ("circle", "square", "triangle", "diamond", "cross", "bar", "ring", "dots", "star", "vbar", "chevron")


def _draw_piece(img, cx, cy, radius, kind, colour, angle, S=16):
    """A wooden player marker (a solid disc with a darker rim) or a die (a navy square with white
    pips; the space it lies on says its value)."""
    c = (int(cx * S), int(cy * S))
    if kind != DIE:
        cv2.circle(img, c, int(radius * 0.85 * S), tuple(int(v * 0.6) for v in colour), -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, c, int(radius * 0.72 * S), colour, -1, cv2.LINE_AA, shift=4)
        return
    side = radius * 0.8
    ca, sa = math.cos(angle), math.sin(angle)
    corner = lambda px, py: [(cx + (px * ca - py * sa) * side) * S, (cy + (px * sa + py * ca) * side) * S]  # noqa: E731
    cv2.fillPoly(img, [np.array([corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)], np.int32)],
                 tuple(int(v * 0.6) for v in colour), cv2.LINE_AA, shift=4)
    face = [corner(-0.9, -0.9), corner(0.9, -0.9), corner(0.9, 0.9), corner(-0.9, 0.9)]
    cv2.fillPoly(img, [np.array(face, np.int32)], colour, cv2.LINE_AA, shift=4)
    for px, py in ((-0.5, -0.5), (0, 0), (0.5, 0.5)):
        q = corner(px, py)
        cv2.circle(img, (int(q[0]), int(q[1])), int(0.14 * side * S), (245, 245, 245), -1, cv2.LINE_AA, shift=4)


def _draw_token(img, cx, cy, radius, kind, colour, angle, S=16):
    if kind in PIECE_COLOURS:
        _draw_piece(img, cx, cy, radius, kind, colour, angle, S)
        return
    c = (int(cx * S), int(cy * S))
    cv2.circle(img, c, int(radius * S), tuple(int(v * 0.65) for v in colour), -1, cv2.LINE_AA, shift=4)
    cv2.circle(img, c, int(radius * 0.88 * S), colour, -1, cv2.LINE_AA, shift=4)
    icon = _ICONS[zlib.crc32(kind.encode()) % len(_ICONS)]
    s = radius * 0.38
    ca, sa = math.cos(angle), math.sin(angle)
    rot = lambda pts: np.array([[(cx + (px * ca - py * sa) * s) * S, (cy + (px * sa + py * ca) * s) * S]
                                for px, py in pts], np.int32)
    white = (250, 250, 250)
    if icon in ("circle", "ring", "dots"):
        if icon == "dots":
            for px, py in ((-0.6, 0), (0.6, 0)):
                q = rot([(px, py)])[0]
                cv2.circle(img, tuple(int(v) for v in q), int(0.35 * s * S), white, -1, cv2.LINE_AA, shift=4)
        else:
            cv2.circle(img, c, int(s * S), white, -1 if icon == "circle" else max(1, int(0.3 * s * S)),
                       cv2.LINE_AA, shift=4)
        return
    shapes = {"square": [(-1, -1), (1, -1), (1, 1), (-1, 1)],
              "triangle": [(0, -1.1), (1, 0.8), (-1, 0.8)],
              "diamond": [(0, -1.2), (0.8, 0), (0, 1.2), (-0.8, 0)],
              "cross": [(-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1),
                        (-0.3, 1), (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)],
              "bar": [(-1.1, -0.35), (1.1, -0.35), (1.1, 0.35), (-1.1, 0.35)],
              "vbar": [(-0.35, -1.1), (0.35, -1.1), (0.35, 1.1), (-0.35, 1.1)],
              "star": [(0, -1.2), (0.3, -0.4), (1.1, -0.4), (0.45, 0.1), (0.7, 1), (0, 0.45), (-0.7, 1),
                       (-0.45, 0.1), (-1.1, -0.4), (-0.3, -0.4)],
              "chevron": [(-1, -0.6), (0, 0.2), (1, -0.6), (1, 0.2), (0, 1), (-1, 0.2)]}
    cv2.fillPoly(img, [rot(shapes[icon])], white, cv2.LINE_AA, shift=4)


_TOKEN_CACHE: dict[tuple, np.ndarray] = {}


def _board_texture(place: Placement, scale: float) -> np.ndarray:
    key = (_fingerprint(place.layout), scale, place.seed, place.jitter_mm, tuple(sorted(place.tokens.items())))
    if key in _TOKEN_CACHE:
        return _TOKEN_CACHE[key]
    if len(_TOKEN_CACHE) > 16:
        _TOKEN_CACHE.clear()
    img = _TOKEN_CACHE[key] = _tex(place.layout, scale).copy()
    radius = place.layout.token_mm / 2 * scale
    for slot in place.layout.slots:
        kind = place.tokens.get(slot.id)
        if not kind:
            continue
        # each token lies the same way until it is moved: its jitter depends on the token only
        rng = np.random.default_rng(zlib.crc32(f"{place.seed}:{slot.id}:{kind}".encode()))
        dx, dy = rng.uniform(-place.jitter_mm, place.jitter_mm, 2) * scale
        shade = rng.uniform(0.94, 1.06, 3)
        if kind == "marker" and place.layout.target.startswith("diet-"):
            kind = "marker" + place.layout.target.split("-")[1]     # a diet board's markers: its player's colour
        colour = tuple(int(min(255, v * f)) for v, f in zip(PIECE_COLOURS.get(kind) or synthetic_colour(kind), shade))
        _draw_token(img, slot.x * scale + dx - 0.5, slot.y * scale + dy - 0.5, radius, kind, colour,
                    rng.uniform(0, 2 * math.pi))
    return img


def board_homography(scene: Scene, place: Placement) -> np.ndarray:
    """Board mm to image pixels for one placed board."""
    h = scene.camera.homography() @ place.pose()
    return h / h[2, 2]


def blow_out(img: np.ndarray, scene: Scene, place: Placement) -> np.ndarray:
    """Paint a lamp's reflection into ``img`` (in place): a disc blown out to white, about three spaces
    across, round the middle space of the placed board.  Each slot's distance from its centre, in spaces
    (the pitch from that space to the nearest)."""
    layout = place.layout
    centres = cv2.perspectiveTransform(layout.slot_centres()[None].astype(np.float64),
                                       board_homography(scene, place))[0]
    middle = centres[len(centres) // 2]
    away = np.linalg.norm(centres - middle, axis=1)
    pitch = float(np.sort(away)[1])
    cv2.circle(img, tuple(int(v) for v in middle), int(1.6 * pitch), (255, 255, 255), -1)
    return away / pitch


_LIGHT_CACHE: dict[str, np.ndarray] = {}

#: Rows :func:`render` lights at a time: a 1280x720 picture in floats is 10.5 MiB and its noise 21 in
#: float64, and lit whole, several of them were alive at once (issue 20).
LIGHT_ROWS = 90


def release_caches() -> None:
    """Forget the light fields and the boards drawn, printed and with their tokens (the synthetic
    camera keeps its picture and calls this after rendering one: 23 MiB of the full table at
    1280x720 it would otherwise keep; drawing them again costs well under 0.1 s of CPU when its
    tokens change)."""
    _LIGHT_CACHE.clear()
    _TOKEN_CACHE.clear()
    _BASE_CACHE.clear()


def _light_field(scene: Scene) -> np.ndarray:
    key = repr((scene.camera, scene.light))
    if key not in _LIGHT_CACHE:
        if len(_LIGHT_CACHE) > 16:
            _LIGHT_CACHE.clear()
        _LIGHT_CACHE[key] = _compute_light(scene)
    return _LIGHT_CACHE[key]


def _compute_light(scene: Scene) -> np.ndarray:
    cam, lt = scene.camera, scene.light
    xs = np.arange(cam.width, dtype=np.float32)[None, :]      # (a row and a column: each picture-sized
    ys = np.arange(cam.height, dtype=np.float32)[:, None]     # array below is made once)
    u, v = xs / cam.width - 0.5, ys / cam.height - 0.5
    a = math.radians(lt.angle)
    ramp = (u * math.cos(a) + v * math.sin(a)) * 2           # -1 .. 1 across the picture
    base = np.ones((cam.height, cam.width), np.float32)
    if lt.vignette:
        base *= 1 - lt.vignette * (u * u + v * v) * 2
    if lt.spot:
        sx, sy = lt.spot_at
        base *= 1 + lt.spot * np.exp(-((u + 0.5 - sx) ** 2 + (v + 0.5 - sy) ** 2) / 0.03)
    out = np.empty((cam.height, cam.width, 3), np.float32)
    for ch in range(3):
        out[..., ch] = base * (1 + lt.gradient * ramp * (1 + lt.tint[ch]))
    out /= max(float(np.percentile(out, 99.5)), 1e-3)       # the camera's exposure is set for the lamp
    out *= np.asarray(lt.gain, np.float32)
    return np.clip(out, 0.15, 3, out=out)


def _draw_hand(img: np.ndarray, scene: Scene, hand: Hand) -> None:
    h = scene.camera.homography()
    pts = cv2.perspectiveTransform(np.array([[hand.origin, hand.tip]], np.float32), h)[0]
    (ox, oy), (tx, ty) = pts
    d = np.array([tx - ox, ty - oy])
    length = float(np.linalg.norm(d)) or 1.0
    d /= length
    n = np.array([-d[1], d[0]])
    mm = np.linalg.norm(cv2.perspectiveTransform(np.array([[hand.tip, (hand.tip[0] + 10, hand.tip[1])]],
                                                          np.float32), h)[0][1] - (tx, ty)) / 10
    w = hand.width_mm * mm / 2
    tip = np.array([tx, ty])
    poly = np.array([[ox, oy] + n * w * 1.1, tip - d * w + n * w, tip + d * w * 0.2 + n * w * 0.7,
                     tip + d * w * 0.9, tip + d * w * 0.2 - n * w * 0.7, tip - d * w - n * w,
                     [ox, oy] - n * w * 1.1])
    shadow = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(shadow, [(poly + (w * 0.5, w * 0.6)).astype(np.int32)], 255, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, w * 0.3))
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [poly.astype(np.int32)], 255, cv2.LINE_AA)
    for f in (-0.45, -0.15, 0.15, 0.45):                   # fingers
        a = tip + d * w * 0.5 + n * w * f * 1.2
        b = tip + d * w * 1.5 + n * w * f * 1.5
        cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, max(2, int(w * 0.22)), cv2.LINE_AA)
    ys, xs = np.ogrid[0:img.shape[0], 0:img.shape[1]]
    across = np.abs((xs.astype(np.float32) - tx) * n[0] + (ys.astype(np.float32) - ty) * n[1]) / max(w, 1)
    shade = np.clip(1.0 - 0.25 * across, 0.6, 1.0).astype(np.float32)        # rounder arm: darker edges
    m = mask.astype(np.float32) / 255
    keep = (1 - m) * (1 - 0.35 * shadow.astype(np.float32) / 255)
    out = img.astype(np.float32) * keep[..., None] + (m * shade)[..., None] * np.array(hand.skin, np.float32)
    img[:] = np.clip(out, 0, 255).astype(np.uint8)


def render(scene: Scene) -> tuple[np.ndarray, dict]:
    """Draw the scene; returns (BGR image, ground truth).

    The truth: ``{"boards": {board: {"homography": 3x3 list, "slots": {slot: type or None}}}}``.
    """
    rng = np.random.default_rng(scene.seed)
    cam = scene.camera
    img = np.empty((cam.height, cam.width, 3), np.uint8)
    img[:] = TABLE_COLOUR
    truth = {"boards": {}}
    for place in scene.boards:
        h = board_homography(scene, place)
        px_per_mm = math.sqrt(abs(np.linalg.det(h[:2, :2]))) / abs(h[2, 2])
        scale = float(np.clip(round(px_per_mm * 2 * 2) / 2, 1.0, 4.0))
        tex = _board_texture(place, scale)
        to_tex = np.array([[scale, 0, -0.5], [0, scale, -0.5], [0, 0, 1]])
        cv2.warpPerspective(tex, h @ np.linalg.inv(to_tex), (cam.width, cam.height), dst=img,
                            flags=cv2.INTER_AREA if scale > 1.5 else cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        truth["boards"][place.layout.board] = {
            "homography": h.tolist(),
            "slots": {s.id: place.tokens.get(s.id) or None for s in place.layout.slots}}
    for hand in scene.hands:
        _draw_hand(img, scene, hand)
    if scene.blur > 0:        # (blurring before the light: the light field is smooth, so nearly the same)
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    light = _light_field(scene)
    out = np.empty_like(img)
    rows = min(LIGHT_ROWS, cam.height)
    lit_rows = np.empty((rows, *img.shape[1:]), np.float32)        # the band's buffers, made once
    noise_rows = (np.empty(lit_rows.shape), np.empty_like(lit_rows)) if scene.noise > 0 else None
    for top in range(0, cam.height, rows):           # lit a band at a time (the same noise, drawn in order)
        band = slice(top, top + rows)
        n = len(img[band])
        lit = np.multiply(img[band], light[band], out=lit_rows[:n])
        if noise_rows is not None:
            drawn, drawn32 = noise_rows[0][:n], noise_rows[1][:n]
            rng.standard_normal(out=drawn)           # (what rng.normal(0, noise) draws, in that order)
            drawn *= scene.noise
            drawn32[...] = drawn
            lit += drawn32
        out[band] = np.clip(lit, 0, 255, out=lit)
    if scene.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, truth


# ----- ready-made scenes ------------------------------------------------------------
def random_tokens(layout: Layout, rng: np.random.Generator, empty: float = 0.35) -> dict[str, str]:
    """A token of a random type on each slot, except a share ``empty`` left empty."""
    types = layout.token_types()
    return {s.id: types[int(rng.integers(len(types)))] for s in layout.slots if rng.random() >= empty}


def random_light(rng: np.random.Generator) -> Light:
    """Uneven, coloured light of the kinds a table lamp and a window give."""
    warm = rng.uniform(-0.2, 0.2)
    exposure = rng.uniform(0.72, 0.95)
    return Light(gain=(float(exposure * (1 - warm * 0.8)), float(exposure * rng.uniform(0.92, 1.0)),
                       float(exposure * (1 + warm * 0.6))),
                 gradient=float(rng.uniform(0.05, 0.35)), angle=float(rng.uniform(0, 360)),
                 tint=tuple(float(v) for v in rng.uniform(-0.4, 0.4, 3)),
                 vignette=float(rng.uniform(0, 0.4)), spot=float(rng.uniform(0, 0.25)),
                 spot_at=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))))


def drifted(light: Light, rng: np.random.Generator, amount: float = 0.06) -> Light:
    """The same lamp a little later: overall brightness and colour drift by up to ``amount``."""
    g = np.array(light.gain) * (1 + rng.uniform(-amount, amount)) * (1 + rng.uniform(-amount, amount, 3) / 2)
    return Light(gain=tuple(float(v) for v in g), gradient=light.gradient, angle=light.angle,
                 tint=light.tint, vignette=light.vignette, spot=light.spot, spot_at=light.spot_at)


def board_scene(layout: Layout, seed: int, width: int = 480, height: int = 360,
                tokens: dict | None = None, light: Light | None = None, hard: bool = True) -> Scene:
    """One board filling a small picture, seen at a random slant, rotation and distance.

    ``hard`` adds blur, noise and JPEG artefacts of random strength.
    """
    rng = np.random.default_rng(seed)
    bw, bh = layout.size_mm
    fill = rng.uniform(0.78, 0.92)
    z = 1000.0
    focal = min(width / (bw * 1.1), height / (bh * 1.1)) * z * fill
    cam = Camera(width=width, height=height, focal=focal, x=bw / 2 + rng.uniform(-8, 8),
                 y=bh / 2 + rng.uniform(-8, 8), z=z, pitch=rng.uniform(-9, 9), roll=rng.uniform(-9, 9),
                 yaw=rng.uniform(-6, 6))
    place = Placement(layout, 0, 0, 0, tokens if tokens is not None else random_tokens(layout, rng))
    return Scene(cam, [place], light or random_light(rng),
                 blur=float(rng.uniform(0.3, 1.3)) if hard else 0.0,
                 noise=float(rng.uniform(1, 5)) if hard else 0.0,
                 jpeg=int(rng.integers(60, 95)) if hard else 0, seed=seed)


def table_scene(layouts: dict[str, Layout], seed: int, width: int = 1280, height: int = 720,
                tokens: dict[str, dict] | None = None, light: Light | None = None, hard: bool = True) -> Scene:
    """The whole table: the main board at the top (the shopping list and, left of it, the dice,
    dining-out and action spaces), the freezer boards right of it, and up to four diet boards in a
    row below (each with what its layout has beside it: the cards, the unused markers).  The camera
    sees 1.7 m of table across from 1 m up; when the boards need more, it sees all of them."""
    rng = np.random.default_rng(seed)
    places = []
    shop = layouts.get("shop")
    if shop:
        places.append(Placement(shop, 590 + rng.uniform(-20, 20), 40 + rng.uniform(-10, 10), rng.uniform(-3, 3)))
    diets = [layouts[k] for k in sorted(layouts) if k.startswith("diet-")][:4]
    left = 80.0
    for layout in diets:
        dx, dy, angle = rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-4, 4)
        reach = max(0.0, layout.size_mm[1] * math.sin(math.radians(angle)))   # turned clockwise: its foot reaches left
        places.append(Placement(layout, left + dx + reach, 420 + dy, angle))
        left = _extent(places[-1:])[2] + 40                                     # never on its neighbour
    extra = np.random.default_rng([seed, 1])       # the boards added later leave the others where they were
    main = layouts.get("main")
    if main:
        places.append(Placement(main, 150 + extra.uniform(-10, 10), 40 + extra.uniform(-10, 10), extra.uniform(-3, 3)))
    for i, layout in enumerate(diets):
        freezer = layouts.get("freezer-" + layout.board.split("-")[-1])
        if freezer:
            places.append(Placement(freezer, 1040 + (i % 2) * 225 + extra.uniform(-5, 5),
                                    35 + (i // 2) * (freezer.size_mm[1] + 20) + extra.uniform(-3, 3),
                                    extra.uniform(-2, 2)))
    for p in places:
        p.tokens = dict(tokens.get(p.layout.board, {})) if tokens is not None else random_tokens(p.layout, rng)
    x, y, seen = 800.0, 470.0, 1700.0           # where the camera looks, how much table it sees across (mm)
    if places:
        x0, y0, x1, y1 = _extent(places)
        need = max(x1 - x0 + 2 * TABLE_MARGIN, (y1 - y0 + TABLE_MARGIN) * width / height)
        if need > seen:
            x, y, seen = (x0 + x1) / 2, (y0 + y1) / 2, need
    cam = Camera(width=width, height=height, focal=width * 1000 / seen, x=x + rng.uniform(-10, 10),
                 y=y + rng.uniform(-10, 10), z=1000, pitch=rng.uniform(-4, 4), roll=rng.uniform(-4, 4),
                 yaw=rng.uniform(-2, 2))
    return Scene(cam, places, light or random_light(rng),
                 blur=float(rng.uniform(0.3, 0.9)) if hard else 0.0,
                 noise=float(rng.uniform(1, 4)) if hard else 0.0,
                 jpeg=int(rng.integers(70, 95)) if hard else 0, seed=seed)


#: The table a whole-table camera sees around its boards, mm (room for its tilt of a few degrees).
TABLE_MARGIN = 120.0


def _extent(places: list[Placement]) -> tuple[float, float, float, float]:
    """The table area the placed boards cover, mm: (left, top, right, bottom)."""
    corners = np.array([p.pose() @ (x, y, 1) for p in places
                        for x in (0, p.layout.size_mm[0]) for y in (0, p.layout.size_mm[1])])
    return (*corners[:, :2].min(axis=0), *corners[:, :2].max(axis=0))


def with_tokens(scene: Scene, tokens: dict[str, dict], seed: int, hands: list[Hand] | None = None,
                light: Light | None = None) -> Scene:
    """A copy of ``scene`` with other tokens (by board), another noise seed, hands and light."""
    boards = [replace(p, tokens=dict(tokens.get(p.layout.board, {}))) for p in scene.boards]
    return replace(scene, boards=boards, seed=seed, hands=list(hands or []), light=light or scene.light)


def calibrate(pipeline, scene: Scene, frames: int = 3, seed: int = 10_000, picture=None) -> None:
    """Run the owner's calibration on rendered frames: empty boards, then the token plan.

    ``picture(tokens, seed)`` draws the table with ``tokens`` (by board) as it looked when the owner
    calibrated (default: ``scene`` with those tokens; any scene whose ``boards`` have a ``layout``)."""
    from .calibration import capture_empty, capture_tokens, token_plan
    picture = picture or (lambda tokens, n: render(with_tokens(scene, tokens, n))[0])
    names = [p.layout.board for p in scene.boards if p.layout.board in pipeline.boards]
    empty = [picture({}, seed + i) for i in range(frames)]
    plans = {b: token_plan(pipeline.boards[b].layout) for b in names}
    full = [picture(plans, seed + 100 + i) for i in range(frames)]
    for b in names:
        capture_empty(pipeline, b, empty)
        capture_tokens(pipeline, b, full, plans[b])
    _TOKEN_CACHE.clear()          # the plan's boards are not drawn again (about 10 MB at 1280x720)
