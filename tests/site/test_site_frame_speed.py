"""The shortcuts taken for the per-move work keep the output exactly the same.

``mahjong_site.language`` pins the language once per frame; the Jinja2
environment remembers ``_()`` without variables and calls the partials'
macros as globals; the discard pools are one filter call.  Each is compared
here with the plain path it replaces.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
from django.template import engines
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext, ngettext

from games.display import tiles as mj_table
from mahjong_site import jinja_env, language

ROOT = Path(__file__).resolve().parents[2]


def test_pinned_language_is_read_without_django_and_restored():
    with translation.override("en"):
        assert language.current_language() == "en"
        with language.pinned_language() as pinned:
            assert pinned == "en"
            # a later switch is not seen inside the pinned block (documented)
            translation.activate("zh-hans")
            assert language.current_language() == "en"
            translation.activate("en")
        assert language.current_language() == "en"
    with translation.override(None):  # deactivated: None is a pinned value too
        with language.pinned_language() as pinned:
            assert pinned is None
            assert language.current_language() is None
        with language.pinned_language("en"):
            assert language.current_language() == "en"
        assert language.current_language() is None


def test_cached_gettext_matches_django_per_language():
    for lang, expected in (("en", "Auto"), ("zh-hans", "托管")):
        with translation.override(lang):
            assert gettext("托管") == expected
            assert language.cached_gettext("托管") == expected
            assert language.cached_gettext("托管") == expected  # remembered


def test_cached_gettext_forgets_when_translation_settings_change():
    with translation.override("en"):
        language.cached_gettext("托管")
        assert language._translated.cache_info().currsize
        with override_settings(LANGUAGE_CODE="en"):
            assert not language._translated.cache_info().currsize


def _reference_env() -> jinja2.Environment:
    """The environment with jinja2.ext's own new-style gettext wrappers."""
    env = jinja_env.environment(loader=jinja2.DictLoader({}))
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    return env


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
@pytest.mark.parametrize(
    "source",
    [
        "{{ _('托管') }}|{{ _('托管') }}",
        "<b title=\"{{ _('快捷键') }}\">{{ _('过') }}</b>",
        "{% trans n='<i>' %}余{{ n }}{% endtrans %}",
        "{% trans n=3 %}我的手牌 {{ n }} 张{% pluralize %}我的手牌 {{ n }} 张"
        "{% endtrans %}",
        "{{ _('100%% sure') }}",
    ],
)
def test_remembered_gettext_renders_as_jinja2s_own(lang, source):
    fast = jinja_env.environment(loader=jinja2.DictLoader({}))
    with translation.override(lang):
        for _ in range(2):  # the second render comes from the memory
            assert (
                fast.from_string(source).render()
                == _reference_env().from_string(source).render()
            )
    with translation.override("en"):
        out = fast.from_string("{% trans n='<i>' %}余{{ n }}{% endtrans %}").render()
    assert "&lt;i&gt;" in out  # variables are still escaped


def test_macro_globals_render_as_the_imported_macros():
    env = engines["jinja2"].env
    player = {
        "nickname": "东风客",
        "wind": "1z",
        "dealer": True,
        "level": None,
        "is_bot": False,
        "balance": 1234,
        "ready": True,
    }
    meld = {"kind": "pung", "tiles": ["5m", "5m", "5m"]}
    imported = env.from_string(
        '{% from "games/partials/plate.html" import plate %}'
        '{% from "games/partials/meld.html" import meld as m %}'
        "{{ plate(p) }}{{ m(x) }}"
    )
    as_globals = env.from_string("{{ plate(p) }}{{ meld_html(x) }}")
    for lang in ("en", "zh-hans"):
        with translation.override(lang):
            out = as_globals.render(p=player, x=meld)
            assert out == imported.render(p=player, x=meld)
            assert "mj-plate" in out and "1,234" in out


def test_a_remembered_plate_is_keyed_by_values_and_their_types():
    """The plate global remembers a plate per language and player dict:
    values equal in Python but rendered differently (``1``, ``1.0``,
    ``True``) are different keys, and a dict of anything else is rendered
    without being remembered."""
    from mahjong_site.jinja_env import _plate_key

    base = {"nickname": "东风客", "balance": 1, "level_info": {"fraction": 1}}
    keys = {
        _plate_key(dict(base, balance=value)) for value in (1, 1.0, True, "1", None)
    }
    assert len(keys) == 5
    inner = {
        _plate_key(dict(base, level_info={"fraction": value})) for value in (1, 1.0)
    }
    assert len(inner) == 2
    assert _plate_key(dict(base)) == _plate_key(dict(base))
    for odd in ([1], {"x": [1]}, object()):
        with pytest.raises(TypeError):
            _plate_key(dict(base, balance=odd))
    env = engines["jinja2"].env
    imported = env.from_string(
        '{% from "games/partials/plate.html" import plate %}{{ plate(p) }}'
    )
    as_global = env.from_string("{{ plate(p) }}")
    for balance in (1234, 1234.0, True, [1]):
        player = dict(base, wind="1z", dealer=False, level=None, balance=balance)
        for lang in ("en", "zh-hans", "en"):
            with translation.override(lang):
                out = as_global.render(p=player)
                assert out == as_global.render(p=player)
                assert out == imported.render(p=player), (balance, lang)


@pytest.mark.parametrize("last", [None, 0, 2, "1", "x", 9])
def test_pool_filter_is_the_per_tile_loop(last):
    codes = ["1m", "9p", "7z"]
    for lang in ("en", "zh-hans"):
        with translation.override(lang):
            expected = ""
            for i, code in enumerate(codes):
                marked = last is not None and str(last).isdigit() and int(last) == i
                if marked:
                    expected += (
                        '<span class="mj-lastwrap" data-last="1">'
                        + mj_table.tile(code, "is-last")
                        + "</span>"
                    )
                else:
                    expected += mj_table.tile(code)
            assert mj_table.pool(codes, last) == expected
    assert mj_table.pool(None, 0) == ""


def test_asgi_process_freezes_what_it_loaded():
    """Objects loaded at start-up are left out of every later collection."""
    code = (
        "import gc, os, sys; sys.path.insert(0, os.getcwd());"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'mahjong_site.settings';"
        "import mahjong_site.asgi;"
        "print(gc.get_freeze_count())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert int(out.stdout.strip()) > 10_000
    assert gc.isenabled()


def test_cached_ngettext_matches_django_per_language_and_count():
    msgid = ("对手手牌 %(n)s 张", "对手手牌 %(n)s 张")
    for lang in ("en", "zh-hans", "en"):
        with translation.override(lang):
            for n in (0, 1, 2, 13, True):
                got = language.cached_ngettext(*msgid, n)
                assert got == ngettext(*msgid, n)
    with translation.override("en"):
        assert language.cached_ngettext(*msgid, 1) != language.cached_ngettext(
            *msgid, 2
        )


@pytest.mark.parametrize("count", [0, 1, 13, "13", 30, None, "x"])
def test_remembered_backs_are_the_per_tile_run(count):
    try:
        n = max(0, min(int(count), 18))
    except (TypeError, ValueError):
        n = 0
    for lang in ("en", "zh-hans", "en"):
        with translation.override(lang):
            for css in ("", "mj-tile--sm"):
                assert mj_table.backs(count, css) == mj_table.tile("back", css) * n
