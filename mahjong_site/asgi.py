"""ASGI entry point: HTTP through Django, websockets through Channels.

Run with ``daphne mahjong_site.asgi:application`` (or ``manage.py runserver``, which
uses Daphne because ``daphne`` is first in INSTALLED_APPS).
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

# Populate the app registry before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from mahjong_site.process import tune_gc  # noqa: E402


class _Router(ProtocolTypeRouter):
    """Channels' protocol router that also starts the tables' clock thread at
    the first connection when MAHJONG_CLOCK is "thread" (the embedded
    default: the one clock's loop, games.services.clock, runs in the serving
    process); otherwise ``manage.py run_clock`` keeps the time.  At the
    first connection, not at import, so a process that only imports this
    module keeps no time."""

    clock_started = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if not self.clock_started:
            self.clock_started = True
            from django.conf import settings

            if settings.MAHJONG_CLOCK == "thread":
                from games.services.clock import start_loop

                start_loop()
        return await super().__call__(scope, receive, send)


application = _Router(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


def _settle_heap() -> None:
    """Compile the table partials, then tune the collector (freeze what
    start-up allocated, collect less often): see :func:`tune_gc`.

    Python's full (generation 2) collection walks every tracked object and
    stops the process meanwhile; in ``benchmarks/bench_ws.py`` those pauses
    were 90-310 ms per Daphne process, several a minute, and they made the
    slowest 1 % of moves.  Freezing the start-up heap (Django, the apps, the
    compiled templates) roughly halved the pauses.
    """
    from django.template import engines

    env = engines["jinja2"].env  # type: ignore[attr-defined]  # the Jinja2 backend
    for name in env.list_templates(filter_func=lambda n: n.startswith("games/")):
        env.get_template(name)
    tune_gc()


_settle_heap()
