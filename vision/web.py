"""The /calibrate page and its API (host token): live view, layouts, empty-board and token-colour captures.

A page plugin (:mod:`server.plugins`).  Routes (all but the page need the host token; in
simulation the two live pictures are open to the simulator page)::

    GET  /calibrate                             the page (web/calibrate.html)
    GET  /api/camera/status                     boards: located, calibrated, plan, layout summary
    GET  /api/camera/frame.jpg[?plain=1]        the last frame, with markers/slots/classes drawn
    GET  /api/camera/stream.mjpg                the same as a live MJPEG stream
    GET  /api/camera/rectified/<board>.jpg      the board seen from straight above, 2 px per mm
    GET  /api/camera/layout/<board>             the board's layout (JSON, see vision/layout.py)
    POST /api/camera/layout/<board>             save an edited layout in the data dir
    POST /api/camera/layout/<board>/markers     measure where the board's markers are stuck
    POST /api/camera/calibrate/<board>/empty    capture the empty board
    POST /api/camera/calibrate/<board>/tokens   capture the token colours (tokens laid as the plan says)
    GET  /api/camera/selftest                   the self-test: this session's plans, runs and their total
    POST /api/camera/selftest/<board>/plan      a new plan ({"count", "types", "seed"} or {"plan": {slot: type}})
    POST /api/camera/selftest/<board>/read      read the board once it lies still; score it against its plan
    POST /api/camera/simulate/<board>           simulation only: {"lay_plan": true}, {"slots": {...}}, {"hand"|"glare": bool}
    GET  /api/camera/lens                       the lens: in use or not, the views taken so far and what is missing
    GET  /api/camera/lens/sheet.png             the ChArUco sheet to print
    POST /api/camera/lens/view                  keep the camera's picture of the sheet as a view
    DELETE /api/camera/lens/views               forget the views taken
    POST /api/camera/lens/save                  calibrate the lens from the views and save it
    POST /api/camera/lens/simulate              simulation only: {"at": [x, y]} holds the sheet up there, {"at": null} not

With the camera switched off the API answers ``camera_off`` (``camera_starting`` in the seconds
after the table starts, while the camera builds its pipeline) and the pictures are a placeholder.
OpenCV, numpy and the vision modules are imported by the routes that need them, not with the
server: a table without a camera never loads them.
"""
from __future__ import annotations

import re
import time
from functools import lru_cache

from flask import Blueprint, Response, jsonify, request, send_from_directory

from server.web_access import json_error, refuse_unless_host

from .camera import board_in_play, service_for

#: Rectified board scale on the calibrate page, pixels per millimetre.
RECTIFIED_PX_PER_MM = 2.0
STREAM_FPS = 8
#: Longest a camera stream may be asked to run, in seconds (the page asks again).
MAX_STREAM_SECONDS = 3600
#: Where a running table keeps its camera self-tests (in ``ctx.plugins``).
SELFTEST_PLUGIN = "camera-selftest"
#: Where it keeps the lens views taken on the page.
LENS_PLUGIN = "camera-lens"
#: A lens view is taken from a frame the camera read after the press, waiting at most this long, s.
LENS_FRAME_S = 10.0
_SECONDS = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,3})?$")


def look_alike_warnings(ref) -> list[str]:
    """One sentence for each pair of token colours (or a colour and the empty slot) the camera may confuse."""
    from .calibration import confusable
    return [f"{a or 'empty'} and {c or 'empty'} look alike here ({d} spreads apart)" for a, c, d in confusable(ref)]


@lru_cache(maxsize=1)
def placeholder() -> bytes:
    """The JPEG shown while there is no frame."""
    import cv2

    from .service import blank
    return cv2.imencode(".jpg", blank())[1].tobytes()


def register(app, socketio, ctx) -> None:
    """Add the /calibrate page and the /api/camera routes to ``app``."""
    from server.app import WEB_DIR

    bp = Blueprint("camera", __name__)

    @bp.before_request
    def host_only():
        if request.path == "/calibrate":
            return None
        # in simulation the pictures of the synthetic table are for everyone (the simulator page)
        public = ctx.simulate and request.path in ("/api/camera/frame.jpg", "/api/camera/stream.mjpg")
        refusal = None if public else refuse_unless_host(ctx, "Calibrating the camera")
        if refusal:
            return refusal
        service = service_for(ctx)
        if service is None and request.path in ("/api/camera/frame.jpg", "/api/camera/stream.mjpg"):
            return Response(placeholder(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
        if service is None and any(r.get("status") == "starting" for r in ctx.health.snapshot()["camera"]):
            return json_error(503, "camera_starting", "The camera is still starting (it comes up a few "
                              "seconds after the table): try again in a moment.")
        if service is None:
            return json_error(503, "camera_off", "The camera is not running: see the camera line in the host "
                          "page's health table, and [camera] in config.toml.")
        return None

    def watch_of(board: str):
        watch = service_for(ctx).pipeline.boards.get(board)
        if watch is None:
            return None, json_error(404, "unknown_board", f"There is no board {board!r} watched by the camera.")
        return watch, None

    @bp.get("/calibrate")
    def page():
        return send_from_directory(WEB_DIR, "calibrate.html")

    @bp.get("/api/camera/status")
    def status():
        from .calibration import token_plan

        service = service_for(ctx)
        with service.lock:
            st = service.pipeline.status()
            boards = {name: w.layout for name, w in service.pipeline.boards.items()}
            refs = {name: w.reference for name, w in service.pipeline.boards.items()}
        for name, layout in boards.items():
            b = st["boards"][name]
            b.update(title=layout.title, sample=layout.sample, target=layout.target,
                     types=list(layout.token_types()), plan=token_plan(layout),
                     warnings=look_alike_warnings(refs[name]) if refs[name] else [])
        return jsonify({**st, "health": service.health(), "simulate": ctx.simulate})

    @bp.get("/api/camera/frame.jpg")
    def frame():
        data = service_for(ctx).jpeg(annotate=not request.args.get("plain")) or placeholder()
        return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @bp.get("/api/camera/stream.mjpg")
    def stream():
        service = service_for(ctx)
        text = request.args.get("seconds", str(MAX_STREAM_SECONDS))
        if not (_SECONDS.match(text) and 0 < float(text) <= MAX_STREAM_SECONDS):
            return json_error(400, "bad_seconds", f"seconds must be a number above 0 and at most "
                              f"{MAX_STREAM_SECONDS} (how long to stream), such as 60 or 0.5.")
        limit = float(text)

        def frames():
            end = time.monotonic() + limit
            while time.monotonic() < end:
                data = service.jpeg() or placeholder()
                yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + data + b"\r\n"
                time.sleep(1 / STREAM_FPS)
        return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame",
                        headers={"Cache-Control": "no-store"})

    @bp.get("/api/camera/rectified/<board>.jpg")
    def rectified(board: str):
        import cv2
        import numpy as np

        watch, err = watch_of(board)
        if err:
            return err
        service = service_for(ctx)
        with service.lock:
            frame = service.pipeline.last_frame
            h = watch.fix.homography if watch.fix else None
        if frame is None or h is None:
            return json_error(409, "board_not_found", f"Board {board} is not in view: check that its markers "
                          "are visible and not covered.")
        s = RECTIFIED_PX_PER_MM
        w, ht = (int(v * s) for v in watch.layout.size_mm)
        ys, xs = np.mgrid[0:ht, 0:w]
        # each pixel's board point in the camera's picture (through the lens, if calibrated)
        at = watch.locator.to_image(np.stack([(xs + 0.5) / s, (ys + 0.5) / s], -1).reshape(-1, 2)).reshape(ht, w, 2)
        img = cv2.remap(frame, np.ascontiguousarray(at[..., 0]), np.ascontiguousarray(at[..., 1]), cv2.INTER_LINEAR)
        return Response(cv2.imencode(".jpg", img)[1].tobytes(), mimetype="image/jpeg",
                        headers={"Cache-Control": "no-store"})

    @bp.get("/api/camera/layout/<board>")
    def get_layout(board: str):
        watch, err = watch_of(board)
        return err or jsonify({**watch.layout.to_dict(), "px_per_mm": RECTIFIED_PX_PER_MM})

    @bp.post("/api/camera/layout/<board>")
    def save_layout(board: str):
        from .layout import Layout, LayoutError, load_layouts

        watch, err = watch_of(board)
        if err:
            return err
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return json_error(400, "bad_layout", "Send the layout as a JSON object.")
        body = {**watch.layout.to_dict(), **{k: v for k, v in body.items() if k in ("regions", "token_mm", "patch")},
                "board": board, "sample": False}
        try:
            layout = Layout.from_dict(body)
            if not layout.slots:
                raise LayoutError("The layout has no slots: add at least one region.")
            folder = ctx.data_dir / "vision" / "layouts"
            path = folder / f"{board}.json"
            old = path.read_text() if path.exists() else None
            layout.save(path)
            try:
                load_layouts(ctx.data_dir)
            except LayoutError:
                if old is None:
                    path.unlink()
                else:
                    path.write_text(old)
                raise
        except LayoutError as exc:
            return json_error(400, "bad_layout", str(exc))
        service = service_for(ctx)
        with service.lock:
            service.pipeline.set_layout(layout)
        return jsonify({"ok": True, "slots": len(layout.slots),
                        "note": "Saved. Capture the empty board and the token colours again for this layout."})

    @bp.post("/api/camera/layout/<board>/markers")
    def measure(board: str):
        """Place the board's markers where the camera sees them (for markers stuck by eye)."""
        import cv2

        from .layout import Layout
        from .localize import measure_markers
        from .markers import detect

        watch, err = watch_of(board)
        if err:
            return err
        service = service_for(ctx)
        with service.lock:
            frame = service.pipeline.last_frame
            found = detect(service.pipeline.detector, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)) \
                if frame is not None else {}
        try:
            markers = measure_markers(watch.layout, found, service.pipeline.lens)
        except LookupError as exc:
            return json_error(409, "markers_not_found", str(exc))
        xs = [x + s for x, _, s in markers.values()]
        ys = [y + s for _, y, s in markers.values()]
        data = {**watch.layout.to_dict(), "sample": False,
                "markers": {str(k): {"x": x, "y": y, "size": s} for k, (x, y, s) in markers.items()}}
        data["size_mm"] = [max(data["size_mm"][0], max(xs) + 4), max(data["size_mm"][1], max(ys) + 4)]
        layout = Layout.from_dict(data)
        layout.save(ctx.data_dir / "vision" / "layouts" / f"{board}.json")
        with service.lock:
            service.pipeline.set_layout(layout)
        return jsonify({"ok": True, "markers": data["markers"],
                        "note": "Marker places saved. Check the slots on the new picture, then capture again."})

    @bp.post("/api/camera/calibrate/<board>/<step>")
    def calibrate(board: str, step: str):
        from .calibration import add_token_colours, empty_reference, reference_dir, token_plan

        watch, err = watch_of(board)
        if err:
            return err
        if step not in ("empty", "tokens"):
            return json_error(404, "unknown_step", "The calibration steps are empty and tokens.")
        service = service_for(ctx)
        try:
            samples = service.collect(board)
            notes = []
            if step == "empty":
                ref = empty_reference(watch.layout, samples)
            else:
                if watch.reference is None:
                    return json_error(409, "empty_first", f"Capture the empty {board} board first.")
                ref, notes = add_token_colours(watch.reference, watch.layout, samples, token_plan(watch.layout))
        except LookupError as exc:
            return json_error(409, "capture_failed", str(exc))
        ref.save(reference_dir(ctx.data_dir))
        with service.lock:
            service.pipeline.set_reference(board, ref)
        return jsonify({"ok": True, "missing_types": ref.missing_types(watch.layout.token_types()),
                        "warnings": notes + look_alike_warnings(ref)})

    def selftests():
        from .selftest import SelfTests
        return ctx.plugins.setdefault(SELFTEST_PLUGIN, SelfTests())

    def calibrated(board: str):
        """The board's watch and the token types the camera can read on it, or a refusal."""
        watch, err = watch_of(board)
        if err:
            return None, None, err
        if board_in_play(ctx.table.state, watch.layout.target):
            return None, None, json_error(409, "board_in_play", f"Board {board} is in the running game: the test's "
                                          "tokens would be taken for moves. Test it between games (or end this one).")
        if watch.reference is None:
            return None, None, json_error(409, "not_calibrated", f"Board {board} is not calibrated: capture the "
                                          "empty board and the token colours (steps 2 and 3) before testing it.")
        missing = set(watch.reference.missing_types(watch.layout.token_types()))
        types = [t for t in watch.layout.token_types() if t not in missing]
        if not types:
            return None, None, json_error(409, "not_calibrated", f"No token colours are captured on {board} yet: "
                                          "capture the token colours (step 3) before testing it.")
        return watch, types, None

    def forget_plans_in_play(*_outcome) -> None:
        """A board that comes into play loses its self-test plan (its boxes would be taken for the game's)."""
        service, tests = service_for(ctx), ctx.plugins.get(SELFTEST_PLUGIN)
        if service is None or tests is None:
            return
        for board in list(tests.plans):
            watch = service.pipeline.boards.get(board)
            if watch is None or board_in_play(ctx.table.state, watch.layout.target):
                tests.plans.pop(board)
                service.marks.pop(board, None)
    ctx.table.listeners.append(forget_plans_in_play)

    @bp.get("/api/camera/selftest")
    def selftest_summary():
        return jsonify(selftests().summary())

    @bp.post("/api/camera/selftest/<board>/plan")
    def selftest_plan(board: str):
        from .selftest import SelfTestError, plan_asked

        watch, types, err = calibrated(board)
        if err:
            return err
        body = request.get_json(silent=True)
        try:
            plan = plan_asked(watch.layout, {} if body is None else body, types)
        except SelfTestError as exc:
            return json_error(400, exc.code, str(exc))
        tests = selftests()
        tests.plans[board] = plan
        service_for(ctx).marks[board] = plan
        return jsonify({"ok": True, "board": board, "plan": plan, **tests.summary()})

    @bp.post("/api/camera/selftest/<board>/read")
    def selftest_read(board: str):
        from .selftest import SelfTestError, read_still, score

        watch, _types, err = calibrated(board)
        if err:
            return err
        tests = selftests()
        plan = tests.plans.get(board)
        if plan is None:
            return json_error(409, "no_plan", f"There is no plan for {board} yet: press \"Make a plan\", lay its "
                              "tokens, then read.")
        try:
            read, light, glared = read_still(service_for(ctx), board)
        except SelfTestError as exc:
            return json_error(409, exc.code, str(exc))
        tally, errors = score(watch.layout, plan, read, glared)
        run = tests.record(board, plan, tally, errors, light)
        return jsonify({"ok": True, "run": run, **tests.summary()})

    @bp.post("/api/camera/simulate/<board>")
    def simulate(board: str):
        """The simulated table only: lay the self-test's plan, set slots, or hold a hand over the board."""
        from .sources import SyntheticSource

        watch, err = watch_of(board)
        if err:
            return err
        source = service_for(ctx).source
        if not (ctx.simulate and isinstance(source, SyntheticSource)):
            return json_error(409, "not_simulated", "Only the synthetic camera of a simulated table can be told "
                              "where tokens lie: on a real table, lay them by hand.")
        body = request.get_json(silent=True)
        ids = {s.id for s in watch.layout.slots}
        if not isinstance(body, dict) or not set(body) <= {"lay_plan", "slots", "hand", "glare"} or not body:
            return json_error(400, "bad_simulation", 'Send {"lay_plan": true}, {"slots": {"slot": "type" or null}}, '
                              '{"hand": true or false} or {"glare": true or false}.')
        slots = body.get("slots", {})
        if not isinstance(slots, dict) or not set(slots) <= ids or not all(
                v is None or isinstance(v, str) for v in slots.values()):
            return json_error(400, "bad_simulation", f"slots must map {board}'s slots to a token type or null.")
        if body.get("lay_plan"):
            plan = selftests().plans.get(board)
            if plan is None:
                return json_error(409, "no_plan", f"There is no plan for {board} to lay: make one first.")
            source.set_slots(board, {s: plan.get(s) for s in ids})
        source.set_slots(board, slots)
        if "hand" in body:
            source.set_hand(board, bool(body["hand"]))
        if "glare" in body:
            source.set_glare(board, bool(body["glare"]))
        return jsonify({"ok": True})

    # ----- the lens: views of the printed ChArUco sheet, then the calibration (vision/lens.py) -----
    def lens_views() -> dict:
        return ctx.plugins.setdefault(LENS_PLUGIN, {"pictures": [], "corners": []})

    def lens_summary(note: str = "") -> dict:
        from . import lens as L
        import numpy as np

        views = lens_views()
        service = service_for(ctx)
        spread = [0.0, 0.0]
        if views["corners"]:
            every = np.concatenate(views["corners"])
            size = np.array(views["pictures"][0].shape[1::-1], np.float64)
            spread = [round(float(v), 2) for v in (every.max(0) - every.min(0)) / size]
        n = len(views["pictures"])
        enough = n >= L.MIN_VIEWS and min(spread) >= L.MIN_SPREAD
        return {"lens": service.pipeline.lens_status, "views": n, "views_needed": L.MIN_VIEWS,
                "corners_needed": L.MIN_CORNERS, "spread": spread, "spread_needed": L.MIN_SPREAD,
                "enough": enough, "simulate": ctx.simulate, "note": note}

    @bp.get("/api/camera/lens")
    def lens_state():
        return jsonify(lens_summary())

    @bp.get("/api/camera/lens/sheet.png")
    def lens_sheet():
        import cv2

        from .sheet import lens_page
        return Response(cv2.imencode(".png", lens_page(150))[1].tobytes(), mimetype="image/png",
                        headers={"Content-Disposition": 'inline; filename="lens-sheet.png"'})

    @bp.post("/api/camera/lens/view")
    def lens_view():
        import cv2
        import numpy as np

        from . import lens as L
        service = service_for(ctx)
        frames: list = []

        def look(pipeline) -> bool:
            frames.append(pipeline.last_frame)      # the first: the frame before the press (each_frame's start)
            return len(frames) > 2                  # the second may have been read before the press too
        if not service.each_frame(look, LENS_FRAME_S) or frames[-1] is None:
            return json_error(409, "no_frame", f"The camera gave no new picture in {LENS_FRAME_S:g} s: see its "
                              "line in the health table, then try again.")
        frame = frames[-1]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = L.find_corners(L.make_detector(), grey)
        seen = 0 if found is None else len(found[1])
        if seen < L.MIN_CORNERS:
            return json_error(409, "sheet_not_seen", f"The camera sees {seen} of the sheet's "
                              f"{(L.SQUARES[0] - 1) * (L.SQUARES[1] - 1)} corners; at least {L.MIN_CORNERS} are "
                              "needed: hold the whole sheet flat in view, in good light, and keep it still.")
        views = lens_views()
        if views["pictures"] and grey.shape != views["pictures"][0].shape:
            views["pictures"].clear()
            views["corners"].clear()
        corners = found[0].reshape(-1, 2)
        centre = corners.mean(0) / grey.shape[1]
        if any(np.linalg.norm(centre - c.mean(0) / grey.shape[1]) < L.SAME_PLACE for c in views["corners"]):
            return json_error(409, "same_place", "The sheet is where an earlier view has it: move it to another "
                              "part of the picture (corners and edges too, turned a little), then take the view.")
        views["pictures"].append(grey)
        views["corners"].append(corners)
        return jsonify({"ok": True, **lens_summary(f"View {len(views['pictures'])} taken ({seen} corners).")})

    @bp.delete("/api/camera/lens/views")
    def lens_forget():
        lens_views()["pictures"].clear()
        lens_views()["corners"].clear()
        return jsonify({"ok": True, **lens_summary("The views are forgotten: take them again.")})

    @bp.post("/api/camera/lens/save")
    def lens_save():
        from . import lens as L
        try:
            lens = L.calibrate(lens_views()["pictures"])
        except L.LensError as exc:
            return json_error(409, "lens_refused", f"The lens is not calibrated: {exc}.")
        lens.save(ctx.data_dir)
        quality = "good" if lens.rms <= L.GOOD_RMS_PX else "poor (the sheet was not flat, or the views were blurred)"
        return jsonify({"ok": True, "rms_px": round(lens.rms, 3), "k1": round(float(lens.dist[0]), 4),
                        **lens_summary(f"Lens saved from {lens.views} views: reprojection error {lens.rms:.2f} px, "
                                       f"{quality}; k1 {lens.dist[0]:.3f}. The camera uses it from its next start.")})

    @bp.post("/api/camera/lens/simulate")
    def lens_simulate():
        """The simulated table only: hold the sheet up to the synthetic camera (its centre at a share of the
        picture's width and height), or put it away."""
        import cv2

        from . import lens as L
        from .sources import SyntheticSource
        source = service_for(ctx).source
        if not (ctx.simulate and isinstance(source, SyntheticSource)):
            return json_error(409, "not_simulated", "Only the synthetic camera of a simulated table can be shown "
                              "the sheet this way: on a real table, hold the printed sheet in front of the camera.")
        body = request.get_json(silent=True)
        at = body.get("at", "missing") if isinstance(body, dict) else "missing"
        if at is not None and not (isinstance(at, list) and len(at) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0.1 <= v <= 0.9 for v in at)):
            return json_error(400, "bad_simulation", 'Send {"at": [x, y]}, where the sheet\'s centre is held as '
                              'shares of the picture\'s width and height from 0.1 to 0.9, or {"at": null} (put it away).')
        if at is None:
            source.hold(None)
        else:
            import numpy as np
            cam = source.scene.camera            # a perfect lens: the synthetic camera draws no distortion
            perfect = L.Lens(np.array([[cam.focal, 0, cam.width / 2], [0, cam.focal, cam.height / 2], [0, 0, 1]]),
                             np.zeros(5), (cam.width, cam.height))
            seed = int(at[0] * 1000) * 1000 + int(at[1] * 1000)          # each place its own turn of the sheet
            grey = L.sheet_views(perfect, count=1, seed=seed, places=[tuple(at)])[0]
            source.hold(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
        return jsonify({"ok": True})

    app.register_blueprint(bp)

