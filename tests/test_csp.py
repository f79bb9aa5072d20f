"""Every page runs under the table's Content-Security-Policy, which allows no inline script
(issue 11, item 7): opened in Chromium *without* bypassing the policy (the other browser tests
bypass it for Playwright's own probes), no page reports a policy violation, a console error or
an uncaught exception, and each page's own script has run.
"""
import time

import pytest

from server.web_guard import SECURITY_HEADERS
from tests.support.browser import browser
from tests.support.server import run_server

#: page -> a function its own script (web/pages/*.js) defines, or None for a script that keeps
#: everything inside itself
PAGES = {"/": "setPrompt", "/host?token={host}": "showUndo", "/seat/1?token={seat}": "render",
         "/join": "join", "/pair": "start", "/sim": "reader", "/enrol?token={host}": None,
         "/calibrate?token={host}": "say", "/history?token={host}": None}

#: Collects the policy's violations from the first moment of each page (an init script runs
#: before the page's own and is not subject to its policy).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline")));
"""


def test_the_policy_allows_no_inline_script():
    policy = dict(d.strip().split(" ", 1) for d in SECURITY_HEADERS["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"


def _ran(page, defined: str | None, timeout: float = 10) -> bool:
    """Whether the page's script has defined ``defined`` (polled: evaluating from the test is not
    subject to the page's policy, Playwright's wait_for_function is)."""
    if defined is None:
        return True
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"typeof {defined} === 'function'"):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)
    return True


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("csp") / "data") as server:
        assert server.post({"new_game": {"game": "tofu-god", "players": ["Anna", "Ben", "Cleo"]}}).ok
        yield server


def test_every_page_runs_its_script_under_the_policy(srv):
    tokens = {"host": srv.host_token, "seat": srv.seat_token(1)}
    problems = {}
    with browser() as b:
        context = b.new_context(bypass_csp=False, viewport={"width": 1280, "height": 720})
        context.add_init_script(RECORD_VIOLATIONS)
        for path, defined in PAGES.items():
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
            page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
            response = page.goto(srv.url + path.format(**tokens), wait_until="load")
            assert "script-src 'self';" in response.headers["content-security-policy"]
            ran = _ran(page, defined)
            violations = page.evaluate("window.__violations")
            if violations or errors or not ran:
                problems[path] = {"violations": violations, "errors": errors, "script ran": ran}
            page.close()
    assert problems == {}
