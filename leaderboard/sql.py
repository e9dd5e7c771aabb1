"""A queryset's SQL text, for set-based statements built around it; bulk loads.

The nightly recalculation (``leaderboard.recalc``) wraps ORM querysets in
statements the ORM cannot express — ``CREATE TEMP TABLE … AS``, ``INSERT …
SELECT`` with window functions — so that the rules stay written once, as
querysets and expressions (the points rule, board eligibility, every board's
value), and the database does the work in a few statements.

Django documents no public way to get a queryset's SQL *with its
parameters separate* (``str(qs.query)`` interpolates them, unsafely).  The
private ``Query.sql_with_params()`` does it; this module is the one place
that calls it, and ``tests/leaderboard/test_leaderboard_sql.py`` fails if a
Django upgrade changes what it returns (the SQL run with the parameters
must give the queryset's own rows, values and order).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import QuerySet


def queryset_sql(queryset: QuerySet[Any]) -> tuple[str, list[Any]]:
    """Return ``(sql, params)`` of ``queryset`` for the default database.

    ``sql`` is one ``SELECT`` with ``%s`` placeholders, ``params`` their
    values in order; ``cursor.execute(sql, params)`` returns the rows the
    queryset would (as tuples of the selected columns, in the queryset's
    order, before Django's Python-side converters).  Use it as a subquery:
    ``f"INSERT … SELECT … FROM ({sql}) q"``.

    Raises:
        django.core.exceptions.EmptyResultSet: the queryset can have no rows
            (e.g. ``filter(pk__in=[])``); callers skip the statement then.
    """
    sql, params = queryset.query.sql_with_params()
    return sql, list(params)


@contextmanager
def indexes_built_after(cur: Any, table: str) -> Iterator[None]:
    """PostgreSQL: run a bulk insert into ``table`` with its indexes built after.

    PostgreSQL's advice for populating a table ("Populating a Database":
    remove indexes and foreign keys, load, re-create them): building an index
    from the loaded rows in one sort is several times cheaper than adding
    each row to it, and a foreign key added afterwards is checked by one
    join instead of a trigger per row.  Takes the table's ACCESS EXCLUSIVE
    lock (nobody reads or writes it until the caller's transaction ends),
    drops every index but the primary key, unique constraints and foreign
    keys included, and on leaving re-creates each from its own definition
    (``pg_get_indexdef`` / ``pg_get_constraintdef``), same names, so the
    schema ends as it began (DDL is transactional: an error undoes all of it).
    Use inside a transaction; ``table`` is a quoted name.
    """
    cur.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
    cur.execute(
        "SELECT quote_ident(c.conname), pg_get_constraintdef(c.oid)"
        " FROM pg_constraint c"
        " WHERE c.conrelid = %s::regclass AND c.contype IN ('u', 'f')"
        " ORDER BY c.contype DESC, c.conname",
        [table],
    )
    constraints = cur.fetchall()
    cur.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)"
        " FROM pg_index i WHERE i.indrelid = %s::regclass AND NOT i.indisprimary"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c"
        " WHERE c.conrelid = i.indrelid AND c.conindid = i.indexrelid)"
        " ORDER BY 1",
        [table],
    )
    indexes = cur.fetchall()
    for name, _definition in constraints:
        cur.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
    for name, _definition in indexes:
        cur.execute(f"DROP INDEX {name}")
    yield
    # sorts for the index builds in memory
    cur.execute("SET LOCAL maintenance_work_mem = '256MB'")
    for _name, definition in indexes:
        cur.execute(definition)
    # unique constraints before the foreign keys
    for name, definition in constraints:
        cur.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
