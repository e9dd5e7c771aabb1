import pytest

# the live-table fixtures: players, rooms, no scheduler threads
from tests.games.conftest import _no_scheduler, alice, bob, room  # noqa: F401


@pytest.fixture(autouse=True)
def _fast_accounts_settings(settings):
    # In the services pass the cache is the shared Redis, so allauth's per-IP
    # counters would carry over between runs; the limits are allauth's, not ours.
    settings.ACCOUNT_RATE_LIMITS = False
    # Password hashing strength is Django's concern; keep these tests quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
