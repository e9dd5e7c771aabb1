import pytest


@pytest.fixture(autouse=True)
def _no_allauth_rate_limits(settings):
    # In the services pass the cache is the shared Redis, so allauth's per-IP
    # counters would carry over between runs; the limits are allauth's, not ours.
    settings.ACCOUNT_RATE_LIMITS = False
