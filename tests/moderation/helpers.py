"""Helpers of the moderation tests: staff users, cases with a settled hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import Group

from moderation.services.reports import report_file
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

T0 = datetime(2026, 3, 2, 12, tzinfo=UTC)


def moderator(name: str = "mod"):
    """A staff user in the "moderator" group (made by the data migration)."""
    user = make_player(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    group, _ = Group.objects.get_or_create(name="moderator")
    if not group.permissions.exists():  # transactional tests empty the tables
        import importlib

        from django.apps import apps

        importlib.import_module(
            "moderation.migrations.0002_copy_reports"
        ).moderator_group(apps, None)
        group = Group.objects.get(name="moderator")
    user.groups.add(group)
    return user


def played(a, b, *, minutes: int = 0, winner: int | None = 0, fan: int = 8):
    """A settled hand between ``a`` (seat 0) and ``b``; returns the HandRecord."""
    seats = hand(a, b, ended=T0 + timedelta(minutes=minutes), winner=winner, fan=fan)
    return seats[0].hand


def reported_case(reporter, suspect, *, category: str = "cheating", winner: int = 1):
    """``reporter`` reports a hand that ``suspect`` won; returns the case."""
    record = played(reporter, suspect, winner=winner)
    atom = report_file(reporter=reporter, category=category, text="可疑", hand=record)
    return atom.case, record
