"""The replay scripts in tests/scripts: where they are, and the inputs one of them holds."""
from __future__ import annotations

import json
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script_inputs(name: str | Path) -> list[dict]:
    """The inputs of replay script ``name`` (a file in tests/scripts, or a path), in order;
    blank lines and ``#`` comments are skipped, as `tofu-table replay` skips them."""
    lines = (SCRIPTS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.lstrip().startswith("#")]
