"""What one run of the recalculation changed (:class:`RecalcReport`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class RecalcReport:
    """What one run changed (all counts of rows) and how long each step took."""

    date: str
    players: int = 0
    drifted_players: int = 0
    points_recalculated: int = 0
    hand_rows_repaired: int = 0
    balances_repaired: int = 0
    stats_inserted: int = 0
    stats_repaired: int = 0
    stats_emptied: int = 0
    snapshot_rows: int = 0
    snapshot_written: int = 0
    snapshot_removed: int = 0
    snapshots_pruned: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def corrected(self) -> int:
        """Rows that had drifted and were put right."""
        return (
            self.points_recalculated
            + self.hand_rows_repaired
            + self.balances_repaired
            + self.stats_inserted
            + self.stats_repaired
            + self.stats_emptied
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["corrected"] = self.corrected
        return data
