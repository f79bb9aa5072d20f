"""The games' page parts share common.js and style.css instead of keeping their own copies (issue 12)."""
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
GAME_FILES = sorted((WEB / "games").glob("*.js"))


def test_the_game_parts_send_and_name_players_through_common_js():
    assert GAME_FILES
    for path in GAME_FILES:
        text = path.read_text()
        assert not re.search(r"function act\b|const nameOf\b|function nameOf\b", text), path.name


def test_the_game_parts_draw_with_style_css_colour_variables_that_exist():
    defined = set(re.findall(r"(--[a-z-]+)\s*:", (WEB / "style.css").read_text()))
    for path in GAME_FILES:
        text = path.read_text()
        assert re.findall(r"#[0-9a-fA-F]{3,8}\b(?![-\w])", text) == [], path.name   # no colour of its own
        own = set(re.findall(r"[\"'](--[a-z-]+):", text))   # set by the file itself ("--n:" + count)
        assert set(re.findall(r"var\((--[a-z-]+)", text)) <= defined | own, path.name
