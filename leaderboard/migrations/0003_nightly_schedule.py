"""Celery beat's nightly entry: ``leaderboard.recalc_ranks`` at 03:00 server time.

Stored in django-celery-beat's tables, so staff can change or pause it in
admin (定时任务); the beat process reads it from the database.
"""

from django.conf import settings
from django.db import migrations

NAME = "leaderboard-recalc-ranks"


def add(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="0",
        hour="3",
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone=settings.TIME_ZONE,
    )
    PeriodicTask.objects.get_or_create(
        name=NAME,
        defaults={
            "task": "leaderboard.recalc_ranks",
            "crontab": crontab,
            "description": "Nightly rank recalculation (issue 13): python manage.py"
            " recalc_ranks does the same by hand.",
        },
    )


def remove(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(
        name=NAME
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0002_board_snapshot"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add, remove)]
