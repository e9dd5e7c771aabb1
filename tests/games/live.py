"""A local cluster for live tests and the websocket benchmark.

Starts several Daphne processes and Celery workers (and ``clocks`` processes
of ``manage.py run_clock``: the tables' one clock) on loopback
against a given PostgreSQL database and Redis, waits until they are ready,
and stops exactly the processes it started.  Used by the ``services`` tests and by
``benchmarks/bench_ws.py``.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def frame_seq(html: str) -> int | None:
    """The ``data-seq`` of a frame (None for a toast or a redirect)."""
    m = re.search(r'data-seq="(\d+)"', html)
    return int(m.group(1)) if m else None


@dataclass
class Cluster:
    """Daphne × ``daphnes``, Celery × ``workers`` and ``manage.py run_clock``
    × ``clocks`` sharing ``env``."""

    env: dict[str, str]
    daphnes: int = 2
    workers: int = 2
    clocks: int = 1
    #: the ASGI application Daphne serves (the benchmark's bare consumer too)
    asgi: str = "mahjong_site.asgi:application"
    ports: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    logdir: Path = field(
        default_factory=lambda: Path(tempfile.mkdtemp(prefix="mahjong-live-"))
    )

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = self.logdir / f"{name}.log"
        self.logs.append(log)
        env = {**os.environ, **self.env}
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def start(self, timeout: float = 60.0) -> Cluster:
        tag = uuid.uuid4().hex[:6]
        for i in range(self.daphnes):
            port = free_port()
            self.ports.append(port)
            self._spawn(
                f"daphne{i}",
                [
                    str(BIN / "daphne"),
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    self.asgi,
                ],
            )
        for i in range(self.workers):
            self._spawn(
                f"worker{i}",
                [
                    str(BIN / "celery"),
                    "-A",
                    "mahjong_site",
                    "worker",
                    "--pool=solo",
                    "--loglevel=INFO",
                    "-n",
                    f"live{i}-{tag}@%h",
                ],
            )
        for i in range(self.clocks):
            self._spawn(
                f"clock{i}",
                [sys.executable, "-u", "manage.py", "run_clock"],
            )
        deadline = time.time() + timeout
        for port in self.ports:
            while True:
                self._check_alive()
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/healthz", timeout=2
                    ) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.time() > deadline:
                    raise RuntimeError(f"daphne on {port} not ready: {self.tail()}")
                time.sleep(0.2)
        for log in self.logs[self.daphnes : self.daphnes + self.workers]:
            while b"ready." not in log.read_bytes():
                self._check_alive()
                if time.time() > deadline:
                    raise RuntimeError(f"worker not ready: {self.tail()}")
                time.sleep(0.2)
        for log in self.logs[self.daphnes + self.workers :]:  # clocks
            while b"clock running" not in log.read_bytes():
                self._check_alive()
                if time.time() > deadline:
                    raise RuntimeError(f"clock not ready: {self.tail()}")
                time.sleep(0.2)
        return self

    def _check_alive(self) -> None:
        for proc in self.procs:
            if proc.poll() is not None:
                raise RuntimeError(f"a process exited early: {self.tail()}")

    def tail(self, n: int = 3000) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-n:]}" for p in self.logs
        )

    def url(self, i: int, path: str) -> str:
        return f"ws://127.0.0.1:{self.ports[i % len(self.ports)]}{path}"

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
