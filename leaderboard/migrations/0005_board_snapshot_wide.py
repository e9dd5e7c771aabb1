"""Board snapshots: one row per player per (date, period, rule set) with a rank
and value column per board, instead of one row per board (issue 13, fast at
scale: a fifth of the rows).  Existing snapshots are carried over."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, Q

BOARDS = ("points", "coins", "rating", "winrate", "maxfan")
RULESET_CHOICES = [
    ("", "全部规则"),
    ("erren", "二人麻将"),
    ("mcr", "国标麻将"),
    ("erren64", "二人麻将手游版"),
    ("jj", "JJ二人麻将"),
    ("liangren", "两人麻将"),
    ("youxi", "优嘻网二人麻将"),
]


def carry_over(apps, schema_editor):
    old = apps.get_model("leaderboard", "BoardSnapshotRow")
    new = apps.get_model("leaderboard", "BoardSnapshot")
    columns = {}
    for b in BOARDS:
        columns[f"{b}_rank"] = Max("rank", filter=Q(board=b))
        columns[f"{b}_value"] = Max("value", filter=Q(board=b))
    rows = (
        old.objects.values("date", "period", "ruleset", "user_id")
        .annotate(**columns)
        .order_by()
    )
    batch = []
    for row in rows.iterator(chunk_size=10_000):
        batch.append(new(**row))
        if len(batch) == 10_000:
            new.objects.bulk_create(batch)
            batch = []
    new.objects.bulk_create(batch)


def rank(verbose):
    return models.PositiveIntegerField(null=True, verbose_name=verbose)


def value(verbose):
    return models.FloatField(null=True, verbose_name=verbose)


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0004_ruleset_choices_named"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel("BoardSnapshot", "BoardSnapshotRow"),
        migrations.CreateModel(
            name="BoardSnapshot",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                ("date", models.DateField(verbose_name="日期")),
                ("period", models.CharField(max_length=8, verbose_name="周期")),
                (
                    "ruleset",
                    models.CharField(
                        blank=True,
                        choices=RULESET_CHOICES,
                        default="",
                        max_length=16,
                        verbose_name="规则",
                    ),
                ),
                ("points_rank", rank("实力积分名次")),
                ("points_value", value("实力积分")),
                ("coins_rank", rank("游戏币名次")),
                ("coins_value", value("游戏币")),
                ("rating_rank", rank("等级分名次")),
                ("rating_value", value("等级分")),
                ("winrate_rank", rank("胜率名次")),
                ("winrate_value", value("胜率")),
                ("maxfan_rank", rank("最大番名次")),
                ("maxfan_value", value("最大番")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="玩家",
                    ),
                ),
            ],
            options={
                "verbose_name": "榜单快照",
                "verbose_name_plural": "榜单快照",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("period", "ruleset", "date", "user"),
                        name="unique_board_snapshot",
                    )
                ],
            },
        ),
        migrations.RunPython(carry_over, migrations.RunPython.noop),
        migrations.DeleteModel("BoardSnapshotRow"),
    ]
