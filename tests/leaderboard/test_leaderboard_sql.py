"""leaderboard.sql.queryset_sql: the one use of Django's private Query.sql_with_params.

If a Django upgrade changes what it returns, these fail (the recalculation
and the snapshots build their statements around it).
"""

from datetime import UTC, datetime

import pytest
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When

from accounts.points import hand_points_sql
from games.models import HandSeat
from leaderboard.sql import queryset_sql
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 3, 2, 4, tzinfo=UTC)


def test_the_sql_with_its_parameters_gives_the_querysets_rows_in_order():
    a, b, c = make_player("qa"), make_player("qb"), make_player("qc")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    hand(a, c, ended=WHEN, winner=1, fan=24, multiplier=2)
    hand(b, c, ended=WHEN, winner=None)
    qs = (
        HandSeat.objects.filter(ended__gte=WHEN, fan__lt=1000)
        .exclude(result="annulled")
        .values("user_id")
        .annotate(
            n=Count("id"),
            rule=Sum(hand_points_sql()),
            wins=Sum(Case(When(Q(won=True), then=Value(1)), default=Value(0))),
            big=Sum(F("fan") * 10, output_field=IntegerField()),
        )
        .order_by("-rule", "user_id")
    )
    sql, params = queryset_sql(qs)
    assert isinstance(sql, str) and sql.lstrip().upper().startswith("SELECT")
    assert isinstance(params, list) and 1000 in params  # fan__lt
    assert sql.count("%s") == len(params)
    with connection.cursor() as cur:
        cur.execute(sql, params)
        got = [tuple(int(v) for v in row) for row in cur.fetchall()]
    want = [(r["user_id"], r["n"], r["rule"], r["wins"], r["big"]) for r in qs]
    assert got == want
    assert [r[0] for r in got] == [c.pk, a.pk, b.pk]  # 48 points, 8, 0
    # usable as a subquery, the way the recalculation uses it
    with connection.cursor() as cur:
        cur.execute(f"SELECT SUM(q.n) FROM ({sql}) q", params)
        assert cur.fetchone()[0] == 6


def test_an_empty_queryset_raises_empty_result_set():
    with pytest.raises(EmptyResultSet):
        queryset_sql(HandSeat.objects.filter(pk__in=[]))
