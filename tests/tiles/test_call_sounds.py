"""The committed call-out sounds (static/sounds/) and their generator.

tools/gen_call_sounds.py synthesises them with the standard library; the
committed files must be exactly what it writes, small, and valid PCM WAV.
"""

from __future__ import annotations

import importlib.util
import io
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "static" / "sounds"


def _gen():
    spec = importlib.util.spec_from_file_location(
        "gen_call_sounds", ROOT / "tools" / "gen_call_sounds.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_call_sounds", module)
    spec.loader.exec_module(module)
    return module


def test_committed_sounds_are_the_generators_output():
    gen = _gen()
    made = gen.sounds()
    assert sorted(made) == ["chi", "hu", "kong", "pung", "zimo"]
    for stem, samples in made.items():
        path = SOUNDS / f"{stem}.wav"
        assert path.read_bytes() == gen.wav_bytes(samples), stem


def test_sounds_are_short_mono_pcm_and_not_clipped():
    for path in sorted(SOUNDS.glob("*.wav")):
        data = path.read_bytes()
        assert len(data) < 40_000, path.name
        with wave.open(io.BytesIO(data)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (
                1,
                2,
                22_050,
            )
            frames = w.readframes(w.getnframes())
            seconds = w.getnframes() / w.getframerate()
        assert 0.1 < seconds < 1.0, path.name
        peak = max(
            abs(int.from_bytes(frames[i : i + 2], "little", signed=True))
            for i in range(0, len(frames), 2)
        )
        assert 0.5 * 32767 < peak < 32767, path.name
