"""The narrator's voice: lines spoken on the TV, made offline with espeak-ng and cached.

Listed in the ``tofu_table.pages`` entry points.

- ``GET /api/narrator``: ``{"voice": bool, "note": str | null, "lines": {id: text}}``; ``voice``
  is false when espeak-ng is not installed (the TV then shows the lines as captions only, and
  ``note`` says why, once).
- ``GET /api/narrator/<id>.wav``: the spoken line, rendered once into the data folder
  (``narrator/<id>.wav``) and served from there afterwards; 404 ``no_voice`` without espeak-ng.

Nothing is fetched at run time: espeak-ng comes from Debian's packages (scripts/install.sh and
pi/install.sh install it).  The lines are the table's own words (the night of Tofu Kingdom).
"""
from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path

from flask import jsonify, send_file

from .web_access import json_error

#: What the narrator says, by id (the TV chooses when).
LINES = {
    "close_eyes": "Prince, close your eyes. Everyone else, look at your coasters.",
    "face_down": "Lay your coasters face down.",
    "all_down": "Every coaster is down. Prince, open your eyes.",
}
VOICE = "espeak-ng"


def voice_binary() -> str | None:
    """The espeak-ng program, or None when it is not installed."""
    return shutil.which(VOICE)


def render(line_id: str, folder: Path, binary: str | None) -> Path | None:
    """The WAV file of ``line_id`` in ``folder``, made with ``binary`` the first time; None when
    there is no voice (or it failed)."""
    path = Path(folder) / f"{line_id}.wav"
    if path.exists():
        return path
    if binary is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    # a part file of this request's own: several TVs asking at once each render, and the last
    # rename wins (one shared part file made all but one of them answer 404)
    part = path.with_suffix(f".{threading.get_ident()}.part")
    try:
        subprocess.run([binary, "-s", "150", "-w", str(part), LINES[line_id]], check=True,
                       capture_output=True, timeout=20)
        part.replace(path)
    except (OSError, subprocess.SubprocessError):
        part.unlink(missing_ok=True)
        return path if path.exists() else None
    return path


def register(app, socketio, ctx) -> None:
    folder = Path(ctx.data_dir) / "narrator"

    @app.get("/api/narrator")
    def narrator_lines():
        voice = voice_binary() is not None
        note = None if voice else ("The narrator has no voice: espeak-ng is not installed (run "
                                   "scripts/install.sh); the TV shows its lines as captions.")
        return jsonify({"voice": voice, "note": note, "lines": LINES})

    @app.get("/api/narrator/<line_id>.wav")
    def narrator_line(line_id: str):
        if line_id not in LINES:
            return json_error(404, "no_line", f"The narrator has no line {line_id[:32]!r}; "
                              f"lines: {', '.join(LINES)}.")
        path = render(line_id, folder, voice_binary())
        if path is None:
            return json_error(404, "no_voice", "The narrator has no voice: espeak-ng is not "
                              "installed (run scripts/install.sh); the TV shows captions instead.")
        return send_file(path, mimetype="audio/wav", max_age=3600)
