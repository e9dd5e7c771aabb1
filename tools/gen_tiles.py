"""Generate the tile artwork: one SVG per tile into ``static/tiles/``.

Run from the repository root::

    python tools/gen_tiles.py            # write static/tiles/*.svg
    python tools/gen_tiles.py --check    # exit 1 if the committed files differ

Writes 43 files named by tile notation (DEVELOPERS.md): ``1m``-``9m`` 万,
``1p``-``9p`` 筒, ``1s``-``9s`` 条, ``1z``-``7z`` 东南西北白发中, ``1f``-``8f``
春夏秋冬梅兰竹菊, and ``back``.  Each is a 60 x 80 viewBox (3:4) of plain
``<path>``/``<rect>``/``<circle>`` elements: 筒 and 条 are drawn geometrically,
and every character is a glyph outline copied out of Noto Serif CJK SC Bold
(SIL Open Font License 1.1, Debian package ``fonts-noto-cjk``; see
``static/tiles/LICENSE-FONT.txt``), so no tile depends on the visitor's fonts.

Output is deterministic: the same code and font give the same bytes.  The
geometric tiles (筒, 条 and the back) need no font at all.

This is a dev tool (needs ``fonttools`` from requirements-dev.txt); the site
ships only the generated SVGs.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "static" / "tiles"
FONT_PATH = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FONT_FACE = "Noto Serif CJK SC Bold"
FONT_VERSION = "Version 2.001"

W, H = 60, 80
# The face (the part with the picture) and its usable inner area.
FACE_X, FACE_Y, FACE_W, FACE_H = 2.0, 1.5, 56.0, 70.5
CX, CY = 30.0, 37.0  # centre of the picture area (y 4..70)

IVORY = "#fffaf0"
DARK = "#1b1b1b"
NAVY = "#16224a"
RED = "#c8192e"
GREEN = "#137a3f"
BLUE = "#1d4f9f"
SUIT_COLOURS = {
    "g": ("#17813f", "#0c5428", "#7ccf86"),  # bamboo green: fill, shade, light
    "r": ("#c8192e", "#861020", "#f08a8a"),
    "b": ("#1d4f9f", "#10306b", "#85aee8"),
}
DOT_COLOURS = {"g": "#15803d", "r": "#cc1f30", "b": "#1f4fa8"}

NUMERALS = "一二三四五六七八九"
HONOURS = "東南西北白發中"
FLOWERS = "春夏秋冬梅蘭竹菊"
# Season flowers (1f-4f) and plant flowers (5f-8f) each get their own colour.
FLOWER_COLOURS = (
    "#17813f",
    "#c8192e",
    "#b8620b",
    "#1d4f9f",
    "#b5174f",
    "#6b2fa0",
    "#137a3f",
    "#a87400",
)

TILE_NAMES = (
    [f"{n}m" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)]
    + ["back"]
)
"""All 43 output names, in notation order, without the ``.svg`` suffix."""


def num(value: float) -> str:
    """Format a coordinate with at most one decimal and no ``-0`` or ``.0``."""
    text = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# -- glyph outlines ----------------------------------------------------------


class Glyphs:
    """Glyph outlines of one CJK font face as SVG path data.

    Args:
        path: a ``.ttc`` collection or single font file.
        face: the full font name (name ID 4) to pick out of a collection.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        LookupError: no face of that name, or a character it lacks.
    """

    def __init__(self, path: Path, face: str = FONT_FACE) -> None:
        from fontTools.ttLib import TTCollection, TTFont

        if not path.exists():
            raise FileNotFoundError(f"font not found: {path}")
        fonts = TTCollection(path).fonts if path.suffix == ".ttc" else [TTFont(path)]
        for font in fonts:
            if font["name"].getDebugName(4) == face:
                self.font = font
                break
        else:
            raise LookupError(f"no face {face!r} in {path}")
        self.version = self.font["name"].getDebugName(5) or ""
        self.cmap = self.font.getBestCmap()
        self.glyph_set = self.font.getGlyphSet()

    def path(
        self, char: str, cx: float, cy: float, size: float, stretch: float = 1.0
    ) -> str:
        """Return path data for ``char`` centred on (cx, cy).

        ``size`` is the em size in tile units (the same for every glyph, so
        一 stays thin and 萬 stays tall); ``stretch`` widens horizontally.
        """
        from fontTools.pens.boundsPen import BoundsPen
        from fontTools.pens.svgPathPen import SVGPathPen
        from fontTools.pens.transformPen import TransformPen

        name = self.cmap.get(ord(char))
        if name is None:
            raise LookupError(f"{char!r} not in font")
        glyph = self.glyph_set[name]
        bounds_pen = BoundsPen(self.glyph_set)
        glyph.draw(bounds_pen)
        assert bounds_pen.bounds is not None
        x0, y0, x1, y1 = bounds_pen.bounds
        k = size / 1000.0
        sx = k * stretch
        # Font y grows upwards; the SVG's grows downwards.
        dx = cx - (x0 + x1) / 2 * sx
        dy = cy + (y0 + y1) / 2 * k
        svg_pen = SVGPathPen(self.glyph_set, ntos=num)
        glyph.draw(TransformPen(svg_pen, (sx, 0, 0, -k, dx, dy)))
        return str(svg_pen.getCommands())


def glyph(
    glyphs: Glyphs,
    char: str,
    cx: float,
    cy: float,
    size: float,
    colour: str,
    *,
    stretch: float = 1.0,
    bold: float = 0.0,
) -> str:
    """Return a ``<path>`` for one character; ``bold`` thickens by a stroke."""
    d = glyphs.path(char, cx, cy, size, stretch)
    extra = ""
    if bold:
        extra = f' stroke="{colour}" stroke-width="{num(bold)}" stroke-linejoin="round"'
    return f'<path fill="{colour}"{extra} d="{d}"/>'


# -- tile body ---------------------------------------------------------------

FACE_DEFS = (
    '<defs><linearGradient id="mj-face" x1="0" y1="0" x2="0.35" y2="1">'
    '<stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#f1e8cf"/>'
    "</linearGradient></defs>"
)
BACK_DEFS = (
    '<defs><linearGradient id="mj-back" x1="0" y1="0" x2="0.35" y2="1">'
    '<stop offset="0" stop-color="#2f9a70"/><stop offset="1" stop-color="#17654a"/>'
    "</linearGradient></defs>"
)


def body_face() -> str:
    """Ivory tile: green backing at the bottom edge, ivory side, bevelled face."""
    return (
        # jade back, seen at the bottom edge; then the ivory body over it
        '<rect x="0.5" y="0.5" width="59" height="79" rx="7" fill="#125a40"/>'
        '<rect x="0.5" y="0.5" width="59" height="76" rx="7" fill="#dccfae"/>'
        '<rect x="0.5" y="0.5" width="59" height="73" rx="7" fill="#e9dfc4"/>'
        f'<rect x="{num(FACE_X)}" y="{num(FACE_Y)}" width="{num(FACE_W)}"'
        f' height="{num(FACE_H)}" rx="5.5" fill="url(#mj-face)"'
        ' stroke="#fffef9" stroke-width="0.8"/>'
        '<rect x="0.5" y="0.5" width="59" height="79" rx="7" fill="none"'
        ' stroke="#8f8262" stroke-width="0.8"/>'
    )


def body_back() -> str:
    """Back of a tile: jade green with an inset border and a lattice emblem."""
    lattice = []
    for i in range(-2, 3):
        for j in range(-3, 4):
            if (i + j) % 2 == 0 and abs(i) + abs(j) <= 3:
                x, y = CX + i * 7, CY + j * 7
                lattice.append(
                    f"M{num(x)} {num(y - 3.2)}L{num(x + 3.2)} {num(y)}"
                    f"L{num(x)} {num(y + 3.2)}L{num(x - 3.2)} {num(y)}Z"
                )
    return (
        '<rect x="0.5" y="0.5" width="59" height="79" rx="7" fill="#0d4a34"/>'
        '<rect x="0.5" y="0.5" width="59" height="75" rx="7" fill="#145a41"/>'
        f'<rect x="{num(FACE_X)}" y="{num(FACE_Y)}" width="{num(FACE_W)}"'
        f' height="{num(FACE_H)}" rx="5.5" fill="url(#mj-back)"'
        ' stroke="#5fc29a" stroke-width="0.8"/>'
        '<rect x="6.5" y="6" width="47" height="61.5" rx="3" fill="none"'
        ' stroke="#a8e0c6" stroke-opacity="0.55" stroke-width="1"/>'
        f'<path fill="#a8e0c6" fill-opacity="0.45" d="{"".join(lattice)}"/>'
        '<rect x="0.5" y="0.5" width="59" height="79" rx="7" fill="none"'
        ' stroke="#093326" stroke-width="0.8"/>'
    )


def svg(content: str, name: str, *, back: bool = False) -> str:
    """Wrap tile content in the SVG document with its body."""
    note = (
        f"<!-- {name}: generated by tools/gen_tiles.py"
        + ("" if back or name[-1] in "ps" else f"; glyphs from {FONT_FACE}, OFL 1.1")
        + " -->"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}"'
        f' width="{W}" height="{H}">{note}'
        + (BACK_DEFS + body_back() if back else FACE_DEFS + body_face())
        + content
        + "</svg>\n"
    )


# -- 筒 dots -----------------------------------------------------------------


def dot(cx: float, cy: float, r: float, colour: str) -> str:
    """One coin: coloured disc, ivory ring, coloured boss, ivory pip."""
    c = DOT_COLOURS[colour]
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{c}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.66)}" fill="{IVORY}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.46)}" fill="{c}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.14)}" fill="{IVORY}"/>'
    )


def one_dot() -> str:
    """The big 1筒 medallion: green rim, blue pearls, red and blue centre."""
    parts = [
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="23.5" fill="{DOT_COLOURS["g"]}"/>',
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="21" fill="{IVORY}"/>',
    ]
    pearls = []
    for i in range(16):
        a = 2 * math.pi * i / 16
        x, y = CX + 17.2 * math.cos(a), CY + 17.2 * math.sin(a)
        pearls.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="2.3"/>')
    parts.append(f'<g fill="{DOT_COLOURS["b"]}">{"".join(pearls)}</g>')
    petals = []
    for i in range(8):
        a = 2 * math.pi * (i + 0.5) / 8
        x, y = CX + 10.5 * math.cos(a), CY + 10.5 * math.sin(a)
        petals.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="3.2"/>')
    parts.append(f'<g fill="{DOT_COLOURS["r"]}">{"".join(petals)}</g>')
    parts += [
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="9" fill="{DOT_COLOURS["r"]}"/>',
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="6" fill="{IVORY}"/>',
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="4.2" fill="{DOT_COLOURS["b"]}"/>',
        f'<circle cx="{num(CX)}" cy="{num(CY)}" r="1.3" fill="{IVORY}"/>',
    ]
    return "".join(parts)


# (x, y, radius, colour) for 2筒 to 9筒.
DOT_LAYOUTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 20.5, 11.5, "g"), (30, 53.5, 11.5, "b")],
    3: [(15.5, 15.5, 9.8, "b"), (30, 37, 9.8, "r"), (44.5, 58.5, 9.8, "g")],
    4: [
        (17.5, 21, 10.8, "b"),
        (42.5, 21, 10.8, "g"),
        (17.5, 53, 10.8, "g"),
        (42.5, 53, 10.8, "b"),
    ],
    5: [
        (16, 16.5, 9.3, "b"),
        (44, 16.5, 9.3, "g"),
        (30, 37, 10.3, "r"),
        (16, 57.5, 9.3, "g"),
        (44, 57.5, 9.3, "b"),
    ],
    6: [
        (18, 14, 8.6, "g"),
        (42, 14, 8.6, "g"),
        (18, 41, 8.6, "r"),
        (42, 41, 8.6, "r"),
        (18, 60.5, 8.6, "r"),
        (42, 60.5, 8.6, "r"),
    ],
    7: [
        (13.5, 11.5, 7.2, "g"),
        (30, 20, 7.2, "g"),
        (46.5, 28.5, 7.2, "g"),
        (18, 44.5, 7.8, "r"),
        (42, 44.5, 7.8, "r"),
        (18, 61.5, 7.8, "r"),
        (42, 61.5, 7.8, "r"),
    ],
    8: [(x, y, 7.6, "b") for y in (12, 28.5, 45, 61.5) for x in (19, 41)],
    9: [
        (x, y, 7.8, c)
        for y, c in ((15, "b"), (37, "r"), (59, "g"))
        for x in (13.5, 30, 46.5)
    ],
}


def dots(n: int) -> str:
    """Return the picture of n筒."""
    if n == 1:
        return one_dot()
    return "".join(dot(x, y, r, c) for x, y, r, c in DOT_LAYOUTS[n])


# -- 条 bamboo ---------------------------------------------------------------


def stick(cx: float, cy: float, h: float, colour: str, angle: float = 0) -> str:
    """One bamboo stick: two segments with knuckles at the ends and middle."""
    fill, shade, light = SUIT_COLOURS[colour]
    w = 7.4
    x, y = cx - w / 2, cy - h / 2
    seg = h / 2 - 4.2
    parts = [
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"'
        f' rx="2.6" fill="{fill}"/>',
    ]
    # a light streak and a dark one down each segment make the stick round
    for sy in (y + 2.6, cy + 1.6):
        parts.append(
            f'<rect x="{num(cx - 2.5)}" y="{num(sy)}" width="1.6"'
            f' height="{num(seg)}" rx="0.8" fill="{light}"/>'
            f'<rect x="{num(cx + 1.3)}" y="{num(sy)}" width="1.3"'
            f' height="{num(seg)}" rx="0.6" fill="{shade}"/>'
        )
    for ky in (y, cy - 1.1, y + h - 2.2):
        parts.append(
            f'<rect x="{num(x - 0.6)}" y="{num(ky)}" width="{num(w + 1.2)}"'
            f' height="2.2" rx="1.1" fill="{shade}"/>'
        )
    transform = ""
    if angle:
        transform = f' transform="rotate({num(angle)} {num(cx)} {num(cy)})"'
    return f"<g{transform}>{''.join(parts)}</g>"


def bird() -> str:
    """The 1条 bird: a stylised peacock with a fanned tail of eyed feathers."""
    g, gs, _ = SUIT_COLOURS["g"]
    b, bs, _ = SUIT_COLOURS["b"]
    r = SUIT_COLOURS["r"][0]
    parts = []
    # fanned tail behind the body, pivoting at the rump (30, 54)
    for i, a in enumerate((-46, -26, -6, 14, 34)):
        colour = g if i % 2 == 0 else b
        parts.append(
            f'<g transform="rotate({a} 30 54)">'
            f'<path fill="{colour}"'
            ' d="M30 54C23 44 23.5 26 30 19C36.5 26 37 44 30 54Z"/>'
            '<ellipse cx="30" cy="27.5" rx="3.6" ry="4.4" fill="#f2c230"/>'
            f'<ellipse cx="30" cy="27.8" rx="2.1" ry="2.6" fill="{bs}"/>'
            "</g>"
        )
    parts += [
        # body and wing
        f'<path fill="{g}" d="M18 56C17 46 28 40 38 41C46 42 49 49 46 55'
        'C43 61 32 64 25 62C21 61 18.5 59 18 56Z"/>',
        f'<path fill="{gs}" d="M23 53C27 47 35 46 41 49C36 50 32 54 29 59'
        'C26 58 24 56 23 53Z"/>',
        # neck and head
        f'<path fill="{b}" d="M39 43C39 34 41 25 43 19L49 20C47 27 46 35 46 44Z"/>',
        f'<circle cx="46.5" cy="16.5" r="5.4" fill="{b}"/>',
        f'<path fill="{r}" d="M51.3 14.6L57 17.6L51.3 19.2Z"/>',
        f'<circle cx="47.6" cy="15.5" r="1.9" fill="{IVORY}"/>',
        '<circle cx="47.9" cy="15.5" r="1" fill="#111"/>',
        # crest
        f'<path fill="none" stroke="{gs}" stroke-width="1" stroke-linecap="round"'
        ' d="M44.5 11.5L41.5 6M46.5 11L46.5 5M48.5 11.5L51.5 6"/>',
        f'<g fill="{r}"><circle cx="41.5" cy="6" r="1.5"/>'
        '<circle cx="46.5" cy="5" r="1.5"/><circle cx="51.5" cy="6" r="1.5"/></g>',
        # legs
        f'<path fill="none" stroke="{r}" stroke-width="1.7" stroke-linecap="round"'
        ' stroke-linejoin="round" d="M30 62L28.5 68.5M28.5 68.5L24.5 69.5'
        'M28.5 68.5L32 69.5M37 61L38 68M38 68L34.5 69.5M38 68L41.5 69"/>',
    ]
    return "".join(parts)


# (x, y, height, colour, angle) for 2条 to 9条.
StickSpec = tuple[float, float, float, str, float]
BAMBOO_LAYOUTS: dict[int, list[StickSpec]] = {
    2: [(30, 20.5, 29, "g", 0), (30, 53.5, 29, "b", 0)],
    3: [(30, 20.5, 29, "b", 0), (19, 53.5, 29, "g", 0), (41, 53.5, 29, "g", 0)],
    4: [
        (19, 20.5, 29, "b", 0),
        (41, 20.5, 29, "g", 0),
        (19, 53.5, 29, "g", 0),
        (41, 53.5, 29, "b", 0),
    ],
    5: [
        (15.5, 20.5, 29, "g", 0),
        (44.5, 20.5, 29, "b", 0),
        (30, 37, 29, "r", 0),
        (15.5, 53.5, 29, "b", 0),
        (44.5, 53.5, 29, "g", 0),
    ],
    6: [(x, y, 29.0, "g", 0.0) for y in (20.5, 53.5) for x in (15.0, 30.0, 45.0)],
    7: [(30, 14.5, 20, "r", 0)]
    + [(x, y, 20.0, "g", 0.0) for y in (37.0, 59.5) for x in (15.0, 30.0, 45.0)],
    8: [
        (10.5, 20.5, 29, "g", 0),
        (23.5, 20.5, 29, "g", 20),
        (36.5, 20.5, 29, "g", -20),
        (49.5, 20.5, 29, "g", 0),
        (10.5, 53.5, 29, "g", 0),
        (23.5, 53.5, 29, "g", -20),
        (36.5, 53.5, 29, "g", 20),
        (49.5, 53.5, 29, "g", 0),
    ],
    9: [
        (x, y, 20, c, 0)
        for y in (14.5, 37, 59.5)
        for x, c in ((15, "g"), (30, "r"), (45, "b"))
    ],
}


def bamboo(n: int) -> str:
    """Return the picture of n条."""
    if n == 1:
        return bird()
    return "".join(stick(*spec) for spec in BAMBOO_LAYOUTS[n])


# -- characters, honours, flowers --------------------------------------------


def characters(n: int, glyphs: Glyphs) -> str:
    """n萬: the Chinese numeral in dark ink above a red 萬."""
    numeral = glyph(glyphs, NUMERALS[n - 1], CX, 20, 32, DARK, stretch=1.32, bold=1.0)
    wan = glyph(glyphs, "萬", CX, 54, 29.5, RED, stretch=1.25, bold=0.7)
    return numeral + wan


def honour(n: int, glyphs: Glyphs) -> str:
    """1z-7z: winds in navy, 中 red, 發 green, 白 a blue double frame."""
    char = HONOURS[n - 1]
    if char == "白":
        return (
            f'<rect x="9" y="10" width="42" height="54" rx="2.5" fill="none"'
            f' stroke="{BLUE}" stroke-width="4.2"/>'
            f'<rect x="15" y="16" width="30" height="42" rx="1" fill="none"'
            f' stroke="{BLUE}" stroke-width="1.6"/>'
        )
    colour = {"中": RED, "發": GREEN}.get(char, NAVY)
    return glyph(glyphs, char, CX, CY, 47, colour, stretch=1.08, bold=1.0)


def flower(n: int, glyphs: Glyphs) -> str:
    """1f-8f: the flower's character with a numbered badge in its colour."""
    colour = FLOWER_COLOURS[n - 1]
    badge = f'<circle cx="11" cy="11" r="6.6" fill="{colour}"/>' + glyph(
        glyphs, str((n - 1) % 4 + 1), 11, 11, 15, IVORY, bold=0.5
    )
    # a small four-petal sprig opposite the badge
    petals = "".join(
        f'<circle cx="{num(49 + 3.2 * dx)}" cy="{num(64 + 3.2 * dy)}" r="2.4"/>'
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))
    )
    sprig = f'<g fill="{colour}" fill-opacity="0.8">{petals}</g>' + (
        '<circle cx="49" cy="64" r="1.6" fill="#f2c230"/>'
    )
    char = glyph(glyphs, FLOWERS[n - 1], 32, 40, 40, colour, stretch=1.05, bold=0.9)
    return badge + char + sprig


# -- assembly ----------------------------------------------------------------


def tile_content(name: str, glyphs: Glyphs | None) -> str:
    """Return the picture for one tile name; raise if it needs a font we lack."""
    if name == "back":
        return ""
    n, suit = int(name[0]), name[1]
    if suit == "p":
        return dots(n)
    if suit == "s":
        return bamboo(n)
    if glyphs is None:
        raise LookupError(f"{name} needs the font {FONT_FACE}")
    draw: Callable[[int, Glyphs], str] = {
        "m": characters,
        "z": honour,
        "f": flower,
    }[suit]
    return draw(n, glyphs)


def needs_font(name: str) -> bool:
    """True if the tile is drawn with glyph outlines."""
    return name != "back" and name[1] in "mzf"


def render(name: str, glyphs: Glyphs | None) -> str:
    """Return the full SVG text of one tile."""
    return svg(tile_content(name, glyphs), name, back=name == "back")


def render_all(glyphs: Glyphs | None) -> Iterator[tuple[str, str]]:
    """Yield (file name, SVG text); without glyphs only the geometric tiles."""
    for name in TILE_NAMES:
        if glyphs is None and needs_font(name):
            continue
        yield f"{name}.svg", render(name, glyphs)


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the tile SVGs; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--font", type=Path, default=FONT_PATH)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--check", action="store_true", help="compare, don't write")
    args = parser.parse_args(argv)
    glyphs = Glyphs(args.font)
    if not glyphs.version.startswith(FONT_VERSION + ";"):
        print(
            f"warning: font is {glyphs.version!r}, tiles were made with "
            f"{FONT_VERSION!r}; output may differ",
            file=sys.stderr,
        )
    args.out.mkdir(parents=True, exist_ok=True)
    stale = []
    total = 0
    for file_name, text in render_all(glyphs):
        target = args.out / file_name
        data = text.encode()
        total += len(data)
        if args.check:
            if not target.exists() or target.read_bytes() != data:
                stale.append(file_name)
        else:
            target.write_bytes(data)
    if args.check:
        if stale:
            print(f"out of date: {', '.join(stale)}", file=sys.stderr)
            return 1
        print(f"{len(TILE_NAMES)} tiles up to date")
        return 0
    print(f"wrote {len(TILE_NAMES)} tiles to {args.out} ({total} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
