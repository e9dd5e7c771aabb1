"""Template helpers for the live table: tile images, clocks and waits.

Tiles are always our SVG artwork as ``<img>`` with the tile's name as alt text
(Chinese, or English when the page is in English); never text glyphs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.engine.view import tile_mark
from games.rules.errors import NotationError
from games.rules.tiles import Tile
from mahjong_site.language import cached_gettext, current_language

register = template.Library()

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


@register.filter(name="tile_name")
def tile_name_filter(code: Any) -> str:
    """``{{ "5m"|tile_name }}`` → ``五万``."""
    return tile_name(str(code or ""))


@register.simple_tag
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


@register.simple_tag
def tiles(codes: Iterable[Any] | None, css: str = "") -> SafeString:
    """Render a run of tiles (a meld, a pool): ``{% tiles meld.tiles %}``."""
    return format_html_join("", "{}", ((tile(c, css),) for c in (codes or ())))


@register.filter
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


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``{{ d|get_item:k }}``: a dict (or list index) lookup with a variable key.

    Returns None when the key is absent.
    """
    if isinstance(mapping, Mapping):
        return mapping.get(key)
    if isinstance(mapping, (list, tuple)):
        try:
            return mapping[int(key)]
        except (TypeError, ValueError, IndexError):
            return None
    return None


@register.simple_tag
def backs(count: Any, css: str = "") -> SafeString:
    """Render ``count`` face-down tiles (the opponent's concealed hand)."""
    try:
        n = max(0, min(int(count), 18))
    except (TypeError, ValueError):
        n = 0
    return format_html_join("", "{}", ((tile(_HIDDEN, css),) for _ in range(n)))


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


@register.filter
def line_value(lines: Any, key: str) -> Any:
    """The ``value`` of the settlement line with ``key`` (None if absent)."""
    for line in lines or ():
        if isinstance(line, Mapping) and line.get("key") == key:
            return line.get("value")
    return None


@register.filter
def fan_name(fan_id: Any, ruleset: str = "") -> str:
    """Name of fan ``fan_id`` in ``ruleset`` (Chinese, or English; else the id)."""
    from games.rules.rulesets import get as get_ruleset

    if not fan_id:
        return ""
    try:
        fan = get_ruleset(ruleset or "erren").fan(str(fan_id))
    except (KeyError, ValueError):
        return str(fan_id)
    lang = (current_language() or "zh-hans").lower()
    en = getattr(fan, "en", None)
    return str(en) if lang.startswith("en") and en else str(getattr(fan, "zh", fan_id))


@register.filter
def signed(value: Any) -> str:
    """``5`` → ``+5``, ``-3`` → ``−3``, ``0`` → ``0`` (for balance changes)."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    if n > 0:
        return f"+{n:,}"
    if n < 0:
        return f"−{-n:,}"
    return "0"


@register.filter
def ms_until(deadline: Any, now: Any) -> int:
    """Milliseconds from ``now`` to ``deadline`` (both epoch ms), at least 1."""
    try:
        return max(1, int(deadline) - int(now))
    except (TypeError, ValueError):
        return 1


@register.filter
def ruleset_name(name: Any) -> str:
    """Display name of rule set ``name`` (``erren`` → ``二人麻将``)."""
    from games.rules.rulesets import get as get_ruleset

    try:
        rs = get_ruleset(str(name))
    except (KeyError, ValueError):
        return str(name)
    lang = (current_language() or "zh-hans").lower()
    en = getattr(rs, "en", None)
    return str(en) if lang.startswith("en") and en else str(getattr(rs, "zh", name))


@register.filter
def ruleset_tagline(name: Any) -> str:
    """One line describing rule set ``name`` (games.rulesite.texts.tagline)."""
    from games.rules.rulesets import get as get_ruleset
    from games.rulesite.texts import tagline

    try:
        return tagline(get_ruleset(str(name)))
    except KeyError:
        return ""


CLAIM_WORDS = {
    "hu": pgettext_lazy("claim", "和"),
    "rob": pgettext_lazy("claim", "抢杠和"),
    "kong": pgettext_lazy("claim", "杠"),
    "pung": pgettext_lazy("claim", "碰"),
    "chi": pgettext_lazy("claim", "吃"),
}
"""A claim's word in the claim prompt (``可以碰``), in the prompt's order."""


def claim_text(actions: Any, phase: Any = None) -> str:
    """The claim prompt naming exactly the claims offered (issue 11 §4).

    ``actions`` is the frame's ``actions`` (games.presenters); ``phase``
    ``claim`` or ``rob``.  Returns e.g. ``可以碰`` when only 碰 is offered,
    ``可以吃、碰`` for both, ``可以抢杠和`` in a rob window; ``""`` when
    nothing but 过 is offered.
    """
    if not isinstance(actions, Mapping):
        return ""
    words = []
    if actions.get("hu"):
        words.append(CLAIM_WORDS["rob" if phase == "rob" else "hu"])
    for key in ("kong", "pung", "chi"):
        if actions.get(key):
            words.append(CLAIM_WORDS[key])
    if not words:
        return ""
    sep = pgettext("claim list separator", "、")
    return _("可以%(claims)s") % {"claims": sep.join(str(w) for w in words)}


SEAT_WINDS = {
    "1z": (gettext_lazy("东位"), gettext_lazy("东")),
    "2z": (gettext_lazy("南位"), gettext_lazy("南")),
    "3z": (gettext_lazy("西位"), gettext_lazy("西")),
    "4z": (gettext_lazy("北位"), gettext_lazy("北")),
}
"""Seat wind code → (its seat's name, the one-character mark on the avatar):
``东位``/``East seat`` and ``东``/``E``."""


@register.filter
def seat_wind(code: Any, short: Any = False) -> str:
    """The seat named by its wind: ``"1z"`` → ``东位`` (``East seat``), or with
    ``short`` true ``东`` (``E``).  An unknown code gives ``""``."""
    names = SEAT_WINDS.get(str(code or ""))
    if names is None:
        return ""
    return str(names[1] if short else names[0])


# Settlement lines not listed under the fan table: the fan totals are in the table
# itself, the coin and skill results in the deltas below it.
_LINES_HIDDEN = frozenset(
    {"base_fan", "base", "fan", "winner_gain", "loser_loss", "skill", "kongs", "draw"}
)
# Coin amounts: left out at practice (人机练习) tables, which pay nothing.
_LINES_COINS = frozenset({"coins_raw", "cap", "rake"})


def _is_factor(key: str) -> bool:
    return key in ("multiplier", "self_drawn", "ready_win") or key.startswith(
        ("open_hand", "deal_double")
    )


@register.filter
def settle_lines(lines: Any, practice: Any = False) -> list[dict[str, Any]]:
    """The settlement lines to list under the fan table, ready to show.

    ``lines`` are the presenter's ``settlement.lines`` ({key, zh, en, value, note});
    returns [{key, label, value (text: "×2" for factors, "1,700" for amounts),
    note}] in order. Totals shown elsewhere are left out, a zero rake too, and
    at practice tables every coin amount (游戏币, 封顶, 系统回收).
    """
    english = (current_language() or "zh-hans").lower().startswith("en")
    shown: list[dict[str, Any]] = []
    for line in lines or ():
        if not isinstance(line, Mapping):
            continue
        key = str(line.get("key", ""))
        value = line.get("value")
        if key in _LINES_HIDDEN:
            continue
        if key in _LINES_COINS and (practice or (key == "rake" and not value)):
            continue
        label = line.get("en") if english and line.get("en") else line.get("zh")
        if _is_factor(key):
            text = f"×{value}"
        else:
            try:
                text = f"{int(value):,}"
            except (TypeError, ValueError):
                text = str(value)
        shown.append(
            {"key": key, "label": label, "value": text, "note": settle_note(line)}
        )
    return shown


SETTLE_NOTES = {
    "draw_no_score": gettext_lazy("流局不计输赢"),
    "seat_0": gettext_lazy("座位0"),
    "seat_1": gettext_lazy("座位1"),
    "self_drawn_not_doubled": gettext_lazy("自摸不加倍"),
    # a seat note said from the viewer's side (games.presenters._seat_notes)
    "mine": gettext_lazy("你"),
    "theirs": gettext_lazy("对手"),
}
"""``note_code`` of a settlement line (``games.engine.settle.NOTE_CODES``) → its
words in the interface."""

# Settlements stored before lines had a note_code carried the Chinese words.
_LEGACY_NOTES = {
    "流局不计输赢": "draw_no_score",
    "座位0": "seat_0",
    "座位1": "seat_1",
    "自摸不加倍": "self_drawn_not_doubled",
}


def settle_note(line: Mapping[str, Any]) -> str:
    """The note shown after a settlement line, in the active language.

    A ``note_code`` is translated (:data:`SETTLE_NOTES`); otherwise the
    language-neutral ``note`` (``"17×10×1"``, ``"5%"``) is shown as it is,
    except the worded notes of older stored settlements, which are
    translated too.  An unknown code gives ``""``.
    """
    code = str(line.get("note_code") or "")
    note = str(line.get("note") or "")
    if not code and note in _LEGACY_NOTES:
        code = _LEGACY_NOTES[note]
    if code:
        text = SETTLE_NOTES.get(code)
        return str(text) if text is not None else ""
    return note


BOT_LEVEL_LABELS = {
    "easy": gettext_lazy("简单"),
    "normal": gettext_lazy("普通"),
    "hard": gettext_lazy("困难"),
}
"""Bot level (keys of ``games.engine.bots.LEVELS``) → the name the lobby offers."""


def bot_name(level: str | None) -> str:
    """The computer opponent's display name: ``电脑（普通）`` (``Computer (Normal)``).

    One name everywhere (table plate, records, lobby); an unknown or empty
    level gives plain ``电脑``.
    """
    label = BOT_LEVEL_LABELS.get(level or "")
    if label is None:
        return str(_("电脑"))
    return _("电脑（%(level)s）") % {"level": label}


@register.filter(name="bot_name")
def bot_name_filter(level: Any) -> str:
    """Template form of :func:`bot_name`."""
    return bot_name(str(level) if level else None)


@register.simple_tag(takes_context=True)
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
        img, esc, drawn_cls, drawn_attr, drawn_note = _hand_tile_parts(
            code, bool(drawn), lang
        )
        mark_cls, mark_attr, mark_note = _mark_parts(mark, indicators.get("wild"))
        ting_cls = " is-ting" if waits else ""
        ting_note = f" ({cached_gettext('打出后听牌')})" if waits else ""
        seq = conditional_escape(context.get("seq", ""))
        label = cached_gettext("打出%(t)s") % {"t": conditional_escape(tile_name(code))}
        return SafeString(
            f'<form class="mj-hand-form" ws-send hx-vals=\'{{"action": "discard", '
            f'"seq": {seq}, "tile": "{esc}"}}\'><button type="submit" '
            f'class="mj-htile{drawn_cls}{ting_cls}{mark_cls}" data-tile="{esc}"'
            f"{drawn_attr}{mark_attr} "
            f'data-waits="{conditional_escape(waits_attr(waits))}" tabindex="-1" '
            f'aria-label="{label}{mark_note}{drawn_note}{ting_note}">{img}'
            "</button></form>\n"
        )
    return _still_tile(code, bool(drawn), mark, indicators.get("wild"), lang)


_MARK_WORDS = {
    "wild": (pgettext_lazy("tile mark", "财"), gettext_lazy("财神")),
    "standin": (pgettext_lazy("tile mark", "代"), gettext_lazy("代替%(t)s")),
    "bonus": (pgettext_lazy("tile mark", "番"), gettext_lazy("加番牌")),
}
"""A mark's corner badge (one character) and its spoken note."""


def _mark_parts(mark: str, wild: Any) -> tuple[str, str, str]:
    """(class, data-mark attribute, aria note) of a hand tile's mark."""
    if not mark:
        return "", "", ""
    badge, note = _MARK_WORDS[mark]
    text = str(note)
    if mark == "standin":
        text = text % {"t": tile_name(str(wild))}
    return (
        f" is-{mark}",
        f' data-mark="{conditional_escape(str(badge))}"',
        f" ({conditional_escape(text)})",
    )


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


@register.simple_tag(takes_context=True)
def jinja_include(context: Any, name: str) -> SafeString:
    """Insert a Jinja2 partial into a Django page.

    Usage: ``{% jinja_include "games/partials/status.html" %}``.

    The frame partials are Jinja2 templates (``templates/jinja2/``, the engine
    named ``jinja2``), rendered after every event by games.presenters; the
    table page's first paint inserts the same partials with the page's
    context, so each partial exists once.  Raises ``TemplateDoesNotExist``
    for an unknown name.
    """
    from django.template import engines

    template = engines["jinja2"].get_template(name)
    return SafeString(template.render(context.flatten()))
