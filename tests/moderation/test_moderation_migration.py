"""The reports filed before moderation (games.Report) become atoms of cases."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0007_backfill_handseats"), ("moderation", None)]
AFTER = [("moderation", "0002_copy_reports")]


def test_old_reports_are_copied_into_open_cases_and_the_moderator_group_exists():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state([BEFORE[0]]).apps
    User = old.get_model("accounts", "User")
    Room, Table = old.get_model("games", "Room"), old.get_model("games", "Table")
    HandRecord = old.get_model("games", "HandRecord")
    OldReport = old.get_model("games", "Report")
    a = User.objects.create(username="old-a")
    b = User.objects.create(username="old-b")
    room = Room.objects.create(name="r", stake=10, min_balance=0)
    table = Table.objects.create(room=room, kind="quick", seat0=a, seat1=b)
    hand = HandRecord.objects.create(
        table=table, seat0=a, seat1=b, ruleset="erren", stake=10, commitment="c"
    )
    OldReport.objects.create(reporter=a, hand=hand, reason="cheating", text="快")
    OldReport.objects.create(reporter=b, hand=hand, reason="bug", text="卡住")

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    Case = new.get_model("moderation", "Case")
    Report = new.get_model("moderation", "Report")
    got = sorted(
        (r.reporter.username, r.case.suspect.username, r.category, r.text)
        for r in Report.objects.select_related("case", "reporter", "case__suspect")
    )
    assert got == [
        ("old-a", "old-b", "cheating", "快"),
        ("old-b", "old-a", "other", "[程序错误] 卡住"),
    ]
    assert Case.objects.filter(status="open").count() == 2
    assert all(list(r.hands.all()) == [r.hand] for r in Report.objects.all())
    Group = new.get_model("auth", "Group")
    perms = set(
        Group.objects.get(name="moderator").permissions.values_list(
            "codename", flat=True
        )
    )
    assert {"decide_case", "view_case", "view_handrecord"} <= perms
    assert not {p for p in perms if p.startswith(("change_", "add_", "delete_"))}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
