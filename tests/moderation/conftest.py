import pytest

# the live-table fixtures: players, rooms, no scheduler threads
from tests.games.conftest import _no_scheduler, alice, bob, room  # noqa: F401


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Password hashing strength is Django's concern; these tests make many players.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
