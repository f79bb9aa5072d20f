"""The lens step of the /calibrate page (issue 13: "lens calibration with a ChArUco board"), against
the real simulated server: the sheet to print, views taken from the camera as the person moves the
sheet (the synthetic camera is shown it through /api/camera/lens/simulate), too few or bunched
views refused with what to do, and the lens saved once there are enough."""
import pytest
import requests

from tests.support.browser import browser, screenshot
from tests.support.server import run_server
from vision import lens as L


def _api(srv, method, path, body=None):
    r = requests.request(method, srv.url + path, json=body, timeout=60,
                         headers={"Authorization": f"Bearer {srv.host_token}"})
    return r.status_code, r.json()


def _take(srv, at):
    """Hold the sheet at ``at`` (shares of the picture) and take a view (from a frame read after the request)."""
    assert _api(srv, "POST", "/api/camera/lens/simulate", {"at": list(at)})[0] == 200
    return _api(srv, "POST", "/api/camera/lens/view")


#: Six places along the picture's middle: wide enough, but a band too low to show how the lens bends.
BAND = [(x, 0.5) for x in (0.25, 0.35, 0.45, 0.55, 0.65, 0.75)]


@pytest.mark.timeout(300)
def test_lens_views_are_taken_refused_when_too_few_or_bunched_and_the_lens_is_saved(tmp_path):
    """docs/camera.md, lens: at least 6 views showing 12 of the sheet's 24 corners, together covering
    60 % of the picture's width and height, or a refusal that says what to do."""
    with run_server(tmp_path / "data") as srv:
        code, body = _api(srv, "GET", "/api/camera/lens")
        assert code == 200 and body["views"] == 0 and not body["enough"] and body["views_needed"] == L.MIN_VIEWS
        r = requests.get(srv.url + "/api/camera/lens/sheet.png", timeout=30,
                         headers={"Authorization": f"Bearer {srv.host_token}"})
        assert r.status_code == 200 and r.headers["Content-Type"] == "image/png" and len(r.content) > 10_000
        # no sheet in view: the table's picture is refused with what to do
        code, body = _api(srv, "POST", "/api/camera/lens/view")
        assert code == 409 and body["error"]["code"] == "sheet_not_seen"
        assert "hold the whole sheet flat in view" in body["error"]["message"]
        # too few views: refused, nothing saved
        code, body = _take(srv, BAND[0])
        assert code == 200 and body["views"] == 1
        code, body = _api(srv, "POST", "/api/camera/lens/save")
        assert code == 409 and body["error"]["code"] == "lens_refused"
        assert f"{L.MIN_VIEWS} are needed" in body["error"]["message"]
        # the same place again adds nothing
        code, body = _take(srv, BAND[0])
        assert code == 409 and body["error"]["code"] == "same_place"
        assert _api(srv, "GET", "/api/camera/lens")[1]["views"] == 1
        # bunched: six views in a band across the middle cover too little of the picture's height
        for at in BAND[1:]:
            assert _take(srv, at)[0] == 200
        code, body = _api(srv, "GET", "/api/camera/lens")
        assert body["views"] == 6 and body["spread"][1] < L.MIN_SPREAD and not body["enough"]
        code, body = _api(srv, "POST", "/api/camera/lens/save")
        assert code == 409 and "hold it near the edges and corners too" in body["error"]["message"]
        assert not (srv.data_dir / L.FILE).exists()
        # bad requests change nothing
        for bad in ({"at": [0.5]}, {"at": [0.05, 0.5]}, {"at": [True, 0.5]}, {}, {"at": "top"}):
            code, body = _api(srv, "POST", "/api/camera/lens/simulate", bad)
            assert code == 400 and body["error"]["code"] == "bad_simulation", bad
        # views near the top and bottom edges too: enough, and saved
        for at in [(x, y) for y in (0.2, 0.8) for x in (0.15, 0.5, 0.85)]:
            code, body = _take(srv, at)
            assert code == 200, body
        assert body["views"] == 12 and body["enough"]
        code, body = _api(srv, "POST", "/api/camera/lens/save")
        assert code == 200 and body["rms_px"] < L.GOOD_RMS_PX, body
        assert abs(body["k1"]) < 0.02              # the synthetic camera's lens is perfect
        saved = L.Lens.load(srv.data_dir)
        assert saved is not None and saved.views == 12
        # the table's picture again, and the views can be forgotten
        assert _api(srv, "POST", "/api/camera/lens/simulate", {"at": None})[0] == 200
        code, body = _api(srv, "DELETE", "/api/camera/lens/views")
        assert code == 200 and body["views"] == 0


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_calibrate_pages_lens_step_counts_views_refuses_too_few_and_saves(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        page = b.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{srv.url}/calibrate?token={srv.host_token}")
        page.wait_for_selector("#lens-state:has-text('Views taken: 0 (at least 6 needed)')", timeout=30000)
        assert page.locator("#lens-details").get_attribute("open") is not None      # no lens yet: open
        # a phone: the board's long lists (its regions, the token colours' plan) are folded until asked for
        assert page.locator("#regions-box").get_attribute("open") is None
        assert page.locator("#plan-box").get_attribute("open") is None
        assert page.locator("#lens-sheet").get_attribute("href").startswith("/api/camera/lens/sheet.png?token=")
        page.click("#lens-take")                                       # nothing held up
        page.wait_for_selector("#lens-message:has-text('hold the whole sheet flat in view')")
        taken = 0
        for view in (3, 4, 5, 0, 1, 2, 6, 7, 8):                     # the middle row first
            page.click(f"#lens-places button[data-view='{view}']")
            page.wait_for_selector(f"#lens-places button[data-view='{view}'][aria-pressed='true']")
            page.click("#lens-take")          # the view is taken from a frame read after the press
            taken += 1
            page.wait_for_selector(f"#lens-state:has-text('Views taken: {taken} ')", timeout=30000)
            if taken == 3:
                page.click("#lens-save")
                page.wait_for_selector("#lens-message:has-text('6 are needed')")
                screenshot(page, "calibrate-lens-too-few-phone")
        page.wait_for_selector("#lens-state:has-text('Enough')")
        page.click("#lens-save")
        page.wait_for_selector("#lens-message:has-text('Lens saved from 9 views')", timeout=60000)
        assert L.Lens.load(srv.data_dir).views == 9
        screenshot(page, "calibrate-lens-saved-phone")
