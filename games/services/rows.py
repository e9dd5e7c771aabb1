"""A move's writes, with statements written from the models' fields.

Every move updates the table row and the hand's snapshot row and inserts the
new log rows.  Through ``Model.save()`` and ``QuerySet.bulk_create()`` the
ORM compiled each statement again on every move (about 0.4 ms of CPU per
statement, most of a move's write; issue 15).  Here the SQL is joined from
the model's fields on every call (5–10 µs of CPU: remembering it saved about
15 µs of a move's ~8 ms, so it is not remembered) and each value goes
through the field's own ``pre_save`` and ``get_db_prep_save`` (what the ORM
applies), so a column added to a model is written without touching this
module.  No signals are
sent (no receiver listens to these models).  The read side is
games.services.hands.fetch_table.

The live table's statements go through :func:`prepared_cursor`: on
PostgreSQL their parameters are bound by the server and each statement is
prepared once per connection, instead of being quoted into the SQL text and
parsed and planned again on every move.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model

from mahjong_site.columns import model_field

from ..models import Table

if TYPE_CHECKING:  # psycopg is imported where PostgreSQL is in use
    from psycopg.types.json import Jsonb


def db_connection() -> BaseDatabaseWrapper:
    """This thread's default connection: the object itself, not the
    ``django.db.connection`` proxy, which looks the connection up again on
    every attribute read (a few µs each in a Daphne worker thread, tens of
    reads per move, issue 15)."""
    return connections[DEFAULT_DB_ALIAS]


@contextmanager
def prepared_cursor() -> Iterator[CursorWrapper]:
    """A cursor of the default connection for the live table's hot statements.

    On PostgreSQL (psycopg 3) a cursor that binds its parameters on the
    server (``psycopg.Cursor``), so a statement run
    ``OPTIONS["prepare_threshold"]`` times on a connection is prepared
    there (mahjong_site.settings.base): its parameters are not quoted into
    the text on every call (a snapshot's JSON is tens of kilobytes) and
    PostgreSQL neither parses nor plans it again.  A move's five statements
    cost PostgreSQL about half the CPU this way and the client a little less
    (issue 15).  Django's cursors bind on the client and never prepare, so
    any other query is unchanged; only the statements written here, whose
    parameters all have a column to take their type from, use this one.
    Elsewhere, and while queries are logged (``DEBUG``, a test's
    ``CaptureQueriesContext``: Django's log shows a statement with its values
    only for its own cursor), Django's cursor.

    Wrapped as Django wraps its own (``connection.execute_wrapper`` sees
    these statements; errors become Django's).  Relies on
    ``connection.connection`` being the psycopg connection;
    ``tests/games/test_games_prepared.py`` fails if an upgrade changes that
    or the statements stop being prepared.
    """
    connection = db_connection()
    if connection.vendor != "postgresql" or connection.queries_logged:
        with connection.cursor() as cursor:
            yield cursor
        return
    import psycopg

    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)
    # the stubs type the argument as Django's wrapper; Django passes the
    # driver's cursor (BaseDatabaseWrapper._prepare_cursor)
    with connection.make_cursor(raw) as cursor:  # type: ignore[arg-type]
        yield cursor


class Writes:
    """Data-modifying statements of one transaction, sent together.

    A move writes its log rows, its snapshot, its clock row and its table
    row; nothing in between reads them.  On PostgreSQL :meth:`flush` sends
    them as one statement (each a ``WITH`` query with ``RETURNING 1``, the
    main query counting each one's rows): one round trip instead of four,
    one prepared statement instead of four (:func:`prepared_cursor`).  The
    statements touch different tables, so running them on one snapshot
    (PostgreSQL's rule for ``WITH``) changes nothing.  Elsewhere they run
    one after another, in the order added.  Each statement's row count goes
    to its ``check`` after all ran (raise there to fail the transaction).
    """

    def __init__(self) -> None:
        self._items: list[tuple[str, list[Any], Callable[[int], None]]] = []

    def add(self, sql: str, params: list[Any], check: Callable[[int], None]) -> None:
        """Queue ``sql`` (one ``INSERT``/``UPDATE``, no ``RETURNING``)."""
        self._items.append((sql, params, check))

    def flush(self) -> None:
        """Run the queued statements (see the class) and empty the queue."""
        items, self._items = self._items, []
        if not items:
            return
        with prepared_cursor() as cursor:
            if len(items) > 1 and db_connection().vendor == "postgresql":
                ctes = ", ".join(
                    f"w{i} AS ({sql} RETURNING 1)"
                    for i, (sql, _, _) in enumerate(items)
                )
                counts = ", ".join(
                    f"(SELECT count(*) FROM w{i})" for i in range(len(items))
                )
                cursor.execute(
                    f"WITH {ctes} SELECT {counts}",
                    [p for _, params, _ in items for p in params],
                )
                row = cursor.fetchone()
                assert row is not None
                rowcounts = list(row)
            else:
                rowcounts = []
                for sql, params, _ in items:
                    cursor.execute(sql, params)
                    rowcounts.append(cursor.rowcount)
        for (_, _, check), n in zip(items, rowcounts, strict=True):
            check(n)


def _run(sql: str, params: list[Any], check: Callable[[int], None]) -> None:
    """Run one statement now (a batch of one)."""
    writes = Writes()
    writes.add(sql, params, check)
    writes.flush()


def row_update(
    obj: Model, fields: Iterable[str], *, writes: Writes | None = None
) -> None:
    """``UPDATE`` ``obj``'s row: the ``fields`` named (names or attnames).

    As ``obj.save(update_fields=fields)`` (``auto_now`` fields included get
    the time), without signals.  ``writes``: queue it there instead of
    running it now.

    Raises:
        DatabaseError: no row has ``obj``'s primary key.
    """
    model = type(obj)
    cols = [model_field(model, n) for n in fields]
    connection = db_connection()
    qn = connection.ops.quote_name
    pk = model._meta.pk
    assert pk is not None and pk.column is not None
    sets = ", ".join(f"{qn(f.column)} = %s" for f in cols)  # type: ignore[arg-type]
    sql = f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {qn(pk.column)} = %s"
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in cols]
    key = obj.pk

    def check(rows: int) -> None:
        if rows != 1:
            raise DatabaseError(f"{model.__name__} {key}: no row updated")

    (writes.add if writes is not None else _run)(sql, [*params, key], check)


def values_update(
    model: type[Model], *, pk: Any, values: dict[str, Any], where: dict[str, Any]
) -> int:
    """``UPDATE`` the row of ``model`` with primary key ``pk``, setting
    ``values`` (by field name or attname), only if its columns equal
    ``where``; return the number of rows updated (0 or 1), now.

    As ``model.objects.filter(pk=pk, **where).update(**values)`` for plain
    values (no expressions), written from the fields instead of compiled
    by the ORM (about 1 ms of CPU for the settlement's guard, issue 15).
    """
    connection = db_connection()
    qn = connection.ops.quote_name
    key = model._meta.pk
    assert key is not None and key.column is not None
    sets = [(model_field(model, n), v) for n, v in values.items()]
    tests = [(model_field(model, n), v) for n, v in where.items()]

    def col(f: Field[Any, Any]) -> str:
        assert f.column is not None  # a concrete field has a column
        return f"{qn(f.column)} = %s"

    sql = (
        f"UPDATE {qn(model._meta.db_table)}"
        f" SET {', '.join(col(f) for f, _ in sets)}"
        f" WHERE {' AND '.join([col(key), *(col(f) for f, _ in tests)])}"
    )
    params = [f.get_db_prep_save(v, connection) for f, v in sets]
    params += [key.get_db_prep_value(pk, connection)]
    params += [f.get_db_prep_value(v, connection) for f, v in tests]
    counted: list[int] = []
    _run(sql, params, counted.append)
    return counted[0]


def _any(rows: int) -> None:
    return None


def _insert_columns(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns an ``INSERT`` of ``model`` names: all but an auto
    primary key (the database's)."""
    pk = model._meta.pk
    return [f for f in model._meta.concrete_fields if not (f is pk and f.db_returning)]


# Bound: 8 statements, one per model and database alias (a move inserts log
# rows only).  Why: each column's ``db_type`` costs about 5 µs of CPU, 45 µs
# for the log's nine on every move (issue 15); remembered, nothing.
@lru_cache(maxsize=8)
def _recordset_insert(model: type[Model], using: str) -> tuple[str, frozenset[str]]:
    """``INSERT INTO model (columns) SELECT … FROM jsonb_to_recordset(%s)``
    on PostgreSQL database ``using``, and the keys each row's JSON object
    has: the fields' attnames (``hand_id``), as :func:`json_rows_insert`
    takes them.  Each key is read as its column's own type (``db_type``: a
    value too long for a ``varchar(n)`` fails as it does in ``VALUES``)."""
    connection = connections[using]
    qn = connection.ops.quote_name
    columns: list[str] = []
    keys: list[str] = []
    record: list[str] = []
    for f in _insert_columns(model):
        assert f.column is not None  # a concrete field has a column
        columns.append(qn(f.column))
        keys.append(qn(f.attname))
        record.append(f"{qn(f.attname)} {f.db_type(connection)}")
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(columns)})"
        f" SELECT {', '.join(keys)}"
        f" FROM jsonb_to_recordset(%s::jsonb) AS x({', '.join(record)})"
    )
    return sql, frozenset(f.attname for f in _insert_columns(model))


def _json_value(value: Any, jsonb: type[Jsonb]) -> Any:
    """``value`` (a field's ``get_db_prep_save``) as the JSON that
    ``jsonb_to_recordset`` turns back into it: a JSON column's object
    (psycopg's ``Jsonb``, given as ``jsonb``, with the default
    ``json.dumps``: what Django makes for a field without an encoder), a
    string, an integer (psycopg's ``Int4`` and the like are ints), None (SQL
    NULL; a JSON column's None is SQL NULL too) or a finite float (its
    ``repr`` is its shortest exact form; PostgreSQL reads it back to the
    same double).

    Raises:
        TypeError: anything else (a datetime, a Decimal, an encoder's JSON):
            :func:`rows_insert` writes those rows with ``VALUES``.
    """
    if value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if (
        isinstance(value, jsonb)
        and type(value) is jsonb
        and (value.dumps in (None, json.dumps))
    ):
        return value.obj
    raise TypeError(type(value).__name__)


def rows_insert(objs: Sequence[Model], *, writes: Writes | None = None) -> None:
    """``INSERT`` new rows of one model in one statement (as
    ``bulk_create``, leaving an auto primary key to the database: the
    objects' ``pk`` stays None).  ``writes``: queue it there instead of
    running it now.

    On PostgreSQL, when every value (each field's ``get_db_prep_save``) is
    plain JSON (:func:`_json_value`), the rows go as one JSON parameter
    (:func:`json_rows_insert`); otherwise, and elsewhere, as a ``VALUES``
    list.
    """
    if not objs:
        return
    model = type(objs[0])
    cols = _insert_columns(model)
    connection = db_connection()
    params = [
        f.get_db_prep_save(f.pre_save(obj, True), connection)
        for obj in objs
        for f in cols
    ]
    if connection.vendor == "postgresql":
        from psycopg.types.json import Jsonb

        width = len(cols)
        names = [f.attname for f in cols]
        try:
            rows = [
                {
                    name: _json_value(value, Jsonb)
                    for name, value in zip(names, params[i : i + width], strict=True)
                }
                for i in range(0, len(params), width)
            ]
        except TypeError:
            pass
        else:
            json_rows_insert(model, rows, writes=writes)
            return
    qn = connection.ops.quote_name
    row = "(" + ", ".join(["%s"] * len(cols)) + ")"
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)}"
        f" ({', '.join(qn(f.column) for f in cols)})"  # type: ignore[arg-type]
        f" VALUES {', '.join([row] * len(objs))}"
    )
    (writes.add if writes is not None else _run)(sql, params, _any)


def json_rows_insert(
    model: type[Model],
    rows: Sequence[dict[str, Any]],
    *,
    writes: Writes | None = None,
) -> None:
    """``INSERT`` rows of ``model`` given as plain JSON values (as
    :func:`rows_insert`, which this is for those).

    ``rows``: one dict per row, keyed by every field's attname but an auto
    primary key's; each value what the field stores, as JSON: a JSON
    column's value, a string, a number (a float finite), or None (SQL NULL,
    a JSON column's too).  ``writes``: queue it there instead of running it
    now.

    On PostgreSQL one ``json.dumps`` of ``rows`` is the one parameter of
    ``INSERT … SELECT … FROM jsonb_to_recordset(%s)`` (:func:`_recordset_insert`),
    without a model instance or a field's adaptation per value: a move's log
    rows cost about 10 µs of CPU instead of 64 (four rows, issue 15).  The
    statement is the same whatever the number of rows, so psycopg converts it
    once and PostgreSQL keeps it prepared (:func:`prepared_cursor`); a
    ``VALUES`` list was one statement per row count, and past 50 parameters
    (a move's log of four rows or more, in :class:`Writes`: about half the
    moves) psycopg parsed its text again on every call (about 100 µs; its
    cache takes no longer ones).  The stored rows are what ``bulk_create``
    stores (tests/games/test_games_rows.py compares their text).  Elsewhere
    through model instances and :func:`rows_insert`.

    Raises:
        ValueError: a row's keys are not the model's.
    """
    if not rows:
        return
    connection = db_connection()
    if connection.vendor != "postgresql":
        rows_insert([model(**row) for row in rows], writes=writes)
        return
    sql, keys = _recordset_insert(model, connection.alias)
    for row in rows:
        if row.keys() != keys:
            raise ValueError(f"{model.__name__} rows need {sorted(keys)}")
    (writes.add if writes is not None else _run)(sql, [json.dumps(rows)], _any)


def table_save_changes(table: Table, *, writes: Writes | None = None) -> None:
    """Save the columns of ``table`` changed since it was read, and
    ``updated`` (:meth:`~games.models.Table.changed_fields`); the whole row
    when it was not read from the database.  Call holding the row lock
    (games.services.locking), as every write to a table does.  ``writes``:
    queue the UPDATE there (a table not read from the database is saved
    now, after what was queued)."""
    changed = table.changed_fields()
    if changed is None:
        if writes is not None:
            writes.flush()
        table.save()
    else:
        row_update(
            table,
            [*changed, "updated"] if "updated" not in changed else changed,
            writes=writes,
        )
    table.keep_saved_values()
