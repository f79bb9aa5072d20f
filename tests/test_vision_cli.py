"""tofu-table markers and tofu-table vision plan / calibrate / classify, as a user runs them."""
import json
import re

import cv2
import numpy as np

from server.cli import main
from tests.support.vision_scenes import blow_out, layouts
from vision import synthetic as syn
from vision.calibration import token_plan
from vision.lens import Lens
from vision.markers import detect, make_detector


def test_markers_pdf_has_a_page_per_sheet_and_states_the_size(tmp_path, capsys):
    out = tmp_path / "m.pdf"
    assert main(["markers", "-o", str(out), "--dpi", "100"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    pages = int(re.search(rb"/Count (\d+)", data).group(1))
    assert pages >= 2 and "100 mm" in capsys.readouterr().out
    # A4 at 100 dpi: the page is 210 x 297 mm = 595 x 842 points
    assert re.search(rb"/MediaBox \[0 0 59[45]\.\d+ 84[12]\.\d+\]", data)


def test_markers_png_prints_at_its_dpi_and_the_markers_are_detectable(tmp_path):
    out = tmp_path / "m.png"
    assert main(["markers", "-o", str(out), "--boards", "diet-1", "--dpi", "150"]) == 0
    data = out.read_bytes()
    assert data[37:41] == b"pHYs" and int.from_bytes(data[41:45], "big") == round(150 / 0.0254)
    img = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert img.shape == (round(297 / 25.4 * 150), round(210 / 25.4 * 150))
    found = detect(make_detector(), img)
    assert sorted(found) == sorted(layouts("diet-1")["diet-1"].markers)
    # the sample's 34 mm markers at 150 dpi are about 201 px wide
    side = np.linalg.norm(found[10][1] - found[10][0])
    assert abs(side - 34 / 25.4 * 150) < 3


def test_markers_unknown_board_is_refused(tmp_path, capsys):
    assert main(["markers", "-o", str(tmp_path / "m.pdf"), "--boards", "diet-9"]) == 2
    assert "no layout 'diet-9'" in capsys.readouterr().err


def test_calibrate_then_classify_still_images(tmp_path, capsys):
    layout = layouts("diet-1")["diet-1"]
    path = tmp_path / "diet-1.json"
    layout.save(path)
    assert main(["vision", "plan", "--layout", str(path)]) == 0
    plan_lines = capsys.readouterr().out.strip().splitlines()
    plan = dict(line.split("\t") for line in plan_lines)
    assert plan == token_plan(layout)
    base = syn.board_scene(layout, 21)
    for name, tokens, seed in (("empty-1", {}, 1), ("empty-2", {}, 2), ("plan-1", plan, 3), ("plan-2", plan, 4)):
        cv2.imwrite(str(tmp_path / f"{name}.png"), syn.render(syn.with_tokens(base, {"diet-1": tokens}, seed))[0])
    tokens = syn.random_tokens(layout, np.random.default_rng(5))
    img, truth = syn.render(syn.with_tokens(base, {"diet-1": tokens}, 9))
    cv2.imwrite(str(tmp_path / "game.png"), img)
    hand = syn.Hand(tip=(60, 150), origin=(-400, 150), width_mm=60)      # reaching in from the left
    cv2.imwrite(str(tmp_path / "hand.png"), syn.render(syn.with_tokens(base, {"diet-1": tokens}, 10, [hand]))[0])
    distance = blow_out([img], base)                 # a lamp's reflection round the middle space
    cv2.imwrite(str(tmp_path / "glare.png"), img)
    ref = tmp_path / "ref"
    assert main(["vision", "calibrate", "--layout", str(path), "--empty", str(tmp_path / "empty-1.png"),
                 str(tmp_path / "empty-2.png"), "--tokens", str(tmp_path / "plan-1.png"),
                 str(tmp_path / "plan-2.png"), "--reference", str(ref)]) == 0
    assert (ref / "diet-1.json").exists()
    capsys.readouterr()
    assert main(["vision", "classify", "--layout", str(path), "--reference", str(ref),
                 str(tmp_path / "game.png"), str(tmp_path / "hand.png"), str(tmp_path / "glare.png"), "--json"]) == 0
    result, with_hand, with_glare = json.loads(capsys.readouterr().out)["images"]
    assert result["located"] and result["status"] == "ok"
    # each board says whether something lies over it and how far the light is from calibration's
    assert not result["busy"] and result["edge_mm2"] == 0 and not result["recalibrate"]
    assert with_hand["busy"] and with_hand["edge_mm2"] > 1000 and with_hand["foreground_mm2"] > 1000
    assert 0 <= result["light_change"] < 0.25
    assert result["too_far"] == [], "every space is seen finely enough to read (issue 13's far boards)"
    # the spaces the reflection blows out read unsure and are named as glare's (the owner can shade the lamp)
    assert result["glare"] == [] and {s for s, d in distance.items() if d <= 1.0} <= set(with_glare["glare"])
    assert all(with_glare["slots"][s]["token"] == "unknown" and distance[s] < 2.0 for s in with_glare["glare"])
    assert main(["vision", "classify", "--layout", str(path), "--reference", str(ref), str(tmp_path / "glare.png")]) == 0
    assert (f"glare: {len(with_glare['glare'])} of its spaces read unsure are washed out by a reflection: shade or "
            "move the lamp") in capsys.readouterr().out

    # the owner's measure: photos and what truly lay where; one slot written down wrongly on purpose
    photos = tmp_path / "photos"
    photos.mkdir()
    (tmp_path / "game.png").rename(photos / "game.png")
    want = dict(truth["boards"]["diet-1"]["slots"])
    truth_file = tmp_path / "truth.json"
    truth_file.write_text(json.dumps({"game.png": want}))
    args = ["vision", "check", "--layout", str(path), "--reference", str(ref), "--truth", str(truth_file), str(photos)]
    assert main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["slots"] == len(layout.slots) and report["summary"]["errors"] == 0
    want["kitchen.1.1"] = "alcohol" if want["kitchen.1.1"] != "alcohol" else None
    truth_file.write_text(json.dumps({"game.png": want}))
    assert main(args) == 1
    out = capsys.readouterr().out
    assert f"1 of {len(layout.slots)} slots wrong" in out and "kitchen.1.1" in out
    assert "glare" not in out
    # a photo under a reflection: the spaces it washes out are named as glare's, with the cure
    (tmp_path / "glare.png").rename(photos / "glare.png")
    truth_file.write_text(json.dumps({"glare.png": dict(truth["boards"]["diet-1"]["slots"])}))
    assert main(args) == 1
    out = capsys.readouterr().out
    assert out.count("(washed out by glare)") == len(with_glare["glare"])
    assert f"{len(with_glare['glare'])} of the unsure are washed out by a reflection: shade or move the lamp" in out
    (photos / "glare.png").unlink()
    truth_file.write_text(json.dumps({"game.png": {"kitchen.9.9": None}}))
    assert main(args) == 2
    assert "kitchen.9.9" in capsys.readouterr().err
    # photos of a camera whose lens was calibrated (`tofu-table vision lens`) are read through it
    # (this camera's lens is perfect: the same reading); a broken lens file is refused
    truth_file.write_text(json.dumps({"game.png": dict(truth["boards"]["diet-1"]["slots"])}))
    h, w = cv2.imread(str(photos / "game.png")).shape[:2]
    lens_file = Lens(np.array([[600.0, 0, w / 2], [0, 600.0, h / 2], [0, 0, 1]]), np.zeros(5), (w, h)).save(tmp_path)
    assert main(args + ["--lens", str(lens_file)]) == 0
    (tmp_path / "bad.json").write_text("{}")
    assert main(args + ["--lens", str(tmp_path / "bad.json")]) == 2
    assert "the lens file is malformed" in capsys.readouterr().err
    read = {slot: s["token"] for slot, s in result["slots"].items()}
    assert read == truth["boards"]["diet-1"]["slots"]
    assert all(0 <= s["confidence"] <= 1 for s in result["slots"].values())


def _diet_one_calibrated(tmp_path, seed: int):
    """diet-1's layout saved in ``tmp_path``, a synthetic scene of it and its reference calibrated there and saved
    under ``ref``: (layout, the layout's file, the scene, the reference's file)."""
    from vision.pipeline import Pipeline

    layout = layouts("diet-1")["diet-1"]
    path = tmp_path / "diet-1.json"
    layout.save(path)
    base = syn.board_scene(layout, seed, hard=False)
    pipe = Pipeline({"diet-1": layout})
    syn.calibrate(pipe, base)
    return layout, path, base, pipe.boards["diet-1"].reference.save(tmp_path / "ref")


def test_classify_reports_a_board_it_cannot_see(tmp_path, capsys):
    _layout, path, _base, _saved = _diet_one_calibrated(tmp_path, 22)
    cv2.imwrite(str(tmp_path / "table.png"), np.full((360, 480, 3), 90, np.uint8) + np.uint8(
        np.random.default_rng(0).integers(0, 60, (360, 480, 3))))
    assert main(["vision", "classify", "--layout", str(path), "--reference", str(tmp_path / "ref"),
                 str(tmp_path / "table.png")]) == 1
    assert "NOT found" in capsys.readouterr().out


def test_classify_without_a_reference_says_calibrate_first(tmp_path, capsys):
    path = tmp_path / "shop.json"
    layouts("shop")["shop"].save(path)
    assert main(["vision", "classify", "--layout", str(path), "--reference", str(tmp_path / "ref"), "x.png"]) == 2
    assert "calibrate first" in capsys.readouterr().err


def test_markers_says_whether_they_are_big_enough_for_the_camera(tmp_path, capsys):
    out = tmp_path / "m.pdf"
    # straight down from 1.25 m with a 66 degree lens: 1280 px over 1.62 m, 0.79 px/mm everywhere;
    # 6 cells of 3 px need 23 mm, so the sample's 34 mm markers do
    assert main(["markers", "-o", str(out), "--boards", "diet-1", "--camera-height", "1.25"]) == 0
    said = capsys.readouterr().out
    assert "0.79 px/mm" in said and "at least 23 mm" in said and "these are big enough" in said
    # the camera bench's hard table: 0.92 m up, a 105 degree lens leaning 25 degrees over a 1.75 x 0.8 m
    # area: its far corner gets 0.22 px/mm (the bench's farthest markers 0.21-0.25, bench/README.md)
    hard = ["--camera-height", "0.92", "--fov", "105", "--tilt", "25", "--area", "1.75x0.8"]
    assert main(["markers", "-o", str(out), "--boards", "diet-1", *hard]) == 0
    said = capsys.readouterr().out
    assert "0.22 px/mm" in said and "at least 80 mm" in said and "too small on diet-1 (34 mm)" in said
    assert "width = 1920, height = 1080 under [camera]" in said       # docs/camera.md's capture option
    assert main(["markers", "-o", str(out), "--boards", "diet-1", *hard, "--camera-width", "1920"]) == 0
    said = capsys.readouterr().out
    assert "at least 54 mm" in said and "too small on diet-1" in said and "width = 1920" not in said


def test_markers_says_whether_the_farthest_spaces_are_near_enough_to_read(tmp_path, capsys):
    """Tokens are read well from 0.4 px a mm (vision.pipeline.MIN_PX_PER_MM, the camera's "too far"):
    the sheet says whether the camera's place gives the farthest spaces that, and what helps when not."""
    out = tmp_path / "m.pdf"
    module3 = ["markers", "-o", str(out), "--boards", "shop", "--camera-height", "1.25", "--fov", "66"]
    assert main(module3) == 0                       # straight down: 0.79 px/mm everywhere
    assert "Spaces get at least the 0.4 px/mm" in capsys.readouterr().out
    # leaning 25 degrees the far side gets 0.39 px/mm at 1280 x 720, 0.59 at 1920 x 1080
    assert main([*module3, "--tilt", "25"]) == 0
    said = capsys.readouterr().out
    assert "The farthest spaces get under the 0.4 px/mm" in said
    assert "capture at 1920 x 1080 (width = 1920, height = 1080 under [camera]): 0.59 px/mm" in said
    assert main([*module3, "--tilt", "25", "--camera-width", "1920"]) == 0
    assert "Spaces get at least the 0.4 px/mm" in capsys.readouterr().out
    # the camera bench's hard table: 0.22 px/mm at 720p and 0.34 at 1080p, so only a straighter camera helps
    hard = ["--camera-height", "0.92", "--fov", "105", "--tilt", "25", "--area", "1.75x0.8"]
    assert main(["markers", "-o", str(out), "--boards", "shop", *hard]) == 0
    said = capsys.readouterr().out
    assert "(at 1920 x 1080 too: 0.34 px/mm); hang the camera straighter" in said and "0.59" not in said


def test_markers_refuses_a_bad_area_or_tilt_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "m.pdf"
    for bad, said in ((["--area", "1.6"], "--area '1.6'"), (["--area", "axb"], "WIDTHxDEPTH"),
                      (["--tilt", "75"], "0 to 60 degrees")):
        assert main(["markers", "-o", str(out), "--camera-height", "1.25", *bad]) == 2
        assert said in capsys.readouterr().err and not out.exists()


def test_a_reference_saved_before_the_icons_pattern_was_learnt_still_reads(tmp_path, capsys):
    """An owner who updates keeps the boards' calibration: token looks saved with four numbers (colour and icon
    contrast, before the icon's pattern was learnt) load and read on what they have, and are saved so again."""
    layout, path, base, saved = _diet_one_calibrated(tmp_path, 23)
    data = json.loads(saved.read_text())
    data["tokens"] = {k: [row[:4] for row in look] for k, look in data["tokens"].items()}
    saved.write_text(json.dumps(data))
    img, truth = syn.render(syn.with_tokens(base, {"diet-1": syn.random_tokens(layout, np.random.default_rng(6))}, 9))
    cv2.imwrite(str(tmp_path / "game.png"), img)
    assert main(["vision", "classify", "--layout", str(path), "--reference", str(tmp_path / "ref"),
                 str(tmp_path / "game.png"), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["images"]
    assert {slot: s["token"] for slot, s in result["slots"].items()} == truth["boards"]["diet-1"]["slots"]
    from vision.classify import Reference
    again = Reference.load(tmp_path / "ref", "diet-1").save(tmp_path / "again")
    assert json.loads(again.read_text())["tokens"] == data["tokens"]
