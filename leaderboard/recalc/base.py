"""What the recalculation's steps share: SQL helpers, the temporary
tables' names and the counters' columns."""

from __future__ import annotations

from typing import Any

from django.db import connection


def _t(name: str) -> str:
    return connection.ops.quote_name(name)


def _pg() -> bool:
    return connection.vendor == "postgresql"


def _same(a: str, b: str) -> str:
    """Null-safe equality (SQLite spells it ``IS``)."""
    return f"{a} IS NOT DISTINCT FROM {b}" if _pg() else f"{a} IS {b}"


def _work_mem(cur: Any) -> None:
    """PostgreSQL settings for this transaction's big statements."""
    if _pg():
        # the aggregates and window sorts over every player fit in memory
        # instead of spilling to disk
        cur.execute("SET LOCAL work_mem = '256MB'")
        # JIT compiling these one-off statements costs seconds of CPU each
        # (measured: 7 s for the check alone) and saves less
        cur.execute("SET LOCAL jit = off")


_RS, _AGG, _LEDGER, _DRIFT = "recalc_rs", "recalc_agg", "recalc_ledger", "recalc_drift"
_SNAP = "recalc_snap"
_STAT_COLUMNS = (
    "hands",
    "wins",
    "self_drawn",
    "dealt_in",
    "draws",
    "points",
    "coins",
    "fan_sum",
    "max_fan",
    "rated_hands",
    "rating",
    "deviation",
    "last_played",
)
_POINT_KINDS = ("hand", "recalc", "reversal")
"""Ledger kinds that make up what a hand booked in points (its net)."""
_DRIFTED = f"SELECT user_id FROM {_DRIFT}"
