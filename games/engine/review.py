"""Review (复盘): every discard and claim decision against the strongest bot.

For each decision of a seat — its turn (discard, 报听 with a discard, 暗杠 /
加杠, 换牌, 自摸) and each claim window where it had a real choice (吃 碰 杠 和
or 过, 抢杠和, 报听 instead of passing) — the hard bot
(:class:`~games.engine.bots.hard.HardBot`) is asked what it would do in the
same position with the same information: it gets ``Hand.view(seat)`` and
``Hand.legal_actions(seat)`` at that moment, exactly what the seat had
(never the wall or the opponent's concealed tiles, unless 明牌).

For the player's choice and the bot's, the shanten number (向听数, -1 = a
win, 0 = 听牌) and the useful tiles (有效牌: copies still unseen by the seat
of the kinds that lower the shanten) are computed by the rules engine
(:func:`games.rules.shanten.useful_tiles`, :mod:`games.engine.analysis`).

Not reviewed (not the player's own decision, or no choice): moves made in
托管 (the server's bot played them), timeouts (the engine's default move),
positions with one legal move (a locked 报听 hand's forced discard), and
the choices before the deal and at 加倍 (not a discard or a claim).

After a 吃 or 碰 the seat still has to discard: its numbers are those of the
best discard that follows (the shanten of a 14-tile hand, as
:func:`games.rules.shanten.shanten` defines it, and the most useful tiles
any discard leaves).

A 换牌 (swap: a tile given back, then a draw, then the discard) has no
numbers (``None``): where it leaves the hand depends on the tile drawn, and
it is not a discard of the tile given back.  Such a decision still counts
for agreement (the bot chose the same swap or not) but never as a cost.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..rules.errors import InvalidHandError
from ..rules.shanten import useful_tiles
from ..rules.tiles import NUM_KINDS
from ..rules.wild_scoring import split_counts
from .actions import (
    JSON,
    Action,
    AddedKong,
    AutoPlay,
    Chi,
    ConcealedKong,
    Discard,
    Double,
    Kong,
    Pass,
    PreDeal,
    Pung,
    Ready,
    Swap,
    Timeout,
    Win,
)
from .analysis import WHITE, hand_shanten
from .bots import make_bot
from .bots.observation import observation_from_view
from .events import Event
from .hand import Hand
from .walk import walk

REVIEW_VERSION = 2  # 2: a 换牌 is compared by choice only (no shanten numbers)
"""Bumped when the review's method changes (stored reviews say which one)."""

BOT_LEVEL = "hard"
"""The bot the decisions are compared with: the engine's strongest."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A choice and where it leaves the hand.

    ``shanten`` is -1 for a win; ``useful`` counts unseen copies of the
    useful kinds (0 after a win); ``None`` when it cannot be computed.
    """

    action: dict[str, JSON]
    shanten: int | None
    useful: int | None


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One reviewed decision.

    Attributes:
        seq: sequence number of the first event the player's action caused
            (the replay's step of that move).
        seat: the deciding seat.
        phase: ``turn``, ``claim`` or ``rob``.
        player, bot: the choices and their :class:`Outcome`.
        agreed: the bot chose the same action (same kind and tiles).
        seconds: how long the player took, or ``None``.
    """

    seq: int
    seat: int
    phase: str
    player: Outcome
    bot: Outcome
    agreed: bool
    seconds: float | None = None

    @property
    def useful_lost(self) -> int:
        """Useful tiles the player's choice gave up against the bot's (≥ 0),
        counted when both choices leave the same shanten (a choice that is
        steps behind is measured by :attr:`shanten_lost`)."""
        p, b = self.player, self.bot
        if p.useful is None or b.useful is None or p.shanten != b.shanten:
            return 0
        return max(0, b.useful - p.useful)

    @property
    def shanten_lost(self) -> int:
        """Shanten steps the player's choice is behind the bot's (≥ 0)."""
        if self.player.shanten is None or self.bot.shanten is None:
            return 0
        return max(0, self.player.shanten - self.bot.shanten)

    def to_json(self) -> dict[str, JSON]:
        """JSON form (stored by the site; see :func:`decision_from_json`)."""
        return {
            "seq": self.seq,
            "seat": self.seat,
            "phase": self.phase,
            "player": {
                "action": self.player.action,
                "shanten": self.player.shanten,
                "useful": self.player.useful,
            },
            "bot": {
                "action": self.bot.action,
                "shanten": self.bot.shanten,
                "useful": self.bot.useful,
            },
            "agreed": self.agreed,
            "seconds": self.seconds,
        }


def decision_from_json(data: dict[str, JSON]) -> ReviewedDecision:
    """Inverse of :meth:`ReviewedDecision.to_json`.

    Raises:
        KeyError, TypeError: not a stored decision.
    """

    def outcome(d: dict[str, JSON]) -> Outcome:
        return Outcome(dict(d["action"]), d.get("shanten"), d.get("useful"))

    seconds = data.get("seconds")
    return ReviewedDecision(
        seq=int(data["seq"]),
        seat=int(data["seat"]),
        phase=str(data["phase"]),
        player=outcome(data["player"]),
        bot=outcome(data["bot"]),
        agreed=bool(data["agreed"]),
        seconds=None if seconds is None else float(seconds),
    )


@dataclass
class Review:
    """A hand's review: the decisions in order, and counts per seat."""

    decisions: list[ReviewedDecision] = field(default_factory=list)
    version: int = REVIEW_VERSION

    def counts(self, seat: int) -> tuple[int, int]:
        """``(agreed, decisions)`` of ``seat``."""
        mine = [d for d in self.decisions if d.seat == seat]
        return sum(1 for d in mine if d.agreed), len(mine)

    def costly(self, seat: int, limit: int = 5) -> list[ReviewedDecision]:
        """The seat's decisions that cost the most against the bot's choice.

        Ordered by shanten steps lost, then useful tiles lost; only
        decisions that lost something.
        """
        lost = [
            d
            for d in self.decisions
            if d.seat == seat and (d.shanten_lost or d.useful_lost)
        ]
        lost.sort(key=lambda d: (-d.shanten_lost, -d.useful_lost, d.seq))
        return lost[:limit]


def action_key(action: Action) -> dict[str, JSON]:
    """An action without seat and seq (what is compared and stored)."""
    data = action.to_json()
    data.pop("seat", None)
    data.pop("seq", None)
    return data


_NOT_REVIEWED = (Timeout, AutoPlay, PreDeal, Double)


def _choices(legal: Iterable[Action]) -> list[Action]:
    return [a for a in legal if not isinstance(a, Timeout | AutoPlay)]


def _after(hand: Hand, seat: int, action: Action) -> tuple[list[int], int] | None:
    """Concealed counts and meld count after ``action`` (None: a win)."""
    s = hand.state
    c = list(s.concealed[seat])
    m = len(s.melds[seat])
    if isinstance(action, Win):
        return None
    if isinstance(action, Discard):
        c[action.tile.index] -= 1
    elif isinstance(action, Ready):
        if action.tile is not None:
            c[action.tile.index] -= 1
    elif isinstance(action, Chi):
        offered = s.last_discard
        for t in action.tiles:
            if t.index != offered:
                c[t.index] -= 1
        m += 1
    elif isinstance(action, Pung):
        assert s.last_discard is not None
        c[s.last_discard] -= 2
        m += 1
    elif isinstance(action, Kong):
        assert s.last_discard is not None
        c[s.last_discard] -= 3
        m += 1
    elif isinstance(action, ConcealedKong):
        c[action.tile.index] -= 4
        m += 1
    elif isinstance(action, AddedKong):
        c[action.tile.index] -= 1
    elif not isinstance(action, Pass):  # pragma: no cover - filtered before
        raise ValueError(f"not a reviewed action: {action.kind}")
    return c, m


def _useful(
    hand: Hand, counts: Sequence[int], melds: int, unseen: Sequence[int]
) -> tuple[int, int]:
    """``(shanten, useful copies)`` of a hand waiting to draw (13 − 3m tiles)."""
    wild = hand.state.wild
    rs = hand.ruleset
    faces, wilds = split_counts(counts, wild)
    shanten = hand_shanten(counts, melds, wild, rs)
    kinds = useful_tiles(faces, melds=melds, wilds=wilds, shapes=rs.shapes)
    total = 0
    for k in kinds:
        # a face of the wild kind is played by 白板 (rules.wild_scoring.split_counts)
        if wild is not None and wild != WHITE:
            if k == wild:
                k = WHITE
            elif k == WHITE:
                continue
        total += unseen[k]
    if wild is not None and shanten >= 0:
        total += unseen[wild]  # a drawn 财神 always helps
    return shanten, total


def outcome(hand: Hand, seat: int, action: Action, unseen: Sequence[int]) -> Outcome:
    """Where ``action`` leaves ``seat``'s hand: shanten and useful tiles.

    ``unseen`` are the copies per kind the seat cannot see (its observation
    before the choice).
    """
    key = action_key(action)
    if isinstance(action, Swap):
        # 换牌 gives a tile back and draws again before discarding: where it
        # leaves the hand depends on the unknown draw, so its numbers are not
        # those of a discard of the same tile; it is compared by choice only
        return Outcome(key, None, None)
    after = _after(hand, seat, action)
    if after is None:
        return Outcome(key, -1, 0)
    counts, melds = after
    try:
        if sum(counts) == 14 - 3 * melds:  # after 吃/碰: the best discard next
            best: tuple[int, int] | None = None
            for k in range(NUM_KINDS):
                if not counts[k] or k == hand.state.wild:
                    continue
                counts[k] -= 1
                got = _useful(hand, counts, melds, unseen)
                counts[k] += 1
                if best is None or (got[0], -got[1]) < (best[0], -best[1]):
                    best = got
            if best is None:
                return Outcome(key, None, None)
            return Outcome(key, best[0], best[1])
        shanten, useful = _useful(hand, counts, melds, unseen)
    except InvalidHandError:
        return Outcome(key, None, None)
    return Outcome(key, shanten, useful)


def review_hand(
    seed: str,
    events: Sequence[Event],
    *,
    seats: Iterable[int] = (0, 1),
    wall: Sequence[int] | None = None,
) -> Review:
    """Review every discard and claim decision of ``seats`` in a hand's log.

    ``seed`` and ``events`` are the hand's (the log may stop before the end,
    as an annulled hand's does); ``wall`` a test hand's stacked wall.

    Raises:
        ValueError: the log cannot be replayed from the seed (see
            :func:`games.engine.walk.walk`).
    """
    wanted = set(seats)
    bots = {s: make_bot(BOT_LEVEL, random.Random(0)) for s in (0, 1)}
    review = Review()
    for point in walk(seed, events, wall=wall):
        action = point.action
        seat = point.seat
        hand = point.hand
        if seat not in wanted or isinstance(action, _NOT_REVIEWED):
            continue
        if hand.state.auto[seat] or not hand.state.pending[seat]:
            continue  # 托管 played it, or an unprompted 报听
        legal = hand.legal_actions(seat)
        options = _choices(legal)
        if len(options) <= 1:
            continue
        view = hand.view(seat)
        unseen = observation_from_view(view).unseen()
        bot_action = bots[seat].choose(view, legal)
        mine = outcome(hand, seat, action, unseen)
        agreed = action_key(bot_action) == mine.action
        theirs = mine if agreed else outcome(hand, seat, bot_action, unseen)
        review.decisions.append(
            ReviewedDecision(
                seq=point.event.seq,
                seat=seat,
                phase=hand.state.phase.value,
                player=mine,
                bot=Outcome(action_key(bot_action), theirs.shanten, theirs.useful),
                agreed=agreed,
                seconds=point.seconds,
            )
        )
    return review
