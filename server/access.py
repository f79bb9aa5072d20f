"""Who may do what: the host token, seat tokens, and the input rules per audience.

The host token is made on first start and kept in the data dir. Seat tokens are
derived from it and the running game's journal row, so they change with every
new game and survive a restart without being stored.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from .protocol import HARDWARE_KINDS
from .refusal import Refusal


class AccessError(Refusal):
    """The caller's token does not allow this."""


def load_host_token(data_dir: Path) -> str:
    """The host token from ``data_dir/host-token``, made on first use (owner-only file)."""
    path = Path(data_dir) / "host-token"
    if path.exists():
        token = path.read_text().strip()
        if token:
            return token
    token = secrets.token_urlsafe(12)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    return token


class Access:
    """Maps tokens to audiences and checks inputs against them."""

    def __init__(self, host_token: str, simulate: bool):
        self.host_token = host_token
        self.simulate = simulate

    def seat_token(self, game_seq: int | None, seat: int) -> str | None:
        """The token for ``seat`` in the game started at journal row ``game_seq``."""
        if game_seq is None:
            return None
        mac = hmac.new(self.host_token.encode(), f"{game_seq}:{seat}".encode(), hashlib.sha256)
        return mac.hexdigest()[:16]

    def role(self, token: str | None, game_seq: int | None, seats: list[int]) -> str:
        """``host``, ``seat-N`` or ``table`` (no or unknown token) for ``token``."""
        if token and not token.isascii():   # never one of ours; compare_digest would raise
            return "table"
        if token and hmac.compare_digest(token, self.host_token):
            return "host"
        if token:
            for seat in seats:
                if hmac.compare_digest(token, self.seat_token(game_seq, seat) or ""):
                    return f"seat-{seat}"
        return "table"

    def audience(self, wanted: str, role: str) -> str:
        """The view ``role`` may see when it asks for ``wanted``; AccessError if none."""
        if wanted in ("table", "", None):
            return "table"
        if wanted == "seat":   # a remembered phone: its player's seat, or the table view between games
            return role if role.startswith("seat-") else "table"
        if wanted == role or role == "host" and (wanted == "host" or wanted.startswith("seat-")):
            return wanted
        if wanted == "host":
            raise AccessError("host_token_needed", "The host view needs the host token "
                              "(printed when the server starts, and kept in the data folder).")
        raise AccessError("seat_token_needed", f"The {wanted} view needs that seat's token: scan "
                          "the seat's QR code on the TV, or open it from the host page.")

    def check_input(self, inp: dict, role: str) -> None:
        """Raise AccessError unless ``role`` may send ``inp`` (already protocol-checked)."""
        (kind, body), = inp.items()
        if role == "host":
            return
        if kind == "seat" and role == f"seat-{body.get('seat')}":
            return
        if kind in HARDWARE_KINDS and self.simulate:
            return
        if kind == "seat":
            raise AccessError("seat_token_needed", f"Actions for seat {body.get('seat')} need that "
                              "seat's page (its token).")
        if kind in HARDWARE_KINDS:
            raise AccessError("host_token_needed", f"{kind} inputs over the network need the host "
                              "token outside simulation.")
        raise AccessError("host_token_needed", f"{kind} inputs need the host token: use the host page.")
