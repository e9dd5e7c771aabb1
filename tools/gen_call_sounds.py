"""Generate the table's call-out sounds (吃 碰 杠 和 自摸) into ``static/sounds/``.

Our own sounds, synthesised here with the standard library only (``wave``,
``math``, ``random`` with a fixed seed, so the files are the same on every
run): a tile's "clack" is a few damped partials at inharmonic ratios (a small
hard block) over a two-millisecond noise transient; 吃 is two clacks, 碰 three
firmer ones, 杠 four lower ones, 和 a rising bell arpeggio, 自摸 the arpeggio
with a clack before it and a higher top note.  16-bit mono PCM at 22,050 Hz,
each file well under 40 kB.

Usage::

    python tools/gen_call_sounds.py          # writes static/sounds/*.wav
    python tools/gen_call_sounds.py --check  # exit 1 if a file would change
"""

from __future__ import annotations

import io
import math
import random
import sys
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parents[1] / "static" / "sounds"


def silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


def mix(into: list[float], sound: list[float], at: float, gain: float = 1.0) -> None:
    """Add ``sound`` into ``into`` starting ``at`` seconds (extending it)."""
    start = int(RATE * at)
    need = start + len(sound)
    if need > len(into):
        into.extend([0.0] * (need - len(into)))
    for i, v in enumerate(sound):
        into[start + i] += v * gain


def clack(freq: float, rng: random.Random, *, length: float = 0.09) -> list[float]:
    """One tile striking another: damped inharmonic partials + a noise tick."""
    n = int(RATE * length)
    partials = ((1.0, 1.0, 0.018), (2.76, 0.55, 0.010), (5.40, 0.30, 0.006))
    out = []
    for i in range(n):
        t = i / RATE
        v = sum(
            a * math.exp(-t / tau) * math.sin(2 * math.pi * freq * r * t)
            for r, a, tau in partials
        )
        if t < 0.002:
            v += (rng.random() * 2 - 1) * 0.8 * (1 - t / 0.002)
        out.append(v)
    return out


def bell(freq: float, *, length: float = 0.45) -> list[float]:
    """A soft bell note: a fundamental and two partials, quick attack."""
    n = int(RATE * length)
    out = []
    for i in range(n):
        t = i / RATE
        attack = min(1.0, t / 0.006)
        v = (
            math.sin(2 * math.pi * freq * t) * math.exp(-t / 0.22)
            + 0.35 * math.sin(2 * math.pi * freq * 2.0 * t) * math.exp(-t / 0.12)
            + 0.15 * math.sin(2 * math.pi * freq * 3.01 * t) * math.exp(-t / 0.07)
        )
        out.append(v * attack)
    return out


def normalise(samples: list[float], peak: float = 0.7) -> list[float]:
    top = max(abs(v) for v in samples) or 1.0
    fade = int(RATE * 0.01)  # no click at the end
    out = [v * peak / top for v in samples]
    for i in range(1, fade + 1):
        out[-i] *= i / fade
    return out


def sounds() -> dict[str, list[float]]:
    """Each call-out's samples, by file stem."""
    rng = random.Random(20261203)
    chi = silence(0.0)
    for k, at in enumerate((0.0, 0.085)):
        mix(chi, clack(1250 + 60 * k, rng), at)
    pung = silence(0.0)
    for k, at in enumerate((0.0, 0.07, 0.14)):
        mix(pung, clack(980 - 30 * k, rng, length=0.11), at, 1.0 + 0.15 * k)
    kong = silence(0.0)
    for k, at in enumerate((0.0, 0.06, 0.12, 0.19)):
        mix(kong, clack(720 - 25 * k, rng, length=0.12), at, 1.0 + 0.2 * k)
    hu = silence(0.0)
    for k, f in enumerate((523.25, 659.25, 783.99, 1046.5)):  # C E G C
        mix(hu, bell(f), 0.075 * k, 0.8 if k < 3 else 1.0)
    zimo = silence(0.0)
    mix(zimo, clack(1100, rng), 0.0)
    for k, f in enumerate((587.33, 739.99, 880.0, 1174.66, 1479.98)):  # D F# A D F#
        mix(zimo, bell(f, length=0.5), 0.09 + 0.07 * k, 0.75 if k < 4 else 1.0)
    return {
        "chi": normalise(chi),
        "pung": normalise(pung),
        "kong": normalise(kong),
        "hu": normalise(hu),
        "zimo": normalise(zimo),
    }


def wav_bytes(samples: list[float]) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(
            b"".join(
                int(max(-1.0, min(1.0, v)) * 32767).to_bytes(2, "little", signed=True)
                for v in samples
            )
        )
    return buf.getvalue()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    OUT.mkdir(parents=True, exist_ok=True)
    changed = []
    for stem, samples in sounds().items():
        data = wav_bytes(samples)
        path = OUT / f"{stem}.wav"
        if not path.exists() or path.read_bytes() != data:
            changed.append(path.name)
            if not check:
                path.write_bytes(data)
        print(f"{path.name}: {len(data):,} bytes, {len(samples) / RATE:.2f} s")
    if check and changed:
        print("would change:", ", ".join(changed))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
