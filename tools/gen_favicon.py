"""Generate ``static/img/favicon.ico``: the site's logo tile (二筒) as an icon.

Our own drawing of ``static/img/logo.svg`` (a cream tile with a dark edge, two
green rings around a red and a blue dot), rasterised here with the standard
library only: each pixel is 4x4 supersampled against the same shapes, so the
edges are smooth; the ICO holds 16, 32 and 48 px PNG images (ICO with PNG
entries, read by every current browser).  The output is the same on every run.

Usage::

    python tools/gen_favicon.py          # writes static/img/favicon.ico
    python tools/gen_favicon.py --check  # exit 1 if the file would change
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "img" / "favicon.ico"
SIZES = (16, 32, 48)
SUB = 4  # supersamples per pixel side

# Colours of logo.svg (RGB).
EDGE = (0x0F, 0x3A, 0x2E)
FACE = (0xFB, 0xF6, 0xE8)
RING = (0x1F, 0x6B, 0x4F)
RED = (0xB8, 0x32, 0x2A)
BLUE = (0x1D, 0x4F, 0x8C)

Colour = tuple[int, int, int]


def _in_round_rect(
    x: float, y: float, box: tuple[float, float, float, float], r: float
) -> bool:
    x0, y0, x1, y1 = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def shade(x: float, y: float) -> Colour | None:
    """The colour at (x, y) of a 44 x 44 logo square, or None (transparent).

    The tile (34 x 44 in logo.svg) is centred horizontally.
    """
    x -= 5.0  # centre the 34-wide tile in 44
    for cy, dot in ((11.5, RED), (28.5, BLUE)):
        d2 = (x - 16) ** 2 + (y - cy) ** 2
        if d2 <= 2.6**2:
            return dot
        if 5.0**2 <= d2 <= 7.4**2:
            return RING
    if _in_round_rect(x, y, (1, 1, 31, 39), 5):
        return FACE
    if _in_round_rect(x, y, (2, 4, 32, 42), 5):
        return EDGE
    return None


def render(size: int) -> bytes:
    """RGBA rows of the logo at ``size`` x ``size`` pixels."""
    scale = 44 / size
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            acc = [0, 0, 0]
            hits = 0
            for sy in range(SUB):
                for sx in range(SUB):
                    c = shade(
                        (px + (sx + 0.5) / SUB) * scale,
                        (py + (sy + 0.5) / SUB) * scale,
                    )
                    if c is not None:
                        hits += 1
                        for i in range(3):
                            acc[i] += c[i]
            if hits:
                rows.extend(round(v / hits) for v in acc)
                rows.append(round(255 * hits / (SUB * SUB)))
            else:
                rows.extend((0, 0, 0, 0))
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(render(size), 9))
        + chunk(b"IEND", b"")
    )


def ico() -> bytes:
    images = [png(s) for s in SIZES]
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    for size, data in zip(SIZES, images, strict=True):
        out += struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return out + b"".join(images)


def main(argv: list[str]) -> int:
    data = ico()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_bytes() != data:
            print(f"{OUT} is out of date: run python tools/gen_favicon.py")
            return 1
        return 0
    OUT.write_bytes(data)
    print(f"wrote {OUT} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
