"""The Jinja2 templates (``templates/jinja2/``) are translated by django.po.

``makemessages`` reads only Django templates and Python, so a msgid that
exists only in a Jinja2 template is neither added to
``locale/en/LC_MESSAGES/django.po`` by it nor protected from
``--no-obsolete``.  This test lists every msgid the Jinja2 templates use
(Jinja's own extractor, the same parser that renders them) and requires each
to be in the catalogue with an English translation.
"""

from __future__ import annotations

from pathlib import Path

from django.template import engines
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
JINJA_DIR = ROOT / "templates" / "jinja2"
PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"


def _po_entries() -> dict[str, list[str]]:
    """msgid → msgstr(s) of django.po (active entries; plural msgids by singular)."""
    import ast

    entries: dict[str, list[str]] = {}
    msgid: str | None = None
    strs: list[str] = []
    field = ""

    def close() -> None:
        if msgid is not None:
            entries[msgid] = strs

    for raw in PO.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("msgid "):
            close()
            msgid, strs, field = ast.literal_eval(line[6:]), [], "id"
        elif line.startswith("msgid_plural "):
            field = "plural"
        elif line.startswith("msgstr"):
            strs.append(ast.literal_eval(line.split(" ", 1)[1]))
            field = "str"
        elif line.startswith('"') and msgid is not None:
            part = ast.literal_eval(line)
            if field == "id":
                msgid += part
            elif field == "str":
                strs[-1] += part
        elif not line or line.startswith("#"):
            close()
            msgid, strs, field = None, [], ""
    close()
    return entries


def _jinja_msgids() -> dict[str, list[str]]:
    """Every constant msgid in the Jinja2 templates → the templates using it."""
    env = engines["jinja2"].env
    found: dict[str, list[str]] = {}
    for path in sorted(JINJA_DIR.rglob("*.html")):
        source = path.read_text(encoding="utf-8")
        for _lineno, _func, message in env.extract_translations(source):
            singulars = message if isinstance(message, tuple) else (message,)
            for text in singulars:
                if text:
                    found.setdefault(text, []).append(str(path.relative_to(JINJA_DIR)))
    return found


def test_the_frame_templates_use_translations():
    msgids = _jinja_msgids()
    # the extractor sees both forms: plain strings and {% trans %} blocks
    assert "对手和了" in msgids
    assert "摸到%(t)s，请出牌" in msgids
    assert "我的手牌 %(n)s 张" in msgids
    assert "已加倍 %(n)s/%(m)s 次" in msgids
    assert len(msgids) > 100


def test_every_jinja_msgid_is_translated_in_django_po():
    entries = _po_entries()
    missing = {m: where for m, where in _jinja_msgids().items() if m not in entries}
    untranslated = {
        m: where
        for m, where in _jinja_msgids().items()
        if m in entries and not all(s.strip() for s in entries[m])
    }
    assert not missing, (
        "msgids used in Jinja2 templates but absent from django.po "
        f"(makemessages does not read templates/jinja2/; add them by hand): {missing}"
    )
    assert not untranslated, f"msgids without an English translation: {untranslated}"


def test_jinja_templates_translate_with_djangos_catalogue():
    """Plain strings, escaped variables and plural forms, as blocktranslate did."""
    template = engines["jinja2"].from_string(
        '{{ _("对手和了") }}|{% trans t="<b>" %}对手打出{{ t }}{% endtrans %}|'
        "{% trans n=n %}我的手牌 {{ n }} 张"
        "{% pluralize %}我的手牌 {{ n }} 张{% endtrans %}"
    )
    with translation.override("en"):
        assert template.render({"n": 1}) == (
            "Opponent wins|"
            + translation.gettext("对手打出%(t)s") % {"t": "&lt;b&gt;"}
            + "|My hand, 1 tile"
        )
        assert template.render({"n": 13}).endswith("|My hand, 13 tiles")
    with translation.override("zh-hans"):
        assert template.render({"n": 13}) == "对手和了|对手打出&lt;b&gt;|我的手牌 13 张"
