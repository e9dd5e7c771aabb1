"""A model's field and quoted column by field name: the one lookup of the
hand-written statements (games.services.rows, leaderboard.services).

Neutral ground: games.services imports leaderboard.services (a settlement
records the players' counters), so the lookup lives in neither.
"""

from __future__ import annotations

from typing import Any

from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model


def model_field(model: type[Model], name: str) -> Field[Any, Any]:
    """The concrete field of ``model`` named ``name`` (its name or attname).

    Raises:
        ValueError: ``model`` has no such column.
    """
    for f in model._meta.concrete_fields:
        if name in (f.name, f.attname):
            return f
    raise ValueError(f"{model.__name__} has no column {name!r}")


def quoted_column(
    model: type[Model], name: str, connection: BaseDatabaseWrapper | None = None
) -> str:
    """The quoted column of ``model``'s field ``name`` (name or attname), as
    ``connection`` (default: the default database) quotes it.

    Raises:
        ValueError: ``model`` has no such column.
    """
    column = model_field(model, name).column
    assert column is not None  # a concrete field has a column
    return (connection or default_connection).ops.quote_name(column)
