"""What a nickname may be: checks with no database (sign-up, profile, admin).

A nickname is shown at tables, on the boards and in ``/players/<nickname>/``
URLs, so it must read as what it is and make a working URL:

- it is in Unicode NFKC form (full-width letters and digits, ligatures and
  the like are folded to their plain forms; :func:`nickname_normalize` does
  it for input), except full-width punctuation such as （）, which is how
  Chinese is written;
- no character of the categories Cc, Cf, Cs, Co, Cn, Zl, Zp: control
  characters, zero-width characters (U+200B…U+200D, U+2060, U+FEFF) and the
  bidirectional controls (U+202A…U+202E, U+2066…U+2069) that hide or reverse
  text (impersonation);
- none of ``/ \\ ? # %``, which break or redirect the player page's URL;
- no space at either end;
- it does not look like another player's: :func:`nickname_skeleton` maps every
  non-ASCII character that has an ASCII look-alike (Cyrillic а, Greek ο,
  mathematical letters…) to it, from the Unicode confusables table shipped by
  ``confusable_homoglyphs`` (MIT), and a nickname or username that is, or
  whose skeleton is, another player's nickname or username is refused
  (``accounts.services.name_clash``).

Pure functions; the Django validator is ``accounts.validators``.
"""

from __future__ import annotations

import enum
import unicodedata
from functools import lru_cache

FORBIDDEN_CHARS = frozenset("/\\?#%")
"""Characters that break ``/players/<nickname>/`` (path, query, fragment, escapes)."""

FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories refused anywhere in a nickname."""

MAX_LENGTH = 32


class NicknameProblem(enum.Enum):
    """Why a nickname is refused (the validator words each one)."""

    BLANK = "blank"
    TOO_LONG = "too_long"
    NOT_NORMALIZED = "not_normalized"
    INVISIBLE = "invisible"
    FORBIDDEN_CHAR = "forbidden_char"
    EDGE_SPACE = "edge_space"


def _fold(ch: str) -> str:
    folded = unicodedata.normalize("NFKC", ch)
    # full-width punctuation （）！ is how Chinese is written: kept
    if folded.isascii() and not folded.isalnum() and not folded.isspace():
        return ch
    return folded


def nickname_fold(text: str) -> str:
    """NFKC, except full-width punctuation: "Ａlice（一）" → "Alice（一）"."""
    return unicodedata.normalize("NFC", "".join(_fold(ch) for ch in text))


def nickname_normalize(raw: str) -> str:
    """``raw`` folded (:func:`nickname_fold`), without spaces at either end
    (for user input)."""
    return nickname_fold(raw or "").strip()


def nickname_problem(nickname: str) -> NicknameProblem | None:
    """The first problem of ``nickname`` as stored (see the module), or None."""
    if not nickname or not nickname.strip():
        return NicknameProblem.BLANK
    if len(nickname) > MAX_LENGTH:
        return NicknameProblem.TOO_LONG
    if any(unicodedata.category(ch) in FORBIDDEN_CATEGORIES for ch in nickname):
        return NicknameProblem.INVISIBLE
    if any(ch in FORBIDDEN_CHARS for ch in nickname):
        return NicknameProblem.FORBIDDEN_CHAR
    if nickname != nickname.strip():
        return NicknameProblem.EDGE_SPACE
    if nickname_fold(nickname) != nickname:
        return NicknameProblem.NOT_NORMALIZED
    return None


def nickname_repair(nickname: str) -> str:
    """``nickname`` made acceptable: NFKC, refused characters dropped, ends
    trimmed, at most 32 characters (may be empty: the caller picks another)."""
    text = nickname_fold(nickname or "")
    kept = "".join(
        ch
        for ch in text
        if unicodedata.category(ch) not in FORBIDDEN_CATEGORIES
        and ch not in FORBIDDEN_CHARS
    )
    return nickname_fold(kept).strip()[:MAX_LENGTH].strip()


@lru_cache(maxsize=1)
def _ascii_lookalikes() -> dict[str, str]:
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[str, str] = {}
    for ch, glyphs in confusables_data.items():
        if ch.isascii():
            continue
        ascii_ = [g["c"] for g in glyphs if g["c"].isascii() and g["c"].isprintable()]
        if ascii_:
            table[ch] = ascii_[0]
    return table


def nickname_skeleton(nickname: str) -> str:
    """``nickname`` with every non-ASCII character that looks like an ASCII
    one replaced by it, case-folded: "Аlice" (Cyrillic А) → "alice"."""
    table = _ascii_lookalikes()
    text = unicodedata.normalize("NFKC", nickname)
    return "".join(table.get(ch, ch) for ch in text).casefold()
