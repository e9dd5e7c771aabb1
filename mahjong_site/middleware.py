"""Site middleware."""

import contextlib

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


def chosen_language(cookie: str | None) -> str:
    """Return the language to speak: the switcher's choice, else Chinese.

    ``cookie`` is the ``LANGUAGE_COOKIE_NAME`` cookie's value (or ``None``).
    Pages (the middleware below) and the table websocket
    (``games.consumers.scope_language``) both decide here, so a frame never
    speaks another language than the page around it.
    """
    if cookie:
        with contextlib.suppress(LookupError):
            return translation.get_supported_language_variant(cookie)
    return str(settings.LANGUAGE_CODE)


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """Activate Chinese unless the visitor chose another language.

    Django's ``LocaleMiddleware`` would follow the browser's Accept-Language; this
    site is Chinese first, so only the explicit choice stored by the language
    switcher (the ``LANGUAGE_COOKIE_NAME`` cookie, set by ``set_language``) counts.
    Response handling (``Content-Language``, ``Vary``) is inherited unchanged.
    """

    def process_request(self, request: HttpRequest) -> None:
        translation.activate(
            chosen_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        )
        request.LANGUAGE_CODE = translation.get_language()
