"""Small robust statistics for the evidence and the automatic signals.

Decision times are skewed (most moves are quick, a few are long thinks), so
the comparisons use medians and the median absolute deviation (MAD) rather
than means and standard deviations: one long pause does not move them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

MAD_TO_SD = 1.4826
"""MAD × this estimates the standard deviation of a normal distribution."""

MEDIAN_SE = 1.2533
"""The standard error of a median is about this × σ / √n (normal data)."""

MIN_SPREAD = 0.05
"""Seconds: the smallest spread used as a denominator (a bot's constant
timing has a MAD of ~0, which would make every difference infinite)."""


def median(values: Sequence[float]) -> float | None:
    """The median of ``values``, or None when empty."""
    return float(statistics.median(values)) if values else None


def mad(values: Sequence[float]) -> float | None:
    """The median absolute deviation from the median, or None when empty."""
    if not values:
        return None
    m = statistics.median(values)
    return float(statistics.median(abs(v - m) for v in values))


def median_shift_z(sample: Sequence[float], baseline: Sequence[float]) -> float | None:
    """How many standard errors the median of ``sample`` is from ``baseline``'s.

    ``(median(sample) − median(baseline)) / (1.2533 · σ̂ / √n)`` where σ̂ is
    ``baseline``'s MAD × 1.4826 (at least :data:`MIN_SPREAD` s) and n the
    sample size.  Negative: faster than usual.  None when either is empty.
    """
    if not sample or not baseline:
        return None
    spread = max((mad(baseline) or 0.0) * MAD_TO_SD, MIN_SPREAD)
    se = MEDIAN_SE * spread / math.sqrt(len(sample))
    return (float(statistics.median(sample)) - float(statistics.median(baseline))) / se


def proportion_z(hits: int, n: int, base_hits: int, base_n: int) -> float | None:
    """Standard errors by which ``hits / n`` exceeds the baseline rate.

    ``(p − p₀) / √(p₀(1 − p₀) / n)`` with p₀ = ``base_hits / base_n``
    (kept inside [0.02, 0.98] so a perfect baseline still leaves room).
    None without data.
    """
    if n <= 0 or base_n <= 0:
        return None
    p0 = min(max(base_hits / base_n, 0.02), 0.98)
    return (hits / n - p0) / math.sqrt(p0 * (1 - p0) / n)
