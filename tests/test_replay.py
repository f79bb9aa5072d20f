"""`tofu-table replay FILE.jsonl`: apply a script headless and print the final public view."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli import main

ROOT = Path(__file__).resolve().parents[1]

NEW_GAME = '{"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 1}}}'
ANNA_RED = '{"tap": {"reader": "seat-1", "card": "test/red"}}'
BEN_BLUE = '{"tap": {"reader": "seat-2", "card": "test/blue"}}'
ADVANCE = '{"button": {"name": "advance"}}'


def script(tmp_path, *lines) -> Path:
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def replay(capsys, path, *flags) -> tuple[int, str, str]:
    status = main(["replay", str(path), *flags])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_whole_game_prints_the_final_scores_and_winner(tmp_path, capsys):
    path = script(tmp_path, "# Anna wins with red", NEW_GAME, "", ANNA_RED, BEN_BLUE, ADVANCE)
    status, out, err = replay(capsys, path)
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "Tiny Test Game: Game over.",
        "  seat 1  Anna             1",
        "  seat 2  Ben              0",
        "Winner: Anna",
    ]


def test_json_output_is_the_public_view(tmp_path, capsys):
    path = script(tmp_path, NEW_GAME, ANNA_RED, BEN_BLUE)
    status, out, _ = replay(capsys, path, "--json")
    view = json.loads(out)
    assert status == 0
    assert view["audience"] == "table" and view["game"] == "tiny" and view["chosen"] == [1, 2]
    assert view["last_events"] == ["Anna has chosen.", "Ben has chosen."]
    assert "secrets" not in view and "red" not in out and "blue" not in out


def test_a_refused_line_stops_the_replay_with_file_line_code_and_message(tmp_path, capsys):
    path = script(tmp_path, NEW_GAME, ANNA_RED, ADVANCE, BEN_BLUE, ADVANCE)
    status, out, err = replay(capsys, path, "--json")
    assert status != 0 and out == ""
    assert err.strip() == f"{path}:3: refused [waiting] Not everyone has chosen a colour yet."


def test_a_line_that_is_not_json_is_reported_with_its_number(tmp_path, capsys):
    path = script(tmp_path, NEW_GAME, "{tap: seat-1}", ANNA_RED)
    status, _, err = replay(capsys, path)
    assert status != 0
    assert err.startswith(f"{path}:2: refused [bad_json] not valid JSON")


def test_keep_going_reports_every_refusal_and_prints_the_final_view(tmp_path, capsys):
    path = script(tmp_path, NEW_GAME, ADVANCE, ANNA_RED, '{"tap": {"reader": "seat-9", "card": "test/red"}}',
                  BEN_BLUE, ADVANCE)
    status, out, err = replay(capsys, path, "--keep-going", "--json")
    assert status != 0   # the script still had refusals
    assert err.splitlines() == [
        f"{path}:2: refused [waiting] Not everyone has chosen a colour yet.",
        f"{path}:4: refused [unknown_reader] There is no reader 'seat-9'; readers are seat-1..seat-8, "
        "center and table.",
    ]
    view = json.loads(out)
    assert view["over"] and view["winners"] == ["Anna"]


def test_undo_in_a_script_drops_the_input_before_it(tmp_path, capsys):
    path = script(tmp_path, NEW_GAME, ANNA_RED, '{"button": {"name": "undo"}}',
                  '{"tap": {"reader": "seat-1", "card": "test/blue"}}', BEN_BLUE, ADVANCE)
    status, out, _ = replay(capsys, path, "--json")
    assert status == 0
    assert json.loads(out)["winners"] == ["Anna", "Ben"]   # both blue: a 0-0 tie


@pytest.mark.parametrize("flags", [(), ("--keep-going",)])
def test_the_command_line_exits_non_zero_on_a_refusal(tmp_path, flags):
    """As a user runs it: a separate process, output on its streams, an exit status."""
    path = script(tmp_path, NEW_GAME, ADVANCE, ANNA_RED, BEN_BLUE, ADVANCE)
    done = subprocess.run([sys.executable, "-m", "tests.support.serve", "replay", str(path), *flags],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"{path.name}:2: refused [waiting]" in done.stderr
    if flags:
        assert "Winner: Anna" in done.stdout
    else:
        assert done.stdout == ""


def test_a_clean_script_exits_zero_from_the_command_line(tmp_path):
    path = script(tmp_path, NEW_GAME, ANNA_RED)
    done = subprocess.run([sys.executable, "-m", "tests.support.serve", "replay", str(path), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["chosen"] == [1]
