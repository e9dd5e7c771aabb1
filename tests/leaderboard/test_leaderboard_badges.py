"""Level badges: a generated SVG per level of every seeded scheme, used by pages."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from accounts.badges import SCHEME_SLUGS, badge_path
from accounts.models import LevelScheme

ROOT = Path(__file__).resolve().parents[2]
FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")


@pytest.mark.django_db
def test_every_seeded_level_has_its_own_badge():
    seen = set()
    for scheme in LevelScheme.objects.prefetch_related("levels"):
        assert scheme.name in SCHEME_SLUGS
        for level in scheme.levels.all():
            level.scheme = scheme
            path = ROOT / "static" / badge_path(level)
            svg = path.read_text(encoding="utf-8")
            root = ET.fromstring(svg)
            assert root.get("viewBox") == "0 0 48 48"
            assert "<script" not in svg and "<text" not in svg  # glyphs are paths
            seen.add(svg)
    assert len(seen) == 16 + 18 + 15  # no two levels share a badge


@pytest.mark.django_db
def test_a_scheme_added_in_admin_uses_the_generic_set():
    scheme = LevelScheme.objects.create(name="自定义")
    level = scheme.levels.create(rank=45, name="x", min_points=1)
    assert badge_path(level) == "badges/generic/30.svg"
    assert (ROOT / "static" / "badges" / "generic" / "30.svg").exists()


@pytest.mark.skipif(not FONT.exists(), reason="needs Debian's fonts-noto-cjk")
def test_the_committed_badges_are_what_the_generator_writes():
    out = subprocess.run(
        [sys.executable, "tools/gen_level_badges.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
