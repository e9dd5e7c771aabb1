"""Whole-hand notation: declared melds, concealed tiles and flowers in one string.

The notation of the fan calculator and of the rules site's example hands
(issue 12, "Fan calculator"):

* concealed tiles in grouped notation (:func:`games.rules.tiles.parse_tiles`),
  **the winning tile last**: ``1112345678999m5m``;
* declared melds before them, each in brackets: ``[123s]`` 吃, ``[777z]`` 碰,
  ``[1111m]`` 明杠, ``[1111m]*`` 暗杠 (concealed kong);
* the claimed tile of a meld may be marked with ``'`` after its rank:
  ``[12'3s]`` (2s taken from the opponent).  Unmarked, a chi's claimed tile
  is its lowest and a pung's or kong's is its tile;
* flowers after a ``+``: ``+1f5f``.

So ``[123s][777z]1199m9m+1f`` is a chi of 1-2-3 条, a pung of 中, concealed
1 1 9 9 万, the winning tile 9 万 and the flower 春.  Spaces are ignored.

Whether the last concealed tile *is* a winning tile depends on the count
(14 − 3 × melds tiles: yes; 13 − 3 × melds: the hand waits), which is the
caller's decision: this module only reads and writes the notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InvalidHandError, NotationError, NotationProblem
from .melds import Meld, MeldKind
from .tiles import Tile, format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class HandText:
    """A parsed hand.

    Attributes:
        melds: declared melds, in the order written.
        concealed: the concealed tiles in the order written (a winning tile,
            when the hand has one, is the last).
        flowers: flowers after ``+``, in the order written.
    """

    melds: tuple[Meld, ...] = ()
    concealed: tuple[Tile, ...] = ()
    flowers: tuple[Tile, ...] = ()

    @property
    def tile_count(self) -> int:
        """Concealed tiles plus three per meld (a kong counts as a set of 3)."""
        return len(self.concealed) + 3 * len(self.melds)

    def __str__(self) -> str:
        return format_hand(self.melds, self.concealed, self.flowers)


def _meld(body: str, concealed_kong: bool, text: str, start: int) -> Meld:
    """Build the meld written as ``body`` (without brackets) at ``start``."""
    marks: list[int] = []  # index (in tile order) of a tile followed by '
    digits = ""
    for i, ch in enumerate(body):
        if ch == "'":
            if not digits or digits[-1] not in "123456789":
                raise NotationError(
                    "' must follow the rank of the claimed tile",
                    text=text,
                    position=start + i,
                )
            marks.append(sum(c in "123456789" for c in digits) - 1)
        else:
            digits += ch
    if len(marks) > 1:
        raise NotationError(
            "a meld has one claimed tile (one ')", text=text, position=start
        )
    tiles = _tiles_at(digits, start, text, body=body)
    if any(t.is_flower for t in tiles):
        raise InvalidHandError(f"[{body}]: flowers cannot be melded")
    if len(tiles) == 4 and len(set(tiles)) == 1:
        kind = MeldKind.CONCEALED_KONG if concealed_kong else MeldKind.KONG
    elif concealed_kong:
        raise InvalidHandError(
            f"[{body}]*: only four of a kind can be a concealed kong"
        )
    elif len(tiles) == 3 and len(set(tiles)) == 1:
        kind = MeldKind.PUNG
    elif len(tiles) == 3:
        kind = MeldKind.CHI
    else:
        raise InvalidHandError(
            f"[{body}] is not a meld: a chi or pung has 3 tiles, a kong 4"
        )
    if kind is MeldKind.CONCEALED_KONG:
        if marks:
            raise InvalidHandError(f"[{body}]*: a concealed kong has no claimed tile")
        return Meld(kind, tuple(tiles), None)
    claimed = tiles[marks[0]] if marks else min(tiles)
    try:
        return Meld(kind, tuple(tiles), claimed)
    except InvalidHandError as exc:
        raise InvalidHandError(f"[{body}]: {exc}") from None


_AFTER_FLOWERS = {
    "[": NotationProblem.MELD_AFTER_FLOWERS,
    "]": NotationProblem.STRAY_CLOSE,
    "*": NotationProblem.MISPLACED_MARK,
    "'": NotationProblem.MISPLACED_MARK,
    "+": NotationProblem.SECOND_PLUS,
}
"""What a bracket or mark after the flowers' '+' is a fault of."""


def parse_hand(text: str) -> HandText:
    """Parse ``[melds]concealed+flowers`` (see the module docstring).

    Raises:
        NotationError: malformed text — an unclosed or nested bracket, a ``*``
            not after a meld, a second ``+``, a misplaced ``'``, a bad tile —
            with the 0-based position.
        InvalidHandError: a bracket that is not a meld (``[124m]``, ``[11m]``),
            a flower in a meld or among the concealed tiles, or a playing tile
            after ``+``.
    """
    melds: list[Meld] = []
    concealed_parts: list[tuple[str, int]] = []
    flower_text: tuple[str, int] | None = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "[":
            if flower_text is not None:
                raise NotationError(
                    "melds come before the '+' of the flowers",
                    text=text,
                    position=i,
                    problem=NotationProblem.MELD_AFTER_FLOWERS,
                )
            close = text.find("]", i + 1)
            nested = text.find("[", i + 1)
            if close < 0:
                raise NotationError(
                    "'[' is never closed",
                    text=text,
                    position=i,
                    problem=NotationProblem.UNCLOSED_BRACKET,
                )
            if 0 <= nested < close:
                raise NotationError(
                    "brackets cannot be nested",
                    text=text,
                    position=nested,
                    problem=NotationProblem.NESTED_BRACKETS,
                )
            body = text[i + 1 : close].replace(" ", "")
            if not body:
                raise NotationError(
                    "empty meld '[]'",
                    text=text,
                    position=i,
                    problem=NotationProblem.EMPTY_MELD,
                )
            star = close + 1 < n and text[close + 1] == "*"
            melds.append(_meld(body, star, text, i + 1))
            i = close + (2 if star else 1)
        elif ch == "]":
            raise NotationError(
                "']' without '['",
                text=text,
                position=i,
                problem=NotationProblem.STRAY_CLOSE,
            )
        elif ch == "*":
            raise NotationError(
                "'*' marks a concealed kong: write it right after ']'",
                text=text,
                position=i,
                problem=NotationProblem.MISPLACED_MARK,
            )
        elif ch == "'":
            raise NotationError(
                "' marks a meld's claimed tile, inside brackets",
                text=text,
                position=i,
                problem=NotationProblem.MISPLACED_MARK,
            )
        elif ch == "+":
            if flower_text is not None:
                raise NotationError(
                    "a second '+'",
                    text=text,
                    position=i,
                    problem=NotationProblem.SECOND_PLUS,
                )
            flower_text = (text[i + 1 :], i + 1)
            # the rest is flowers; brackets there are reported by the loop
            j = i + 1
            while j < n and text[j] not in "[]*'+":
                j += 1
            if j < n:
                raise NotationError(
                    f"{text[j]!r} after the flowers",
                    text=text,
                    position=j,
                    problem=_AFTER_FLOWERS[text[j]],
                )
            break
        else:
            j = i
            while j < n and text[j] not in "[]*'+":
                j += 1
            concealed_parts.append((text[i:j], i))
            i = j
    concealed: list[Tile] = []
    for part, start in concealed_parts:
        concealed += _tiles_at(part, start, text)
    for t in concealed:
        if t.is_flower:
            raise InvalidHandError(f"flower {t} is not a hand tile: write it after '+'")
    flowers: list[Tile] = []
    if flower_text is not None:
        flowers = _tiles_at(flower_text[0], flower_text[1], text)
        for t in flowers:
            if not t.is_flower:
                raise InvalidHandError(f"{t} after '+' is not a flower (1f–8f)")
    return HandText(tuple(melds), tuple(concealed), tuple(flowers))


def _tiles_at(part: str, start: int, text: str, *, body: str = "") -> list[Tile]:
    """Parse ``part``, found at ``start`` of ``text``, re-raising errors with
    the position in the whole ``text``.  ``body``: the meld text ``part`` was
    taken from with its ``'`` marks removed (positions are mapped back)."""
    try:
        return parse_tiles(part)
    except NotationError as exc:
        pos = exc.position
        if pos is not None:
            if body:
                seen = -1
                for k, ch in enumerate(body):
                    if ch != "'":
                        seen += 1
                    if seen == pos:
                        pos = k
                        break
            pos += start
        raise NotationError(_reason(exc), text=text, position=pos) from None


def _reason(exc: NotationError) -> str:
    """The message of ``exc`` without the position and text it appends."""
    where = f" at position {exc.position}" if exc.position is not None else ""
    suffix = f"{where} in {exc.text!r}"
    message = str(exc)
    return message[: -len(suffix)] if message.endswith(suffix) else message


def format_meld(meld: Meld) -> str:
    """Write one meld: ``[123s]``, ``[12'3s]`` (claimed 2s), ``[1111m]*``."""
    tiles = meld.tiles
    if meld.kind is MeldKind.CONCEALED_KONG:
        return f"[{format_tiles(tiles)}]*"
    default = min(tiles)
    if meld.claimed is None or meld.claimed == default:
        return f"[{format_tiles(tiles)}]"
    ranks = []
    marked = False
    for t in tiles:
        ranks.append(str(t.rank))
        if t == meld.claimed and not marked:
            ranks.append("'")
            marked = True
    return f"[{''.join(ranks)}{tiles[0].suit}]"


def format_hand(
    melds: Sequence[Meld],
    concealed: Sequence[Tile],
    flowers: Sequence[Tile] = (),
    *,
    win_tile_last: bool | None = None,
) -> str:
    """Write a hand in the notation :func:`parse_hand` reads.

    Concealed tiles are sorted; with ``win_tile_last`` (default: when the
    hand has 14 − 3 × melds tiles) the last tile given is kept apart at the
    end as the winning tile: ``1112345678999m5m``.
    """
    body = "".join(format_meld(m) for m in melds)
    tiles = list(concealed)
    if win_tile_last is None:
        win_tile_last = len(tiles) + 3 * len(melds) == 14
    if win_tile_last and tiles:
        body += format_tiles(tiles[:-1]) + str(tiles[-1])
    else:
        body += format_tiles(tiles)
    if flowers:
        body += "+" + format_tiles(flowers)
    return body


__all__ = ["HandText", "format_hand", "format_meld", "parse_hand"]
