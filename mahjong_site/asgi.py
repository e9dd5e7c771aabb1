"""ASGI entry point: HTTP through Django, websockets through Channels.

Run with ``daphne mahjong_site.asgi:application`` (or ``manage.py runserver``, which
uses Daphne because ``daphne`` is first in INSTALLED_APPS).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

# Populate the app registry before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


def _settle_heap() -> None:
    """Compile the table partials, then freeze what start-up allocated.

    Python's full (generation 2) collection walks every tracked object and
    stops the process meanwhile; in ``benchmarks/bench_ws.py`` those pauses
    were 90-310 ms per Daphne process, several a minute, and they made the
    slowest 1 % of moves.  ``gc.freeze()`` moves everything alive now (Django,
    the apps, the compiled templates) out of the collector's reach, which
    roughly halved the pauses.  Objects created later are collected as usual.
    """
    from django.template import engines

    env = engines["jinja2"].env
    for name in env.list_templates(filter_func=lambda n: n.startswith("games/")):
        env.get_template(name)
    gc.collect()
    gc.freeze()


_settle_heap()
