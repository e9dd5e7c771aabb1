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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Field, Model

from ..models import Table


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    for f in model._meta.concrete_fields:
        if name in (f.name, f.attname):
            return f
    raise ValueError(f"{model.__name__} has no column {name!r}")


def row_update(obj: Model, fields: Iterable[str]) -> None:
    """``UPDATE`` ``obj``'s row: the ``fields`` named (names or attnames).

    As ``obj.save(update_fields=fields)`` (``auto_now`` fields included get
    the time), without signals.

    Raises:
        DatabaseError: no row has ``obj``'s primary key.
    """
    model = type(obj)
    cols = [_field(model, n) for n in fields]
    qn = connection.ops.quote_name
    pk = model._meta.pk
    assert pk is not None and pk.column is not None
    sets = ", ".join(f"{qn(f.column)} = %s" for f in cols)  # type: ignore[arg-type]
    sql = f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {qn(pk.column)} = %s"
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in cols]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, obj.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {obj.pk}: no row updated")


def rows_insert(objs: Sequence[Model]) -> None:
    """``INSERT`` new rows of one model in one statement (as
    ``bulk_create``, leaving an auto primary key to the database: the
    objects' ``pk`` stays None)."""
    if not objs:
        return
    model = type(objs[0])
    pk = model._meta.pk
    cols = [
        f
        for f in model._meta.concrete_fields
        if not (f is pk and f.db_returning)  # AutoField: the database's
    ]
    qn = connection.ops.quote_name
    row = "(" + ", ".join(["%s"] * len(cols)) + ")"
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)}"
        f" ({', '.join(qn(f.column) for f in cols)})"  # type: ignore[arg-type]
        f" VALUES {', '.join([row] * len(objs))}"
    )
    params = [
        f.get_db_prep_save(f.pre_save(obj, True), connection)
        for obj in objs
        for f in cols
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def table_save_changes(table: Table) -> None:
    """Save the columns of ``table`` changed since it was read, and
    ``updated`` (:meth:`~games.models.Table.changed_fields`); the whole row
    when it was not read from the database.  Call holding the row lock
    (games.services.locking), as every write to a table does."""
    changed = table.changed_fields()
    if changed is None:
        table.save()
    else:
        row_update(
            table, [*changed, "updated"] if "updated" not in changed else changed
        )
    table.keep_saved_values()
