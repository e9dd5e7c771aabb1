"""Settlement (结算): fan, multipliers, coins, rake and skill points of a hand.

A pure function of the hand's outcome, the rule set, the room's base stake
and both balances, with a line-by-line breakdown for the UI.

The formula, by source:

* 总番数 starts from the scorer's total plus additions the engine adds
  (none today: 加番牌 is scored by the rules engine through
  ``WinSituation.bonus_tiles``, seed 001).
* Seed 000 加倍系统 ("以上所有倍数只与底番相乘，胡牌总番数为各种加倍番数
  相加而得"): each active doubling kind contributes its own share and the
  shares are added —
  开始加倍: base × 2 per seat that doubled (2 × 2 when both did);
  胡加倍 n times: (base + 2n) × 2ⁿ (n ≤ ``max_win_doubles``);
  任务加倍: base × the task's factor when the winner completed it.
  With no share active the total is the base.  The seed's example —
  base 10, both doubled, one 胡加倍, a ×2 task — gives
  10×2×2 + (10+2)×2 + 10×2 = 84 (tested).
* Seed 002 计分规则, 倍数 (multiplied): 明牌 ×4 for each seat that opened
  ("若同时有多名玩家选择明牌则倍数相乘"), 加倍 ×2 for each seat that
  doubled after the deal, 听牌胡 ×2 when the winner had declared 报听.  The
  factors are read from ``RuleSet.multipliers`` (keys ``open_hand``,
  ``deal_double``, ``ready_win``; ``start_double`` and ``task`` for the
  seed 000 shares) and apply only where the rule set has the system.
* 自摸: the coins are multiplied by ``RuleSet.self_drawn_factor`` (seed 000
  游戏说明 "自摸不加倍" → 1).  杠牌不计分 (seed 000): kongs pay nothing on
  their own; no seed defines a kong payment, so ``kong_payments`` is shown
  as a line and never moves coins.
* 游戏币 = 总番数 × 房间基数 × 倍数 (× the 自摸 factor), capped at the
  smaller of the two balances (seed 002 "每盘胡牌上限为游戏币少的玩家的游戏
  币数量").  The loser pays it; the site keeps ``rake_percent`` (seed 002:
  5 %) of it, rounded half up to a whole coin; the winner gets the rest.
  So winner's gain + rake = loser's loss.
* 实力积分 = 总番数 × 倍数 for the winner, 0 for the loser (seed 002).
* 流局 moves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.rulesets.base import RuleSet, System

DEFAULT_FACTORS = {
    "open_hand": 4,
    "deal_double": 2,
    "ready_win": 2,
    "start_double": 2,
    "task_double": 2,
}


@dataclass(frozen=True, slots=True)
class Line:
    """One row of the breakdown: ``key`` (stable id), display names, value.

    ``note`` is language-neutral working (``"17×10×1"``, ``"5%"``);
    ``note_code`` names a worded note the presentation layer translates
    (see :data:`NOTE_CODES`), so no interface text is fixed here.
    """

    key: str
    zh: str
    en: str
    value: int
    note: str = ""
    note_code: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "zh": self.zh,
            "en": self.en,
            "value": self.value,
            "note": self.note,
            "note_code": self.note_code,
        }


NOTE_CODES = {
    "draw_no_score": "流局不计输赢",
    "seat_0": "座位0",
    "seat_1": "座位1",
    "self_drawn_not_doubled": "自摸不加倍",
}
"""``Line.note_code`` → what it means (Chinese, the seed's wording).

The interface words these through Django's translations
(``games.display.settlement.settle_note``); this table is their source.
``self_drawn_not_doubled``: the rule set's 自摸 factor is 1 (seed 000:
自摸不加倍).
"""


FACTOR_LINES = frozenset({"multiplier", "self_drawn", "ready_win"})
"""Keys of the lines whose value is a factor (×n), not an amount; the 明牌 and
加倍 lines, one per seat (``open_hand_0`` …), are factors too
(:func:`is_factor_line`)."""

SHARE_LINES = ("start_double", "win_double", "task")
"""Keys of the seed 000 doubling shares, in order; when any is present the
``fan`` line (总番数) is their sum, not their product (:func:`settle`)."""

COIN_LINES = frozenset({"coins_raw", "cap", "rake"})
"""Keys of the lines whose value is 游戏币 (a practice table pays none)."""


def is_factor_line(key: str) -> bool:
    """Whether the settlement line ``key`` holds a factor (shown ``×n``)."""
    return key in FACTOR_LINES or key.startswith(("open_hand", "deal_double"))


def win_double_terms(count: int) -> tuple[int, int]:
    """胡加倍 after ``count`` declined wins (seed 000): ``(plus, factor)``.

    A win then scores (底番 + plus) × factor, plus = 2n and factor = 2ⁿ for
    n = ``count``.
    """
    return 2 * count, 2**count


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the hand decided, as settlement needs it.

    ``winner`` is ``None`` for 流局.  ``base_fan`` is the scorer's total.
    ``additions`` are extra fan rows ``(key, zh, fan)``.  Flag pairs are per
    seat.  ``win_doubles`` is the winner's 胡加倍 count.
    """

    winner: int | None
    self_drawn: bool = False
    base_fan: int = 0
    additions: tuple[tuple[str, str, int], ...] = ()
    open_hand: tuple[bool, bool] = (False, False)
    start_double: tuple[bool, bool] = (False, False)
    deal_double: tuple[bool, bool] = (False, False)
    ready_win: bool = False
    win_doubles: int = 0
    task_done: bool = False
    task_factor: int = 2


@dataclass(frozen=True, slots=True)
class Settlement:
    """Result of :func:`settle`.

    Attributes:
        winner, loser: seats, ``None`` for 流局.
        fan: 总番数 after the seed 000 doubling shares.
        multiplier: 倍数 (seed 002 factors).
        coins: what the loser pays (after the cap).
        rake: what the site keeps.
        deltas: balance change per seat (winner: coins − rake; loser: −coins).
        skill: 实力积分 per seat.
        lines: the breakdown, in reading order.
    """

    winner: int | None
    loser: int | None
    fan: int
    multiplier: int
    coins: int
    rake: int
    deltas: tuple[int, int]
    skill: tuple[int, int]
    lines: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "loser": self.loser,
            "fan": self.fan,
            "multiplier": self.multiplier,
            "coins": self.coins,
            "rake": self.rake,
            "deltas": list(self.deltas),
            "skill": list(self.skill),
            "lines": [line.to_json() for line in self.lines],
        }


def _factor(ruleset: RuleSet, key: str) -> int:
    return int(ruleset.multipliers.get(key, DEFAULT_FACTORS[key]))


def choice_factors(
    ruleset: RuleSet,
    *,
    open_hand: tuple[bool, bool] | list[bool],
    deal_double: tuple[bool, bool] | list[bool],
) -> list[tuple[str, int, int]]:
    """The 倍数 factors the seats' choices make: ``[(key, seat, factor)]``.

    Seed 002 计分规则: 明牌 ×4 for each seat that opened ("若同时有多名玩家
    选择明牌则倍数相乘"), 加倍 ×2 for each seat that doubled after the deal
    (seeds 002/004); only where the rule set has the system.  Their product
    is the hand's multiplier before 听牌胡 (the winner's, known at the end);
    the table shows it live.
    """
    out: list[tuple[str, int, int]] = []
    for key, system, chosen in (
        ("open_hand", System.OPEN_HAND, open_hand),
        ("deal_double", System.DEAL_DOUBLE, deal_double),
    ):
        if system in ruleset.systems:
            out += [(key, s, _factor(ruleset, key)) for s in (0, 1) if chosen[s]]
    return out


def settle(
    outcome: Outcome, *, ruleset: RuleSet, stake: int, balances: tuple[int, int]
) -> Settlement:
    """Settle a hand (see the module docstring for every rule and its source).

    Args:
        outcome: what happened.
        ruleset: the rule set in force (systems, multipliers, rake).
        stake: 房间基数, coins per fan (≥ 1).
        balances: both seats' 游戏币 before the hand (≥ 0).

    Raises:
        ValueError: ``stake`` < 1, a negative balance, a winner that is not
            0/1, or a negative fan.
    """
    if stake < 1:
        raise ValueError(f"stake must be at least 1, got {stake}")
    if min(balances) < 0:
        raise ValueError(f"balances must not be negative, got {balances}")
    if outcome.winner is None:
        line = Line("draw", "流局", "Drawn hand", 0, note_code="draw_no_score")
        return Settlement(None, None, 0, 1, 0, 0, (0, 0), (0, 0), (line,))
    if outcome.winner not in (0, 1):
        raise ValueError(f"winner must be 0 or 1, got {outcome.winner}")
    if outcome.base_fan < 0:
        raise ValueError("fan cannot be negative")
    winner = outcome.winner
    loser = 1 - winner
    systems = ruleset.systems
    lines: list[Line] = [
        Line("base_fan", "番种合计", "Fan from patterns", outcome.base_fan)
    ]
    base = outcome.base_fan
    for key, zh, fan in outcome.additions:
        lines.append(Line(key, zh, key, fan))
        base += fan
    lines.append(Line("base", "底番", "Base fan", base))

    shares: list[int] = []
    n_start = sum(outcome.start_double)
    if System.START_DOUBLE in systems and n_start:
        f = _factor(ruleset, "start_double") ** n_start
        shares.append(base * f)
        lines.append(
            Line("start_double", "开始加倍", "Start double", base * f, f"{base}×{f}")
        )
    n = min(outcome.win_doubles, ruleset.max_win_doubles)
    if System.WIN_DOUBLE in systems and n:
        plus, factor = win_double_terms(n)
        share = (base + plus) * factor
        shares.append(share)
        lines.append(
            Line(
                "win_double",
                f"胡加倍{n}次",
                f"Win double ×{n}",
                share,
                f"({base}+{plus})×{factor}",
            )
        )
    if System.TASK_DOUBLE in systems and outcome.task_done:
        f = outcome.task_factor
        shares.append(base * f)
        lines.append(Line("task", "任务加倍", "Task double", base * f, f"{base}×{f}"))
    fan = sum(shares) if shares else base
    lines.append(Line("fan", "总番数", "Total fan", fan))

    multiplier = 1
    names = {"open_hand": ("明牌", "Open hand"), "deal_double": ("加倍", "Double")}
    for key, seat, f in choice_factors(
        ruleset, open_hand=outcome.open_hand, deal_double=outcome.deal_double
    ):
        multiplier *= f
        zh, en = names[key]
        lines.append(Line(f"{key}_{seat}", zh, en, f, note_code=f"seat_{seat}"))
    if outcome.ready_win and "ready_win" in ruleset.multipliers:
        f = _factor(ruleset, "ready_win")
        multiplier *= f
        lines.append(Line("ready_win", "听牌胡", "Win after ready", f))
    lines.append(Line("multiplier", "倍数", "Multiplier", multiplier))

    sd = ruleset.self_drawn_factor if outcome.self_drawn else 1
    if outcome.self_drawn:
        lines.append(
            Line(
                "self_drawn",
                "自摸",
                "Self-drawn factor",
                sd,
                note_code="self_drawn_not_doubled" if sd == 1 else "",
            )
        )
    if not ruleset.kong_payments:
        lines.append(Line("kongs", "杠牌不计分", "Kongs pay nothing", 0))
    raw = fan * stake * multiplier * sd
    lines.append(
        Line(
            "coins_raw",
            "游戏币",
            "Coins",
            raw,
            f"{fan}×{stake}×{multiplier}" + (f"×{sd}" if sd != 1 else ""),
        )
    )
    cap = min(balances)
    coins = min(raw, cap)
    if coins < raw:
        lines.append(Line("cap", "封顶", "Capped at the poorer balance", coins))
    rake = (coins * ruleset.rake_percent + 50) // 100
    lines.append(Line("rake", "系统回收", "Rake", rake, f"{ruleset.rake_percent}%"))
    deltas = [0, 0]
    deltas[winner] = coins - rake
    deltas[loser] = -coins
    lines.append(Line("winner_gain", "赢家所得", "Winner gets", coins - rake))
    lines.append(Line("loser_loss", "输家所付", "Loser pays", coins))
    skill = [0, 0]
    skill[winner] = fan * multiplier
    lines.append(Line("skill", "实力积分", "Skill points", fan * multiplier))
    return Settlement(
        winner,
        loser,
        fan,
        multiplier,
        coins,
        rake,
        (deltas[0], deltas[1]),
        (skill[0], skill[1]),
        tuple(lines),
    )
