"""A browser's table as htmx's out-of-band swaps leave it, for frame tests.

htmx (the ws extension) reads each websocket message as HTML and swaps every
top-level element carrying ``hx-swap-oob`` into the page in place of the
element with the same ``id`` (``hx-swap-oob="true"``: outerHTML).  A
:class:`Page` does the same on the table's fragments, parsed with the standard
library's ``html.parser``; its :meth:`Page.view` is comparable with the view
of a freshly rendered whole frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)

RENDER_TIME = "data-now"
"""The render time: a frame whose only change it is may not be sent at all."""


@dataclass(frozen=True)
class Fragment:
    """One top-level element of a message: its ``id``, its ``hx-swap-oob``
    value, its source text and its parsed form (tokens with sorted
    attributes, the render time left out)."""

    id: str
    oob: str | None
    source: str
    tokens: tuple[tuple[str, ...], ...]


class _Splitter(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = 0
        self.found: list[Fragment] = []
        self.tokens: list[tuple[str, ...]] = []
        self.start = 0
        self.attrs: dict[str, str | None] = {}

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.start = self._offset()
            self.attrs = dict(attrs)
            self.tokens = []
        kept = tuple(
            f"{k}={v}" for k, v in sorted(attrs, key=lambda a: a[0]) if k != RENDER_TIME
        )
        self.tokens.append(("<", tag, *kept))
        if tag in VOID:
            if self.depth == 0:
                self._close(self._offset() + len(self.get_starttag_text() or ""))
        else:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.depth > 0, f"stray </{tag}>"
        self.tokens.append(("/", tag))
        self.depth -= 1
        if self.depth == 0:
            end = self.text.index(">", self._offset()) + 1
            self._close(end)

    def handle_data(self, data: str) -> None:
        if self.depth == 0:
            assert not data.strip(), f"text outside any fragment: {data[:60]!r}"
            return
        self.tokens.append(("#", data))

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        if self.depth:
            self.tokens.append(("!", data))

    def _close(self, end: int) -> None:
        ident = self.attrs.get("id")
        assert ident, (
            f"a top-level element without an id: {self.text[self.start : end][:80]}"
        )
        self.found.append(
            Fragment(
                id=ident,
                oob=self.attrs.get("hx-swap-oob"),
                source=self.text[self.start : end],
                tokens=tuple(self.tokens),
            )
        )


def fragments(message: str) -> list[Fragment]:
    """The top-level elements of ``message``, in order.

    Raises AssertionError for text between them, an element without an id,
    an id twice, or unbalanced tags.
    """
    parser = _Splitter(message)
    parser.feed(message)
    parser.close()
    assert parser.depth == 0, "unclosed element"
    ids = [f.id for f in parser.found]
    assert len(ids) == len(set(ids)), f"an id twice: {ids}"
    return parser.found


class Page:
    """The table's swappable elements as a browser holds them.

    Held as one list of parsed tokens in page order; a swap replaces the
    element with the fragment's id wherever it is, top-level or inside
    another (as ``document.getElementById`` finds it).
    """

    def __init__(self, whole: str) -> None:
        self.tokens: list[tuple[str, ...]] = []
        for f in fragments(whole):
            self.tokens += f.tokens

    def _span(self, ident: str) -> tuple[int, int]:
        marker = f"id={ident}"
        starts = [
            i for i, t in enumerate(self.tokens) if t[0] == "<" and marker in t[2:]
        ]
        assert len(starts) == 1, f"{ident}: {len(starts)} elements with that id"
        start, depth = starts[0], 0
        for i in range(start, len(self.tokens)):
            kind, tag = self.tokens[i][0], self.tokens[i][1]
            if kind == "<" and tag not in VOID:
                depth += 1
            elif kind == "/":
                depth -= 1
            if depth == 0:
                return start, i + 1
        raise AssertionError(f"{ident}: unclosed")

    def swap(self, message: str) -> list[str]:
        """Apply one websocket message as htmx's ws extension does; return the
        ids swapped.

        Every top-level element replaces the element with its id (its
        ``hx-swap-oob``, when present, must be ``true``, outerHTML: the
        extension's default).
        """
        swapped = []
        for f in fragments(message):
            assert f.oob in (None, "true"), f"{f.id}: hx-swap-oob={f.oob}"
            start, end = self._span(f.id)
            self.tokens[start:end] = f.tokens
            swapped.append(f.id)
        return swapped

    def view(self) -> list[tuple[str, ...]]:
        """What the page shows: its parsed tokens, in page order (the render
        time left out)."""
        return list(self.tokens)
