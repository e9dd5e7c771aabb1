"""``manage.py run_clock``: the live tables' one clock, in its own process."""

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from games import presence
from games.services.clock import run_due, run_forever
from mahjong_site.process import tune_gc


class Command(BaseCommand):
    help = (
        "Run the live tables' due times (timeouts, paced 托管, the disconnect "
        "grace, the settlement countdown, the bot offer) as they fall due. "
        "Several may run at once against PostgreSQL: each row is run once."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--once",
            action="store_true",
            help="run what is due now, print how many acted, and exit",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            self.stdout.write(f"acted {run_due()}")
            return
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        presence.warm()  # its grace checks read presence: connect now
        tune_gc()  # a server process: set up, now tune the collector
        self.stdout.write("clock running")
        self.stdout.flush()
        run_forever(stop=stop)
