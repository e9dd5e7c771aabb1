"""The ledger and the audit log refuse UPDATE and DELETE in the database.

``mahjong_site.append_only``: triggers on PostgreSQL and SQLite (this file
runs on both: the embedded default, and CI's second pass on PostgreSQL).
The models already refuse ``save``/``delete``; a queryset ``update()`` or
``delete()`` and raw SQL went around them.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.models import LedgerEntry
from moderation.models import AuditEntry
from tests.games.conftest import make_player


def _refused(fn) -> str:
    with pytest.raises(DatabaseError) as info, transaction.atomic():
        fn()
    return str(info.value)


def _audit() -> AuditEntry:
    return AuditEntry.objects.create(action="signal", at=timezone.now(), reason="x")


@pytest.mark.django_db
def test_ledger_rows_cannot_be_updated_or_deleted():
    user = make_player("ledgered")
    entry = LedgerEntry.objects.filter(user=user).first()
    assert entry is not None  # the starting grant
    rows = LedgerEntry.objects.filter(pk=entry.pk)
    assert "append-only" in _refused(lambda: rows.update(amount=999_999))
    assert "append-only" in _refused(lambda: rows.delete())
    table = LedgerEntry._meta.db_table

    def raw_update() -> None:
        with connection.cursor() as cur:
            cur.execute(f"UPDATE {table} SET amount = 1 WHERE id = %s", [entry.pk])

    assert "append-only" in _refused(raw_update)
    entry.refresh_from_db()
    assert entry.amount != 999_999 and entry.amount != 1
    # appending (through the ledger service) still works
    from accounts.ledger import COINS, ledger_correct

    before = LedgerEntry.objects.filter(user=user).count()
    ledger_correct(user=user, currency=COINS, amount=5, reason="t", by=None)
    assert LedgerEntry.objects.filter(user=user).count() == before + 1


@pytest.mark.django_db
def test_audit_rows_cannot_be_updated_or_deleted():
    entry = _audit()
    rows = AuditEntry.objects.filter(pk=entry.pk)
    assert "append-only" in _refused(lambda: rows.update(reason="forged"))
    assert "append-only" in _refused(lambda: rows.delete())
    entry.refresh_from_db()
    assert entry.reason == "x"


@pytest.mark.django_db(transaction=True)
def test_a_transactional_tests_flush_still_empties_them():
    """The test runner's flush (TRUNCATE on PostgreSQL, DELETE FROM under
    ``append_only.flushing`` on SQLite) runs after this test."""
    make_player("flushed")
    _audit()
    assert LedgerEntry.objects.exists() and AuditEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_flush_emptied_them():
    assert not LedgerEntry.objects.exists()
    assert not AuditEntry.objects.exists()
