"""A queryset's SQL text, for set-based statements built around it.

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
