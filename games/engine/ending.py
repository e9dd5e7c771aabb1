"""How a hand ends: a win or a draw, its result, settlement and last event."""

from __future__ import annotations

from . import analysis
from .actions import (
    JSON,
)
from .log import HandLog
from .log import tile_str as _t
from .settle import Outcome, settle
from .state import Phase


class HandEnding(HandLog):
    """The endings of a hand (和 or 流局) and the ``hand_ended`` event."""

    def _end_win(
        self,
        seat: int,
        tile: int,
        score: analysis.ScoreLike,
        *,
        self_drawn: bool,
        robbed: bool = False,
    ) -> None:
        s = self.state
        task_done = s.task is not None and s.task.is_done(
            counts=s.concealed[seat],
            melds=s.melds[seat],
            fan_ids={f.id for f in score.fans if f.counted},
            doubled=s.start_double[seat] or s.deal_double[seat],
        )
        outcome = Outcome(
            winner=seat,
            self_drawn=self_drawn,
            base_fan=int(score.total),
            open_hand=(s.open_hand[0], s.open_hand[1]),
            start_double=(s.start_double[0], s.start_double[1]),
            deal_double=(s.deal_double[0], s.deal_double[1]),
            ready_win=s.ready[seat],
            win_doubles=s.win_doubles[seat],
            task_done=task_done,
            task_factor=s.task.factor if s.task else 2,
        )
        fans = [
            {
                "id": f.id,
                "zh": f.zh,
                "en": f.en,
                "points": f.points,
                "count": f.count,
                "counted": f.counted,
                "reason": f.reason,
            }
            for f in score.fans
        ]
        self._finish(
            outcome,
            {
                "reason": "win",
                "winner": seat,
                "loser": 1 - seat,
                "self_drawn": self_drawn,
                "robbed_kong": robbed,
                "win_tile": _t(tile),
                "fan_total": int(score.total),
                "fans": fans,
                "task_done": task_done,
            },
        )

    def _end_draw(self, reason: str) -> None:
        self._finish(Outcome(winner=None), {"reason": reason, "winner": None})

    def _finish(self, outcome: Outcome, result: dict[str, JSON]) -> None:
        s = self.state
        self.settlement = settle(
            outcome, ruleset=self.ruleset, stake=s.stake, balances=s.balances
        )
        s.phase = Phase.ENDED
        s.pending = [False, False]
        s.deadline = None
        s.rob_tile = None
        result["settlement"] = self.settlement.to_json()
        result["balances_after"] = [
            s.balances[i] + self.settlement.deltas[i] for i in (0, 1)
        ]
        s.result = result
        self._emit(
            "hand_ended",
            None,
            {
                **result,
                "hands": [[str(t) for t in self.tiles_of(i)] for i in (0, 1)],
                "melds": [[str(m) for m in s.melds[i]] for i in (0, 1)],
                "swapped": [[_t(t) for t in s.swapped[i]] for i in (0, 1)],
                "seed": s.seed,
                "commitment": s.commitment,
            },
        )
