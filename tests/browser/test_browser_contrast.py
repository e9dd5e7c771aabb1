"""Lead paragraphs are readable on the background they sit on (issue 12
tester fault 4: /fair/'s p.lead was #e9f1ec on the cream page, at 1280 and
390 px).  Each page's lead text is measured against the first opaque
background behind it (the home page's hero: its lightest green, #256a52)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CONTRAST = """
(el) => {
  function rgb(text) {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 };
  }
  function lum(c) {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const s = getComputedStyle(n);
    const hero = s.backgroundImage !== "none" && n.classList.contains("hero");
    if (hero) bg = [37, 106, 82];
    const b = rgb(s.backgroundColor);
    if (!bg && b && b.a === 1) bg = b.c;
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(el).color).c;
  const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_lead_paragraphs_are_readable(browser, live, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    seen = 0
    for path in ("/fair/", "/", "/rules/", "/calculator/", "/rules/compare/"):
        page.goto(live.url + path)
        for el in page.query_selector_all("p.lead, p.lead-dark"):
            ratio = el.evaluate(CONTRAST)
            assert ratio >= 4.5, f"{path} {el.text_content()[:20]!r}: {ratio:.2f}:1"
            seen += 1
    assert seen >= 5
    ctx.close()
