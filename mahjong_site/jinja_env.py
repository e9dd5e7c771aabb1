"""The Jinja2 environment of the second template engine (``templates/jinja2/``).

The live table's frame partials (``games/partials/*.html``) are Jinja2
templates: each seat's frame is rendered after every event, and Django's
template language cost several milliseconds per frame.  Jinja2 compiles them
to Python once.  Django selects the engine by where a template is found, so
``render_to_string("games/partials/frame.html", ctx)`` and the report view's
``render(...)`` need no change.

The helpers are the SAME functions as the Django tag libraries (one
implementation): ``games.display`` (registered by ``mj_table``) and
``accounts.templatetags.site_format``.  Translations go through Django's
gettext/ngettext (``jinja2.ext.i18n``, new style), so the msgids are those of
``locale/en/LC_MESSAGES/django.po``: ``{% trans n=x %}…{{ n }}…{% endtrans %}``
gives the msgid ``…%(n)s…``, as Django's ``blocktranslate`` does.
``makemessages`` does not read Jinja2 templates:
``tests/site/test_site_jinja_i18n.py`` checks that every msgid they use is in
django.po and translated.
"""

from __future__ import annotations

import threading
from collections.abc import MutableMapping
from functools import lru_cache
from typing import Any

from cachetools import LRUCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.defaultfilters import truncatechars
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from jinja2 import ChainableUndefined, Environment, pass_context
from markupsafe import Markup

from accounts.data_names import data_name
from accounts.templatetags.site_format import thousands
from games.display import names, settlement, tiles, values
from games.templatetags import rules_site
from mahjong_site.language import cached_gettext, cached_ngettext, current_language


def url(name: str, *args: Any, **kwargs: Any) -> str:
    """``{{ url('games:leave', table.id) }}``: :func:`django.urls.reverse`.

    Raises ``NoReverseMatch`` as Django's ``{% url %}`` tag does.
    """
    return reverse(name, args=args or None, kwargs=kwargs or None)


# Bound: 4,096 (language, autoescape, msgid) triples, about twice the
# fixed template strings of two languages.  Why: a frame makes about fifty
# ``_()`` calls without variables; the remembered result costs about 0.7 µs
# less per call than cached_gettext + ``Markup(…) % {}`` (thread CPU time).
# lru_cache locks its own bookkeeping, so Daphne's sync threads may share it.
@lru_cache(maxsize=4096)
def _rendered(language: str | None, autoescape: bool, message: str) -> Any:
    # ``language`` is the key only: the caller's current language is it
    rv = cached_gettext(message)
    return (Markup(rv) if autoescape else rv) % {}


@receiver(setting_changed)
def _forget_rendered(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _rendered.cache_clear()
        with _PLATES_LOCK:
            _PLATES.clear()


@pass_context
def _newstyle_gettext(__context: Any, __string: str, **variables: Any) -> Any:
    """``_("…")`` and ``{% trans %}`` of the Jinja2 templates (new style).

    The same result as ``jinja2.ext``'s new-style gettext (the translation,
    as ``Markup`` under autoescape, then ``% variables``, so ``%%`` is a
    percent sign), but a call without variables is remembered per
    (language, autoescape, message): a frame makes about fifty such calls.
    """
    autoescape = __context.eval_ctx.autoescape
    if variables:
        rv = cached_gettext(__string)
        return (Markup(rv) if autoescape else rv) % variables
    return _rendered(current_language(), autoescape, __string)


def _escaped_gettext(__string: str, **variables: Any) -> Any:
    """:func:`_newstyle_gettext` for an environment that always autoescapes,
    taking no context: ``_()`` went through Jinja2's ``_gettext_alias``
    (a context lookup of ``gettext`` and a second ``Context.call``), and a
    frame makes about fifty such calls (issue 15)."""
    if variables:
        return Markup(cached_gettext(__string)) % variables
    return _rendered(current_language(), True, __string)


@pass_context
def hand_tile(context: Any, code: Any, drawn: bool = False) -> Any:
    """``{{ hand_tile(t, False) }}``: :func:`games.display.tiles.hand_tile`
    (it reads ``actions``, ``seq`` and ``indicators`` from the template context)."""
    return tiles.hand_tile(context, code, drawn)


def _macro(env: Environment, template: str, name: str) -> Any:
    """A global that calls macro ``name`` of ``template``.

    The partials call ``plate``, ``meld_html`` and ``settle_hand`` as globals
    instead of ``{% from … import … %}``: Jinja2 runs an import on every
    render, and its check for new globals (a set difference over the
    environment's globals) cost about 6 % of a frame.  The macros take no
    context (as with a plain import); the template is looked up per call, so
    auto-reload still sees edits.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(env.get_template(template).module, name)(*args, **kwargs)

    call.__name__ = name
    return call


# Bound: 1,024 plates (per language and player dict; two per table while
# its players' plates do not change).  Why: a plate was about a seventh of a
# frame's template time, and a remembered one costs about a tenth of a render
# (thread CPU time, 5 µs against 43 µs).  A lock: Daphne renders frames from
# several sync threads, and cachetools' caches are not thread-safe.
_PLATES: LRUCache[tuple[str | None, str], Any] = LRUCache(maxsize=1024)
_PLATES_LOCK = threading.Lock()


_KEYED = (str, int, float, bool, type(None))


def _plate_key(p: dict[str, Any]) -> Any:
    """A player dict as a hashable key that tells values of other types
    apart (``1``, ``1.0`` and ``True`` render differently): each item with
    its value's type; a nested dict (``level_info``) likewise, one level
    deep.  Several times cheaper than ``json.dumps(p, sort_keys=True)``.

    Raises:
        TypeError: a value that is not a plain scalar or such a dict.
    """
    items = []
    for k, v in p.items():
        kind = type(v)
        if kind is dict:
            inner = []
            for ik, iv in v.items():
                if type(iv) not in _KEYED:
                    raise TypeError(type(iv).__name__)
                inner.append((ik, type(iv), iv))
            items.append((k, dict, tuple(inner)))
        elif kind in _KEYED:
            items.append((k, kind, v))
        else:
            raise TypeError(kind.__name__)
    return tuple(items)


def _remembered_plate(call: Any) -> Any:
    """``plate(p)`` remembered per (language, ``p``).

    A name plate depends on nothing but its player dict (games.presenters.
    players.player: plain values) and the language; each frame shows two
    and they rarely change between moves.  Anything that is not a plain
    dict is rendered as before.
    """

    def plate(p: Any) -> Any:
        if type(p) is not dict:
            return call(p)
        try:
            key = (current_language(), _plate_key(p))
        except (TypeError, ValueError):  # not plain values
            return call(p)
        with _PLATES_LOCK:
            html = _PLATES.get(key)
        if html is None:
            html = call(p)
            with _PLATES_LOCK:
                _PLATES[key] = html
        return html

    plate.__name__ = "plate"
    return plate


class FrameEnvironment(Environment):
    """The environment, with each template's globals one plain dict.

    Every ``Template.render`` merges the template's globals into a new
    context; Jinja2 keeps them as a ``ChainMap`` over the environment's
    globals, whose keys it reads one by one in Python (a frame is sixteen
    renders: about a tenth of its time; issue 15).  A dict is merged in C.
    The price is the one Jinja2 already asks: globals are set before a
    template is loaded (:func:`environment` sets them all), later changes
    to :attr:`globals` do not reach templates already loaded.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> dict[str, Any]:
        return {**self.globals, **(d or {})}


def environment(**options: Any) -> Environment:
    """Build the environment Django's ``Jinja2`` backend uses (OPTIONS
    ``environment``): autoescape on, the i18n extension with Django's
    translations, undefined values that behave like Django's missing variables
    (empty, falsy, chainable: ``a.b.c`` of a missing ``a`` is empty)."""
    options["undefined"] = ChainableUndefined
    options.setdefault("autoescape", True)
    extensions = list(options.pop("extensions", ()))
    if "jinja2.ext.i18n" not in extensions:
        extensions.append("jinja2.ext.i18n")
    env = FrameEnvironment(extensions=extensions, **options)
    # ngettext (and the i18n extension's set-up) from jinja2.ext, over
    # Django's answers remembered; gettext is its new-style wrapper made
    # again with the result remembered
    env.install_gettext_callables(cached_gettext, cached_ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["gettext"] = _newstyle_gettext
    if env.autoescape is True:  # (not a per-template choice)
        env.globals["gettext"] = env.globals["_"] = _escaped_gettext
    from games.presenters.render import FRAME_PARTS, fixed_part, fragment

    env.globals.update(
        frame_parts=FRAME_PARTS,
        fragment=fragment,
        fixed_part=fixed_part,
        url=url,
        static=static,
        get_language=get_language,
        tile=tiles.tile,
        tiles=tiles.tiles,
        backs=tiles.backs,
        shown_tiles=tiles.shown_tiles,
        hand_tile=hand_tile,
        claim_text=names.claim_text,
        choice_text=names.choice_text,
        plate=_remembered_plate(_macro(env, "games/partials/plate.html", "plate")),
        meld_html=_macro(env, "games/partials/meld.html", "meld"),
        settle_hand=_macro(env, "games/partials/settle_hand.html", "settle_hand"),
        bilingual=rules_site.bilingual,
    )
    env.filters.update(
        tile_name=tiles.tile_name_filter,
        waits_attr=tiles.waits_attr,
        pool=tiles.pool,
        marked_pool=tiles.marked_pool,
        get_item=values.get_item,
        line_value=settlement.line_value,
        fan_name=names.fan_name,
        signed=values.signed,
        ms_until=values.ms_until,
        ruleset_name=names.ruleset_name,
        settle_lines=settlement.settle_lines,
        bot_name=names.bot_name_filter,
        thousands=thousands,
        data_name=data_name,
        seat_wind=names.seat_wind,
        truncatechars=truncatechars,
        name_of=rules_site.name_of,
        other_name=rules_site.other_name,
        by_name=rules_site.by_name,
        listing=rules_site.listing,
    )
    return env
