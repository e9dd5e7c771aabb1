"""``manage.py resume_tables``: resume live tables after a crash or restart."""

from django.core.management.base import BaseCommand

from games.services.resume import resume_tables


class Command(BaseCommand):
    help = (
        "Resume every playing table from its event log (reschedule deadlines, "
        "start the disconnect grace); annul hands that cannot be rebuilt."
    )

    def handle(self, *args, **options):
        report = resume_tables()
        self.stdout.write(
            f"resumed {len(report.resumed)}, annulled {len(report.annulled)}, "
            f"settling {len(report.settling)}"
        )
