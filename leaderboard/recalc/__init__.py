"""The nightly rank recalculation (Celery beat, 03:00 server time).

:func:`recalc_ranks` does, for the day that just ended (or ``day``):

1. **Checks** every player in one snapshot (one pass over the hand rows,
   one over the ledger; on PostgreSQL the latest rating comes out of the
   same pass): the points rule (:mod:`accounts.points`) against
   what the ledger booked for the hands and against each hand row's
   ``points``, balances against their ledger sums, ``PlayerStats`` against
   the counters rebuilt from the hand rows.  Players where anything
   differs are *drifted*; usually none.
2. **Repairs** the drifted players (only they are locked and written):
   a hand whose booked points differ from the rule gets the difference as a
   ``recalc`` ledger entry (so the balance follows) and its row's
   ``points`` set; balances are set to their ledger sums; counters (hands,
   wins, 自摸, 放炮, 流局, points, coins, fan sum, biggest fan, rated hands,
   the latest rating) are inserted, corrected or emptied — only rows that
   differ are written.
3. **Stores the dated snapshot of every board** (5 boards × 4 periods ×
   every rule set and overall) for ``day``: one row per player and
   (period, rule set) with each board's rank and value
   (:class:`~leaderboard.models.BoardSnapshot`), ranked by
   :func:`leaderboard.selectors.board_values` — the live boards' own
   conditions and values — with ``ROW_NUMBER()``; only rows that differ
   from what is stored for that date are written; snapshots older than
   ``MAHJONG_SNAPSHOT_DAYS`` are dropped.  On PostgreSQL (outside a
   transaction) the scopes are stored one per core at a time, each in its
   own connection and transaction (:func:`.snapshots._store_snapshots_in_parallel`).
4. Reports what it changed (:class:`RecalcReport`, logged and returned as
   the task's result), with the seconds of each step.

Set-based SQL throughout (a statement per step over all players, a
statement per snapshot of a period and rule set), never a Python loop per
hand — except the ledger entries of a changed points rule, which go
through :func:`accounts.ledger.ledger_post` like every movement.  The rating
is not replayed: it is updated incrementally by every settlement
(``leaderboard.services``); the counters' step only repairs the stored
rating from the latest rated hand.  openskill has no time decay, so nothing
grows the deviation of inactive players (see ``leaderboard.rating``).

**Concurrency** (it may run while hands are settled): recompute, then apply
under the players' locks.  Every settlement writes a hand's rows, ledger
entries, balances and counters in one transaction, after locking its two
players' profiles (``games.services.settlement.hand_book``).

* The check is *one* statement, so it reads one snapshot of the database
  (any isolation level): in it each settlement is either wholly present or
  wholly absent, and stored counters and balances agree with the hand rows
  and ledger unless they really drifted.  It takes no locks and writes
  nothing but a temporary table of drifted players.  (A settlement
  committed after that snapshot keeps an undrifted player undrifted: it
  adds its hand to both sides.)
* The repair locks the drifted players' profiles in one statement
  (``SELECT … FOR UPDATE`` in ascending user id, the settlements' order, so
  no deadlock) and only then recomputes *those* players with fresh
  statements: READ COMMITTED gives each statement a snapshot taken after
  the locks were granted, so it sees every settlement of these players that
  committed before, and none can commit until the repair does — a
  settlement that comes meanwhile waits, then adds its own increments to
  the repaired counters.  Nothing is lost or counted twice
  (``tests/leaderboard/test_leaderboard_concurrency.py``).  Players who did
  not drift are never locked, so play goes on during the run.
* On PostgreSQL, when not called inside a transaction (the task, the
  command), the check and the repair first run in *one* REPEATABLE READ
  transaction (:func:`.run._check_and_repair`): the check keeps the drifted
  players' totals, the repair locks their profiles and counters rows and
  writes from those totals — no second pass over the hand rows and the
  ledger (a first run, when every player drifted, halves its work).  Every
  write to a player's hands, ledger or counters (settlement, reversal,
  correction) updates that player's profile or overall counters row, or
  inserts their counters rows; at REPEATABLE READ, locking or updating a
  row written since the snapshot, or inserting a key committed since,
  fails.  Then it is rolled back and the two steps above run instead.
* Snapshots only write rows of their own date.  Stored in parallel, each
  scope commits on its own (a board reads one scope: all of its new rows or
  none) under an advisory lock of that scope, so two runs never both insert
  a scope's rows: the second waits and finds them stored.
* A reversed or restored hand rebuilds its players at once with the same
  statements (:func:`repair_players`), under the reversal's own locks.

**Idempotent**: a second run finds no drifted player (0 rows changed) and
finds every snapshot row of the date already as it would write it (0 rows
written).

The steps live one per module: :mod:`.check` (step 1), :mod:`.repair`
(step 2, and :func:`repair_players` for a reversed hand), :mod:`.snapshots`
(step 3), :mod:`.run` (:func:`recalc_ranks`, the order of the steps and the
one-snapshot path), :mod:`.report` (:class:`RecalcReport`) and :mod:`.base`
(what they share: SQL helpers, the temporary tables, the counters' columns).
"""

from .repair import repair_drifted, repair_players
from .report import RecalcReport
from .run import recalc_day_check, recalc_ranks
from .snapshots import SNAPSHOT_COLUMNS, board_keys, scopes, snapshot

__all__ = [
    "SNAPSHOT_COLUMNS",
    "RecalcReport",
    "board_keys",
    "recalc_day_check",
    "recalc_ranks",
    "repair_drifted",
    "repair_players",
    "scopes",
    "snapshot",
]
