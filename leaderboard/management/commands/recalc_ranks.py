"""``python manage.py recalc_ranks [--date YYYY-MM-DD]``: the nightly job, by hand."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboard.recalc import recalc_day_check
from leaderboard.tasks import recalc_ranks_task


def _day(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as exc:
        raise CommandError(f"--date must be YYYY-MM-DD, got {text!r}") from exc


class Command(BaseCommand):
    help = (
        "Recalculate points, levels, hand counts, win rates and ratings from the"
        " hand records and store the dated snapshot of every board (the task"
        " Celery beat runs at 03:00). Default date: yesterday (server time)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", type=_day, default=None, help="YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["date"]:
            try:
                recalc_day_check(day=date.fromisoformat(options["date"]))
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        report = recalc_ranks_task(options["date"])
        self.stdout.write(json.dumps(report, ensure_ascii=False))
        self.stdout.write(
            self.style.SUCCESS(
                f"recalc_ranks {report['date']}: {report['corrected']} rows corrected,"
                f" {report['snapshot_rows']} snapshot rows"
            )
        )
