"""Compress the hand snapshot's JSON with lz4 on PostgreSQL (issue 15).

Every move rewrites its hand's snapshot row, whose JSON (3–8 KB as jsonb)
PostgreSQL compresses because the row passes its TOAST threshold.  With its
default, pglz, that cost the backend about 120 µs of CPU per move more than
lz4 (a 1,000-update run, alternated: 560–590 µs against 400–460 µs per
transaction); the row is about a fifth bigger.  Values are unchanged (only
how PostgreSQL stores them); rows already written keep pglz until their next
write.  Only where the server has lz4 (PostgreSQL 14+, built with it);
elsewhere, and on other databases, nothing.
"""

from django.db import migrations

_COLUMNS = ("data", "events", "rob_base")


def _has_lz4(schema_editor) -> bool:  # type: ignore[no-untyped-def]
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression'"
            " AND 'lz4' = ANY(enumvals)"
        )
        return cursor.fetchone() is not None


def _compress(method: str):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
        if not _has_lz4(schema_editor):
            return
        snapshot = apps.get_model("games", "HandSnapshot")
        qn = schema_editor.quote_name
        table = qn(snapshot._meta.db_table)
        for name in _COLUMNS:
            column = qn(snapshot._meta.get_field(name).column)
            schema_editor.execute(
                f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}"
            )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_fk_indexes_covered"),
    ]

    operations = [
        migrations.RunPython(_compress("lz4"), _compress("default")),
    ]
