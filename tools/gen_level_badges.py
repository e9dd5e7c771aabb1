"""Generate the level badges: one small SVG per level of each seeded scheme.

Run from the repository root::

    python tools/gen_level_badges.py            # write static/badges/**.svg
    python tools/gen_level_badges.py --check    # exit 1 if the committed files differ

The levels come from the seeds' data (``accounts/migrations/0002_level_schemes.py``:
seed 002 雀蛋 … 自摸王 → ``badges/que/``, seed 003 武林新丁 … 麻将无敌 →
``badges/wulin/``, seed 000 白板 … 中 → ``badges/paiming/``) plus a generic set
of 30 ranks for schemes added in admin (``badges/generic/``).  A badge is a
48 x 48 medal: its frame's shape and metal rise with the level (five tiers:
bronze disc, silver hexagon, gold shield, jade octagon, crimson star), and
its centre shows the level's own mark — the character that tells the level
apart (雀 levels: 蛋 仔 麻 头 …; tile levels: 白 一 二 … 東 南 西 北 中;
武林 levels and the generic set: the rank number).  Characters are glyph
outlines copied out of Noto Serif CJK SC Bold (SIL OFL 1.1), as the tiles
are (``tools/gen_tiles.py``), so a badge needs no font at the visitor's.

Deterministic: the same code and font give the same bytes.  A dev tool
(fonttools, from requirements-dev.txt); the site ships the SVGs.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.gen_tiles import FONT_PATH, Glyphs, num  # noqa: E402

OUT_DIR = ROOT / "static" / "badges"
SIZE = 48
C = SIZE / 2
GENERIC_RANKS = 30
SLUGS = {
    "雀级（实力积分）": "que",
    "武林（游戏等级）": "wulin",
    "牌名（等级级别称号积分）": "paiming",
}
"""Must match ``accounts.badges.SCHEME_SLUGS``."""

# (outer, inner, light, ink) per tier
TIERS = (
    ("#8a5a2b", "#c98b4f", "#f0c89a", "#3b2210"),  # bronze
    ("#6f7b86", "#b8c2cb", "#eef2f5", "#2a3139"),  # silver
    ("#a88222", "#d4a93c", "#f7e3a1", "#3d2d05"),  # gold
    ("#0f5a3e", "#1f8a5b", "#9fe0bf", "#ffffff"),  # jade
    ("#7d150f", "#b3261e", "#f4a59b", "#fff4d6"),  # crimson
)
TILE_MARKS = {
    "白板": "白",
    "东风": "東",
    "南风": "南",
    "西风": "西",
    "北风": "北",
    "中": "中",
}


def schemes() -> list[tuple[str, list[tuple[str, int]]]]:
    """The seeded schemes, from the data migration: (slug, [(name, min_points)])."""
    mod = importlib.import_module("accounts.migrations.0002_level_schemes")
    return [(SLUGS[name], levels) for name, _src, _act, levels in mod.SCHEMES]


def marks(slug: str, names: list[str]) -> list[str]:
    """Each level's centre mark (unique within its scheme)."""
    if slug == "paiming":
        return [TILE_MARKS.get(n, n[0]) for n in names]
    if slug == "que":
        out: list[str] = []
        for n in names:
            pick = next(ch for ch in n if ch != "雀" and ch not in out)
            out.append(pick)
        return out
    return [str(i) for i in range(1, len(names) + 1)]


def tier(rank: int, count: int) -> int:
    """Tier 0..4 of the ``rank``-th (1-based) of ``count`` levels."""
    return min(4, (rank - 1) * 5 // count)


def _polygon(n: int, r: float, rot: float = -90.0, inner: float | None = None) -> str:
    pts = []
    steps = n * 2 if inner is not None else n
    for i in range(steps):
        rr = r if inner is None or i % 2 == 0 else inner
        a = math.radians(rot + 360.0 * i / steps)
        pts.append(f"{num(C + rr * math.cos(a))} {num(C + rr * math.sin(a))}")
    return "M" + "L".join(pts) + "Z"


def frame(t: int, r: float) -> str:
    """Path data of tier ``t``'s frame at radius ``r``."""
    if t == 0:
        return (
            f"M{num(C - r)} {num(C)}a{num(r)} {num(r)} 0 1 0 {num(2 * r)} 0"
            f"a{num(r)} {num(r)} 0 1 0 {num(-2 * r)} 0Z"
        )
    if t == 1:
        return _polygon(6, r, rot=-90)
    if t == 2:  # shield
        top, w = C - r, r * 0.92
        return (
            f"M{num(C)} {num(top)}L{num(C + w)} {num(top + r * 0.32)}"
            f"L{num(C + w)} {num(C + r * 0.05)}"
            f"Q{num(C + w)} {num(C + r * 0.72)} {num(C)} {num(C + r)}"
            f"Q{num(C - w)} {num(C + r * 0.72)} {num(C - w)} {num(C + r * 0.05)}"
            f"L{num(C - w)} {num(top + r * 0.32)}Z"
        )
    if t == 3:
        return _polygon(8, r, rot=-90 + 22.5)
    return _polygon(8, r, rot=-90, inner=r * 0.8)


def badge(mark: str, rank: int, count: int, glyphs: Glyphs, label: str) -> str:
    """One badge SVG document."""
    t = tier(rank, count)
    outer, inner, light, ink = TIERS[t]
    size = 24.0 if len(mark) == 1 else 19.0
    stretch = 1.0 if len(mark) == 1 else 0.8
    parts = []
    for i, ch in enumerate(mark):
        x = C + (i - (len(mark) - 1) / 2) * size * 0.55
        parts.append(
            f'<path fill="{ink}" d="{glyphs.path(ch, x, C + 0.5, size, stretch)}"/>'
        )
    text = "".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}"'
        f' width="{SIZE}" height="{SIZE}">'
        f"<!-- {label}: generated by tools/gen_level_badges.py; glyphs from"
        " Noto Serif CJK SC Bold, OFL 1.1 -->"
        f'<path fill="{outer}" d="{frame(t, 23.0)}"/>'
        f'<path fill="{inner}" d="{frame(t, 20.0)}"/>'
        f'<path fill="{light}" fill-opacity="0.45" d="{frame(t, 16.5)}"/>'
        f"{text}</svg>\n"
    )


def render_all(glyphs: Glyphs) -> Iterator[tuple[str, str]]:
    """Every (relative path, SVG text), in a fixed order."""
    for slug, levels in schemes():
        names = [n for n, _p in levels]
        for rank, mark in enumerate(marks(slug, names), start=1):
            yield (
                f"{slug}/{rank}.svg",
                badge(
                    mark, rank, len(names), glyphs, f"{slug} {rank} {names[rank - 1]}"
                ),
            )
    for rank in range(1, GENERIC_RANKS + 1):
        yield (
            f"generic/{rank}.svg",
            badge(str(rank), rank, GENERIC_RANKS, glyphs, f"generic {rank}"),
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--font", type=Path, default=FONT_PATH)
    args = parser.parse_args(argv)
    glyphs = Glyphs(args.font)
    stale = []
    for rel, text in render_all(glyphs):
        path = OUT_DIR / rel
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if stale:
        print("stale badges:", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
