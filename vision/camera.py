"""The camera of a running table: built from the [camera] configuration at ``tofu-table serve``.

The ``camera`` device plugin (:mod:`server.plugins`): :func:`start` reads the configuration and,
in a thread of its own once the server listens (so the table answers first, the camera
``starting`` in /api/health meanwhile), opens the layouts and colour references from the data
dir, makes the frame source and the pipeline, and starts the camera thread; its health is under
``camera`` in /api/health.  In simulation the synthetic camera shows the table as the running
game has it (Food for Thought's boards) and is calibrated at start, once per user: the references
are kept in the user's cache for the next start (:func:`calibrate_synthetic`); its snapshots
agree with the game by construction, so they are not put on the table unless ``commit = true``
(then it is laid out from the record only when a game starts, and its tokens move by hand).
The camera rests while the running game watches no board (vision/service.py).  A camera
switched off (``source = "off"``, the default outside simulation) starts nothing: OpenCV, numpy
and the pipeline are not even imported.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from server import games
from server.memory import give_back_free_memory, map_blocks_over

from .config import OFF, CameraConfig, CameraConfigError, Settings

if TYPE_CHECKING:
    from .pipeline import Pipeline
    from .service import CameraService
    from .sources import SyntheticSource
    from .synthetic import Scene as SyntheticScene

log = logging.getLogger(__name__)

#: Frame rate of the simulated camera unless the configuration sets one.
SIMULATED_FPS = 10

#: Blocks from this size on get their own mapping, given back when freed (server/memory.py): a
#: picture in bytes (1920x1080: 6 MiB) is reused from the heap frame after frame; one in floats
#: (4 to 8 times as big, the synthetic camera's renders) is not kept once freed.
LARGE_BLOCK = 8 << 20

#: Longest the camera waits for the server to listen before it starts anyway, seconds.
START_WAIT_S = 10.0

#: How many of the synthetic camera's calibrations the user's cache keeps (one for each version of
#: vision/ and of the boards; 1.4 MiB each).
KEPT_CALIBRATIONS = 4

#: Where a running table keeps its camera service (in ``ctx.plugins``).
PLUGIN = "camera"


def service_for(ctx) -> CameraService | None:
    """The camera of a running table, or None before it started (or when it could not)."""
    return ctx.plugins.get(PLUGIN)


def _raw_config(ctx) -> dict:
    if ctx.simulate:
        return {}
    from hardware.config import FILE_NAME, load
    return load(ctx.data_dir / FILE_NAME).camera


def build(ctx, raw: dict | None = None) -> CameraService:
    """The camera service for ``ctx`` (not started); raises CameraConfigError or LayoutError."""
    from . import sources
    from .calibration import reference_dir
    from .classify import Reference
    from .layout import load_layouts
    from .lens import Lens
    from .pipeline import Pipeline
    from .service import CameraService

    raw = _raw_config(ctx) if raw is None else raw
    cfg = CameraConfig.from_dict(raw, ctx.simulate)
    layouts = load_layouts(ctx.data_dir)
    if cfg.boards is not None:
        unknown = [b for b in cfg.boards if b not in layouts]
        if unknown:
            raise CameraConfigError([f"[camera] boards: there is no layout {unknown[0]!r} "
                                     f"(layouts: {', '.join(sorted(layouts))})"])
        layouts = {b: layouts[b] for b in cfg.boards}
    source = sources.make_source(cfg, layouts)
    synthetic = isinstance(source, sources.SyntheticSource)
    if synthetic:
        layouts = {p.layout.board: p.layout for p in source.scene.boards}
    folder = reference_dir(ctx.data_dir)
    references = {b: Reference.load(folder, b) for b in layouts}
    pipeline = Pipeline(layouts, {b: r for b, r in references.items() if r}, cfg.settings,
                        None if synthetic else Lens.load(ctx.data_dir))
    prepare = None
    if synthetic and not any(references.values()):
        def prepare() -> None:           # in the camera thread, at the table's priority (vision/service.py)
            calibrate_synthetic(pipeline, source.scene, cfg.settings)
            pipeline.process(source.read())     # the first look builds the boards' slot maps: 2 s of CPU
            give_back_free_memory()      # the dozen tables it rendered in floats
    commit = feeds_table(cfg)
    put: Callable[[dict], None] = (lambda inp: put_if_in_play(ctx.table, inp)) if commit else (lambda inp: None)
    if commit and source is not None:         # a camera that is off feeds nothing
        ctx.table.equipment.add("camera")     # its games start physical-first (Option.with_camera)
    # the simulated camera needs no 30 fps; a slower one leaves the CPU to the rest of the table
    fps = cfg.fps if "fps" in raw or not synthetic else SIMULATED_FPS
    service = CameraService(source, pipeline, put, fps, simulated=synthetic, prepare=prepare,
                            expected=set(cfg.boards) if cfg.boards is not None else None,
                            doze=(cfg.doze_after_s, cfg.dozing_fps), deep_doze=(cfg.deep_doze_after_s, cfg.deep_dozing_fps))

    laid_game = [None]          # the game the synthetic table was last laid out for

    def follow(*_outcome) -> None:
        wanted = games.boards(ctx.table.state)
        service.watch(bool(wanted))
        # a synthetic camera that feeds the table is the table's truth, as a real one is: it is laid out
        # from the record when a game starts, and then its tokens move by hand (/api/camera/simulate)
        if synthetic and (not commit or ctx.table.game_seq != laid_game[0]):
            follow_game(source, wanted)
            laid_game[0] = ctx.table.game_seq
    ctx.table.listeners.append(follow)
    ctx.table.listeners.append(lambda *_outcome: service.yield_to_table())
    follow()
    return service


def calibration_cache(scene: SyntheticScene, settings: Settings) -> Path:
    """Where the synthetic camera's calibration of ``scene`` is kept between starts: a folder of the
    user's cache named by everything the calibration depends on (the scene without its tokens, the
    pipeline's settings, the source of vision/, OpenCV's and numpy's versions)."""
    import cv2
    import numpy as np

    from .synthetic import with_tokens

    digest = hashlib.sha256(repr((with_tokens(scene, {}, 0), settings, cv2.__version__, np.__version__)).encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "tofu-table" / "synthetic-calibration" / digest.hexdigest()[:32]


def calibrate_synthetic(pipeline: Pipeline, scene: SyntheticScene, settings: Settings) -> None:
    """Calibrate ``pipeline`` on the synthetic ``scene`` as the owner would, or take the references
    the same calibration gave at an earlier start (:func:`calibration_cache`): 4-5 s of CPU at every
    ``serve --simulate`` otherwise.  A cache that cannot be read or written only costs that time;
    the ``KEPT_CALIBRATIONS`` used last are kept, the older ones removed."""
    from .classify import Reference
    from .synthetic import calibrate

    folder = calibration_cache(scene, settings)
    boards = [p.layout.board for p in scene.boards if p.layout.board in pipeline.boards]
    try:
        cached = {b: Reference.load(folder, b) for b in boards}
    except (OSError, ValueError) as exc:
        log.warning("the synthetic camera's cached calibration is unreadable, calibrating anew: %s", exc)
        shutil.rmtree(folder, ignore_errors=True)
        cached = {}
    if boards and all(cached.get(b) for b in boards):
        for board, reference in cached.items():
            pipeline.set_reference(board, reference)
        os.utime(folder)               # used last: kept longest
        return
    calibrate(pipeline, scene)
    scratch = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
    try:
        for board in boards:
            pipeline.boards[board].reference.save(scratch)
        scratch.replace(folder)        # whole or not at all; another start may have put it there first
        by_use = sorted(folder.parent.iterdir(), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in by_use[KEPT_CALIBRATIONS:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        log.info("the synthetic camera's calibration is not cached: %s", exc)
        shutil.rmtree(scratch, ignore_errors=True)


def board_in_play(state: dict | None, board: str) -> bool:
    """Whether the running game watches ``board`` (an empty seat's board is not watched)."""
    return board in games.boards(state)


def put_if_in_play(table, inp: dict) -> None:
    """Put a committed snapshot on the table only when its board is in play.

    A camera left on during another game, or the board of an empty seat, would
    otherwise raise a refusal notice on the TV at every hand over the table.
    """
    if board_in_play(table.state, inp["board"]["board"]):
        table.put(inp, source="camera")


def follow_game(source: SyntheticSource, wanted: dict[str, dict]) -> None:
    """Lay the synthetic table's tokens as the running game's record has them (``games.boards``)."""
    for place in source.scene.boards:
        target = place.layout.target
        if target in wanted:
            slots = wanted[target]
            ids = {s.id for s in place.layout.slots}
            source.set_slots(place.layout.board, {s: slots.get(s) for s in ids})


def start(ctx, raw: dict | None = None) -> Callable[[], None]:
    """Start the camera of ``ctx``'s table (``raw``: a [camera] table instead of config.toml's); returns ``stop``.

    Only the configuration is read here.  Building the service (OpenCV, numpy, the pipeline, the
    synthetic camera's calibration) happens in a thread of its own once the server listens
    (``ctx.listening``), so the table answers first; health says ``starting`` meanwhile.
    """
    try:
        raw = _raw_config(ctx) if raw is None else raw
        cfg = CameraConfig.from_dict(raw, ctx.simulate)
    except ValueError as exc:         # CameraConfigError, the config file's ConfigError
        ctx.health.register("camera", _not_started(exc))
        return lambda: None
    if cfg.source == "off":
        ctx.health.register("camera", lambda: [{"name": "camera", "status": "off", "detail": OFF,
                                                "last_seen": None}])
        return lambda: None
    if feeds_table(cfg):                      # at once: a game started meanwhile is physical-first
        ctx.table.equipment.add("camera")
    starting = _Starting(ctx, raw)
    ctx.health.register("camera", starting.health)
    starting.thread.start()
    return starting.stop


def feeds_table(cfg: CameraConfig) -> bool:
    """Whether the camera's snapshots go on the table (by default all but the synthetic camera's)."""
    return cfg.commit if cfg.commit is not None else cfg.source != "synthetic"


def _not_started(exc: Exception) -> Callable[[], list[dict]]:
    """The health provider of a camera that could not be started because of ``exc``."""
    problems = getattr(exc, "problems", None) or [str(exc)]
    log.error("camera not started: %s", "; ".join(problems))
    return lambda: [{"name": "camera", "status": "down", "last_seen": None,
                     "detail": "camera not started: " + "; ".join(problems)}]


class _Starting:
    """The thread that builds and starts the camera service once the server listens."""

    def __init__(self, ctx, raw: dict):
        self.ctx, self.raw = ctx, raw
        self.lock = threading.Lock()
        self.stopped = False
        self.service: CameraService | None = None
        self.failed: Callable[[], list[dict]] | None = None
        self.thread = threading.Thread(target=self._run, name="camera-start", daemon=True)

    def health(self) -> list[dict]:
        if self.service is not None:
            return self.service.health()
        if self.failed is not None:
            return self.failed()
        return [{"name": "camera", "status": "starting", "detail": "starting the camera", "last_seen": None}]

    def _run(self) -> None:
        self.ctx.listening.wait(START_WAIT_S)
        try:
            service = build(self.ctx, self.raw)
        except Exception as exc:     # a bad layout, or OpenCV missing: reported, never left "starting"
            self.failed = _not_started(exc)
            return
        map_blocks_over(LARGE_BLOCK)
        with self.lock:
            if self.stopped:
                return
            self.ctx.plugins[PLUGIN] = service
            service.start()
            self.service = service

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            if self.service is not None:
                self.service.stop()
            self.ctx.plugins.pop(PLUGIN, None)
