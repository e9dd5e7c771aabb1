"""Moves that need no person: the bot's, 托管's and 报听's forced discards.

Pure choices on a loaded hand (no database): which seat moves by itself
(:func:`automated_seat`), what it plays (:func:`run_auto`, paced by
``MAHJONG_AUTO_PACE``), and the bots that choose.  The services that load,
apply and store call these under the table lock.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence

from django.conf import settings

from games.engine.actions import Action, Discard, Pass, Timeout, Win
from games.engine.bots import Bot, make_bot
from games.engine.events import Event
from games.engine.hand import Hand
from games.engine.state import Phase

from ..models import Table

log = logging.getLogger(__name__)


def _bot(level: str) -> Bot:
    """A bot of ``level`` for one move, with its own random generator.

    Built per move, not kept per table (issue 15, fewer caches): a bot keeps
    nothing between moves that its choices need (the seat's observation,
    read from the hand's state by ``Bot.choose_in``, carries
    what it may know, e.g. the opponent's 报听), building one takes ~6 us,
    and its memo of scored waits saved nothing measurable (self-play, erren
    and mcr, normal and hard: the same per-decision CPU within noise, kept
    or fresh; ``benchmarks/bench_action.py --bot normal``: 10-12 ms of
    "apply" per action either way).  So no process holds bots.
    """
    return make_bot(level, random.Random(secrets.randbits(64)))


def automated_seat(*, table: Table, hand: Hand) -> int | None:
    """The pending seat whose move needs no person, if any.

    The bot, a seat in 托管, or a seat locked by 报听 whose only move is to
    discard its drawn tile (:meth:`Hand.locked_discard`; the live table's
    hands are dealt with ``prompt_locked``).  A locked person who can win or
    kong is asked.
    """
    if hand.ended:
        return None
    s = hand.state
    return next(
        (
            i
            for i in (0, 1)
            if s.pending[i]
            and (
                not table.is_human(i) or s.auto[i] or hand.locked_discard(i) is not None
            )
        ),
        None,
    )


def _discarders(events: Sequence[Event]) -> set[int]:
    """The seats that discarded in ``events``."""
    return {e.seat for e in events if e.kind == "discard" and e.seat is not None}


def run_auto(
    *, table: Table, hand: Hand, now: float, before: Sequence[Event] = ()
) -> list[Event]:
    """Play the moves that need no human (:func:`automated_seat`).

    A locked 报听 seat with no win or kong makes its forced discard
    (:meth:`Hand.locked_discard`, bot or person); otherwise a 托管 seat's
    move is chosen by :func:`_auto_move` (a bot, or the win) and the bot
    seat's by the table's bot.  Paced so people can follow the play: with
    ``MAHJONG_AUTO_PACE`` > 0 this stops before an automated move of a seat
    that has already discarded in this run — a full round of automated play
    (托管 or 报听 against the bot, two seats in 托管 or 报听) — and
    games.services.progress plans the clock's ``auto_step``
    (games.services.timers.table_auto_step) to go on ``pace`` seconds later.
    ``before``: the events of this request so far (a person's move or
    timeout); a seat that discarded there counts as having discarded in this
    run, so a locked person's forced discard waits a pace after their own.
    A bot answering a person, or 托管 or 报听 answering a person's discard,
    still moves at once.  Returns the events.
    """
    out: list[Event] = []
    paced = settings.MAHJONG_AUTO_PACE > 0
    discarded = _discarders(before)
    for _ in range(1000):
        seat = automated_seat(table=table, hand=hand)
        if seat is None or (paced and seat in discarded):
            break
        forced = hand.locked_discard(seat)
        if forced is not None:
            action: Action = forced
        elif table.is_human(seat):
            action = _auto_move(table, hand, seat)
        else:
            bot = _bot(table.bot_level or "normal")
            action = bot.choose_in(hand, seat)
        events = hand.apply(action, now=now)
        discarded |= _discarders(events)
        out += events
    return out


def _auto_move(table: Table, hand: Hand, seat: int) -> Action:
    """The move 托管 makes for a human ``seat`` (logged as that move).

    Seed 000 异常处理: a seat in 托管 that can win, wins; before the deal and
    at 加倍 it declines (托管 never raises a player's stake); otherwise the
    issue-5 bot of level ``MAHJONG_DEFAULT_BOT_LEVEL`` chooses among the
    legal actions.  A ``timeout`` is logged only when a deadline passes.
    """
    s = hand.state
    default = hand.default_action(seat)
    if default is None:  # pragma: no cover - only pending seats get here
        return Timeout(seat, s.seq)
    if table.closed_reason == "removed" and table.closed_seat == seat:
        return removed_move(hand=hand, seat=seat, default=default)
    if isinstance(default, Win) or s.phase in (Phase.PRE_DEAL, Phase.DOUBLE):
        return default
    bot = _bot(settings.MAHJONG_DEFAULT_BOT_LEVEL or "normal")
    try:
        return bot.choose_in(hand, seat)
    except ValueError:  # pragma: no cover - a pending seat always has a move
        log.exception("托管 bot found no move for table %s seat %s", table.pk, seat)
        return default


def removed_move(*, hand: Hand, seat: int, default: Action) -> Action:
    """托管 of a player suspended or banned during the hand (issue 14).

    It finishes the hand without playing for them: never a win, claim or
    kong — a pass when asked about a discard, the drawn tile (the timeout's
    discard) on its turn, every pre-deal choice declined — so the ban cannot
    win them coins; the opponent may still win.
    """
    if not isinstance(default, Win):
        return default
    s = hand.state
    legal = hand.legal_actions(seat)
    if s.phase is not Phase.TURN:
        return next((a for a in legal if isinstance(a, Pass)), default)
    drawn = s.drawn[seat]
    discards = [a for a in legal if isinstance(a, Discard)]
    same = [a for a in discards if drawn is not None and a.tile.index == drawn]
    if same or discards:
        return (same or discards)[0]
    return default
