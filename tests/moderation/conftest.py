import pytest

# the live-table fixtures: players, rooms, no scheduler threads
from tests.games.conftest import _no_scheduler, alice, bob, room  # noqa: F401


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Password hashing strength is Django's concern; these tests make many players.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _celery_eager(request):
    """Moderation's tasks run in the test process, as in the embedded default.

    In CI's second pass (REDIS_URL set) ``.delay`` would otherwise hand them
    to the CI's worker, which serves another database; the ``services``
    tests start a worker of their own on this test database instead.
    """
    from celery import current_app

    if request.node.get_closest_marker("services"):
        yield
        return
    conf = current_app._get_current_object().conf
    old = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    yield
    conf.task_always_eager, conf.task_eager_propagates = old
