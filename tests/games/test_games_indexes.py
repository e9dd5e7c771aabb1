"""The live table's tables carry no index that another one covers (issue 15):
each move inserts log rows and updates its clock row, into every index."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _indexes(table: str) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return {
        name: list(c["columns"])
        for name, c in found.items()
        if c["index"] or c["unique"]
    }


@pytest.mark.parametrize(
    ("table", "covering", "prefix"),
    [
        ("games_handevent", ["hand_id", "seq"], "hand_id"),
        ("games_due", ["table_id", "kind"], "table_id"),
    ],
)
def test_no_foreign_key_index_a_composite_covers(
    table: str, covering: list[str], prefix: str
) -> None:
    indexes = _indexes(table)
    assert covering in indexes.values()
    assert [prefix] not in indexes.values()
