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
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation

# (language,) while pinned: the language itself may be None (deactivated)
_PINNED: ContextVar[tuple[str | None] | None] = ContextVar(
    "pinned_language", default=None
)

_TRANSLATED: dict[tuple[str | None, str], str] = {}
_TRANSLATED_MAX = 4096


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


def cached_gettext(message: str) -> str:
    """Django's ``gettext``, remembered per (language, message).

    Catalogs are loaded once per process anyway; the memory is cleared when
    translation settings change (tests).  Only for fixed msgids (template
    strings), never for user input.
    """
    key = (current_language(), message)
    try:
        return _TRANSLATED[key]
    except KeyError:
        pass
    if len(_TRANSLATED) >= _TRANSLATED_MAX:
        _TRANSLATED.clear()
    text = _TRANSLATED[key] = translation.gettext(message)
    return text


@receiver(setting_changed)
def _forget_translations(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _TRANSLATED.clear()
