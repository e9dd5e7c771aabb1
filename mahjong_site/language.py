"""The active language, read cheaply while a frame is rendered.

A live-table frame looks the language up a few hundred times (every ``_()``
of the Jinja2 partials, every tile's alt text).  Django's ``get_language``
goes through asgiref's context-aware ``Local`` (about 4 µs a call, measured
with ``timeit`` on this machine), so :func:`games.presenters.render_frame`
pins the language once for the render (:func:`pinned_language`) and the
template helpers read it with :func:`current_language` (a ``ContextVar``
read).  Outside a pinned block both fall back to Django.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation

# (language,) while pinned: the language itself may be None (deactivated)
_PINNED: ContextVar[tuple[str | None] | None] = ContextVar(
    "pinned_language", default=None
)


def current_language() -> str | None:
    """The pinned language if a render pinned one, else Django's
    :func:`~django.utils.translation.get_language` (``None`` when
    translations are deactivated)."""
    pinned = _PINNED.get()
    return pinned[0] if pinned is not None else translation.get_language()


@contextmanager
def pinned_language(lang: str | None = None) -> Iterator[str | None]:
    """Pin ``lang`` (default: the active language) for the block.

    Yields the pinned language.  Code inside must not switch languages
    (``translation.override``): :func:`current_language` would not see it.
    """
    lang = translation.get_language() if lang is None else lang
    token = _PINNED.set((lang,))
    try:
        yield lang
    finally:
        _PINNED.reset(token)


# Bound: 4,096 (language, msgid) pairs, about twice what the two languages'
# fixed template strings need.  Why: a frame makes a hundred or so ``_()``
# calls, and a remembered answer costs about 1 µs less than Django's
# ``gettext`` (asgiref's ``Local`` and the catalog lookup; thread CPU time).
# lru_cache locks its own bookkeeping, so Daphne's sync threads may share it.
@lru_cache(maxsize=4096)
def _translated(language: str | None, message: str) -> str:
    # ``language`` is the key only: the caller's active language is it
    # (current_language), so Django's answer is the one for ``language``
    return translation.gettext(message)


def cached_gettext(message: str) -> str:
    """Django's ``gettext``, remembered per (language, message).

    Catalogs are loaded once per process anyway; the memory is cleared when
    translation settings change (tests).  Only for fixed msgids (template
    strings), never for user input: the memory is bounded, but user text
    would push the template strings out.
    """
    return _translated(current_language(), message)


# Bound: 4,096 (language, msgids, count) entries; the templates' plural
# strings count tiles (0 to 18) and a few dozen other small numbers.  Why:
# every frame says how many tiles each hand holds, and Django's
# ``ngettext`` costs several µs (asgiref's ``Local``, the plural formula).
@lru_cache(maxsize=4096)
def _translated_plural(
    language: str | None, singular: str, plural: str, number: int
) -> str:
    # ``language`` is the key only, as in _translated
    return translation.ngettext(singular, plural, number)


def cached_ngettext(singular: str, plural: str, number: Any) -> str:
    """Django's ``ngettext``, remembered per (language, msgids, count) for
    an ``int`` count (any other number is asked of Django each time); the
    same rules as :func:`cached_gettext`."""
    if type(number) is not int:
        return translation.ngettext(singular, plural, number)
    return _translated_plural(current_language(), singular, plural, number)


@receiver(setting_changed)
def _forget_translations(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _translated.cache_clear()
        _translated_plural.cache_clear()
