"""Drop two foreign-key indexes that a composite index already covers.

``games_handevent(hand_id)`` is the prefix of ``unique_hand_seq (hand_id,
seq)``, and ``games_due(table_id)`` the prefix of ``(table_id, kind)``: every
lookup by hand or by table uses the composite one, and each move inserted its
log rows and updated its clock row into one index more than it needed
(issue 15).  Only the indexes are dropped (the same names on PostgreSQL and
SQLite): the foreign-key constraints stay as they are, so no table is rebuilt
or re-checked.
"""

import django.db.models.deletion
from django.db import migrations, models

_INDEXES = (
    ("games_handevent_hand_id_d48ec1bd", "games_handevent", "hand_id"),
    ("games_due_table_id_fdb7c62e", "games_due", "table_id"),
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_snapshot_rob_base"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX "{name}" ON "{table}" ("{column}")',
                )
                for name, table, column in _INDEXES
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="due",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.table",
                        verbose_name="牌桌",
                    ),
                ),
                migrations.AlterField(
                    model_name="handevent",
                    name="hand",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="games.handrecord",
                    ),
                ),
            ],
        ),
    ]
