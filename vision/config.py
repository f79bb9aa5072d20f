"""The ``[camera]`` section of the table's config.toml, checked.

The hardware configuration (hardware/config.py) reads the file and hands this
module the ``[camera]`` table as a plain dict; every setting is optional::

    [camera]
    source = "picamera2"      # picamera2 | webcam | replay | synthetic | off
    device = 0                # webcam: index or /dev/videoN
    path = "/home/pi/frames"  # replay: a folder of images or a video file
    width = 1280
    height = 720
    fps = 30
    settle_s = 2.0            # picamera2/webcam: let exposure and white balance settle, then lock them
    exposure = 1.0            # picamera2: the settled exposure times this when locked (0.7: pale tokens
                              # washed out to white at calibration)
    boards = ["shop", "diet-1", "diet-2"]    # layouts to watch (default: all)
    commit = true             # put snapshots on the table (default: true, except for the
                              # synthetic camera of a simulation, which follows the game)
    still_frames = 8          # and the other pipeline settings (Settings below)
    doze_after_s = 5          # a watched table still this long: dozing_fps frames a second
    dozing_fps = 5
    deep_doze_after_s = 30    # still this long: deep_dozing_fps (vision/service.py)
    deep_dozing_fps = 2
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field


@dataclass
class Settings:
    """Pipeline knobs (the ``[camera]`` section of the config file may set any of them)."""

    still_frames: int = 8          # still frames before a snapshot is a candidate
    max_changes: int = 8           # more changes at once than this wait for a second look
    min_markers: int = 3           # fewer visible markers: the board is not located
    search_every: int = 15         # whole-frame marker search period while a board is missing
    min_confidence: float = 0.9    # below this a slot reads "unknown"
    absorb_frames: int = 300       # still clutter outside the slots joins the background after this

    @classmethod
    def from_dict(cls, data: dict | None) -> "Settings":
        data = data or {}
        known = {k: type(getattr(cls, k))(data[k]) for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


SOURCES = ("picamera2", "webcam", "replay", "synthetic", "off")
#: What the health of a camera switched off says.
OFF = "the camera is off in the configuration"


class CameraConfigError(ValueError):
    """The [camera] section has problems; ``problems`` lists each one in plain words."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class CameraConfig:
    """Which frame source, its size and rate, which boards, and the pipeline settings."""

    source: str = "off"
    device: int | str = 0
    path: str = ""
    width: int = 1280
    height: int = 720
    fps: float = 30.0
    settle_s: float = 2.0
    exposure: float = 1.0
    loop: bool = True
    boards: list[str] | None = None
    commit: bool | None = None
    doze_after_s: float = 5.0
    dozing_fps: float = 5.0
    deep_doze_after_s: float = 30.0
    deep_dozing_fps: float = 2.0
    settings: Settings = field(default_factory=Settings)

    @classmethod
    def from_dict(cls, raw: dict | None, simulate: bool = False) -> "CameraConfig":
        """Check ``raw`` (the [camera] table); without a source, simulation uses the synthetic one."""
        raw = dict(raw or {})
        problems = []
        known = set(cls.__dataclass_fields__) - {"settings"} | set(Settings.__dataclass_fields__)
        for key in raw:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                problems.append(f"[camera] has an unknown setting {key!r}"
                                + (f" (did you mean {close[0]!r}?)" if close else ""))
        cfg = cls(source=raw.get("source", "synthetic" if simulate else "off"))
        if cfg.source not in SOURCES:
            problems.append(f"[camera] source must be one of {', '.join(SOURCES)}, not {cfg.source!r}")
        for name, low, high in (("width", 64, 8192), ("height", 48, 8192), ("fps", 1, 120), ("settle_s", 0, 60),
                                ("exposure", 0.1, 4), ("doze_after_s", 0, 3600), ("dozing_fps", 0.5, 120), ("deep_doze_after_s", 0, 3600),
                                ("deep_dozing_fps", 0.5, 120)):
            if name in raw:
                value = raw[name]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                    problems.append(f"[camera] {name} must be a number from {low} to {high}, not {value!r}")
                else:
                    setattr(cfg, name, type(getattr(cfg, name))(value))
        if "device" in raw:
            if isinstance(raw["device"], bool) or not isinstance(raw["device"], (int, str)):
                problems.append("[camera] device must be a camera number like 0 or a path like /dev/video0")
            else:
                cfg.device = raw["device"]
        if cfg.exposure != 1.0 and cfg.source != "picamera2":
            problems.append("[camera] exposure is the Pi camera's (picamera2); a webcam's is set with v4l2-ctl, "
                            "and other sources have none")
        if cfg.deep_doze_after_s < cfg.doze_after_s:
            problems.append(f"[camera] deep_doze_after_s ({cfg.deep_doze_after_s:g}) must be at least doze_after_s "
                            f"({cfg.doze_after_s:g}): the deeper doze comes after the first")
        for after, fps in (("doze_after_s", "dozing_fps"), ("deep_doze_after_s", "deep_dozing_fps")):
            if getattr(cfg, after) < 1 / getattr(cfg, fps):
                problems.append(f"[camera] {after} ({getattr(cfg, after):g}) must be at least one frame at {fps} "
                                f"({1 / getattr(cfg, fps):g} s): a hand seen in every frame would not wake it")
        if cfg.deep_dozing_fps > cfg.dozing_fps:
            problems.append(f"[camera] deep_dozing_fps ({cfg.deep_dozing_fps:g}) must be at most dozing_fps "
                            f"({cfg.dozing_fps:g}): the deeper doze takes fewer frames")
        cfg.path = str(raw.get("path", ""))
        if cfg.source == "replay" and not cfg.path:
            problems.append("[camera] source = \"replay\" needs path (a folder of images or a video file)")
        cfg.loop = bool(raw.get("loop", True))
        if "commit" in raw:
            cfg.commit = bool(raw["commit"])
        if "boards" in raw:
            if not isinstance(raw["boards"], list) or not all(isinstance(b, str) for b in raw["boards"]):
                problems.append("[camera] boards must be a list of board names like [\"shop\", \"diet-1\"]")
            else:
                cfg.boards = list(raw["boards"])
        try:
            cfg.settings = Settings.from_dict({k: v for k, v in raw.items() if k in Settings.__dataclass_fields__})
        except (TypeError, ValueError) as exc:
            problems.append(f"[camera] a pipeline setting is not a number: {exc}")
        if problems:
            raise CameraConfigError(problems)
        return cfg
