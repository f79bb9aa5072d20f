"""Every screen of a game night, checked as a group on a sofa would see it, with a gallery.

One headless Chromium holds the TV page at 1280x720, 1920x1080 and 3840x2160 and a seat page
on a 390x844 phone. After each input that brings a screen not seen yet, every page is checked
(tests/support/screen_checks.js: no scrolling, nothing cut, no TV text under 24 px at 1080p, a
prompt of at most two lines, a seat code for every seat, whole and uncovered, notices and the
narrator's caption clear of the board and of each other, no console errors) and
photographed into tests/artifacts/screens/, where ``index.html`` shows them all.
"""
from __future__ import annotations

import html
from pathlib import Path

from tests.support.browser import ARTIFACTS

CHECKS = Path(__file__).with_name("screen_checks.js").read_text(encoding="utf-8")
TV_SIZES = {"720p": (1280, 720), "1080p": (1920, 1080), "4k": (3840, 2160)}
PHONE = (390, 844)
SHOTS = ARTIFACTS / "screens"
#: the smallest text on the TV, at 1080p (it scales with the screen)
TV_TEXT_PX = 24
#: the smallest seat code, at 1080p, and the smallest text on the phone
TV_CODE_PX = 120
PHONE_TEXT_PX = 14


class Screens:
    """The pages, their console errors, and the screens photographed so far."""

    def __init__(self, browser, url: str):
        self.url = url
        self.errors: list[str] = []
        self.shots: list[tuple[str, str, str, str]] = []   # (game, screen, size, file)
        self.tvs = {}
        for name, (w, h) in TV_SIZES.items():
            page = browser.new_page(viewport={"width": w, "height": h}, reduced_motion="reduce")
            self._watch(page, "TV " + name)
            page.goto(url + "/")
            self.tvs[name] = page
        self.phone = browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]}, reduced_motion="reduce",
                                      is_mobile=True, has_touch=True)
        self._watch(self.phone, "phone")
        self.phone_path: str | None = None
        self.phone_problems: list[str] = []
        self.captions_checked = 0   # TV screens checked while the narrator's caption showed

    def _watch(self, page, name: str) -> None:
        # (a failed load names its address: the console's text does not)
        page.on("console", lambda m: m.type == "error" and self.errors.append(
            f"{name}: {m.text}" + (f" ({m.location['url']})" if m.location.get("url") else "")))
        page.on("pageerror", lambda exc: self.errors.append(f"{name}: {exc}"))

    def open_phone(self, path: str) -> None:
        """Show the seat page at ``path`` (with its token) on the phone."""
        self.phone_path = path
        self.phone.goto(self.url + path)

    def wait(self, seq: int) -> None:
        """Until every page has drawn journal position ``seq`` or later."""
        for page in [*self.tvs.values(), *([self.phone] if self.phone_path else [])]:
            page.wait_for_function(f"Number(document.body.dataset.seq || -1) >= {seq}", timeout=15000)

    def check(self, game: str, screen: str, seat_codes: int, phone: bool = True, tv: bool = True) -> list[str]:
        """Check and photograph the screen every page shows now, where the TV shows ``seat_codes``
        seat codes; the TV's problems found (the phone's are kept in ``phone_problems``)."""
        problems = []
        for name, page in (self.tvs.items() if tv else ()):
            page.wait_for_function("[...document.images].every((i) => i.complete)")   # codes still loading
            scale = min(TV_SIZES[name][0] / 1920, TV_SIZES[name][1] / 1080)
            found = page.evaluate(CHECKS, {"tv": True, "minTextPx": TV_TEXT_PX * scale, "codes": ".seat-code, .join-code",
                                           "minCodePx": TV_CODE_PX * scale, "seatCodes": seat_codes})
            problems += [f"{game} / {screen} / TV {name}: {p}" for p in found]
            self.captions_checked += page.locator("#caption").is_visible()
            self._shoot(page, game, screen, name)
        if phone and self.phone_path:
            found = self.phone.evaluate(CHECKS, {"tv": False, "minTextPx": PHONE_TEXT_PX, "codes": "none",
                                                 "width": PHONE[0], "height": PHONE[1],
                                                 "keepClear": "button, #game-area select, #game-area input"})
            self.phone_problems += [f"{game} / {screen} / phone: {p}" for p in found]
            self._shoot(self.phone, game, screen, "phone", full=True)
        problems += [e for e in self.errors if not e.startswith("phone")]
        self.phone_problems += [e for e in self.errors if e.startswith("phone")]
        self.errors.clear()
        return problems

    def _shoot(self, page, game: str, screen: str, size: str, full: bool = False) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = f"{game}--{screen}--{size}.png".replace(" ", "-")
        page.screenshot(path=str(SHOTS / name), full_page=full)
        self.shots.append((game, screen, size, name))

    def write_gallery(self) -> Path:
        """tests/artifacts/screens/index.html: every screen photographed, a row per screen."""
        sizes = [*TV_SIZES, "phone"]
        rows, seen = [], {}
        for game, screen, size, name in self.shots:
            seen.setdefault((game, screen), {})[size] = name
        for (game, screen), files in seen.items():
            cells = "".join(f'<td><a href="{html.escape(files[s])}"><img src="{html.escape(files[s])}" loading="lazy"></a></td>'
                            if s in files else "<td></td>" for s in sizes)
            rows.append(f"<tr><th>{html.escape(game)}<br>{html.escape(screen)}</th>{cells}</tr>")
        page = ("<!doctype html><meta charset=utf-8><title>Tofu Table screens</title><style>"
                "body{font-family:sans-serif;background:#1d1a16;color:#f6efe4}img{max-width:28vw;max-height:40vh}"
                "td,th{vertical-align:top;padding:4px;text-align:left}</style><h1>Every screen, as the tests saw it</h1>"
                "<table><tr><th></th>" + "".join(f"<th>{s}</th>" for s in sizes) + "</tr>" + "".join(rows) + "</table>")
        path = SHOTS / "index.html"
        path.write_text(page, encoding="utf-8")
        return path
