"""Database-level append-only tables (the ledger, the moderation audit log).

``LedgerEntry.save``/``delete`` and ``AuditEntry.save``/``delete`` already
refuse to change a row, but a queryset ``update()``/``delete()``, admin bulk
actions or raw SQL go around the model.  A trigger in the database refuses
every ``UPDATE`` and ``DELETE`` of such a table (PostgreSQL: one function,
a ``BEFORE UPDATE OR DELETE … FOR EACH ROW`` trigger per table; SQLite: two
``BEFORE`` triggers per table).  ``TRUNCATE`` (PostgreSQL) fires no row
trigger, so ``manage.py flush``, the test runner's flush and
``benchmarks/bench_recalc.py`` still empty the tables.  SQLite has no
``TRUNCATE`` (its flush is ``DELETE FROM``): while the table
``append_only_bypass`` holds a row its triggers let deletes through; only
:func:`flushing` (used by the test suite's flush) writes that row.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

BYPASS = "append_only_bypass"

_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION mahjong_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
"""


def install(schema_editor: Any, table: str) -> None:
    """Add the append-only triggers to ``table`` (a migration's RunPython)."""
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(_PG_FUNCTION, params=None)  # its % are plpgsql
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE"
            f" ON {table} FOR EACH ROW EXECUTE FUNCTION mahjong_append_only()"
        )
    elif vendor == "sqlite":
        schema_editor.execute(f"CREATE TABLE IF NOT EXISTS {BYPASS} (on_ INTEGER)")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}"
            f" BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused');"
            " END"
        )
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}"
            f" WHEN NOT EXISTS (SELECT 1 FROM {BYPASS})"
            f" BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused');"
            " END"
        )


def uninstall(schema_editor: Any, table: str) -> None:
    """Remove the triggers of :func:`install` (the migration's reverse)."""
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    elif vendor == "sqlite":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")


@contextmanager
def flushing(connection: Any) -> Iterator[None]:
    """Let SQLite's ``DELETE FROM`` flush empty the append-only tables.

    Used by the test suite around Django's flush (transactional tests);
    PostgreSQL flushes with ``TRUNCATE`` and needs nothing.
    """
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {BYPASS} (on_ INTEGER)")
        cursor.execute(f"INSERT INTO {BYPASS} VALUES (1)")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {BYPASS}")
