"""The bot contract and the decision skeleton shared by every level.

A bot gets exactly what a seat gets — ``Hand.view(seat)`` and
``Hand.legal_actions(seat)`` — and returns one of the legal actions
(issue 5).  Randomness comes from an injected :class:`random.Random`.

:class:`PlanningBot` turns a view into an
:class:`~games.engine.bots.observation.Observation` and answers each kind of
prompt (pre-deal choices, 加倍, a claim window, a robbable kong, its turn) with
the shared evaluation of :mod:`games.engine.bots.evaluate`; the levels
differ in their :class:`~games.engine.bots.evaluate.Style` and in the
policy switches below.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from ...rules.melds import Meld, MeldKind
from ...rules.rulesets import System
from ...rules.tiles import Tile
from ...rules.wild_scoring import split_counts
from ..actions import (
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
from . import evaluate as ev
from .defence import danger
from .observation import Observation, observation_from_hand, observation_from_view
from .plans import INF, plan_deficiency
from .wins import ScoredWin, WinScorer, engine_scorer

if TYPE_CHECKING:
    from ..hand import Hand


# the action classes a decision tests for, built once (``A | B`` in an
# isinstance call inside a comprehension builds a union per element)
_NOT_CHOICES: Final = (AutoPlay, Timeout)
_TURN_KONGS: Final = (ConcealedKong, AddedKong)
_CLAIMS: Final = (Chi, Pung, Kong)


class Bot(Protocol):
    """Anything that picks an action for a seat from its view."""

    level: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one element of ``legal``.

        Raises:
            ValueError: ``legal`` offers nothing a bot may choose.
        """
        ...

    def choose_in(self, hand: Hand, seat: int) -> Action:
        """``choose(hand.view(seat), hand.legal_actions(seat))``, the same
        choice, made without rendering the view.

        Raises:
            ValueError: as :meth:`choose`.
        """
        ...


class PlanningBot:
    """Shared decision logic; subclasses set the style and the switches.

    Attributes (policy switches):
        style: evaluation depth (see :class:`~.evaluate.Style`).
        claim_margin: utility a claim must add over passing (fraction).
        ready_min_live: live winning tiles needed to declare 报听.
        fold_deficiency: with ``style.defence == 0``, fold to the safest tile
            against a 报听 opponent from this deficiency up (``None``: never).
        judge_win_double: consider declining a win for 胡加倍.
        use_swaps: use the free 换牌.
        noise: chance to take a random discard among the near-best (easy).
        double_deficiency: 加倍 after the deal (seeds 002/004) when the dealt
            hand is at most this many tiles from waiting (``None``: never).
            Measured with the normal bot on both seats (screened deals:
            erren64 1,495 decided hands, liangren 1,000): a hand 2 tiles from
            waiting wins 61 % / 71 % of the time, 3 tiles 53 % / 56 %, 4 tiles
            46 % / 51 %; a double pays both ways, so it is worth it above 50 %.
        throw_lone_draw: on a turn whose only choices are discards, throw a
            drawn tile that touches nothing in the hand
            (:func:`~.evaluate.keep_value` 0: no other copy, no tile of its
            suit within two ranks; never the 财神) without ranking the
            discards, unless the opponent declared 报听 (issue 15: the
            ranking threw it in 84 % of such turns, measured on mcr, liangren
            and youxi; half of all turns).
        predeal_as_dealer: 明牌 / 开始加倍 before the deal (seeds 002 and 000)
            as the dealer.  Before the deal there is no hand to judge: the
            seat is all a bot knows, and the dealer (14 tiles, first move)
            wins 51-53 % of the decided hands between equal bots (erren 51.0 %
            of 1,980, liangren 52.8 % of 1,000, jj 51.8 % of 992, erren64
            53.2 % of 1,495) — an edge only a stronger player should raise
            the stakes on.
    """

    level = "base"
    style = ev.Style()
    claim_margin = 0.05
    ready_min_live = 3
    fold_deficiency: int | None = None
    judge_win_double = False
    use_swaps = False
    noise = 0.0
    double_deficiency: int | None = None
    throw_lone_draw = False
    predeal_as_dealer = False

    def __init__(self, rng: random.Random, scorer: WinScorer | None = None) -> None:
        self.rng = rng
        self.scorer: WinScorer | None = (
            scorer
            if scorer is not None
            else (engine_scorer if self.style.score_waits else None)
        )
        self._scores: dict[tuple[object, ...], ScoredWin] = {}

    # ------------------------------------------------------------ the contract
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of ``legal`` for the seat whose ``view`` this is.

        Raises:
            ValueError: ``legal`` holds nothing but 托管/timeout actions.
        """
        return self.decide(lambda: self._observe(view), legal)

    def choose_in(self, hand: Hand, seat: int) -> Action:
        """:meth:`choose` for ``seat`` of a live ``hand``: the same choice as
        ``choose(hand.view(seat), hand.legal_actions(seat))``, without
        rendering the view (:func:`observation_from_hand`).

        Raises:
            ValueError: as :meth:`choose`.
        """
        return self.decide(
            lambda: observation_from_hand(hand, seat), hand.legal_actions(seat)
        )

    def decide(
        self, observe: Callable[[], Observation], legal: Sequence[Action]
    ) -> Action:
        """Return one of ``legal``; ``observe`` gives the seat's observation
        (called only when there is a choice to make).

        Raises:
            ValueError: as :meth:`choose`.
        """
        options = [a for a in legal if not isinstance(a, _NOT_CHOICES)]
        if not options:
            raise ValueError("no action to choose from")
        if len(options) == 1:
            return options[0]
        obs = observe()
        # the options sorted by kind in one pass (the action classes are
        # disjoint subclasses of Action)
        wins: list[Win] = []
        pre: list[PreDeal] = []
        doubles: list[Double] = []
        discard = False
        for a in options:
            if isinstance(a, Win):
                wins.append(a)
            elif isinstance(a, PreDeal):
                pre.append(a)
            elif isinstance(a, Double):
                doubles.append(a)
            elif isinstance(a, Discard):
                discard = True
        if discard and self.throw_lone_draw and not (wins or pre or doubles):
            lone = self._lone_draw(obs, options)
            if lone is not None:
                return lone
        ctx = ev.make_context(obs, self.style, self.scorer, self._scores)
        if wins and self.take_win(ctx, options):
            return wins[0]
        if pre:
            return self.pre_deal(ctx, pre)
        if doubles:
            return self.deal_double(ctx, doubles)
        if discard:
            return self.turn(ctx, options)
        return self.claim(ctx, options)

    def _observe(self, view: Mapping[str, Any]) -> Observation:
        # the view says where the opponent's 报听 began: no memory of our own
        return observation_from_view(view)

    # -------------------------------------------------------------- decisions
    def take_win(self, ctx: ev.Context, options: Sequence[Action]) -> bool:
        """Whether to win now (issue 5: always, unless 胡加倍 is judged better)."""
        if not self.judge_win_double:
            return True
        return not self.decline_for_double(ctx, options)

    def decline_for_double(self, ctx: ev.Context, options: Sequence[Action]) -> bool:
        """胡加倍 (seed 000): decline when winning later at the raised total is
        worth more than winning now.  Only with a locked 报听 hand, whose waits
        stay the same, and only while the cap allows."""
        obs = ctx.obs
        rs = obs.ruleset
        if System.WIN_DOUBLE not in rs.systems or not obs.ready:
            return False
        n = obs.win_doubles
        if n >= rs.max_win_doubles or obs.wall_count < 12:
            return False
        counts = list(obs.hand)
        if obs.drawn is not None and any(isinstance(a, Discard) for a in options):
            counts[obs.drawn] -= 1
        if sum(counts) + 3 * len(obs.melds) != 13:
            return False
        est = ev.value(ctx, counts, obs.melds, plans=ctx.plans[:1])
        if not est.waits or est.deficiency != 1:
            return False
        base = est.value
        now = (base + 2 * n) * (1 << n) if n else base
        later = (base + 2 * (n + 1)) * (1 << (n + 1))
        return est.p_win * later > 1.4 * now

    def pre_deal(self, ctx: ev.Context, options: Sequence[PreDeal]) -> Action:
        """明牌 / 开始加倍 before the deal (the hand is unseen): take each offered
        choice as the dealer when the level raises stakes on the dealer's
        edge (:attr:`predeal_as_dealer`), else decline both."""
        obs = ctx.obs
        want = self.predeal_as_dealer and obs.dealer
        for a in options:
            if a.open_hand == (want and any(o.open_hand for o in options)) and (
                a.double == (want and any(o.double for o in options))
            ):
                return a
        return options[0]

    def deal_double(self, ctx: ev.Context, options: Sequence[Double]) -> Action:
        """加倍 after the deal: only with a hand close to waiting."""
        want = self.wants_double(ctx)
        for a in options:
            if a.double == want:
                return a
        return options[0]

    def wants_double(self, ctx: ev.Context) -> bool:
        """Whether the dealt hand is good enough to double: at most
        :attr:`double_deficiency` tiles from waiting (after its best discard
        for the dealer's 14 tiles)."""
        most = self.double_deficiency
        if most is None:
            return False
        obs = ctx.obs
        if sum(obs.hand) + 3 * len(obs.melds) < 14:
            # value(...).free_deficiency, without valuing the hand
            return ev.free_deficiency(ctx, obs.hand, obs.melds) <= most
        # the best-ranked discard leaves one of these deficiencies: when all
        # of them fall on one side of the threshold the ranking is not needed
        left = ev.discard_free_deficiencies(ctx, obs.hand, obs.melds)
        if not left or min(left) > most:
            return False
        if max(left) <= most:
            return True
        ranked = ev.rank_discards(ctx, obs.hand, obs.melds)
        return bool(ranked) and ranked[0][2].free_deficiency <= most

    # ---------------------------------------------------------------- a turn
    def turn(self, ctx: ev.Context, options: Sequence[Action]) -> Action:
        """Choose among discards, kongs, 报听 and 换牌 on one's own turn."""
        obs = ctx.obs
        discards = {a.tile.index: a for a in options if isinstance(a, Discard)}
        ranked = [
            r for r in ev.rank_discards(ctx, obs.hand, obs.melds) if r[1] in discards
        ]
        if not ranked:
            return next(iter(discards.values()))
        if (
            self.fold_deficiency is not None
            and obs.opp_ready
            and ranked[0][2].free_deficiency >= self.fold_deficiency + 1
        ):
            risk = danger(obs)
            safest = min(ranked, key=lambda r: (risk[r[1]], -r[0]))
            ranked.insert(0, safest)
        best_score, best_tile, best_est = ranked[0]
        if self.noise and len(ranked) > 1 and self.rng.random() < self.noise:
            near = [
                r
                for r in ranked[:3]
                if r[2].free_deficiency == best_est.free_deficiency
            ]
            best_score, best_tile, best_est = self.rng.choice(near)
        kong = self._turn_kong(ctx, options, best_est)
        if kong is not None:
            return kong
        if self.use_swaps:
            swap = self._swap(ctx, options, best_tile, best_est)
            if swap is not None:
                return swap
        ready = next(
            (
                a
                for a in options
                if isinstance(a, Ready)
                and a.tile is not None
                and a.tile.index == best_tile
            ),
            None,
        )
        if ready is not None and self.declare_ready(ctx, best_tile, best_est):
            return ready
        return discards[best_tile]

    def _lone_draw(self, obs: Observation, options: Sequence[Action]) -> Action | None:
        """The discard of the drawn tile when :attr:`throw_lone_draw` applies
        (every option a discard, the drawn tile touching nothing, the
        opponent not declared), else ``None``."""
        x = obs.drawn
        if x is None or obs.opp_ready or ev.keep_value(obs.hand, x, obs.wild) != 0:
            return None
        lone: Action | None = None
        for a in options:
            if not isinstance(a, Discard):
                return None  # a kong, 报听 or 换牌 is on offer: rank them
            if a.tile.index == x:
                lone = a
        return lone

    def declare_ready(self, ctx: ev.Context, tile: int, est: ev.Estimate) -> bool:
        """Whether to 报听 with the discard ``tile`` (issue 5: "when tenpai with
        enough waits")."""
        if not est.waits:
            return False
        live = sum(ctx.unseen[k] for k in est.waits)
        if live < self.ready_min_live:
            return False
        return est.plan == "WAIT+READY" or not self.style.score_waits

    def _turn_kong(
        self, ctx: ev.Context, options: Sequence[Action], best: ev.Estimate
    ) -> Action | None:
        obs = ctx.obs
        for a in options:
            if not isinstance(a, _TURN_KONGS):
                continue
            k = a.tile.index
            counts = list(obs.hand)
            if isinstance(a, ConcealedKong):
                counts[k] -= 4
                t = Tile.from_index(k)
                melds = (*obs.melds, Meld(MeldKind.CONCEALED_KONG, (t, t, t, t)))
            else:
                counts[k] -= 1
                melds = tuple(
                    Meld(MeldKind.KONG, (m.first,) * 4, m.claimed)
                    if m.kind is MeldKind.PUNG and m.first.index == k
                    else m
                    for m in obs.melds
                )
            after = ev.value(ctx, counts, melds)
            # a kong draws an extra tile: a small tempo gain
            if after.utility * 1.1 >= best.utility:
                return a
        return None

    def _swap(
        self, ctx: ev.Context, options: Sequence[Action], tile: int, est: ev.Estimate
    ) -> Action | None:
        """Use the free 换牌 (seed 000: the first of five is free) on the tile
        about to be discarded while the hand is still far from waiting."""
        if ctx.obs.swaps > 0 or est.free_deficiency <= 1:
            return None
        for a in options:
            if isinstance(a, Swap) and a.tile.index == tile:
                return a
        return None

    # --------------------------------------------------------------- a claim
    def claim(self, ctx: ev.Context, options: Sequence[Action]) -> Action:
        """Answer a claim window (or a robbable kong) without winning."""
        obs = ctx.obs
        passing = next((a for a in options if isinstance(a, Pass)), None)
        ready_now = next(
            (a for a in options if isinstance(a, Ready) and a.tile is None), None
        )
        tile = obs.offered
        claims = [a for a in options if isinstance(a, _CLAIMS)]
        if tile is None or not claims:
            return self._pass_or_ready(ctx, passing, ready_now, options)
        best: tuple[float, Action] | None = None
        t = Tile.from_index(tile)
        # each meld as the observation will show it after the claim (no
        # claimed tile, which no fan reads): the turn that follows ranks the
        # same hand and finds its scored wins in ``self._scores``
        for a in claims:
            counts = list(obs.hand)
            if isinstance(a, Chi):
                for x in a.tiles:
                    if x.index != tile:
                        counts[x.index] -= 1
                meld = Meld(MeldKind.CHI, a.tiles)
            elif isinstance(a, Pung):
                counts[tile] -= 2
                meld = Meld(MeldKind.PUNG, (t, t, t))
            else:
                counts[tile] -= 3
                meld = Meld(MeldKind.KONG, (t, t, t, t))
            melds = (*obs.melds, meld)
            if not self.claim_may_help(ctx, counts, melds):
                continue
            if isinstance(a, Kong):
                after = ev.value(ctx, counts, melds)
                score = after.utility * 1.05
            else:
                ranked = ev.rank_discards(ctx, counts, melds)
                if not ranked:
                    continue
                score = ranked[0][0]
            if best is None or score > best[0]:
                best = (score, a)
        # the hand as it stands is valued only against a claim worth trying
        if best is not None:
            base = ev.value(ctx, obs.hand, obs.melds)
            if best[0] > base.utility * (1 + self.claim_margin):
                return best[1]
        return self._pass_or_ready(ctx, passing, ready_now, options)

    def claim_may_help(
        self,
        ctx: ev.Context,
        counts: list[int],
        melds: tuple[Meld, ...],
    ) -> bool:
        """Cheap filter: does the claim lower the deficiency of some plan?"""
        t, wilds = split_counts(counts, ctx.wild)
        cur, cw = split_counts(ctx.obs.hand, ctx.wild)
        for plan in ctx.plans:
            d = plan_deficiency(plan, t, melds, wilds)
            if d >= INF:
                continue
            if d < plan_deficiency(plan, cur, ctx.obs.melds, cw):
                return True
        return False

    def _pass_or_ready(
        self,
        ctx: ev.Context,
        passing: Action | None,
        ready_now: Action | None,
        options: Sequence[Action],
    ) -> Action:
        if ready_now is not None:
            est = ev.value(ctx, ctx.obs.hand, ctx.obs.melds)
            if est.waits and self.declare_ready(ctx, -1, est):
                return ready_now
        if passing is not None:
            return passing
        return options[0]
