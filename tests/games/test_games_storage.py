"""The live table's tables carry no index that another one covers (each move
inserts log rows and updates its clock row, into every index), and the
snapshot row, rewritten by every move, is compressed cheaply (issue 15)."""

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


def test_snapshot_json_compressed_with_lz4_on_postgresql() -> None:
    """Every move rewrites the snapshot row: lz4 costs PostgreSQL less CPU
    than its default pglz (games migration 0019)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression'"
            " AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is None:
            pytest.skip("this server has no lz4")
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute"
            " WHERE attrelid = 'games_handsnapshot'::regclass"
            " AND attname IN ('data', 'events', 'rob_base')"
        )
        found = dict(cursor.fetchall())
    assert found == {"data": "l", "events": "l", "rob_base": "l"}
