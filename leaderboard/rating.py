"""Skill rating of players and bots: openskill on a Glicko-like scale.

Library: ``openskill`` (PyPI, MIT), model ``ThurstoneMostellerFull`` — the
TrueSkill-style Gaussian model with a win/loss likelihood.  Parameters put it
on the familiar Glicko scale: a new player is μ = 1500 with deviation
σ = 350, and the lichess rule applies as is: **σ ≥ 110 is provisional**
(shown with "?" and kept off the rating board).

How one hand maps to an update (mahjong is luck-heavy, so we rate hands, not
matches, and let the model's noise absorb the luck):

* a hand someone won is a win for the winner and a loss for the other seat;
  who paid (放炮) or whether it was 自摸 does not matter;
* **fan size does not matter**: big hands are mostly the deal's luck, and
  the points (实力积分) already reward them; a rating that grew with fan
  would reward risk-taking over winning;
* 流局 (wall exhausted) and annulled hands are **not rated**: they say
  nothing about who played better;
* ``BETA`` — the spread of one hand's performance — is large (300 on this
  scale, Glicko's own spread is ~175) because a single hand is noisy;
  ``TAU`` (dynamics) keeps σ from shrinking to nothing, so ratings keep
  following players who improve.  With these values a new player stops
  being provisional after about 35–45 rated hands against settled
  opponents, and ``benchmarks/bench_rating.py`` shows bot self-play ordering
  hard > normal > easy.

Practice hands (against the bots) are rated: the bots have accounts and
ratings of their own (labelled as bots, off the boards), so a new player's
first hands against them mean something.

openskill has no time decay of σ, so nothing is grown for inactive players
(the nightly job only snapshots ratings); ``TAU`` is added at every rated
hand instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import ThurstoneMostellerFull

MU = 1500.0
SIGMA = 350.0
BETA = 300.0
TAU = 4.0
PROVISIONAL_DEVIATION = 110.0
"""σ at or above which a rating is provisional (lichess: RD ≥ 110)."""


@cache
def _model() -> ThurstoneMostellerFull:
    return ThurstoneMostellerFull(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` (the rating shown) and ``sigma`` (its deviation)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def provisional(self) -> bool:
        """True while the deviation is too large to rank (σ ≥ 110)."""
        return is_provisional(self.sigma)


def is_provisional(sigma: float) -> bool:
    """The provisional rule: deviation ``sigma`` ≥ 110 (lichess)."""
    return sigma >= PROVISIONAL_DEVIATION


def rate_hand(
    *, ratings: tuple[Rating, Rating], winner: int | None
) -> tuple[Rating, Rating] | None:
    """Return both seats' ratings after a hand, or None if it is not rated.

    ``ratings`` are seat 0's and seat 1's before the hand; ``winner`` is the
    winning seat, None for 流局 (not rated).  See the module docstring for the
    mapping.

    Raises:
        ValueError: ``winner`` is not 0, 1 or None.
    """
    if winner is None:
        return None
    if winner not in (0, 1):
        raise ValueError(f"winner must be 0, 1 or None, got {winner!r}")
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    ranks: list[float] = [0, 1] if winner == 0 else [1, 0]
    (a,), (b,) = model.rate(teams, ranks=ranks)
    return Rating(a.mu, a.sigma), Rating(b.mu, b.sigma)


def win_probability(a: Rating, b: Rating) -> float:
    """The model's chance that ``a`` wins a decided hand against ``b`` (0..1)."""
    model = _model()
    p = model.predict_win(
        [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]]
    )
    return float(p[0])
