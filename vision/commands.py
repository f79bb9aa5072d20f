"""What ``tofu-table markers`` and ``tofu-table vision ...`` do (their parsers: vision/cli.py)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from .calibration import add_token_colours, confusable, empty_reference, measure, token_plan
from .check import Tally
from .classify import Reference
from . import lens as lens_mod
from .cli import PAPER_MM
from .config import CameraConfigError
from .layout import Layout, LayoutError, load_layouts
from .lens import LensError
from .markers import CELL_PX, picture_height, smallest_marker_mm, worst_px_per_mm
from .pipeline import LIGHT_WARN, MIN_PX_PER_MM, Pipeline, glared_unsure, light_change
from .sheet import lens_page, pages, write_pdf, write_png
from .sources import SourceError
from .tokens import UNKNOWN


def _fail(message: str) -> int:
    print(f"tofu-table: {message}", file=sys.stderr)
    return 2


def markers(args) -> int:
    """Write the marker sheet."""
    try:
        layouts = load_layouts(args.data)
    except LayoutError as exc:
        return _fail(str(exc))
    try:
        area = tuple(float(v) for v in args.area.lower().split("x"))
    except ValueError:
        area = ()
    if len(area) != 2 or min(area) <= 0:
        return _fail(f"--area {args.area!r}: give the play area as WIDTHxDEPTH in metres, like 1.6x0.9")
    if not 0 <= args.tilt < 60:
        return _fail(f"--tilt {args.tilt:g}: give how far the camera leans from straight down, 0 to 60 degrees")
    names = [b.strip() for b in args.boards.split(",")] if args.boards else sorted(layouts)
    unknown = [b for b in names if b not in layouts]
    if unknown:
        return _fail(f"there is no layout {unknown[0]!r}; layouts: {', '.join(sorted(layouts))}")
    images = pages([layouts[b] for b in names], args.dpi, PAPER_MM[args.paper])
    written = _write_pages(images, args.output, args.dpi)
    if written is None:
        return _fail("the output must end in .pdf or .png")
    print(f"Wrote {', '.join(map(str, written))}: {len(images)} page(s) at {args.dpi} dpi. Print at 100 % "
          "and check the 100 mm bar with a ruler.")
    for name in names:
        for problem in layouts[name].marker_problems() + layouts[name].edge_problems():
            print(f"warning: {problem}")
    if args.camera_height:
        height_px = picture_height(args.camera_width)
        scale = worst_px_per_mm(args.camera_width, height_px, args.camera_height, args.fov, args.tilt, area)
        need = smallest_marker_mm(scale)
        small = sorted({f"{layouts[b].board} ({s:g} mm)" for b in names
                        for (_, _, s) in layouts[b].markers.values() if s < need})
        print(f"At {args.camera_height:g} m with a {args.fov:g} degree lens leaning {args.tilt:g} degrees and "
              f"{args.camera_width} x {height_px} px, the {area[0]:g} x {area[1]:g} m area gets "
              f"{scale:.2f} px/mm at its farthest: markers need a side of at least {need:.0f} mm "
              f"({CELL_PX:g} px a cell): "
              + (f"too small on {', '.join(small)}; make them larger, "
                 + (CAPTURE_1080 + ", " if args.camera_width < 1920 else "")
                 + "or hang the camera straighter." if small else "these are big enough."))
        print(_spaces_advice(args, area, scale))
    return 0


#: How the sheet and docs/camera.md name the capture option.
CAPTURE_1080 = "capture at 1920 x 1080 (width = 1920, height = 1080 under [camera])"


def _spaces_advice(args, area: tuple[float, float], scale: float) -> str:
    """Whether the farthest spaces get the pixels a token is read well at (the pipeline's
    MIN_PX_PER_MM, its "too far"), and if not, whether capturing at 1920 x 1080 would give them those."""
    if scale >= MIN_PX_PER_MM:
        return f"Spaces get at least the {MIN_PX_PER_MM:g} px/mm tokens are read well at."
    said = (f"The farthest spaces get under the {MIN_PX_PER_MM:g} px/mm tokens are read well at: the camera "
            "reports them too far and reads them less reliably")
    if args.camera_width < 1920:
        wide = worst_px_per_mm(1920, picture_height(1920), args.camera_height, args.fov, args.tilt, area)
        if wide >= MIN_PX_PER_MM:
            return f"{said}; {CAPTURE_1080}: {wide:.2f} px/mm."
        said += f" (at 1920 x 1080 too: {wide:.2f} px/mm)"
    return f"{said}; hang the camera straighter (docs/camera.md, \"Mounting the camera\")."


def _write_pages(images, output: str, dpi: int) -> list[Path] | None:
    """Write sheet pages as one PDF or PNGs (one per page); None when ``output`` is neither."""
    out = Path(output)
    if out.suffix.lower() == ".pdf":
        write_pdf(images, out, dpi)
        return [out]
    if out.suffix.lower() != ".png":
        return None
    written = [out if len(images) == 1 else out.with_name(f"{out.stem}-{i}{out.suffix}")
               for i in range(1, len(images) + 1)]
    for img, path in zip(images, written):
        write_png(img, path, dpi)
    return written


def _camera_views(data_dir: Path, wanted: int, timeout: float):
    """Pictures of the sheet from the configured camera: one each time it shows enough corners
    somewhere new in the picture (told on the terminal as they are taken)."""
    from hardware.config import FILE_NAME, ConfigError, load
    from .config import CameraConfig
    from .sources import make_source

    try:
        cfg = CameraConfig.from_dict(load(data_dir / FILE_NAME).camera)
    except ConfigError as exc:
        raise LensError(str(exc)) from None
    source = make_source(cfg)
    if source is None or cfg.source == "synthetic":
        raise LensError(f"the camera is {cfg.source} in {data_dir / FILE_NAME}; set [camera] source, or "
                        "give photos of the sheet instead")
    detector, kept, centres = lens_mod.make_detector(), [], []
    source.open()
    try:
        print(f"Hold the sheet flat in view, about a third of the picture wide; move it to a new place "
              f"and angle after each beep, corners of the picture included ({wanted} views).")
        end = time.monotonic() + timeout
        while len(kept) < wanted and time.monotonic() < end:
            frame = source.read()
            if frame is None:
                continue
            found = lens_mod.find_corners(detector, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
            if found is None or len(found[1]) < lens_mod.MIN_CORNERS:
                continue
            centre = found[0].reshape(-1, 2).mean(0) / frame.shape[1]
            if all(np.linalg.norm(centre - c) > 0.08 for c in centres):
                kept.append(frame)
                centres.append(centre)
                print(f"\aview {len(kept)} of {wanted} taken ({len(found[1])} corners)")
    finally:
        source.close()
    return kept


def lens(args) -> int:
    """Write the ChArUco sheet, or calibrate the lens from photos of it or from the camera."""
    if args.sheet:
        written = _write_pages([lens_page(args.dpi, PAPER_MM[args.paper])], args.sheet, args.dpi)
        if written is None:
            return _fail("the sheet must end in .pdf or .png")
        print(f"Wrote {written[0]}. Print it, keep it flat, then run `tofu-table vision lens --camera` "
              "or give photos of it.")
        return 0
    if bool(args.photos) == bool(args.camera):
        return _fail("give either photos of the sheet or --camera (or --sheet FILE to print the sheet)")
    if args.views < lens_mod.MIN_VIEWS:
        return _fail(f"--views must be at least {lens_mod.MIN_VIEWS}")
    from server.context import default_data_dir
    data_dir = Path(args.data) if args.data else default_data_dir()
    try:
        pictures = _camera_views(data_dir, args.views, args.timeout) if args.camera else list(_images(args.photos))
        fitted = lens_mod.calibrate(pictures)
    except (LensError, FileNotFoundError, SourceError, CameraConfigError) as exc:
        return _fail(str(exc))
    path = fitted.save(data_dir)
    print(f"Wrote {path}: {fitted.views} views, reprojection error {fitted.rms:.2f} px, k1 {fitted.dist[0]:+.3f}, "
          f"for {fitted.size[0]}x{fitted.size[1]} pictures. The camera uses it from its next start.")
    if fitted.rms > lens_mod.GOOD_RMS_PX:
        print(f"warning: an error above {lens_mod.GOOD_RMS_PX:g} px means blurred pictures or a sheet that was not "
              "flat: take them again")
    return 0


def _images(paths):
    for path in paths:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"cannot read image {path}")
        yield img


def plan(args) -> int:
    """Print the token plan of a layout."""
    try:
        layout = Layout.load(args.layout)
    except LayoutError as exc:
        return _fail(str(exc))
    for slot, kind in token_plan(layout).items():
        print(f"{slot}\t{kind}")
    return 0


def _lens(args) -> lens_mod.Lens | None:
    """The lens file named by ``--lens``, if any; LensError when it cannot be used."""
    return lens_mod.Lens.read(args.lens) if args.lens else None


def calibrate(args) -> int:
    """Make a colour reference from still images of the empty board and of the token plan."""
    try:
        layout = Layout.load(args.layout)
        pipe = Pipeline({layout.board: layout}, lens=_lens(args))
        ref = empty_reference(layout, measure(pipe, layout.board, _images(args.empty)))
        pipe.set_reference(layout.board, ref)
        samples = measure(pipe, layout.board, _images(args.tokens))
        ref, notes = add_token_colours(ref, layout, samples, token_plan(layout))
    except (LayoutError, LensError, LookupError, FileNotFoundError) as exc:
        return _fail(str(exc))
    path = ref.save(args.reference)
    print(f"Wrote {path}.")
    for note in notes:
        print(f"warning: {note}")
    for a, b, d in confusable(ref):
        print(f"warning: {a or 'empty'} and {b or 'empty'} look alike ({d} spreads apart)")
    return 0


def _layout_and_reference(args) -> tuple[Layout, Reference]:
    """The layout and its calibration named on the command line; ValueError says what is wrong."""
    layout = Layout.load(args.layout)
    ref = Reference.load(args.reference, layout.board)
    if ref is None or not ref.fits(layout):
        raise ValueError(f"{args.reference} has no colour reference for {layout.board} with this layout's slots: "
                         "calibrate first (`tofu-table vision calibrate` or the /calibrate page)")
    return layout, ref


def _read(layout: Layout, ref: Reference, path, lens: lens_mod.Lens | None = None) -> dict:
    """One picture through a fresh pipeline: where the board is, what lies over it, every slot."""
    pipe = Pipeline({layout.board: layout}, {layout.board: ref}, lens=lens)
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    pipe.process(img)
    watch, seen = pipe.boards[layout.board], pipe.status()["boards"][layout.board]
    entry = {"image": str(path), "frame": pipe.frame_status if img is not None else "unreadable",
             "board": layout.board, "located": bool(watch.fix and watch.fix.usable),
             "status": watch.fix.status if watch.fix else "not_found",
             "markers_seen": watch.fix.seen if watch.fix else [],
             # a hand or anything else over the board (against the calibration's empty board)
             "busy": watch.over, "foreground_mm2": round(watch.motion.last["foreground_mm2"]),
             "edge_mm2": round(watch.motion.last["edge_mm2"]),
             "light_change": round(light_change(watch.gain), 2),
             "recalibrate": light_change(watch.gain) > LIGHT_WARN,
             # slots seen too coarsely to be read reliably (still read)
             **{k: seen[k] for k in ("too_far", "too_far_advice")}, "slots": {}, "glare": []}
    if watch.reading is not None:
        entry["slots"] = {s.id: {"token": label, "confidence": round(float(c), 3)}
                          for s, label, c in zip(layout.slots, watch.reading.labels, watch.reading.confidence)}
        # unsure where glare washed the face out: the light's doing, which the owner can change
        entry["glare"] = glared_unsure(watch, [s.id for s, label in zip(layout.slots, watch.reading.labels)
                                               if label == UNKNOWN])
    return entry


def classify(args) -> int:
    """Classify every slot of the layout's board in each image."""
    try:
        layout, ref = _layout_and_reference(args)
        lens = _lens(args)
    except ValueError as exc:          # LayoutError and LensError are
        return _fail(str(exc))
    results = [_read(layout, ref, path, lens) for path in args.images]
    failed = any(not r["slots"] for r in results)
    if args.json:
        print(json.dumps({"images": results}, indent=1))
    else:
        for r in results:
            print(f"{r['image']}: board {r['board']} {'found' if r['located'] else 'NOT found'} "
                  f"({r['status']}, markers {r['markers_seen']}); {'BUSY' if r['busy'] else 'not busy'} "
                  f"(foreground {r['foreground_mm2']} mm2, at the edge {r['edge_mm2']} mm2); light change "
                  f"{r['light_change']:.0%}{': calibrate again' if r['recalibrate'] else ''}")
            if r["too_far"]:
                print(f"  too far: {len(r['too_far'])} of its {len(layout.slots)} spaces are seen too small to read reliably "
                      f"(under {MIN_PX_PER_MM} pixels a mm): {r['too_far_advice']}")
            if r["glare"]:
                print(f"  glare: {len(r['glare'])} of its spaces read unsure are washed out by a reflection: shade or "
                      "move the lamp, or tilt the board")
            for slot, s in r["slots"].items():
                print(f"  {slot:<20} {str(s['token'] or 'empty'):<12} {s['confidence']:.3f}")
    return 1 if failed else 0


def check(args) -> int:
    """Read a folder of photos and score every slot against a ground-truth file."""
    try:
        layout, ref = _layout_and_reference(args)
        lens = _lens(args)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        truth = json.loads(Path(args.truth).read_text())
    except (OSError, ValueError) as exc:
        return _fail(f"cannot read the ground-truth file {args.truth}: {exc}")
    folder = Path(args.photos)
    slots = {s.id for s in layout.slots}
    if not isinstance(truth, dict) or not truth:
        return _fail(f"{args.truth} must be a JSON object: photo file name -> {{slot: token or null}}")
    for name, want in truth.items():
        if not isinstance(want, dict):
            return _fail(f"{args.truth}: the entry of {name} must be an object {{slot: token or null}}")
        if not (folder / name).is_file():
            return _fail(f"{args.truth} names {name}, which is not in {folder}")
        unknown = sorted(set(want) - slots)
        if unknown:
            return _fail(f"{args.truth}: {name} names slot {unknown[0]!r}, which {layout.board}'s layout does not "
                         f"have; its slots are {', '.join(sorted(slots)[:4])}, ...")
    tally, photos = Tally(), []
    for name, want in sorted(truth.items()):
        entry = _read(layout, ref, folder / name, lens)
        read = {slot: s["token"] for slot, s in entry["slots"].items()} if entry["slots"] else None
        # slots the file leaves out are not scored; listed slots must read exactly as given
        tally.add_board(want, read)
        photos.append({"image": name, "located": entry["located"], "busy": entry["busy"],
                       "light_change": entry["light_change"],
                       "wrong": {slot: {"truth": v, "read": (read or {}).get(slot, UNKNOWN), "glare": slot in entry["glare"]}
                                 for slot, v in sorted(want.items()) if (read or {}).get(slot, UNKNOWN) != v}})
    glared = sum(w["glare"] for p in photos for w in p["wrong"].values())
    summary = tally.summary()
    if args.json:
        print(json.dumps({"summary": summary, "photos": photos}, indent=1))
    else:
        for p in photos:
            state = "board NOT found" if not p["located"] else f"{len(p['wrong'])} slot(s) wrong"
            print(f"{p['image']}: {state}" + (" (something lay over the board)" if p["busy"] else ""))
            for slot, w in p["wrong"].items():
                print(f"  {slot:<20} is {w['truth'] or 'empty'}, read {w['read'] or 'empty'}"
                      + (" (washed out by glare)" if w["glare"] else ""))
        print(f"{summary['errors']} of {summary['slots']} slots wrong ({summary['error_percent']} %): "
              f"{summary['unknown']} unsure, {summary['wrong']} read as something else; "
              f"{summary['boards_right']} of {summary['boards']} photos fully right.")
        if glared:
            print(f"{glared} of the unsure are washed out by a reflection: shade or move the lamp, or tilt the board, "
                  "and check again.")
    return 0 if tally.errors == 0 else 1
