"""The [camera] configuration and the frame sources (replay, synthetic; picamera2 absent here)."""
import cv2
import numpy as np
import pytest

from tests.support.vision_scenes import layouts
from vision.config import CameraConfig, CameraConfigError
from vision.sources import PiCameraSource, ReplaySource, SourceError, SyntheticSource, WebcamSource, make_source


def test_defaults_are_off_on_hardware_and_synthetic_in_simulation():
    assert CameraConfig.from_dict({}).source == "off"
    assert CameraConfig.from_dict({}, simulate=True).source == "synthetic"
    cfg = CameraConfig.from_dict({"source": "webcam", "device": 2, "width": 640, "height": 480, "still_frames": 5,
                                  "boards": ["shop"]})
    assert (cfg.device, cfg.width, cfg.settings.still_frames, cfg.boards) == (2, 640, 5, ["shop"])
    assert isinstance(make_source(cfg), WebcamSource)
    assert make_source(CameraConfig.from_dict({})) is None


def test_every_problem_is_listed_in_plain_words():
    with pytest.raises(CameraConfigError) as err:
        CameraConfig.from_dict({"source": "kinect", "widht": 5, "fps": 0, "boards": "shop"})
    text = " | ".join(err.value.problems)
    assert "source must be one of" in text and "did you mean 'width'" in text
    assert "fps must be a number from 1" in text and "boards must be a list" in text
    with pytest.raises(CameraConfigError, match="needs path"):
        CameraConfig.from_dict({"source": "replay"})


def test_replay_reads_a_folder_in_name_order_and_loops(tmp_path):
    for i in (2, 1, 3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((10, 10, 3), i * 40, np.uint8))
    src = ReplaySource(tmp_path, loop=True)
    src.open()
    assert [int(src.read()[0, 0, 0]) for _ in range(4)] == [40, 80, 120, 40]
    once = ReplaySource(tmp_path, loop=False)
    once.open()
    assert [once.read() is None for _ in range(4)] == [False, False, False, True]


def test_replay_of_a_video_file(tmp_path):
    path = tmp_path / "v.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for i in range(3):
        out.write(np.full((24, 32, 3), 50 + 60 * i, np.uint8))
    out.release()
    src = ReplaySource(path, loop=False)
    src.open()
    frames = [src.read() for _ in range(4)]
    assert [f is None for f in frames] == [False, False, False, True]
    assert frames[0].shape == (24, 32, 3)


@pytest.mark.parametrize("source, words", [
    (ReplaySource("/no/such/thing"), "does not exist"),
    (PiCameraSource(), "picamera2 is not installed"),
    (WebcamSource("/dev/no-such-video"), "No webcam"),
])
def test_sources_that_cannot_open_say_what_to_check(source, words):
    with pytest.raises(SourceError, match=words):
        source.open()


def test_synthetic_source_shows_the_tokens_it_is_given():
    src = SyntheticSource(layouts("shop", "diet-1"), 640, 360)
    blank = src.read()
    assert src.read() is blank                      # nothing changed: the same picture
    src.set_slots("diet-1", {"kitchen.1.1": "water", "body.water.1": "water"})
    changed = src.read()
    assert changed is not blank and cv2.absdiff(changed, blank).max() > 100
    src.set_slots("diet-1", {"kitchen.1.1": "water"})    # as it was (a game's every input says so)
    assert src.read() is changed                         # not rendered again
    src.set_slots("diet-1", {"kitchen.1.1": None, "body.water.1": None})
    assert cv2.absdiff(src.read(), blank).max() < 30       # only noise differs


def test_the_synthetic_camera_keeps_its_picture_not_what_it_drew_it_from():
    # issue 20 (memory): at 1280x720 the light field and the drawn boards are 23 MiB; a running
    # synthetic camera keeps the picture it rendered and draws them again when a token moves
    from vision import synthetic

    src = SyntheticSource(layouts("shop", "diet-1"), 640, 360)
    first = src.read()
    assert not (synthetic._LIGHT_CACHE or synthetic._TOKEN_CACHE or synthetic._BASE_CACHE)
    src.set_slots("diet-1", {"kitchen.1.1": "water"})
    again = src.read()
    assert cv2.absdiff(again, first).max() > 100 and src.read() is again
    assert not (synthetic._LIGHT_CACHE or synthetic._TOKEN_CACHE or synthetic._BASE_CACHE)


def test_the_renderer_is_deterministic_and_its_truth_matches_the_picture():
    from vision import synthetic as syn
    from vision.markers import detect, make_detector
    ls = layouts("shop", "diet-1")
    # (the marker corners found lie 0.7 to 1.9 px from the truth's over seeds 1-12 of this blurred, noisy
    # table, before and after the diet boards grew to hold their cards: seed 12's are within 1 px)
    scene = syn.table_scene(ls, 12)
    hands = [syn.Hand(tip=(900, 600), origin=(900, 1300))]
    scene = syn.with_tokens(scene, {"diet-1": {"kitchen.1.1": "water"}}, 9, hands)
    a, truth = syn.render(scene)
    b, _ = syn.render(scene)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, syn.render(syn.with_tokens(scene, {"diet-1": {"kitchen.1.1": "water"}}, 10,
                                                              hands))[0])
    assert truth["boards"]["diet-1"]["slots"]["kitchen.1.1"] == "water"
    assert truth["boards"]["diet-1"]["slots"]["kitchen.1.2"] is None
    found = detect(make_detector(), cv2.cvtColor(a, cv2.COLOR_BGR2GRAY))
    for board, layout in ls.items():
        h = np.array(truth["boards"][board]["homography"])
        for mid in layout.markers:
            if mid in found:
                there = cv2.perspectiveTransform(layout.marker_corners(mid)[None].astype(np.float64), h)[0]
                assert np.abs(there - found[mid]).max() < 1.0
    assert len([m for m in found if m in ls["shop"].markers]) == 6


def test_the_renderer_lights_a_band_at_a_time_with_the_same_picture_as_lit_whole(monkeypatch):
    # issue 20 (memory): lit whole, a 1280x720 picture took several 10.5 MiB float copies at once and
    # 21 MiB of noise; lit in bands its sensor noise is drawn in the same order, so the picture is
    # the same to the last bit (a seed's table is the same table whatever the band height)
    from vision import synthetic as syn
    scene = syn.with_tokens(syn.table_scene(layouts("shop", "diet-1"), 3), {"diet-1": {"kitchen.1.1": "water"}}, 5,
                            [syn.Hand(tip=(900, 600), origin=(900, 1300))])
    assert scene.noise > 0 and scene.blur > 0
    monkeypatch.setattr(syn, "LIGHT_ROWS", scene.camera.height)          # the whole picture at once
    whole = syn.render(scene)[0]
    for rows in (7, 90):
        monkeypatch.setattr(syn, "LIGHT_ROWS", rows)
        assert np.array_equal(syn.render(scene)[0], whole)


class _FakeCapture:
    """cv2.VideoCapture of a webcam that gives ``size`` pictures whatever it is asked (the V4L2 boundary)."""

    def __init__(self, size):
        self.size, self.props, self.released = size, {}, False

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.props[prop] = value
        return True

    def read(self):
        return True, np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def release(self):
        self.released = True


def test_1080p_capture_is_asked_of_the_webcam_as_mjpg_and_a_smaller_picture_is_refused(monkeypatch):
    """docs/camera.md: `width = 1920`, `height = 1080` under [camera] for markers too small at 720p."""
    cfg = CameraConfig.from_dict({"source": "webcam", "width": 1920, "height": 1080, "settle_s": 0})
    fake = _FakeCapture((1920, 1080))
    monkeypatch.setattr(cv2, "VideoCapture", lambda device: fake)
    src = make_source(cfg)
    src.open()
    assert src.read().shape == (1080, 1920, 3)
    assert fake.props[cv2.CAP_PROP_FRAME_WIDTH] == 1920 and fake.props[cv2.CAP_PROP_FRAME_HEIGHT] == 1080
    assert fake.props[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
    small = _FakeCapture((1280, 720))                  # a webcam that cannot do 1080p
    monkeypatch.setattr(cv2, "VideoCapture", lambda device: small)
    with pytest.raises(SourceError, match="gives 1280x720 pictures, not the 1920x1080"):
        make_source(cfg).open()
    assert small.released


def test_1080p_capture_configures_the_pi_camera_at_that_size(monkeypatch):
    import sys
    import types

    made = []

    class Picamera2:           # the picamera2 calls PiCameraSource makes, recorded (the library's boundary)
        def __init__(self):
            made.append(self)
            self.closed, self.controls = False, {}

        def create_video_configuration(self, main, controls):
            return {"main": dict(main), "controls": controls}

        def align_configuration(self, config):
            self.aligned = dict(config["main"])

        def configure(self, config):
            self.config = config

        def start(self):
            pass

        def capture_metadata(self):
            return {"ExposureTime": 10000, "AnalogueGain": 1.5, "ColourGains": (1.8, 1.5)}

        def set_controls(self, controls):
            self.controls.update(controls)

        def capture_array(self, stream):
            return np.zeros(self.config["main"]["size"][::-1] + (3,), np.uint8)

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    src = make_source(CameraConfig.from_dict({"source": "picamera2", "width": 1920, "height": 1080, "settle_s": 0}))
    src.open()
    cam = made[-1]
    assert cam.config["main"] == {"size": (1920, 1080), "format": "RGB888"}
    assert src.read().shape == (1080, 1920, 3)
    assert cam.controls["AeEnable"] is False and cam.controls["AwbEnable"] is False
    assert cam.controls["ExposureTime"] == 10000                     # the settled exposure, locked
    # pale tokens washed out to white at calibration: the owner lowers the exposure (docs/camera.md)
    make_source(CameraConfig.from_dict({"source": "picamera2", "exposure": 0.7, "settle_s": 0})).open()
    assert made[-1].controls["ExposureTime"] == 7000 and made[-1].controls["AnalogueGain"] == 1.5
    Picamera2.align_configuration = lambda self, config: config["main"].update(size=(1920, 1088))
    with pytest.raises(SourceError, match="gives 1920x1088 pictures, not the 1920x1080"):
        make_source(CameraConfig.from_dict({"source": "picamera2", "width": 1920, "height": 1080,
                                            "settle_s": 0})).open()
    assert made[-1].closed


def test_the_synthetic_table_at_1080p_is_found_by_the_pipeline():
    from vision.pipeline import Pipeline
    ls = layouts()
    src = SyntheticSource(ls, 1920, 1080)
    frame = src.read()
    assert frame.shape == (1080, 1920, 3)
    pipe = Pipeline({p.layout.board: p.layout for p in src.scene.boards})
    pipe.process(frame)
    status = pipe.status()["boards"]
    assert all(b["located"] and b["markers_seen"] == b["markers"] for b in status.values()), status


def test_the_synthetic_table_shows_every_board_whole_and_apart():
    """A 4-player Food for Thought table (main board, shopping list, four diet boards with the cards
    and markers their layouts hold beside them, four freezer boards): no two boards overlap, and the
    camera sees every board whole (it looks from higher up when the boards need more than its usual
    1.7 m of table); a smaller table keeps the usual view."""
    from vision import synthetic as syn
    from vision.layout import sample_layouts
    every = sample_layouts()
    for seed in range(3):
        scene = syn.table_scene(every, seed, tokens={}, hard=False)
        outlines = []
        for place in scene.boards:
            w, h = place.layout.size_mm
            corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
            seen = cv2.perspectiveTransform(corners, syn.board_homography(scene, place))[0]
            assert (seen >= 0).all() and (seen < (scene.camera.width, scene.camera.height)).all(), place.layout.board
            outlines.append(cv2.perspectiveTransform(corners, place.pose())[0].astype(np.float32))
        for a in range(len(outlines)):
            for b in range(a + 1, len(outlines)):
                assert cv2.intersectConvexConvex(outlines[a], outlines[b])[0] == 0
        assert scene.camera.focal < scene.camera.width * 1000 / 1700
    assert syn.table_scene(layouts("shop", "diet-1"), 1, tokens={}).camera.focal == 1280 * 1000 / 1700


@pytest.mark.parametrize("raw, problem", [
    ({"source": "picamera2", "exposure": 0}, "[camera] exposure must be a number from 0.1 to 4, not 0"),
    ({"source": "picamera2", "exposure": "low"}, "[camera] exposure must be a number from 0.1 to 4, not 'low'"),
    ({"source": "webcam", "exposure": 0.7}, "[camera] exposure is the Pi camera's (picamera2); a webcam's is set "
                                            "with v4l2-ctl"),
])
def test_an_exposure_the_camera_cannot_take_is_refused_saying_why(raw, problem):
    with pytest.raises(CameraConfigError) as refused:
        CameraConfig.from_dict(raw)
    assert any(p.startswith(problem) for p in refused.value.problems), refused.value.problems
