#!/usr/bin/env python3
"""Make the TV's chimes (web/sounds/*.wav) from sine tones, offline, with the standard library only.

    python3 scripts/make_sounds.py        # rewrites web/sounds/; the files are committed

Each sound is a few soft bell-like notes (a sine with its octave, a quick attack and an
exponential fade), so nothing is fetched or licensed from anywhere.
"""
from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "web" / "sounds"

# name: [(start s, MIDI note, length s, loudness 0-1), ...]
SOUNDS = {
    "turn": [(0.0, 72, 0.35, 0.5), (0.14, 79, 0.5, 0.5)],                   # your turn: C5 then G5
    "reveal": [(0.0, 67, 0.5, 0.4), (0.09, 71, 0.5, 0.4), (0.18, 74, 0.5, 0.4), (0.27, 79, 0.7, 0.45)],
    "score": [(0.0, 84, 0.25, 0.35), (0.07, 88, 0.35, 0.35)],               # a bright blip for points
    "refusal": [(0.0, 58, 0.3, 0.45), (0.16, 55, 0.45, 0.45)],              # two low falling notes
    "win": [(0.0, 72, 0.3, 0.4), (0.15, 76, 0.3, 0.4), (0.3, 79, 0.3, 0.4), (0.45, 84, 1.1, 0.5),
            (0.45, 76, 1.1, 0.3), (0.45, 79, 1.1, 0.3)],
}


def note(midi: int, length: float, loud: float) -> list[float]:
    """One bell-like note as samples from -1 to 1."""
    freq = 440.0 * 2 ** ((midi - 69) / 12)
    out = []
    for i in range(int(length * RATE)):
        t = i / RATE
        envelope = min(1.0, t / 0.008) * math.exp(-t * 5.0 / length)
        out.append(loud * envelope * (0.8 * math.sin(2 * math.pi * freq * t) + 0.2 * math.sin(4 * math.pi * freq * t)))
    return out


def render(parts) -> bytes:
    """The mixed notes as 16-bit little-endian PCM."""
    total = max(int((start + length) * RATE) for start, _n, length, _l in parts)
    mix = [0.0] * total
    for start, midi, length, loud in parts:
        offset = int(start * RATE)
        for i, s in enumerate(note(midi, length, loud)):
            mix[offset + i] += s
    peak = max(1.0, max(abs(s) for s in mix))
    return b"".join(struct.pack("<h", int(32767 * 0.9 * s / peak)) for s in mix)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, parts in SOUNDS.items():
        with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(render(parts))
        print(OUT / f"{name}.wav")


if __name__ == "__main__":
    main()
