"""Headless Chromium from Debian's package, driven by Playwright, for page tests.

Under CI (``CI`` set) a missing Chromium fails the test; on a developer's
machine without it the browser tests are skipped with the reason.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TOFU_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_chromium() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        message = f"Chromium is not installed at {CHROMIUM} (Debian package `chromium`)."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@contextlib.contextmanager
def browser():
    """A Playwright Chromium browser; yields it and closes it."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        # The pages' Content-Security-Policy forbids eval, which Playwright's wait_for_function
        # uses for its predicate; the tests' own probes may run, the pages' scripts are unchanged.
        new_page, new_context = b.new_page, b.new_context
        b.new_page = lambda **options: new_page(**{"bypass_csp": True, **options})
        b.new_context = lambda **options: new_context(**{"bypass_csp": True, **options})
        try:
            yield b
        finally:
            b.close()


def screenshot(page, name: str) -> Path:
    """Save a screenshot under tests/artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def tv_scores(page) -> list[tuple[str, int]]:
    """The TV's players and the scores they show, in seat order, once any count-up has finished."""
    page.wait_for_function("[...document.querySelectorAll('.seat-card .score')]"
                           ".every((e) => e.textContent === e.dataset.score)")
    cards = page.locator(".seat-card")
    return [(c.locator(".name").inner_text(), int(c.locator(".score").inner_text())) for c in cards.all()]


def under_the_notice(page) -> list[str]:
    """The buttons and fields the page's notice (#notices .notice) covers, by their text or name."""
    return page.evaluate("""() => {
      const n = document.querySelector('#notices .notice').getBoundingClientRect();
      return [...document.querySelectorAll('button, input, select, textarea')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.width && r.height && n.left < r.right && r.left < n.right && n.top < r.bottom && r.top < n.bottom;
      }).map((b) => b.textContent || b.name || b.id);
    }""")
