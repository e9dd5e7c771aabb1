"""Fixtures for live-table tests: players, rooms, a driver that plays hands."""

from __future__ import annotations

import importlib

import pytest

from accounts.models import User
from games.models import Room
from games.presenters import clear_profile_cache


@pytest.fixture(autouse=True)
def _no_scheduler(settings):
    """Due times are run by the tests themselves (``clock.run_due(now=...)``
    or the services), never by a clock thread of this process."""
    settings.MAHJONG_CLOCK = "command"
    settings.MAHJONG_AUTO_PACE = 0  # automated play at once (pacing has its tests)
    clear_profile_cache()
    yield
    clear_profile_cache()


def make_player(name: str, coins: int = 10_000) -> User:
    from accounts.ledger import COINS, ledger_correct

    user = User.objects.create_user(name, f"{name}@example.com", "pw-123456-x")
    start = user.profile.coins
    if coins != start:  # through the ledger, so balances stay its sum
        ledger_correct(
            user=user, currency=COINS, amount=coins - start, reason="test", by=None
        )
        user.profile.refresh_from_db()
    return user


@pytest.fixture
def alice(db):
    return make_player("alice")


@pytest.fixture
def bob(db):
    return make_player("bob")


def seed_rooms() -> None:
    """The rooms of the data migrations (transactional tests empty the tables)."""
    from django.apps import apps

    for name in ("0002_rooms", "0010_rooms_per_ruleset"):
        rooms = importlib.import_module(f"games.migrations.{name}")
        rooms.add_rooms(apps, None)


@pytest.fixture
def room(db):
    seed_rooms()
    return Room.objects.get(name="新手场")
