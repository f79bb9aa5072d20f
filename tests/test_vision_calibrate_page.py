"""The /calibrate page in a real browser against the real (simulated) server: the live picture,
the board seen from above with its slot grid, dragging a region's corner and saving the layout,
and the empty-board capture."""
import json

import pytest

from tests.support.browser import browser, screenshot
from tests.support.server import run_server

pytestmark = pytest.mark.browser


def test_calibrate_page_shows_the_camera_and_saves_an_edited_layout(tmp_path):
    with run_server(tmp_path / "data") as srv, browser() as b:
        page = b.new_page()
        page.goto(f"{srv.url}/calibrate")
        page.wait_for_selector("#need-token:not([hidden])")

        page.goto(f"{srv.url}/calibrate?token={srv.host_token}")
        page.wait_for_selector("#board option[value='diet-1']", state="attached", timeout=20000)
        page.wait_for_function("document.getElementById('board-img').naturalWidth > 0", timeout=20000)
        page.wait_for_function("document.getElementById('live').naturalWidth > 0", timeout=20000)
        page.wait_for_selector("#health td.status-simulated")
        assert page.locator("#regions tr").count() > 5          # kitchen columns, trash, body groups
        page.select_option("#board", "shop")
        page.wait_for_selector("#regions input[value='shop']")
        # drag the shop grid's top-left corner 20 mm to the right, make it 5 rows, save
        canvas = page.locator("#board-canvas").bounding_box()
        layout = json.loads(page.evaluate("JSON.stringify(layout)"))
        (x, y) = layout["regions"][0]["corners"][0]
        w_mm = layout["size_mm"][0]
        scale = canvas["width"] / w_mm
        page.mouse.move(canvas["x"] + x * scale, canvas["y"] + y * scale)
        page.mouse.down()
        page.mouse.move(canvas["x"] + (x + 20) * scale, canvas["y"] + y * scale, steps=5)
        page.mouse.up()
        page.fill("#regions tr:nth-child(2) td:nth-child(3) input", "5")
        page.dispatch_event("#regions tr:nth-child(2) td:nth-child(3) input", "change")
        page.click("#save-layout")
        page.wait_for_selector("text=30 slots saved")
        saved = json.loads((srv.data_dir / "vision" / "layouts" / "shop.json").read_text())
        assert saved["regions"][0]["rows"] == 5
        assert abs(saved["regions"][0]["corners"][0][0] - (x + 20)) < 2
        page.click("#cap-empty")
        page.wait_for_selector("text=Empty board captured")
        assert (srv.data_dir / "vision" / "reference" / "shop.json").exists()
        screenshot(page, "calibrate-page")
