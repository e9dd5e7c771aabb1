"""Site-level Celery tasks (health checks of the task pipeline)."""

import os
import socket

from celery import shared_task


@shared_task(name="mahjong_site.ping")
def ping(token: str) -> dict[str, object]:
    """Echo ``token`` with the executing process's host name and pid.

    Used by the health check and the services tests to prove that a real worker
    (another process) ran the task and that the result came back through the
    result backend.
    """
    return {"token": token, "hostname": socket.gethostname(), "pid": os.getpid()}
