"""Frame sources: where the pipeline's pictures come from.

Every source has ``open()``, ``read()`` (a BGR ``numpy`` frame, or None when no
frame came) and ``close()``; ``open`` raises :class:`SourceError` with a message
the owner can act on.  :func:`open_source` picks one from the ``[camera]``
configuration.  picamera2 is imported only when that source is used (it comes
from apt on the Pi).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np

from server.memory import give_back_free_memory

from .config import CameraConfig

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


class SourceError(RuntimeError):
    """The camera cannot be opened or has gone away; the message says what to check."""


def _size_advice(camera: str, asked: tuple[int, int], given: tuple[int, int]) -> str:
    return (f"{camera} gives {given[0]}x{given[1]} pictures, not the {asked[0]}x{asked[1]} of [camera] width "
            f"and height: set those to a size it supports (1920x1080 or 1280x720 for most cameras; "
            "`v4l2-ctl --list-formats-ext` lists a webcam's); a lens calibrated at another size needs "
            "`tofu-table vision lens` again.")


class FrameSource:
    """The interface every source follows."""

    name = "none"

    def open(self) -> None:
        """Start the camera (or file); SourceError when it cannot."""

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when none came."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera."""


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2; exposure, gain and white balance locked after settling
    (the exposure times ``exposure``: below 1 where the automatic one washes pale tokens out to white)."""

    name = "picamera2"

    def __init__(self, width: int = 1280, height: int = 720, fps: float = 30, settle_s: float = 2.0,
                 exposure: float = 1.0):
        self.size, self.fps, self.settle_s, self.exposure = (width, height), fps, settle_s, exposure
        self.camera = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError("picamera2 is not installed: `sudo apt install python3-picamera2`, and make "
                              "the virtualenv with --system-site-packages (see docs/camera.md).") from None
        try:
            cam = Picamera2()
            # RGB888 is stored B, G, R: what OpenCV expects
            config = cam.create_video_configuration(main={"size": self.size, "format": "RGB888"},
                                                    controls={"FrameRate": float(self.fps)})
            cam.align_configuration(config)       # the sizes the ISP can give, near the one asked for
            cam.configure(config)
            cam.start()
        except Exception as exc:    # libcamera reports a missing or busy camera in many ways
            raise SourceError(f"The Pi camera did not start ({exc}); check its ribbon cable and that "
                              "no other program uses it.") from None
        given = tuple(config["main"]["size"])
        if given != self.size:
            cam.close()
            raise SourceError(_size_advice("The Pi camera", self.size, given))
        time.sleep(self.settle_s)
        metadata = cam.capture_metadata()
        if "ExposureTime" in metadata:
            metadata["ExposureTime"] = max(1, round(metadata["ExposureTime"] * self.exposure))
        cam.set_controls({k: metadata[k] for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k in metadata}
                         | {"AeEnable": False, "AwbEnable": False})
        self.camera = cam

    def read(self) -> np.ndarray | None:
        try:
            return self.camera.capture_array("main")
        except Exception:
            return None

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()
            self.camera = None


class WebcamSource(FrameSource):
    """A USB webcam through OpenCV; auto exposure and white balance switched off after settling."""

    name = "webcam"

    def __init__(self, device: int | str = 0, width: int = 1280, height: int = 720, fps: float = 30,
                 settle_s: float = 2.0):
        self.device, self.size, self.fps, self.settle_s = device, (width, height), fps, settle_s
        self.capture = None

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            raise SourceError(f"No webcam at {self.device!r}: check the USB cable, and `ls /dev/video*`.")
        if self.size[0] * self.size[1] > 1280 * 720:
            # most USB webcams give more than 720p at full rate only as MJPG (raw YUYV: 5 fps or less)
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        end = time.monotonic() + self.settle_s
        frame = None
        while time.monotonic() < end or frame is None:
            ok, frame = cap.read()
            if not ok and time.monotonic() > end + 5:
                cap.release()
                raise SourceError(f"The webcam at {self.device!r} opened but gives no pictures: unplug it and "
                                  "plug it in again, or close the program that uses it.")
        given = (frame.shape[1], frame.shape[0])
        if given != self.size:
            cap.release()
            raise SourceError(_size_advice(f"The webcam at {self.device!r}", self.size, given))
        # V4L2: 1 = manual exposure (keeps the settled value); not every camera obeys
        cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        self.capture = cap

    def read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        return frame if ok else None

    def close(self) -> None:
        if self.capture is not None:
            self.capture.release()
            self.capture = None


class ReplaySource(FrameSource):
    """Recorded frames: a folder of images (in name order) or a video file, looped if asked."""

    name = "replay"

    def __init__(self, path: str | Path, loop: bool = True):
        self.path, self.loop = Path(path), loop
        self.files: list[Path] = []
        self.capture = None
        self.index = 0

    def open(self) -> None:
        if self.path.is_dir():
            self.files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.files:
                raise SourceError(f"{self.path} holds no images ({', '.join(IMAGE_SUFFIXES)}).")
        elif self.path.is_file():
            self.capture = cv2.VideoCapture(str(self.path))
            if not self.capture.isOpened():
                raise SourceError(f"{self.path} is not a video OpenCV can read.")
        else:
            raise SourceError(f"{self.path} does not exist.")
        self.index = 0

    def read(self) -> np.ndarray | None:
        if self.capture is not None:
            ok, frame = self.capture.read()
            if not ok and self.loop:
                self.capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self.capture.read()
            return frame if ok else None
        if self.index >= len(self.files):
            if not self.loop:
                return None
            self.index = 0
        frame = cv2.imread(str(self.files[self.index]), cv2.IMREAD_COLOR)
        self.index += 1
        return frame

    def close(self) -> None:
        if self.capture is not None:
            self.capture.release()
            self.capture = None


class SyntheticSource(FrameSource):
    """The synthetic table (vision.synthetic): tokens set by :meth:`set_slots`, re-rendered on change.

    Safe to change from another thread (the table's) while the camera thread reads.
    """

    name = "synthetic"

    def __init__(self, layouts: dict, width: int = 1280, height: int = 720, seed: int = 1):
        from . import synthetic
        self._synthetic = synthetic
        self.scene = synthetic.table_scene(layouts, seed, width, height, tokens={}, hard=False)
        self.scene.noise = 1.5
        self._lock = threading.Lock()
        self._version = 0
        self._frame: tuple[int, np.ndarray] | None = None
        self._held: np.ndarray | None = None
        self._glared: set[str] = set()       # boards under a lamp's reflection

    def hold(self, picture: np.ndarray | None) -> None:
        """Show ``picture`` (BGR: something held up to the camera, such as the lens sheet) instead
        of the table, or the table again (None)."""
        with self._lock:
            self._held = picture

    def set_slots(self, board: str, slots: dict[str, str | None]) -> None:
        """Put tokens on (or take them off) the named physical board's slots (a new picture is
        rendered only when that changed a slot)."""
        with self._lock:
            for place in self.scene.boards:
                if place.layout.board == board:
                    before = dict(place.tokens)
                    for slot, token in slots.items():
                        if token:
                            place.tokens[slot] = token
                        else:
                            place.tokens.pop(slot, None)
                    if place.tokens != before:
                        self._version += 1

    def set_hand(self, board: str, over: bool) -> None:
        """Hold a hand over the middle of the named board, reaching in from the picture's bottom
        edge (``over``), or take it away."""
        with self._lock:
            place = next(p for p in self.scene.boards if p.layout.board == board)
            tip = (place.x + place.layout.size_mm[0] / 2, place.y + place.layout.size_mm[1] / 2)
            self.scene.hands = [hand for hand in self.scene.hands if hand.tip != tip]
            if over:
                self.scene.hands.append(self._synthetic.Hand(tip, (tip[0], tip[1] + 1000)))
            self._version += 1

    def set_glare(self, board: str, on: bool) -> None:
        """Blow out the middle of the named board with a lamp's reflection (``on``), or take it away."""
        with self._lock:
            self._glared = self._glared | {board} if on else self._glared - {board}
            self._version += 1

    def read(self) -> np.ndarray | None:
        with self._lock:
            if self._held is not None:
                return self._held
            if self._frame is not None and self._frame[0] == self._version:
                return self._frame[1]
            version = self._version
            scene = self._synthetic.with_tokens(self.scene, {p.layout.board: p.tokens for p in self.scene.boards},
                                                self.scene.seed, self.scene.hands)
            glared = [p for p in scene.boards if p.layout.board in self._glared]
        frame = self._synthetic.render(scene)[0]
        for place in glared:
            self._synthetic.blow_out(frame, scene, place)
        self._synthetic.release_caches()      # the picture is kept instead, until a token moves
        give_back_free_memory()               # (most of them lay in the heaps, which keep freed memory)
        self._frame = (version, frame)
        return frame


def make_source(cfg: CameraConfig, layouts: dict | None = None) -> FrameSource | None:
    """The configured source, not yet opened (None when the camera is off)."""
    if cfg.source == "picamera2":
        return PiCameraSource(cfg.width, cfg.height, cfg.fps, cfg.settle_s, cfg.exposure)
    if cfg.source == "webcam":
        return WebcamSource(cfg.device, cfg.width, cfg.height, cfg.fps, cfg.settle_s)
    if cfg.source == "replay":
        return ReplaySource(cfg.path, cfg.loop)
    if cfg.source == "synthetic":
        return SyntheticSource(layouts or {}, cfg.width, cfg.height)
    return None
