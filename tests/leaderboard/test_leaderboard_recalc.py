"""The nightly recalculation on a hand-made history, worked out by hand.

History (erren unless said, stake 10, rake 5 % rounded half up, server time
Asia/Shanghai, Monday 2026-03-02 = DAY1, Tuesday = DAY2):

1. DAY1  A–B   A wins, 8 fan ×1       → coins 80, rake 4: A +76, B −80; A +8 points
2. DAY1  A–C   C 自摸 200 fan ×2      → coins 4000, rake 200: C +3800, A −4000; C +400
3. DAY1  B–C   流局
4. DAY2  B–A   B wins 10 fan ×1 (mcr) → coins 100, rake 5: B +95, A −100 (放炮); B +10
5. DAY2  A–bot A wins 24 fan, practice → nothing moves; counted and rated

Worked out:
  A: coins 10000+76−4000−100 = 5976, points 8, hands 4, wins 2, 放炮 1, 自摸 0,
     max fan 24, fan sum 32, level 雀蛋
  B: coins 10000−80+95 = 10015, points 10, hands 3, wins 1, draws 1, 放炮 1, max 10
  C: coins 10000+3800 = 13800, points 400, hands 2, wins 1, 自摸 1, draws 1,
     max fan 200, level 雀仔 (400 = its threshold)
  Boards, all time: points C B A; coins C B A; biggest hand C(200) A(24) B(10);
  win rate (≥ 2 hands) A .5, C .5 (tie: the earlier account first), B .333.
  DAY1 board, points: C 400, A 8, B 0.  DAY2 board, points: B 10, A 0 (C idle).
  Snapshot after DAY1 (all time, points): C 1, A 2, B 3; seen on DAY2 with all
  hands in: C 1 (–), B 2 (▲1), A 3 (▼1).
"""

from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask

from accounts.ledger import COINS, ledger_correct
from accounts.models import Profile
from accounts.selectors import ledger_drift, level_for_points
from accounts.services import bot_account
from games.models import HandSeat
from games.services.reversal import hand_reverse
from leaderboard.models import BoardSnapshot, PlayerStats
from leaderboard.recalc import SNAPSHOT_COLUMNS, board_keys, recalc_ranks
from leaderboard.selectors import (
    BOARDS,
    BoardKey,
    board_page,
    board_queryset,
    snapshot_ranks,
)
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db

DAY1, DAY2 = date(2026, 3, 2), date(2026, 3, 3)
NOON1 = datetime(2026, 3, 2, 4, tzinfo=UTC)  # 12:00 in Asia/Shanghai
NOON2 = datetime(2026, 3, 3, 4, tzinfo=UTC)


@pytest.fixture
def history(settings):
    settings.MAHJONG_BOARD_MIN_HANDS = 2
    a, b, c = make_player("A"), make_player("B"), make_player("C")
    hand(a, b, ended=NOON1, winner=0, fan=8)
    hand(a, c, ended=NOON1, winner=1, fan=200, multiplier=2, self_drawn=True)
    hand(b, c, ended=NOON1, winner=None)
    return a, b, c


def _day2(a, b):
    hand(b, a, ended=NOON2, winner=0, fan=10, ruleset="mcr")
    hand(a, bot_account(level="normal"), ended=NOON2, winner=0, fan=24, practice=True)


def _names(key, day):
    names = dict(Profile.objects.values_list("user_id", "nickname"))
    return [names[r["user_id"]] for r in board_queryset(key=key, day=day)]


def test_the_hand_worked_history_gives_the_hand_worked_numbers(history):
    a, b, c = history
    _day2(a, b)
    want = {
        # coins, points, hands, wins, self_drawn, dealt_in, draws, max_fan, fan_sum
        "A": (5976, 8, 4, 2, 0, 1, 0, 24, 32),
        "B": (10015, 10, 3, 1, 0, 1, 1, 10, 10),
        "C": (13800, 400, 2, 1, 1, 0, 1, 200, 200),
    }
    for user in (a, b, c):
        p = Profile.objects.get(user=user)
        s = PlayerStats.objects.get(user=user, ruleset="")
        got = (p.coins, p.rating_points, s.hands, s.wins, s.self_drawn, s.dealt_in)
        got += (s.draws, s.max_fan, s.fan_sum)
        assert got == want[user.username]
    assert level_for_points(points=8).name == "雀蛋"
    assert level_for_points(points=400).name == "雀仔"
    assert PlayerStats.objects.get(user=a, ruleset="").win_rate == 0.5
    assert PlayerStats.objects.get(user=b, ruleset="mcr").points == 10
    assert PlayerStats.objects.get(user=a, ruleset="mcr").points == 0
    # boards
    assert _names(BoardKey("points", "all"), DAY2) == ["C", "B", "A"]
    assert _names(BoardKey("coins", "all"), DAY2) == ["C", "B", "A"]
    assert _names(BoardKey("maxfan", "all"), DAY2) == ["C", "A", "B"]
    assert _names(BoardKey("winrate", "all"), DAY2) == ["A", "C", "B"]
    assert _names(BoardKey("points", "day"), DAY1) == ["C", "A", "B"]
    assert _names(BoardKey("points", "day"), DAY2) == ["B", "A"]
    assert _names(BoardKey("coins", "day"), DAY2) == ["B", "A"]
    assert _names(BoardKey("points", "week"), DAY2) == ["C", "B", "A"]
    assert _names(BoardKey("points", "all", "mcr"), DAY2) == ["B", "A"]
    assert _names(BoardKey("maxfan", "day"), DAY2) == ["A", "B"]  # practice 24
    # the bot played and is rated, but is never on a board
    bot = PlayerStats.objects.get(user__username="bot-normal", ruleset="")
    assert bot.hands == 1 and bot.rated_hands == 1 and bot.rating < 1500
    assert all("电脑" not in n for n in _names(BoardKey("maxfan", "all"), DAY2))
    # everyone is provisional after a handful of hands: the rating board is empty
    assert _names(BoardKey("rating", "all"), DAY2) == []
    assert ledger_drift() == []


def test_rank_movement_compares_with_the_last_nightly_snapshot(history):
    a, b, c = history
    report = recalc_ranks(day=DAY1)
    assert report.corrected == 0 and report.snapshot_rows > 0
    names = dict(Profile.objects.values_list("user_id", "user__username"))
    snap = snapshot_ranks(key=BoardKey("points", "all"), day=DAY1)
    assert {names[u]: r for u, r in snap.items()} == {"C": 1, "A": 2, "B": 3}
    _day2(a, b)
    page = board_page(
        key=BoardKey("points", "all"), page_number=1, per_page=2, user_id=a.pk, day=DAY2
    )
    assert page.baseline == DAY1
    assert [(r.nickname, r.rank, r.move, r.new) for r in page.rows] == [
        ("C", 1, 0, False),
        ("B", 2, 1, False),
    ]
    # A is on page 2: shown anyway, with their rank and movement
    assert not page.me_on_page
    assert (page.me.nickname, page.me.rank, page.me.move) == ("A", 3, -1)
    assert page.me.level.name == "雀蛋"
    # a player who was not in the snapshot is "new"
    d = make_player("D")
    hand(d, c, ended=NOON2, winner=0, fan=8)
    rows = board_page(
        key=BoardKey("points", "all"), page_number=1, per_page=10, day=DAY2
    )
    mover = {r.nickname: (r.move, r.new) for r in rows.rows}
    assert mover["D"] == (None, True)


def test_a_second_run_changes_nothing_and_writes_the_same_snapshot(history):
    a, b, _c = history
    _day2(a, b)
    first = recalc_ranks(day=DAY2)
    columns = ["period", "ruleset", "user_id", *SNAPSHOT_COLUMNS]
    rows = sorted(BoardSnapshot.objects.filter(date=DAY2).values_list(*columns))
    ids = set(BoardSnapshot.objects.values_list("id", flat=True))
    second = recalc_ranks(day=DAY2)
    assert second.corrected == 0 and first.corrected == 0
    assert second.drifted_players == 0
    assert second.snapshot_rows == first.snapshot_rows == len(rows)
    assert first.snapshot_written == len(rows) and first.snapshot_removed == 0
    # the second run finds every row as it would write it: nothing written
    assert second.snapshot_written == second.snapshot_removed == 0
    assert set(BoardSnapshot.objects.values_list("id", flat=True)) == ids
    again = sorted(BoardSnapshot.objects.filter(date=DAY2).values_list(*columns))
    assert again == rows
    # a hand after the snapshot: a rerun rewrites only the rows that moved
    hand(b, a, ended=NOON2, winner=0, fan=88)
    third = recalc_ranks(day=DAY2)
    assert third.corrected == 0
    assert 0 < third.snapshot_removed <= third.snapshot_written < len(rows)
    assert BoardSnapshot.objects.filter(date=DAY2).count() == third.snapshot_rows


def test_the_snapshot_ranks_exactly_as_the_live_board(history, settings):
    """Every one of the 140 boards, on a history with a reversed hand, a
    provisional and a settled rating, ties and a player below the minimum."""
    settings.MAHJONG_BOARD_MIN_HANDS = 3
    a, b, c = history
    _day2(a, b)
    d = make_player("D")
    for _ in range(3):
        hand(d, c, ended=NOON2, winner=1, fan=8, ruleset="jj")
    # D's rating is settled (σ below the provisional line), the others' are not
    PlayerStats.objects.filter(user=d).update(deviation=80)
    HandSeat.objects.filter(user=d).update(
        deviation_after=80, ruleset_deviation_after=80
    )
    (mcr,) = HandSeat.objects.filter(user=b, ruleset="mcr").values_list(
        "hand_id", flat=True
    )
    assert hand_reverse(hand_id=mcr, reason="test", by=None) > 0
    assert recalc_ranks(day=DAY2).corrected == 0
    seen = set()
    for key in board_keys():
        live = [(r["user_id"], r["value"]) for r in board_queryset(key=key, day=DAY2)]
        snap = list(
            BoardSnapshot.objects.filter(
                date=DAY2,
                period=key.period,
                ruleset=key.ruleset,
                **{f"{key.board}_rank__isnull": False},
            )
            .order_by(f"{key.board}_rank")
            .values_list("user_id", f"{key.board}_value")
        )
        assert snap == live, key
        ranks = snapshot_ranks(key=key, day=DAY2)
        assert sorted(ranks.values()) == list(range(1, len(live) + 1)), key
        if live:
            seen.add(key.board)
    assert seen == set(BOARDS)


def test_drifted_counters_balances_and_points_are_repaired(history):
    a, b, c = history
    _day2(a, b)
    good = {
        (s.user_id, s.ruleset): (s.hands, s.wins, s.points, s.coins, s.max_fan)
        for s in PlayerStats.objects.all()
    }
    balances = dict(Profile.objects.values_list("user_id", "coins"))
    # corrupt: counters, a missing row, a balance, a hand row's points, and a
    # hand booked with too few points in the ledger
    PlayerStats.objects.filter(user=a, ruleset="").update(hands=99, wins=0, max_fan=1)
    PlayerStats.objects.filter(user=b, ruleset="mcr").delete()
    PlayerStats.objects.filter(user=c, ruleset="").update(coins=-5, points=7)
    Profile.objects.filter(user=b).update(coins=1)
    seat = HandSeat.objects.get(user=c, won=True)
    HandSeat.objects.filter(pk=seat.pk).update(points=3)
    c_points = Profile.objects.get(user=c).rating_points
    report = recalc_ranks(day=DAY2)
    assert report.stats_repaired == 2
    assert report.stats_inserted == 1
    assert report.balances_repaired == 1
    assert report.hand_rows_repaired == 1
    assert report.points_recalculated == 0  # the ledger itself was right
    assert {
        (s.user_id, s.ruleset): (s.hands, s.wins, s.points, s.coins, s.max_fan)
        for s in PlayerStats.objects.all()
    } == good
    assert dict(Profile.objects.values_list("user_id", "coins")) == balances
    assert HandSeat.objects.get(pk=seat.pk).points == 400
    assert Profile.objects.get(user=c).rating_points == c_points
    assert ledger_drift() == []
    assert recalc_ranks(day=DAY2).corrected == 0


def test_a_changed_points_rule_is_reapplied_by_the_nightly_run(history, monkeypatch):
    """The nightly job applies the same rule as the settlement: change the rule
    (here: double points) and the run re-books every hand's difference."""
    from django.db.models import F

    import leaderboard.recalc as recalc
    from accounts.models import LedgerEntry

    a, _b, c = history
    base = recalc.check.hand_points_sql
    for step in (recalc.check, recalc.repair):  # the rule's two readers
        monkeypatch.setattr(step, "hand_points_sql", lambda: base() * 2)
    report = recalc_ranks(day=DAY1)
    assert report.points_recalculated == 2  # A's 8-fan win, C's 400-point win
    assert report.hand_rows_repaired == 2
    fixes = dict(
        LedgerEntry.objects.filter(kind="recalc").values_list(
            "user__username", "amount"
        )
    )
    assert fixes == {"A": 8, "C": 400}
    assert Profile.objects.get(user=a).rating_points == 16
    assert Profile.objects.get(user=c).rating_points == 800
    assert PlayerStats.objects.get(user=c, ruleset="").points == 800
    assert not HandSeat.objects.exclude(points=F("fan") * F("multiplier") * 2).filter(
        won=True
    )
    assert recalc_ranks(day=DAY1).corrected == 0
    assert ledger_drift() == []


def test_eligibility_leaves_out_bots_and_deactivated_accounts(history):
    a, b, c = history
    assert _names(BoardKey("points", "all"), DAY1) == ["C", "A", "B"]
    b.is_active = False
    b.save()
    assert _names(BoardKey("points", "all"), DAY1) == ["C", "A"]
    assert _names(BoardKey("points", "day"), DAY1) == ["C", "A"]
    Profile.objects.filter(user=c).update(is_bot=True)
    assert _names(BoardKey("points", "all"), DAY1) == ["A"]


def test_a_correction_moves_the_all_time_points_board(history):
    a, _b, _c = history
    ledger_correct(user=a, currency="points", amount=1000, reason="test", by=None)
    ledger_correct(user=a, currency=COINS, amount=1, reason="test", by=None)
    assert _names(BoardKey("points", "all"), DAY1)[0] == "A"


def test_the_command_runs_the_task_for_a_date(history, capsys, settings):
    # the history is of March 2026: keep its snapshots whatever today is
    settings.MAHJONG_SNAPSHOT_DAYS = 100_000
    call_command("recalc_ranks", "--date", "2026-03-02")
    out = capsys.readouterr().out
    assert '"date": "2026-03-02"' in out and "0 rows corrected" in out
    assert BoardSnapshot.objects.filter(date=DAY1).exists()
    with pytest.raises(Exception, match="YYYY-MM-DD"):
        call_command("recalc_ranks", "--date", "yesterday")


def test_the_beat_entry_runs_the_task_at_three_every_night():
    task = PeriodicTask.objects.get(name="leaderboard-recalc-ranks")
    assert task.task == "leaderboard.recalc_ranks" and task.enabled
    cron = task.crontab
    assert (cron.minute, cron.hour, cron.day_of_week) == ("0", "3", "*")
    assert str(cron.timezone) == "Asia/Shanghai"


def test_the_command_refuses_a_future_day_and_one_older_than_the_snapshots(
    settings, capsys
):
    """Tester's fault: --date accepted tomorrow and dates long pruned."""
    from datetime import timedelta

    from django.core.management.base import CommandError

    from leaderboard.periods import local_today

    settings.MAHJONG_SNAPSHOT_DAYS = 60
    today = local_today()
    with pytest.raises(CommandError, match="in the future"):
        call_command("recalc_ranks", "--date", (today + timedelta(days=1)).isoformat())
    old = today - timedelta(days=61)
    with pytest.raises(CommandError, match="older than the snapshot retention"):
        call_command("recalc_ranks", "--date", old.isoformat())
    assert not BoardSnapshot.objects.exists()
    oldest = (today - timedelta(days=60)).isoformat()
    call_command("recalc_ranks", "--date", oldest)
    assert f"recalc_ranks {oldest}:" in capsys.readouterr().out
