"""Suite-wide pytest configuration.

Tests marked ``services`` need the real PostgreSQL + Redis (+ a Celery worker); they
are deselected unless both ``DATABASE_URL`` and ``REDIS_URL`` are set, as ``.ci/run``
does in its second pass. Rules and engine tests need no database and are untouched.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL")


def services_configured() -> bool:
    """True when the settings point at real PostgreSQL and Redis."""
    return all(os.environ.get(name) for name in SERVICE_VARS)


def pytest_report_header(config: pytest.Config) -> str:
    if services_configured():
        return "services: PostgreSQL + Redis configured; 'services' tests run"
    return "services: embedded default; 'services' tests deselected"


def pytest_configure(config: pytest.Config) -> None:
    _compile_messages_if_stale()


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    if services_configured():
        return
    kept = [item for item in items if item.get_closest_marker("services") is None]
    dropped = [item for item in items if item.get_closest_marker("services")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _compile_messages_if_stale() -> None:
    """Compile locale/*.po to .mo when missing or older (so bare ``pytest`` works)."""
    msgfmt = shutil.which("msgfmt")
    for po in (ROOT / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        if msgfmt is None:
            raise pytest.UsageError(
                f"{mo} is missing or stale and msgfmt is not installed; "
                "install gettext (apt-get install -y gettext) or run scripts/test"
            )
        subprocess.run([msgfmt, "--check-format", "-o", str(mo), str(po)], check=True)
