"""Site middleware."""

import contextlib

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """Activate Chinese unless the visitor chose another language.

    Django's ``LocaleMiddleware`` would follow the browser's Accept-Language; this
    site is Chinese first, so only the explicit choice stored by the language
    switcher (the ``LANGUAGE_COOKIE_NAME`` cookie, set by ``set_language``) counts.
    Response handling (``Content-Language``, ``Vary``) is inherited unchanged.
    """

    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = settings.LANGUAGE_CODE
        if chosen:
            with contextlib.suppress(LookupError):
                language = translation.get_supported_language_variant(chosen)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
