"""Login limits count clients, not the reverse proxy (issue 11 §5.5).

The attack run: behind the README's reverse proxy every request came from the
proxy's address and ``X-Forwarded-For`` was not read, so 10 failed logins with
any usernames locked everyone's login for a minute.  With the proxy trusted
(``TRUSTED_PROXIES``), each client is limited by its own address; a forged
``X-Forwarded-For`` from anyone else changes nothing; the per-account limit
stays.
"""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from accounts.models import User
from mahjong_site.middleware import client_address

PROXY = "127.0.0.1"
PASSWORD = "right-horse-battery-9"


@pytest.fixture(autouse=True)
def _limits_on(settings):
    # the accounts conftest turns allauth's limits off; this file is about them
    del settings.ACCOUNT_RATE_LIMITS  # allauth's defaults
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"proxy-{uuid.uuid4()}",  # a fresh count per test
        }
    }
    settings.TRUSTED_PROXIES = [PROXY]


@pytest.fixture
def mei(db):
    return User.objects.create_user("mei", "mei@example.com", PASSWORD)


def _login(client, login, password, *, remote=PROXY, xff=None):
    extra = {"REMOTE_ADDR": remote}
    if xff is not None:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    client.cookies.clear()
    return client.post(
        reverse("account_login"), {"login": login, "password": password}, **extra
    )


def _logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def _locked(response) -> bool:
    """allauth's per-account refusal (the page is Chinese first)."""
    return "登录失败次数过多" in response.content.decode()


def _fail_ten(client, *, remote=PROXY, xff=None):
    for i in range(10):
        r = _login(client, f"nobody{i}", "wrong-password-1", remote=remote, xff=xff)
        assert r.status_code in (200, 429) and not _logged_in(r)


def test_the_client_address_is_the_last_entry_not_a_proxy():
    trusted = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address("127.0.0.1", "198.51.100.7", trusted) == "198.51.100.7"
    # a client-written prefix is never read
    assert client_address("127.0.0.1", "1.2.3.4, 198.51.100.7", trusted) == (
        "198.51.100.7"
    )
    # two proxies in a row
    assert client_address("127.0.0.1", "198.51.100.7, 10.1.2.3", trusted) == (
        "198.51.100.7"
    )
    # an untrusted peer's header is ignored
    assert client_address("203.0.113.9", "198.51.100.7", trusted) == "203.0.113.9"
    # nothing trusted (the embedded default), no header, garbage
    assert client_address("127.0.0.1", "198.51.100.7", []) == "127.0.0.1"
    assert client_address("127.0.0.1", None, trusted) == "127.0.0.1"
    assert client_address("127.0.0.1", "not-an-ip", trusted) == "127.0.0.1"
    assert client_address("::1", "2001:db8::5", ["::1"]) == "2001:db8::5"


def test_two_clients_behind_the_proxy_are_limited_separately(client, mei):
    _fail_ten(client, xff="198.51.100.1")
    # the attacker's own address is now limited …
    assert _locked(_login(client, "mei", PASSWORD, xff="198.51.100.1"))
    # … but another client behind the same proxy logs in
    assert _logged_in(_login(client, "mei", PASSWORD, xff="198.51.100.2"))


def test_without_trusting_the_proxy_everyone_shares_its_limit(client, mei, settings):
    """The fault as the attack run found it (the embedded default trusts none)."""
    settings.TRUSTED_PROXIES = []
    _fail_ten(client, xff="198.51.100.1")
    assert _locked(_login(client, "mei", PASSWORD, xff="198.51.100.2"))


def test_a_forged_forwarded_for_from_an_untrusted_peer_is_ignored(client, mei):
    attacker = "203.0.113.9"
    for i in range(10):  # a new forged address every time
        r = _login(client, f"nobody{i}", "wrong-1", remote=attacker, xff=f"10.9.0.{i}")
        assert not _logged_in(r)
    # all ten counted against the attacker's real address
    assert _locked(
        _login(client, "mei", PASSWORD, remote=attacker, xff="198.51.100.77")
    )
    # a forged prefix through the proxy does not pick the counted address
    _fail_ten(client, xff="198.51.100.3")
    assert _locked(_login(client, "mei", PASSWORD, xff="1.1.1.1, 198.51.100.3"))
    assert _logged_in(_login(client, "mei", PASSWORD, xff="198.51.100.3, 198.51.100.4"))


def test_the_per_account_limit_still_holds_across_addresses(client, mei, db):
    other = User.objects.create_user("lan", "lan@example.com", PASSWORD)
    for i in range(5):  # five failures on one account, each from a new address
        r = _login(client, "mei", "wrong-password-1", xff=f"198.51.100.{10 + i}")
        assert not _logged_in(r)
    # the account is locked for everyone, even with the right password
    locked = _login(client, "mei", PASSWORD, xff="198.51.100.99")
    assert not _logged_in(locked)
    assert _locked(locked)
    # other accounts from the same addresses are not
    assert _logged_in(_login(client, other.username, PASSWORD, xff="198.51.100.10"))
