"""Step 1, the check: every player's totals rebuilt in one statement and
compared with what is stored; the drifted players (see leaderboard.recalc)."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Aggregate,
    BigIntegerField,
    Case,
    Count,
    F,
    FloatField,
    Max,
    Q,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points_sql
from games.models import HandSeat

from ..models import PlayerStats
from ..rating import MU, SIGMA
from ..sql import queryset_sql
from .base import (
    _AGG,
    _DRIFT,
    _LEDGER,
    _POINT_KINDS,
    _RS,
    _STAT_COLUMNS,
    _pg,
    _same,
    _t,
)


def _count(q: Q) -> Sum:
    return Sum(Case(When(q, then=Value(1)), default=Value(0)))


class _Latest(Aggregate):
    """PostgreSQL: ``MAX(ARRAY[id, rating, deviation])`` over the rated rows.

    The array of the row with the highest id (ids are unique, and the array
    comparison looks at the id first), so the latest rating and deviation
    come out of the same pass over the hand rows instead of a second read of
    the latest rows by id.  ``id`` as ``float8`` is exact below 2**53.
    Only used in SQL built around the queryset (never loaded by the ORM).
    """

    function = "MAX"
    template = "%(function)s(ARRAY[%(expressions)s])"
    output_field = FloatField()  # an array in SQL; never converted in Python

    def __init__(self, rating: str, deviation: str) -> None:
        super().__init__(
            Cast("id", FloatField()),
            F(rating),
            F(deviation),
            filter=Q(**{f"{rating}__isnull": False}),
        )


def _seat_totals(users: str | None) -> tuple[str, list[Any]]:
    """SQL of the one pass over the hand rows (of the players ``users`` selects).

    One row per (user, rule set): the counters, the points by the rule
    (:func:`accounts.points.hand_points_sql`, compiled by the ORM), how many
    rows store other points than the rule, and the latest rated rows (ids
    follow the order the settlements rated the hands: a player's
    settlements are serialised by the profile lock): on PostgreSQL their
    ratings themselves (``n_latest``, ``n_latest_all``: arrays of id, μ, σ,
    see :class:`_Latest`), elsewhere their ids (``n_last_rated``,
    ``n_last_rated_all``, read back by id).
    """
    rule = hand_points_sql()
    big = BigIntegerField()
    # reversed hands count nowhere but in the rating (games.models.COUNTED)
    live = Q(reversed=False)
    rows = HandSeat.objects.exclude(result=HandSeat.Result.ANNULLED)
    if users is not None:
        rows = rows.filter(user_id__in=RawSQL(users, []))
    if _pg():
        latest: dict[str, Any] = {
            "n_latest": _Latest("ruleset_rating_after", "ruleset_deviation_after"),
            "n_latest_all": _Latest("rating_after", "deviation_after"),
        }
    else:
        latest = {
            "n_last_rated": Max(
                Case(When(ruleset_rating_after__isnull=False, then=F("id")))
            ),
            "n_last_rated_all": Max(
                Case(When(rating_after__isnull=False, then=F("id")))
            ),
        }
    qs = (
        rows.values("user_id", "ruleset")
        .annotate(
            n_hands=_count(live),
            n_wins=_count(live & Q(won=True)),
            n_self_drawn=_count(live & Q(self_drawn=True)),
            n_dealt_in=_count(live & Q(dealt_in=True)),
            n_draws=_count(live & Q(result=HandSeat.Result.DRAW)),
            n_points=Sum(
                Case(When(live, then=rule), default=Value(0), output_field=big)
            ),
            n_coins=Sum(
                Case(When(live, then=F("coins")), default=Value(0), output_field=big)
            ),
            n_fan_sum=Sum(
                Case(When(live & Q(won=True), then=F("fan")), default=Value(0))
            ),
            n_max_fan=Max(
                Case(When(live & Q(won=True), then=F("fan")), default=Value(0))
            ),
            n_rated=Count("ruleset_rating_after"),
            n_rated_all=Count("rating_after"),
            **latest,
            n_last_played=Max("ended"),
            n_bad_rows=_count(live & ~Q(points=rule)),
        )
        .order_by()
    )
    return queryset_sql(qs)


def _totals(users: str | None) -> list[tuple[str, str, list[Any]]]:
    """The relations the check and the repair read, in order: (name, SQL, params).

    ``recalc_rs`` (per rule set, one pass over the hand rows), ``recalc_agg``
    (the counters as PlayerStats rows: each rule set and overall, derived
    from ``recalc_rs``) and ``recalc_ledger`` (per player: balances, their
    ledger sums and the booked hand points, one pass over the ledger).
    ``users`` (SQL selecting user ids) limits them to those players.
    """
    seats = _t(HandSeat._meta.db_table)
    profile, ledger = _t(Profile._meta.db_table), _t(LedgerEntry._meta.db_table)
    per_rs = ", ".join(
        f"c.n_{c} AS {c}"
        for c in ("hands", "wins", "self_drawn", "dealt_in", "draws", "points")
    )
    if _pg():
        # the latest rating came with the pass (arrays of id, μ, σ)
        rs_rating = (
            f"COALESCE(c.n_latest[2], {MU}) AS rating,"
            f" COALESCE(c.n_latest[3], {SIGMA}) AS deviation"
        )
        rs_from = f"{_RS} c"
        all_rating = f"COALESCE(o.latest[2], {MU}), COALESCE(o.latest[3], {SIGMA})"
        all_latest, all_from = "MAX(n_latest_all) AS latest", ""
    else:
        # the latest rated rows read back by id
        rs_rating = (
            f"COALESCE(r.ruleset_rating_after, {MU}) AS rating,"
            f" COALESCE(r.ruleset_deviation_after, {SIGMA}) AS deviation"
        )
        rs_from = f"{_RS} c LEFT JOIN {seats} r ON r.id = c.n_last_rated"
        all_rating = (
            f"COALESCE(r.rating_after, {MU}), COALESCE(r.deviation_after, {SIGMA})"
        )
        all_latest = "MAX(n_last_rated_all) AS last_rated"
        all_from = f" LEFT JOIN {seats} r ON r.id = o.last_rated"
    agg = (
        f"SELECT c.user_id AS user_id, c.ruleset AS rs, {per_rs},"
        " c.n_coins AS coins, c.n_fan_sum AS fan_sum, c.n_max_fan AS max_fan,"
        f" c.n_rated AS rated_hands, {rs_rating},"
        " c.n_last_played AS last_played, c.n_bad_rows AS bad_rows"
        f" FROM {rs_from}"
        " UNION ALL"
        " SELECT o.user_id, '', o.hands, o.wins, o.self_drawn, o.dealt_in, o.draws,"
        f" o.points, o.coins, o.fan_sum, o.max_fan, o.rated_hands, {all_rating},"
        " o.last_played, o.bad_rows FROM ("
        " SELECT user_id, SUM(n_hands) AS hands, SUM(n_wins) AS wins,"
        " SUM(n_self_drawn) AS self_drawn, SUM(n_dealt_in) AS dealt_in,"
        " SUM(n_draws) AS draws, SUM(n_points) AS points, SUM(n_coins) AS coins,"
        " SUM(n_fan_sum) AS fan_sum, MAX(n_max_fan) AS max_fan,"
        f" SUM(n_rated_all) AS rated_hands, {all_latest},"
        " MAX(n_last_played) AS last_played, SUM(n_bad_rows) AS bad_rows"
        f" FROM {_RS} GROUP BY user_id) o{all_from}"
    )
    kinds = ", ".join(f"'{k}'" for k in _POINT_KINDS)
    only = "" if users is None else f" WHERE user_id IN ({users})"
    led = (
        "SELECT p.user_id AS user_id, p.coins AS bal_c, p.rating_points AS bal_pt,"
        " COALESCE(l.c, 0) AS c, COALESCE(l.pt, 0) AS pt,"
        f" COALESCE(l.booked, 0) AS booked FROM {profile} p LEFT JOIN ("
        " SELECT user_id,"
        " SUM(CASE WHEN currency = 'coins' THEN amount END) AS c,"
        " SUM(CASE WHEN currency = 'points' THEN amount END) AS pt,"
        " SUM(CASE WHEN currency = 'points' AND hand_id IS NOT NULL"
        f" AND kind IN ({kinds}) THEN amount END) AS booked"
        f" FROM {ledger}{only} GROUP BY user_id) l ON l.user_id = p.user_id"
        + ("" if users is None else f" WHERE p.user_id IN ({users})")
    )
    rs_sql, rs_params = _seat_totals(users)
    return [(_RS, rs_sql, rs_params), (_AGG, agg, []), (_LEDGER, led, [])]


def _differs(c: str) -> str:
    """SQL: stored counter ``s.<c>`` differs from rebuilt ``a.<c>``."""
    stats = "s"
    if c in ("rating", "deviation"):
        return f"ABS({stats}.{c} - a.{c}) > 1e-6"
    if c == "last_played":
        return f"NOT ({_same(f'{stats}.{c}', f'a.{c}')})"
    return f"{stats}.{c} <> a.{c}"


def _check_sql() -> tuple[str, str, list[Any]]:
    """The check as (WITH clause, drift SELECT, params): see :func:`_check`."""
    stats = _t(PlayerStats._meta.db_table)
    ctes = _totals(None)
    with_sql = "WITH " + ", ".join(f"{name} AS ({sql})" for name, sql, _p in ctes)
    params = [p for _n, _s, ps in ctes for p in ps]
    drift = (
        f"SELECT user_id FROM {_AGG} WHERE rs = '' AND bad_rows > 0"
        f" UNION SELECT a.user_id FROM {_AGG} a JOIN {_LEDGER} l"
        " ON l.user_id = a.user_id WHERE a.rs = '' AND a.points <> l.booked"
        f" UNION SELECT user_id FROM {_LEDGER} WHERE bal_c <> c OR bal_pt <> pt"
        f" UNION SELECT a.user_id FROM {_AGG} a LEFT JOIN {stats} s"
        " ON s.user_id = a.user_id AND s.ruleset = a.rs"
        f" WHERE s.id IS NULL OR {' OR '.join(_differs(c) for c in _STAT_COLUMNS)}"
        f" UNION SELECT s.user_id FROM {stats} s"
        " WHERE (s.hands <> 0 OR s.rated_hands <> 0) AND NOT EXISTS ("
        f"SELECT 1 FROM {_AGG} a WHERE a.user_id = s.user_id AND a.rs = s.ruleset)"
    )
    return with_sql, drift, params


def _check(cur: Any) -> int:
    """Step 1: fill ``recalc_drift`` with every drifted player; return how many.

    One statement (the relations of :func:`_totals` as its CTEs), so one
    snapshot of the database: see the module docstring.
    """
    with_sql, drift, params = _check_sql()
    cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")
    cur.execute(f"CREATE TEMP TABLE {_DRIFT} AS {with_sql} {drift}", params)
    cur.execute(f"SELECT COUNT(*) FROM {_DRIFT}")
    return int(cur.fetchone()[0])


_AGG_COLUMNS = ("user_id", "rs", *_STAT_COLUMNS, "bad_rows")
_LEDGER_COLUMNS = ("bal_c", "bal_pt", "c", "pt", "booked")


def _check_keeping_totals(cur: Any) -> int:
    """:func:`_check` that also keeps the drifted players' rebuilt totals.

    PostgreSQL, one statement (``CREATE TABLE … AS``, so its passes may use
    parallel workers, which a data-modifying statement cannot): the
    drifted players, their ``recalc_agg`` rows and their ``recalc_ledger``
    rows, stored together and then split into those three tables.  A
    repair in the same snapshot needs no second pass over the hand rows and
    the ledger (:func:`_check_and_repair`).
    """
    with_sql, drift, params = _check_sql()
    keep = "recalc_keep"
    for name in (keep, _DRIFT, _AGG, _LEDGER):
        cur.execute(f"DROP TABLE IF EXISTS {name}")
    nulls = {c: f"NULL AS {c}" for c in (*_AGG_COLUMNS[1:], *_LEDGER_COLUMNS)}
    agg_cols = ", ".join(f"a.{c}" for c in _AGG_COLUMNS)
    led_cols = ", ".join(f"l.{c}" for c in _LEDGER_COLUMNS)
    agg_nulls = ", ".join(nulls[c] for c in _AGG_COLUMNS[1:])
    led_nulls = ", ".join(nulls[c] for c in _LEDGER_COLUMNS)
    mine = "IN (SELECT user_id FROM drifted)"
    cur.execute(
        f"CREATE TEMP TABLE {keep} AS {with_sql}, drifted AS ({drift})"
        f" SELECT 'a' AS part, {agg_cols}, {led_nulls}"
        f" FROM {_AGG} a WHERE a.user_id {mine}"
        f" UNION ALL SELECT 'l', l.user_id, {agg_nulls}, {led_cols}"
        f" FROM {_LEDGER} l WHERE l.user_id {mine}"
        f" UNION ALL SELECT 'd', user_id, {agg_nulls}, {led_nulls} FROM drifted",
        params,
    )
    cur.execute(
        f"CREATE TEMP TABLE {_DRIFT} AS SELECT user_id FROM {keep} WHERE part = 'd'"
    )
    drifted = int(cur.rowcount)
    cur.execute(
        f"CREATE TEMP TABLE {_AGG} AS SELECT {', '.join(_AGG_COLUMNS)}"
        f" FROM {keep} WHERE part = 'a'"
    )
    cur.execute(
        f"CREATE TEMP TABLE {_LEDGER} AS SELECT user_id, {', '.join(_LEDGER_COLUMNS)}"
        f" FROM {keep} WHERE part = 'l'"
    )
    cur.execute(f"DROP TABLE {keep}")
    return drifted
