"""Site middleware."""

import contextlib
import functools
import ipaddress
from collections.abc import Callable, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.template.response import TemplateResponse
from django.utils import translation

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


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


@functools.lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return tuple(ipaddress.ip_network(t.strip(), strict=False) for t in trusted)


def _ip(text: str) -> IPAddress | None:
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(text.strip())
    return None


def client_address(
    remote_addr: str, forwarded_for: str | None, trusted: Sequence[str]
) -> str:
    """The client's address of a request that reached us from ``remote_addr``.

    Only a peer in ``trusted`` (the reverse proxies: addresses or networks,
    setting ``TRUSTED_PROXIES``) is believed about who it forwards for: the
    ``X-Forwarded-For`` entries are read from the right (the entry the last
    proxy appended) and the first that is not a trusted proxy is the client.
    Entries left of it may be forged by the client and are never read.  A
    peer outside ``trusted``, an empty ``trusted`` or a missing header leave
    ``remote_addr``; an unreadable entry stops the walk at the last proxy.
    """
    if not trusted or not forwarded_for:
        return remote_addr
    networks = _networks(tuple(trusted))

    def is_proxy(ip: IPAddress | None) -> bool:
        return ip is not None and any(ip in net for net in networks)

    if not is_proxy(_ip(remote_addr)):
        return remote_addr
    client = remote_addr
    for entry in reversed(forwarded_for.split(",")):
        ip = _ip(entry)
        if ip is None:
            break
        client = str(ip)
        if not is_proxy(ip):
            break
    return client


class TrustedProxyMiddleware:
    """Set ``REMOTE_ADDR`` to the client's address behind a trusted proxy.

    Behind the README's reverse proxy every request comes from the proxy's
    address, so allauth's per-address limits (10 failed logins, 30 logins and
    20 sign-ups a minute) counted the whole site as one client: anyone could
    lock every login (issue 11 §5.5).  With ``TRUSTED_PROXIES`` set, the
    proxy's ``X-Forwarded-For`` gives each client its own address (see
    :func:`client_address`); the per-account limit (5 failed logins in 5
    minutes per login name) is unchanged.  First in ``MIDDLEWARE``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        trusted = settings.TRUSTED_PROXIES
        if trusted:
            remote = request.META.get("REMOTE_ADDR", "")
            client = client_address(
                remote, request.META.get("HTTP_X_FORWARDED_FOR"), trusted
            )
            if client != remote:
                request.META["REMOTE_ADDR"] = client
        return self.get_response(request)


class MethodNotAllowedPageMiddleware:
    """Give a 405 with an empty body our own error page (``templates/405.html``).

    A POST-only view (``require_POST``, ``require_http_methods``) answers a
    GET with ``HttpResponseNotAllowed``: status 405, an ``Allow`` header and
    no body, so the browser showed its own blank error page (GET
    ``/hands/<id>/share/``, fresh tester).  Django has no ``handler405``; this
    renders the page in the site's look and the reader's language, keeping the
    status and the ``Allow`` header.  A 405 that already has a body is left
    alone.  Last in ``MIDDLEWARE``, so the session, the user and the language
    are still in force when it renders.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        page = TemplateResponse(request, "405.html", status=405)
        page.render()
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
