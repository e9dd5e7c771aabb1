"""The committed tile SVGs (static/tiles/) and their generator tools/gen_tiles.py."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
TILES = ROOT / "static" / "tiles"
SVG_NS = "{http://www.w3.org/2000/svg}"

NAMES = (
    [f"{n}{suit}" for suit in "mps" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)]
    + ["back"]
)


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_tiles", ROOT / "tools" / "gen_tiles.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_tiles", module)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def _text(name: str) -> str:
    return (TILES / f"{name}.svg").read_text(encoding="utf-8")


def test_names_cover_every_tile_once() -> None:
    assert len(NAMES) == 43
    assert list(gen.TILE_NAMES) == NAMES


def test_exactly_the_43_svgs_are_committed() -> None:
    committed = sorted(p.stem for p in TILES.glob("*.svg"))
    assert committed == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_valid_self_contained_xml(name: str) -> None:
    text = _text(name)
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    tags = {el.tag.removeprefix(SVG_NS) for el in root.iter()}
    # Only shapes: no text that would need the visitor's fonts, nothing loaded.
    assert tags <= {
        "svg",
        "defs",
        "linearGradient",
        "stop",
        "g",
        "rect",
        "circle",
        "ellipse",
        "path",
    }, tags
    for el in root.iter():
        for attr, value in el.attrib.items():
            assert "href" not in attr, (name, attr)
            assert not attr.startswith("font"), (name, attr)
            for ref in re.findall(r"url\(([^)]*)\)", value):
                assert ref.startswith("#"), (name, ref)
    # The SVG namespace is the one URI allowed; nothing else points outside.
    rest = text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in rest and "//" not in rest.replace("<!--", "")
    assert "<text" not in text and "font-family" not in text


@pytest.mark.parametrize("name", NAMES)
def test_internal_references_resolve(name: str) -> None:
    root = ET.fromstring(_text(name))
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    refs = set(re.findall(r"url\(#([^)]+)\)", _text(name)))
    assert refs, "every tile paints its face with a gradient"
    assert refs <= ids


@pytest.mark.parametrize("name", NAMES)
def test_svg_stays_small(name: str) -> None:
    size = (TILES / f"{name}.svg").stat().st_size
    assert 500 < size < 8000, size  # a body and a picture, not bloated


@pytest.mark.parametrize("n", range(2, 10))
def test_dot_tiles_show_n_coins(n: int) -> None:
    root = ET.fromstring(_text(f"{n}p"))
    coin_colours = set(gen.DOT_COLOURS.values())
    circles = [
        el for el in root.iter(f"{SVG_NS}circle") if el.get("fill") in coin_colours
    ]
    # Each coin is a disc, an ivory ring and a boss: two coloured circles.
    assert len(circles) == 2 * n


@pytest.mark.parametrize("n", range(2, 10))
def test_bamboo_tiles_show_n_sticks(n: int) -> None:
    root = ET.fromstring(_text(f"{n}s"))
    sticks = [
        g for g in root.iter(f"{SVG_NS}g") if len(g.findall(f"{SVG_NS}rect")) == 8
    ]
    assert len(sticks) == n


def test_glyph_tiles_use_the_classic_colours() -> None:
    for n in range(1, 10):
        fills = re.findall(r'<path fill="(#[0-9a-f]{6})"', _text(f"{n}m"))
        assert fills == [gen.DARK, gen.RED], n  # numeral above, red 萬 below
    assert re.findall(r'<path fill="(#[0-9a-f]{6})"', _text("7z")) == [gen.RED]
    assert re.findall(r'<path fill="(#[0-9a-f]{6})"', _text("6z")) == [gen.GREEN]
    for n in range(1, 5):
        assert re.findall(r'<path fill="(#[0-9a-f]{6})"', _text(f"{n}z")) == [gen.NAVY]
    white = _text("5z")
    assert "<path" not in white.split("</defs>")[1]
    assert white.count(f'stroke="{gen.BLUE}"') == 2  # the blue double frame


def test_geometric_tiles_regenerate_byte_for_byte(tmp_path: Path) -> None:
    written = dict(gen.render_all(None))
    assert sorted(written) == sorted(f"{n}.svg" for n in NAMES if not gen.needs_font(n))
    assert len(written) == 19
    for file_name, text in written.items():
        assert (TILES / file_name).read_bytes() == text.encode(), file_name


@pytest.mark.skipif(
    not gen.FONT_PATH.exists(),
    reason=f"font {gen.FONT_PATH} not installed (Debian package fonts-noto-cjk)",
)
def test_all_tiles_regenerate_byte_for_byte(tmp_path: Path) -> None:
    assert gen.main(["--out", str(tmp_path)]) == 0
    for name in NAMES:
        assert (tmp_path / f"{name}.svg").read_bytes() == (
            TILES / f"{name}.svg"
        ).read_bytes(), name
    assert gen.main(["--check"]) == 0


@pytest.mark.skipif(not gen.FONT_PATH.exists(), reason="font not installed")
def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    assert gen.main(["--out", str(tmp_path)]) == 0
    (tmp_path / "5m.svg").write_text("<svg/>")
    assert gen.main(["--out", str(tmp_path), "--check"]) == 1
