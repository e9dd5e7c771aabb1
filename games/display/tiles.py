"""Tiles as HTML: our SVG artwork as ``<img>`` with the tile's name as alt
text (Chinese, or English when the page is in English), never text glyphs;
runs, pools, face-down tiles and the own hand's tile buttons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.templatetags.static import static
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine.view import tile_mark
from games.rules.errors import NotationError
from games.rules.tiles import Tile
from mahjong_site.language import cached_gettext, current_language

from .values import get_item

_HIDDEN = "back"


def tile_name(code: str) -> str:
    """Return the display name of tile ``code`` (``"5m"`` → ``五万``/``5 Characters``).

    ``"back"`` (a face-down tile) gives ``暗牌``.  Unknown notation gives the code
    itself, so a bad value never breaks a page.
    """
    if code == _HIDDEN or not code:
        return _("暗牌")
    try:
        tile = Tile.parse(code)
    except NotationError:
        return code
    lang = (current_language() or "zh-hans").lower()
    return tile.en if lang.startswith("en") else tile.zh


def tile_name_filter(code: Any) -> str:
    """``{{ "5m"|tile_name }}`` → ``五万``."""
    return tile_name(str(code or ""))


def tile(code: Any, css: str = "", alt: str | None = None) -> SafeString:
    """Render one tile image: ``{% tile "5m" "mj-tile--sm" %}``.

    ``code`` is tile notation or ``"back"`` (also for ``None``: a hidden tile).
    Hooks such as ``data-tile`` belong on the element around the image.
    Rendered images are memoised per language: a frame holds ~80 tiles and is
    rendered for each seat after every event.
    """
    code = str(code) if code else _HIDDEN
    return _tile_html(code, css, alt, current_language() or "")


@lru_cache(maxsize=4096)
def _tile_html(code: str, css: str, alt: str | None, lang: str) -> SafeString:
    name = tile_name(code) if alt is None else alt
    classes = f"mj-tile {css}".strip()
    return format_html(
        '<img class="{}" src="{}" alt="{}" width="60" height="80" draggable="false">',
        classes,
        static(f"tiles/{code}.svg"),
        name,
    )


def tiles(codes: Iterable[Any] | None, css: str = "") -> SafeString:
    """Render a run of tiles (a meld, a pool): ``{% tiles meld.tiles %}``.

    The tiles' HTML joined (each :func:`tile` is already safe HTML:
    ``format_html_join`` escaped nothing and cost ~1 µs a tile).
    """
    return SafeString("".join([tile(c, css) for c in (codes or ())]))


def backs(count: Any, css: str = "") -> SafeString:
    """Render ``count`` face-down tiles (the opponent's concealed hand)."""
    try:
        n = max(0, min(int(count), 18))
    except (TypeError, ValueError):
        n = 0
    return _backs_html(n, css, current_language() or "")


# Bound: 1,024 (count 0-18, css, language) triples; the table asks for two
# or three.  Why: the opponent's hand is face down in every frame.
@lru_cache(maxsize=1024)
def _backs_html(n: int, css: str, lang: str) -> SafeString:
    # ``lang`` is the key only: tile() reads the caller's current language
    return SafeString(tile(_HIDDEN, css) * n)


def pool(codes: Iterable[Any] | None, last: Any = None) -> SafeString:
    """A discard pool: ``{{ me.discards|pool(index) }}``.

    Each tile as :func:`tile`; the tile at index ``last`` (the last discard,
    or None) marked ``is-last`` inside ``<span class="mj-lastwrap"
    data-last="1">``.  One call per pool instead of one template call per
    tile: the pools are most of a frame's tiles.
    """
    try:
        mark = int(last) if last is not None else -1
    except (TypeError, ValueError):
        mark = -1
    return SafeString(
        "".join(
            f'<span class="mj-lastwrap" data-last="1">{tile(c, "is-last")}</span>'
            if i == mark
            else tile(c)
            for i, c in enumerate(codes or ())
        )
    )


def marked_pool(discards: Iterable[Any] | None, last: Any = None) -> SafeString:
    """A replay's discard pool: ``{{ me.discards|marked_pool(me.last) }}``.

    ``discards`` are the replay board's ``Discard(tile, drawn, ready, auto)``
    (games.replay.board; mappings with those keys too): each tile as
    :func:`tile`, marked ``is-drawn`` (摸切: the tile just drawn) or
    ``is-hand`` (手切), ``is-ready`` (the
    报听 discard, turned) and, at index ``last``, ``is-last`` inside the same
    ``mj-lastwrap`` as the table's :func:`pool`.  The marks are also words
    (a title and hidden text), not only a colour.
    """
    try:
        mark = int(last) if last is not None else -1
    except (TypeError, ValueError):
        mark = -1
    parts = []
    drawn_word = cached_gettext("摸切")
    hand_word = cached_gettext("手切")
    ready_word = cached_gettext("报听")
    for i, d in enumerate(discards or ()):
        if isinstance(d, Mapping):
            code, drawn, ready = d.get("tile"), d.get("drawn"), d.get("ready")
        else:  # games.replay.board.Discard
            code, drawn, ready = d.tile, d.drawn, d.ready
        code = str(code or "")
        words = [tile_name(code), drawn_word if drawn else hand_word]
        classes = ["rp-d", "is-drawn" if drawn else "is-hand"]
        if ready:
            classes.append("is-ready")
            words.append(ready_word)
        img = tile(code, "is-last" if i == mark else "", alt=" · ".join(words))
        span = format_html(
            '<span class="{}" data-tile="{}" title="{}">{}</span>',
            " ".join(classes),
            code,
            " · ".join(words),
            img,
        )
        if i == mark:
            span = format_html(
                '<span class="mj-lastwrap" data-last="1">{}</span>', span
            )
        parts.append(span)
    return SafeString("".join(parts))


def hand_tile(context: Any, code: Any, drawn: bool = False) -> SafeString:
    """One tile of the own hand: ``{% hand_tile t False %}``.

    The same markup the former per-tile include rendered (a discard form when
    the tile may be discarded, else a disabled button), built in Python: the
    hand is rendered for each seat after every event and the include's ~25
    template nodes per tile were most of a frame's cost.  Reads ``actions``,
    ``seq`` and ``indicators`` from the context.  Ends with a newline, as the
    include's file did (the frame stays byte-identical).
    """
    code = "" if code is None else str(code)
    actions = context.get("actions") or {}
    lang = current_language() or ""
    indicators = context.get("indicators") or {}
    if not isinstance(indicators, Mapping):
        indicators = {}
    mark = tile_mark(code, indicators.get("wild"), indicators.get("bonus_tile"))
    if actions.get("discard") and code in (actions.get("discard_tiles") or ()):
        waits = get_item(actions.get("discard_waits"), code)
        seq = conditional_escape(context.get("seq", ""))
        head, tail = _discard_tile(
            code,
            bool(drawn),
            mark,
            indicators.get("wild"),
            lang,
            waits_attr(waits),
            bool(waits),
        )
        return SafeString(f"{head}{seq}{tail}")
    return _still_tile(code, bool(drawn), mark, indicators.get("wild"), lang)


_MARK_WORDS = {
    "wild": (pgettext_lazy("tile mark", "财"), gettext_lazy("财神")),
    "standin": (pgettext_lazy("tile mark", "代"), gettext_lazy("代替%(t)s")),
    "bonus": (pgettext_lazy("tile mark", "番"), gettext_lazy("加番牌")),
}
"""A mark's corner badge (one character) and its spoken note."""


def _mark_words(mark: str, wild: Any) -> tuple[str, str]:
    """(corner badge, spoken note) of a tile's mark, unescaped."""
    badge, note = _MARK_WORDS[mark]
    text = str(note)
    if mark == "standin":
        text = text % {"t": tile_name(str(wild))}
    return str(badge), text


def _mark_parts(mark: str, wild: Any) -> tuple[str, str, str]:
    """(class, data-mark attribute, aria note) of a hand tile's mark."""
    if not mark:
        return "", "", ""
    badge, text = _mark_words(mark, wild)
    return (
        f" is-{mark}",
        f' data-mark="{conditional_escape(badge)}"',
        f" ({conditional_escape(text)})",
    )


def shown_tiles(
    codes: Iterable[Any] | None, wild: Any = None, bonus: Any = None
) -> SafeString:
    """A hand laid open (the settlement's hands): ``{{ shown_tiles(t, wild, bonus) }}``.

    Each tile as :func:`tile`; a tile the live hand marks 财/代
    (:func:`games.engine.view.tile_mark`: the 财神 kind, 白板 standing in for
    it) wrapped in ``<span class="mj-tmark is-wild|is-standin" data-mark>``
    with the live hand's badge, its note in the title and the image's alt.
    The 加番牌 keeps the settlement's ring (``is-bonus`` on the image).
    Without a marked tile the run is :func:`tiles`'s, byte for byte.
    """
    parts = []
    for c in codes or ():
        code = str(c) if c else _HIDDEN
        mark = tile_mark(code, wild, bonus)
        if mark == "bonus":
            parts.append(tile(code, "is-bonus"))
        elif mark:
            badge, text = _mark_words(mark, wild)
            img = tile(code, alt=f"{tile_name(code)} ({text})")
            parts.append(
                format_html(
                    '<span class="mj-tmark is-{}" data-tile="{}" data-mark="{}" '
                    'title="{}">{}</span>',
                    mark,
                    code,
                    badge,
                    text,
                    img,
                )
            )
        else:
            parts.append(tile(code))
    return SafeString("".join(parts))


def _hand_tile_parts(code: str, drawn: bool, lang: str) -> tuple[str, ...]:
    """(image, escaped code, drawn class, drawn attribute, drawn note) of a
    hand tile, shared by both kinds of :func:`hand_tile`."""
    return (
        _tile_html(code or _HIDDEN, "", "", lang),
        conditional_escape(code),
        " is-drawn" if drawn else "",
        ' data-drawn="1"' if drawn else "",
        f" ({cached_gettext('刚摸到')})" if drawn else "",
    )


# Bound: 4,096 (tile, drawn, mark, 财神, language, waits) keys: 34 kinds
# of tile, each with the few wait sets a hand leaves it.  Why: the seat to
# discard renders a form per tile on every frame, and only the seq in it
# changes from move to move; remembered, a tile costs ~1 µs instead of ~7
# (thread CPU).  lru_cache locks its own bookkeeping (Daphne's sync threads).
@lru_cache(maxsize=4096)
def _discard_tile(
    code: str,
    drawn: bool,
    mark: str,
    wild: str | None,
    lang: str,
    waits: str,
    ting: bool,
) -> tuple[str, str]:
    """A hand tile that may be discarded now, as the HTML before and after
    its seq (``waits``: :func:`waits_attr` of its waits; ``ting``: it
    leaves the hand waiting); ``lang`` keys the translations."""
    img, esc, drawn_cls, drawn_attr, drawn_note = _hand_tile_parts(code, drawn, lang)
    mark_cls, mark_attr, mark_note = _mark_parts(mark, wild)
    ting_cls = " is-ting" if ting else ""
    ting_note = f" ({cached_gettext('打出后听牌')})" if ting else ""
    label = cached_gettext("打出%(t)s") % {"t": conditional_escape(tile_name(code))}
    head = '<form class="mj-hand-form" ws-send hx-vals=\'{"action": "discard", "seq": '
    tail = (
        f'"tile": "{esc}"}}\'><button type="submit" '
        f'class="mj-htile{drawn_cls}{ting_cls}{mark_cls}" data-tile="{esc}"'
        f"{drawn_attr}{mark_attr} "
        f'data-waits="{conditional_escape(waits)}" tabindex="-1" '
        f'aria-label="{label}{mark_note}{drawn_note}{ting_note}">{img}'
        "</button></form>\n"
    )
    return head, ", " + tail


@lru_cache(maxsize=1024)
def _still_tile(
    code: str, drawn: bool, mark: str, wild: str | None, lang: str
) -> SafeString:
    """A hand tile that cannot be discarded now (memoised: most of a hand,
    most of the time)."""
    img, esc, drawn_cls, drawn_attr, drawn_note = _hand_tile_parts(code, drawn, lang)
    mark_cls, mark_attr, mark_note = _mark_parts(mark, wild)
    return SafeString(
        f'<button type="button" class="mj-htile{drawn_cls}{mark_cls}" '
        f'data-tile="{esc}"{drawn_attr}{mark_attr} tabindex="-1" '
        f'aria-disabled="true" aria-label="{conditional_escape(tile_name(code))}'
        f'{mark_note}{drawn_note}">{img}</button>\n'
    )


def waits_attr(waits: Any) -> str:
    """Encode waits for ``data-waits``: ``[{"tile": "3m", "left": 2}]`` → ``3m:2``.

    Also accepts a mapping ``{"3m": 2}`` or a plain list of tile codes.
    """
    if not waits:
        return ""
    if isinstance(waits, Mapping):
        items = list(waits.items())
    else:
        items = []
        for w in waits:
            if isinstance(w, Mapping):
                code = w.get("tile")
                left = w.get("left", w.get("unseen", w.get("count", "")))
                items.append((code, left))
            elif isinstance(w, (list, tuple)) and len(w) == 2:
                items.append((w[0], w[1]))
            else:
                items.append((w, ""))
    return " ".join(f"{c}:{n}" if n != "" else str(c) for c, n in items)
