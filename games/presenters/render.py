"""Rendering a seat's frame: its fragments, what changed since the last one
sent, and refusals.

A frame is the list of :data:`FRAME_PARTS`: each a Jinja2 partial
(``templates/jinja2/games/partials/<name>.html``) that renders one element
with an ``id`` and ``hx-swap-oob``, so htmx swaps each in place.  Some hold
smaller fragments (:data:`SUBPARTS`, each one element with an ``id``, put in
by the template global :func:`fragment`), which a partial frame may send
alone.  The whole frame goes to a browser that holds nothing yet (connect,
``sync``, a browser whose seq is not the one last sent); otherwise
:meth:`Frame.changes` sends only the fragments that changed since those last
sent on that socket.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from cachetools import LRUCache
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils.html import escape
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.engine.hand import Hand
from games.models import Table
from mahjong_site.language import current_language, pinned_language

from .context import FrameBasis, seat_context

FRAME_TEMPLATE = "games/partials/frame.html"

FRAME_PARTS = (
    "status",
    "opponent",
    "center",
    "me",
    "actions",
    "hand",
    "settlement",
    "toast",
    "roomline",
    "commitline",
)
"""The frame's fragments in page order (``frame.html`` includes the same
list, as the Jinja2 global ``frame_parts``)."""

SUBPARTS: dict[str, tuple[str, ...]] = {
    "center": ("pool_opp", "center_info", "pool_me"),
    "hand": ("hand_tiles", "hand_hint", "hand_note"),
}
"""Fragments inside a part, sent alone when the rest of the part is unchanged
(the htmx ws extension swaps every top-level element of a message by its id,
``hx-swap-oob`` or not)."""

ALWAYS_SENT = ("status", "toast")
"""Fragments every partial frame carries: ``status`` holds the seq, the
render time and the live region's words; ``toast`` clears a refusal shown
since, as every frame always did."""

RENDER_TIME = re.compile(r' data-now="\d+"')
"""The render time (``status``), left out when asking whether anything changed."""


def part_template(name: str) -> str:
    """The Jinja2 template of fragment ``name`` (:data:`FRAME_PARTS`,
    :data:`SUBPARTS`)."""
    return f"games/partials/{name}.html"


PART_INPUTS: dict[str, tuple[str, ...]] = {
    "roomline": ("table", "match", "settlement"),
    "commitline": ("table",),
    "toast": ("toast",),
    "hand_hint": ("tenpai",),
    "hand_keys": ("systems",),
}
"""Fragments rendered once per language and value of the context keys they
read (every variable of their template: tests/games/test_games_frame_jinja.py
checks it); the others change with nearly every move (``seq``, ``now``, the
turn, the last discard) or read the whole context.  ``hand_keys`` (the
keyboard hint, fourteen translations) is a piece of ``hand`` put in by
:func:`fixed_part`, not a fragment sent alone."""

# Bound: 4,096 fragments (language, name and inputs) and shells
# (SHELL_INPUTS: two per language and rule set's systems); a table's room
# line, seed commitment and tenpai hint stay the same for most of a hand, so
# a live table keeps a few entries.  Why: they change about once a hand, and
# remembered the room line costs 8 µs instead of 32, the commitment 6
# instead of 26, the toast 1 instead of 7 (thread CPU, of a ~0.8 ms frame).
# A lock: Daphne renders frames from several sync threads, and
# cachetools' caches are not thread-safe.
_PARTS: LRUCache[tuple[Any, ...], str] = LRUCache(maxsize=4096)
_PARTS_LOCK = threading.Lock()

_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Any:
    """``value`` (plain dicts, lists and scalars) as a hashable key.

    Types must match exactly: ``Markup`` and ``str`` of the same text, or
    ``1`` and ``True``, render differently.

    Raises:
        TypeError: anything else (a lazy translation, a model, a Decimal).
    """
    kind = type(value)
    if kind in _PLAIN:
        return (kind, value)
    if kind is dict:
        return (dict, tuple((k, _frozen(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return (kind, tuple(_frozen(v) for v in value))
    raise TypeError(kind.__name__)


def part_html(env: Any, name: str, ctx: Mapping[str, Any]) -> str:
    """Fragment ``name`` rendered by the Jinja2 environment ``env`` with
    ``ctx``; remembered for the names of :data:`PART_INPUTS` per language
    and values of their inputs, rendered every time when an input is not
    plain values (:func:`_frozen`)."""
    inputs = PART_INPUTS.get(name)
    if inputs is None:
        return env.get_template(part_template(name)).render(ctx)
    try:
        key = (name, current_language(), tuple(_frozen(ctx.get(k)) for k in inputs))
    except TypeError:
        return env.get_template(part_template(name)).render(ctx)
    with _PARTS_LOCK:
        html = _PARTS.get(key)
    if html is None:
        html = env.get_template(part_template(name)).render(ctx)
        with _PARTS_LOCK:
            _PARTS[key] = html
    return html


def clear_part_cache() -> None:
    """Forget the remembered fragments (tests; after a template change)."""
    with _PARTS_LOCK:
        _PARTS.clear()


FRAGMENTS_KEY = "rendered_fragments"
"""Context key that, holding :data:`MARKERS`, has :func:`fragment` put a
marker in place of each subpart instead of rendering it (a part's shell)."""

MARKERS = object()
"""See :data:`FRAGMENTS_KEY`."""


def _marker(name: str) -> str:
    """What stands for subpart ``name`` in its part's shell."""
    return f"\x00{name}\x00"


def _filled(shell: str, parts: Mapping[str, str], subs: tuple[str, ...]) -> str:
    """``shell`` with the HTML of each of ``subs`` (in ``parts``) in place of
    its marker (:func:`_marker`)."""
    pieces = shell.split("\x00")
    if pieces[1::2] == list(subs):  # one split and one join
        pieces[1::2] = [parts[sub] for sub in subs]
        return "".join(pieces)
    for sub in subs:
        shell = shell.replace(_marker(sub), parts[sub], 1)
    return shell


@pass_context
def fragment(context: Context, name: str) -> Markup:
    """Template global: ``{{ fragment("pool_me") }}`` renders the fragment
    ``name`` (:data:`SUBPARTS`) with the template's context.

    When the context holds :data:`MARKERS` under :data:`FRAGMENTS_KEY` (a
    part's shell being rendered by :func:`seat_frame`), a marker
    (``\\x00name\\x00``) stands in the part for it: :func:`seat_frame`
    renders the subpart itself and puts its HTML in the marker's place; the
    table page renders it in place.
    """
    if context.get(FRAGMENTS_KEY) is MARKERS:
        return Markup(_marker(name))
    return Markup(part_html(context.environment, name, context.get_all()))


SHELL_INPUTS: dict[str, Callable[[Mapping[str, Any]], tuple[Any, ...]]] = {
    "center": lambda ctx: (),
    "hand": lambda ctx: (
        bool(ctx.get("me")),
        tuple(_frozen(ctx.get(k)) for k in PART_INPUTS["hand_keys"]),
    ),
}
"""The parts of :data:`SUBPARTS` by what their shell (the part with a
marker for each subpart) reads: ``center.html`` reads nothing, ``hand.html``
only whether ``me`` is set, and its ``hand_keys`` (:func:`fixed_part`) the
inputs of that piece (tests/games/test_games_frame_jinja.py checks both).
The shells are remembered per language and these values in the fragments'
cache, so a frame renders only the subparts: the shells are the same for
nearly every frame, and rendering a subpart inside its part cost a
``Context.get_all`` copy of the context and a second template render each."""


def shell_html(env: Any, name: str, ctx: Mapping[str, Any]) -> str:
    """Part ``name`` (:data:`SHELL_INPUTS`) with a marker in place of each
    subpart it shows, rendered by ``env`` (Jinja2) with ``ctx``; remembered
    per language and :data:`SHELL_INPUTS` value, or rendered every time when
    an input is not plain values (:func:`_frozen`)."""
    try:
        key = ("shell", name, current_language(), SHELL_INPUTS[name](ctx))
    except TypeError:
        key = None
    if key is not None:
        with _PARTS_LOCK:
            html = _PARTS.get(key)
        if html is not None:
            return html
    html = env.get_template(part_template(name)).render({**ctx, FRAGMENTS_KEY: MARKERS})
    if key is not None:
        with _PARTS_LOCK:
            _PARTS[key] = html
    return html


@pass_context
def fixed_part(context: Context, name: str) -> Markup:
    """Template global: ``{{ fixed_part("hand_keys") }}`` renders the piece
    ``name`` (one of :data:`PART_INPUTS`, remembered) in place; unlike
    :func:`fragment` it is never sent alone."""
    return Markup(part_html(context.environment, name, context.get_all()))


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One seat's frame, rendered from one state.

    ``seq`` is the seq the frame shows (``#mj-status[data-seq]``, the one
    the browser sends back); ``parts`` maps each name of :data:`FRAME_PARTS`
    and of the :data:`SUBPARTS` rendered to its HTML; ``shells`` maps each
    part whose :data:`SUBPARTS` were all rendered to its HTML with a marker
    in place of each (what :meth:`changes` compares; empty: worked out from
    ``parts``).
    """

    seq: int
    parts: Mapping[str, str]
    shells: Mapping[str, str] = field(default_factory=dict)

    def wire(self) -> dict[str, Any]:
        """The frame as plain values for a channel-layer message: ``seq``,
        ``shells`` and ``parts`` without the parts that ``shells`` and
        their subparts make up (each subpart's HTML travels once);
        :meth:`from_wire` makes the same frame of it."""
        return {
            "seq": self.seq,
            "parts": {n: h for n, h in self.parts.items() if n not in self.shells},
            "shells": dict(self.shells),
        }

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Frame:
        """The frame of :meth:`wire`'s ``data`` (``shells`` may be missing:
        then ``parts`` holds every part).

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a frame.
        """
        parts = dict(data["parts"])
        shells = dict(data.get("shells") or {})
        for name, shell in shells.items():
            parts[name] = _filled(shell, parts, SUBPARTS[name])
        return cls(seq=int(data["seq"]), parts=parts, shells=shells)

    def html(self) -> str:
        """The whole frame: every part, in order."""
        return "\n".join(self.parts[name] for name in FRAME_PARTS)

    def changes(
        self,
        sent: Mapping[str, str],
        *,
        always: bool = False,
        sent_shells: Mapping[str, str] | None = None,
    ) -> str | None:
        """The fragments a browser holding ``sent`` needs, or None for none.

        ``sent`` maps fragment names (parts and subparts) to the HTML last
        sent on the socket (a missing name counts as changed);
        ``sent_shells``: that frame's :attr:`shells`, if known.  When nothing
        but the render time differs the answer is None (a move this seat
        cannot see sends nothing, see games.consumers), unless ``always``;
        otherwise :data:`ALWAYS_SENT` and each changed part, in page order —
        only its changed :data:`SUBPARTS` when the rest of it is the same.
        Each is a piece of :meth:`html`, so a partial frame never shows what
        the whole one would not.
        """
        changed = [n for n in FRAME_PARTS if sent.get(n) != self.parts[n]]
        if not always and set(changed) <= {"status"}:
            old = sent.get("status")
            if old is not None and RENDER_TIME.sub("", old) == RENDER_TIME.sub(
                "", self.parts["status"]
            ):
                return None
        out = []
        for name in FRAME_PARTS:
            if name not in changed and name not in ALWAYS_SENT:
                continue
            subs = SUBPARTS.get(name, ())
            if (
                subs
                and name in sent
                and all(s in sent and s in self.parts for s in subs)
                and self._shell(name) == _sent_shell(name, sent, sent_shells)
            ):
                out += [self.parts[s] for s in subs if sent[s] != self.parts[s]]
            else:
                out.append(self.parts[name])
        return "\n".join(out)

    def _shell(self, name: str) -> str:
        """Part ``name`` with a marker in place of each of its subparts."""
        shell = self.shells.get(name)
        return _shell(name, self.parts) if shell is None else shell


def _sent_shell(
    name: str, sent: Mapping[str, str], shells: Mapping[str, str] | None
) -> str:
    """The shell of part ``name`` of the frame ``sent`` (``shells``: its own)."""
    shell = shells.get(name) if shells else None
    return _shell(name, sent) if shell is None else shell


def _shell(name: str, fragments: Mapping[str, str]) -> str:
    """Part ``name`` with each of its subparts cut out (a marker in its place)."""
    html = fragments[name]
    for sub in SUBPARTS[name]:
        html = html.replace(fragments[sub], _marker(sub), 1)
    return html


def seat_frame(
    table: Table,
    seat: int,
    *,
    user: Any = None,
    toast: str | None = None,
    now: float | None = None,
    hand: Hand | None = None,
    basis: FrameBasis | None = None,
) -> Frame:
    """Render ``seat``'s frame from one context (:func:`seat_context`).

    Each fragment is its partial of the Jinja2 engine, taken directly (asking
    each engine in turn cost about a millisecond per frame).  ``hand``,
    ``now`` and ``basis`` as in :func:`seat_context` (a basis serves the
    frames of one state in one language: its plates are translated).
    """
    ctx = seat_context(
        table, seat, user=user, toast=toast, now=now, hand=hand, basis=basis
    )
    parts: dict[str, str] = {}
    shells: dict[str, str] = {}
    # Jinja2's own environment: not Django's wrapper object per part
    env = cast(Jinja2, engines["jinja2"]).env
    with pinned_language():  # looked up a few hundred times per frame
        for name in FRAME_PARTS:
            if name not in SUBPARTS:
                parts[name] = part_html(env, name, ctx)
                continue
            html = shell_html(env, name, ctx)
            subs = tuple(html.split("\x00")[1::2])  # the subparts it shows
            for sub in subs:
                parts[sub] = part_html(env, sub, ctx)
            if subs:  # markers in place of the subparts: put them in
                if len(subs) == len(SUBPARTS[name]):
                    shells[name] = html
                html = _filled(html, parts, subs)
            parts[name] = html
    return Frame(seq=int(ctx["seq"]), parts=parts, shells=shells)


def render_frame(
    table: Table,
    seat: int,
    *,
    user: Any = None,
    toast: str | None = None,
    now: float | None = None,
    hand: Hand | None = None,
) -> str:
    """Render ``seat``'s whole frame (hx-swap-oob fragments) after any event.

    The same HTML as the template ``frame.html``; arguments as
    :func:`seat_frame`.
    """
    return seat_frame(table, seat, user=user, toast=toast, now=now, hand=hand).html()


def render_toast(message: str) -> str:
    """The refusal fragment sent to one browser: ``<div id="toast" ...>``."""
    return (
        '<div id="toast" hx-swap-oob="true" role="alert" class="toast">'
        f"{escape(message)}</div>"
    )


def render_elsewhere(shown: bool) -> str:
    """The notice over a table page whose seat another page of the player
    holds (games.presence.tab_take), as a fragment for ``#mj-elsewhere``:
    shown, with 在此窗口继续 (a ``take_back`` over the socket), or hidden.
    In the active language."""
    from django.utils.translation import gettext as _

    if not shown:
        return '<div id="mj-elsewhere" hx-swap-oob="true" hidden></div>'
    title = escape(_("此牌桌已在另一个窗口打开"))
    body = escape(_("这个窗口里的操作不会生效。在这里继续，另一个窗口就会停下。"))
    button = escape(_("在此窗口继续"))
    return (
        '<div id="mj-elsewhere" hx-swap-oob="true" class="mj-elsewhere"'
        ' data-testid="elsewhere" role="alertdialog" aria-modal="true"'
        ' aria-labelledby="mj-elsewhere-title">'
        '<div class="mj-elsewhere-card">'
        f'<p id="mj-elsewhere-title"><strong>{title}</strong></p><p>{body}</p>'
        '<form ws-send hx-vals=\'{"action": "take_back"}\'>'
        '<button type="submit" class="btn btn-primary" data-testid="take-back">'
        f"{button}</button></form></div></div>"
    )
