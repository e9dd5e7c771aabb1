"""A real Daphne server in a subprocess for the browser tests (and screenshots).

pytest-django's ``live_server`` is WSGI-only, so WebSockets need Daphne.  The
server runs the embedded default (its own SQLite file, in-memory channel layer,
eager Celery with in-process timers) whatever the surrounding environment, so
the same tests run in both passes of ``.ci/run``; players are created through
``manage.py shell`` in that database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-browser-123"

SERVER_ENV = {
    # Short pauses so a whole hand fits in a test; the rules stay the same.
    "MAHJONG_BOT_OFFER_AFTER": "2",
    # a loaded CI machine can take more than the rule set's 15 s between a
    # hand's end and the test's click on 继续 / 分组
    "MAHJONG_SETTLEMENT_SECONDS": "120",
    # 托管 and 报听 play on through the clock's paced steps as in production,
    # a round every 0.2 s instead of every second (the pace itself is tested
    # in tests/games/test_games_pacing.py): a hand both seats leave to 托管
    # took a minute of the browser tests' time
    "MAHJONG_AUTO_PACE": "0.2",
    "DJANGO_LOG_LEVEL": "WARNING",
    "ACCOUNT_RATE_LIMITS": "",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """Start/stop Daphne on a free port with a fresh SQLite database."""

    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="mj-browser-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in (
                "DATABASE_URL",
                "REDIS_URL",
                "CELERY_TASK_ALWAYS_EAGER",
                "MAHJONG_CLOCK",
                "DJANGO_SETTINGS_MODULE",
            )
        }
        env.update(SERVER_ENV)
        env.update(extra_env or {})
        env["DATABASE_URL"] = f"sqlite:///{self.tmp.name}/db.sqlite3"
        env["DJANGO_SETTINGS_MODULE"] = "mahjong_site.settings"
        env["PYTHONUNBUFFERED"] = "1"
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = Path(self.tmp.name) / "daphne.log"

    def manage(self, *args: str, stdin: str | None = None) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stderr}")
        return out.stdout

    def play_script(self, script: str, *, walls: str) -> str:
        """Run ``script`` in ``manage.py shell`` on this server's database
        with the clock left to commands (MAHJONG_CLOCK=command) and the hand
        seeds and bot generators drawn from a generator seeded by ``walls``
        (as tests/conftest.py does in-process), so the hands it plays are the
        same on every run; its standard output.

        Raises:
            RuntimeError: the script failed (with its standard error).
        """
        fixed = (
            "import random as _random\n"
            "from types import SimpleNamespace as _NS\n"
            "from games.services import auto as _auto, deal as _deal\n"
            f"_rng = _random.Random({walls!r})\n"
            "_deal.secrets = _auto.secrets = _NS(\n"
            "    token_hex=lambda n=32: _rng.randbytes(n).hex(),"
            " randbits=_rng.getrandbits)\n"
        )
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", fixed + script],
            cwd=ROOT,
            env=dict(self.env, MAHJONG_CLOCK="command"),
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"manage.py shell failed:\n{out.stderr}")
        return out.stdout

    def start(self) -> None:
        self.manage("migrate", "--noinput", "-v", "0")
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "mahjong_site.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 40
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"daphne did not answer:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.proc = None
        self.tmp.cleanup()

    def create_players(self, *names: str, coins: int = 10_000) -> None:
        """Create users ``names`` (password :data:`PASSWORD`) with ``coins``."""
        code = (
            "from accounts.ledger import ledger_correct\n"
            "from accounts.models import User\n"
            f"for n in {list(names)!r}:\n"
            f"    u = User.objects.create_user(n, n + '@example.com', {PASSWORD!r})\n"
            # balances go through the ledger
            f"    if {coins} != u.profile.coins:\n"
            "        ledger_correct(user=u, currency='coins', by=None, reason='test',\n"
            f"                       amount={coins} - u.profile.coins)\n"
            "        u.profile.refresh_from_db()\n"
            "    u.profile.nickname = n.capitalize()\n"
            "    u.profile.save(update_fields=['nickname'])\n"
        )
        self.manage("shell", "-c", code)

    def set_profile(
        self, name: str, *, points: int | None = None, nickname: str | None = None
    ) -> None:
        """Give player ``name`` ``points`` 实力积分 (through the ledger, as
        every balance) and/or the nickname ``nickname``."""
        code = (
            "from accounts.ledger import ledger_correct\n"
            "from accounts.models import User\n"
            f"u = User.objects.get(username={name!r})\n"
        )
        if points is not None:
            code += (
                "ledger_correct(user=u, currency='points', by=None, reason='test',"
                f" amount={points} - u.profile.rating_points)\n"
                "u.profile.refresh_from_db()\n"
            )
        if nickname is not None:
            code += (
                f"u.profile.nickname = {nickname!r}\n"
                "u.profile.save(update_fields=['nickname'])\n"
            )
        self.manage("shell", "-c", code)
