"""The claim veil: a discarder observes the same whether or not a claim was possible.

Issue 11 §5.2.  Whole hands are played at a table by two simulated people on
a simulated clock.  Every frame each seat's socket would receive is rendered
when the table changes, as the consumer does (a frame equal to the last one
sent but for its render time is not sent).  For every discard whose window
closed with a pass, the frames the discarder received from its discard up to
the opponent's next move are reduced to what it can observe — when each
arrived (relative to the discard), its ``seq`` (relative to the discard's),
phase, whose turn, and the timer (``data-deadline`` and ``data-total``
relative to the discard) — and the two cases are compared: the opponent
could claim and passed after a while, or could not claim.  The people's
thinking times are drawn from the same distribution in both cases (the
opponent's next own move comes 3.5–8 s after the discard; a pass, when there
is a window, 0.2–3 s after it), so any difference would be the server's.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.consumers import frame_table
from games.engine.bots.default import choose
from games.engine.state import Phase
from games.presenters import render_frame
from games.protocol import parse_move
from games.services import table_act, table_continue, table_quick_match
from games.services.hands import check_snapshot, fetch_table, load_hand, rebuild_hand
from tests.games.conftest import make_player
from tests.games.driver import payload_of

pytestmark = pytest.mark.django_db

NOW = re.compile(r' data-now="\d+"')


def _attr(html: str, name: str) -> str | None:
    m = re.search(rf'{name}="([^"]*)"', html)
    return m.group(1) if m else None


class Socket:
    """What one seat's browser receives (the consumer's changed-only rule)."""

    def __init__(self, table_id: int, seat: int) -> None:
        self.table_id, self.seat = table_id, seat
        self.last: str | None = None
        self.sent: list[tuple[float, str]] = []

    def update(self, now: float) -> None:
        table = frame_table(self.table_id)
        html = render_frame(table, self.seat, now=now)
        key = NOW.sub("", html)
        if key != self.last:
            self.last = key
            self.sent.append((now, html))


def observed(frames: list[tuple[float, str]], start: float, seq: int) -> tuple:
    """The discarder's observations, relative to its discard (ms, seq)."""
    out = []
    for at, html in frames:
        deadline = _attr(html, "data-deadline")
        total = _attr(html, "data-total")
        out.append(
            (
                round((at - start) * 1000),
                int(_attr(html, "data-seq") or 0) - seq,
                _attr(html, "data-phase"),
                _attr(html, "data-turn"),
                None if deadline is None else round(int(deadline) / 1000 - start, 2),
                total,
            )
        )
    return tuple(out)


def play_hands(room, hands: int, seed: int) -> list[tuple[bool, tuple]]:
    """Play ``hands`` hands; return ``(could_claim, observed)`` per window."""
    rng = random.Random(seed)
    a, b = make_player(f"va{seed}"), make_player(f"vb{seed}")
    table_quick_match(user=a, room=room)
    table = table_quick_match(user=b, room=room)
    users = {0: table.seat0, 1: table.seat1}
    sockets = {s: Socket(table.pk, s) for s in (0, 1)}
    now = time.time()
    window: dict[str, Any] | None = None
    out: list[tuple[bool, tuple]] = []
    played = 0
    for _ in range(20000):
        table.refresh_from_db()
        if table.status != table.Status.PLAYING:
            played += 1
            if played >= hands:
                break
            now += 5
            for s in (0, 1):
                table_continue(user=users[s], table_id=table.pk, now=now)
            window = None
            for s in (0, 1):
                sockets[s].update(now)
            continue
        hand = load_hand(table.hand, seq=table.seq)
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        if window is not None and seat != window["seat"]:
            if hand.state.phase is Phase.CLAIM:
                action = {"action": "pass", "seq": hand.seq}
                now = window["start"] + rng.uniform(0.2, 3.0)
            else:
                action = payload_of(choose(hand, seat))
                now = max(now + 0.01, window["start"] + rng.uniform(3.5, 8.0))
        else:
            action = payload_of(choose(hand, seat))
            now += rng.uniform(0.5, 3.0)
        table_act(user=users[seat], table_id=table.pk, move=parse_move(action), now=now)
        for s in (0, 1):
            sockets[s].update(now)
        table.refresh_from_db()
        if window is not None and seat != window["seat"] and action["action"] != "pass":
            # the opponent's own move ends the window
            frames = [
                f for f in sockets[window["seat"]].sent if f[0] >= window["start"]
            ]
            if action["action"] == "discard" or action.get("tile"):
                out.append(
                    (window["claim"], observed(frames, window["start"], window["seq"]))
                )
            window = None
        discarded = action["action"] == "discard" or (
            action["action"] == "ready" and action.get("tile")
        )
        if discarded and table.veil and table.veil.get("seat") == seat:
            after = load_hand(table.hand, seq=table.seq)
            window = {
                "seat": seat,
                "start": now,
                "seq": int(table.veil["from"]),
                "claim": after.state.phase is Phase.CLAIM,
            }
    return out


def test_the_discarder_observes_the_same_whether_or_not_a_claim_was_possible(
    room, monkeypatch
):
    from games.services import deal

    walls = random.Random("veil-walls")  # the same hands on every run
    monkeypatch.setattr(deal.secrets, "token_hex", lambda n: walls.randbytes(n).hex())
    windows = []
    for seed in range(3):
        windows += play_hands(room, hands=4, seed=seed)
    by_case: dict[bool, list[tuple]] = {True: [], False: []}
    for claim, seen in windows:
        by_case[claim].append(seen)
    assert len(by_case[True]) >= 5 and len(by_case[False]) >= 50, {
        k: len(v) for k, v in by_case.items()
    }
    for claim, cases in by_case.items():
        for seen in cases:
            # exactly two frames: the veiled one at the discard, the next at
            # the opponent's own move — never one at its pass or its draw
            assert len(seen) == 2, (claim, seen)
            first, second = seen
            # at the discard: the claim prompt's seq, the opponent's turn,
            # its timer counted from the discard (15 s), in both cases
            assert first == (0, 1, "turn", "opponent", 15.0, "15000"), (claim, seen)
            assert second[0] >= 3500  # when the opponent moved, nothing sooner

    # the second frame's fields, apart from when the opponent moved and the
    # number of 补花 events, take the same values in both cases
    def shape(seen: tuple) -> tuple:
        at, _seq, phase, turn, deadline, total = seen[1]
        left = None if deadline is None else round(deadline - at / 1000, 1)
        return (phase, turn, left, total)

    shapes = {k: Counter(shape(s) for s in v) for k, v in by_case.items()}
    assert set(shapes[True]) <= set(shapes[False]), shapes
    # arrival times: the same distribution (two-sample Kolmogorov–Smirnov
    # statistic, below its 1 % critical value)
    xs = sorted(s[1][0] for s in by_case[True])
    ys = sorted(s[1][0] for s in by_case[False])
    d = max(
        abs(sum(x <= t for x in xs) / len(xs) - sum(y <= t for y in ys) / len(ys))
        for t in xs + ys
    )
    n, m = len(xs), len(ys)
    assert d < 1.63 * ((n + m) / (n * m)) ** 0.5, d


# -- after a 加杠: the ROB window ---------------------------------------------

# the dealer pungs the 闲家's 5m, then draws the fourth and adds it; the
# 闲家 waits on 5m (46m) and may rob it, or holds 36m and may not
ROB_DEALER = "55m123m789m11z2z3z4z6z"
ROB_OTHER = {True: "4m6m5m555z777z99m44z", False: "3m6m5m555z777z99m44z"}
ROB_DRAWS = "4z6z5m"


def _stack_walls(monkeypatch, tiles) -> None:
    """Deal every new hand from a stacked wall: ``tiles()`` returns the
    dealer's 14, the other seat's 13 and the draws, as text."""
    from games.engine.hand import Hand
    from games.engine.wall import stacked_wall
    from games.rules.rulesets import get as get_ruleset
    from games.rules.tiles import parse_tiles

    real = Hand.new.__func__  # type: ignore[attr-defined]

    def idx(text):
        return [t.index for t in parse_tiles(text)]

    def new(cls, ruleset, **kwargs):
        if kwargs.get("wall") is None:
            rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
            dealer, other, draws = tiles()
            kwargs["wall"] = stacked_wall(
                rs, dealer=idx(dealer), other=idx(other), draws=idx(draws)
            )
        return real(cls, ruleset, **kwargs)

    monkeypatch.setattr(Hand, "new", classmethod(new))


@pytest.fixture
def rob_wall(monkeypatch):
    chosen = {"robbable": True}
    _stack_walls(
        monkeypatch,
        lambda: (ROB_DEALER, ROB_OTHER[chosen["robbable"]], ROB_DRAWS),
    )
    return chosen


def _to_added_kong(room, robbable: bool, rob_wall, now: float):
    from games.presenters import seat_context

    rob_wall["robbable"] = robbable
    a, b = make_player(f"ra{robbable}"), make_player(f"rb{robbable}")
    table_quick_match(user=a, room=room, now=now)
    table = table_quick_match(user=b, room=room, now=now)
    users = {0: table.seat0, 1: table.seat1}

    def hand():
        table.refresh_from_db()
        return load_hand(table.hand, seq=table.seq)

    def move(seat, action, **fields):
        nonlocal now
        now += 1.0
        table_act(
            user=users[seat],
            table_id=table.pk,
            move=parse_move({"action": action, "seq": hand().seq, **fields}),
            now=now,
        )

    h = hand()
    for s in (0, 1):
        move(s, "pre_deal")
    dealer = hand().state.dealer
    other = 1 - dealer
    move(dealer, "discard", tile="6z")
    move(other, "discard", tile="5m")  # declines its complete hand (robbable)
    move(dealer, "pung")
    move(dealer, "discard", tile="3z")
    move(other, "discard", tile="6z")
    h = hand()
    assert h.state.pending[dealer] and h.state.phase.value == "turn"
    move(dealer, "kong", tile="5m")
    table.refresh_from_db()
    return table, users, dealer, now, seat_context


@pytest.mark.parametrize("robbable", [True, False])
def test_the_kong_maker_sees_the_same_rob_window_either_way(room, rob_wall, robbable):
    start = time.time()
    table, users, dealer, at, seat_context = _to_added_kong(
        room, robbable, rob_wall, start
    )
    other = 1 - dealer
    hand = load_hand(table.hand, seq=table.seq)
    kong = next(e for e in reversed(hand.events) if e.kind == "added_kong")
    assert kong.at == at
    assert hand.state.phase.value == ("rob" if robbable else "turn")
    veil = table.veil
    assert veil["kind"] == "rob" and veil["shown"] == kong.seq + 1
    # the state before the kong is kept with the snapshot: the maker's frame
    # reads no event row (no replay), and it is the state the log rebuilds
    record = table.hand
    assert record.snapshot.rob_base["seq"] == kong.seq - 1
    assert check_snapshot(record)
    with CaptureQueriesContext(connection) as q:
        fetched = fetch_table(table.pk)
        veiled = seat_context(fetched, dealer, now=at + 0.5)
    assert not [x for x in q.captured_queries if "handevent" in x["sql"].lower()]
    kept = load_hand(record, seq=kong.seq - 1)
    replayed = rebuild_hand(record, upto=kong.seq - 1)
    assert kept.state.snapshot() == replayed.state.snapshot()
    assert kept.view(dealer) == replayed.view(dealer)
    assert kept.events == replayed.events[-len(kept.events) :]
    ctx = seat_context(table, dealer, now=at + 0.5)
    assert {**ctx, "now": 0} == {**veiled, "now": 0}
    assert ctx["seq"] == kong.seq + 1
    assert ctx["phase"] == "rob" and ctx["turn"] == "opponent"
    assert ctx["deadline"] == {
        "at": int((at + 10) * 1000),
        "seconds": 10,
        "seat": "opponent",
    }
    assert [m["kind"] for m in ctx["me"]["melds"]] == ["pung"]
    if robbable:  # the opponent passes after a while: nothing changes
        table_act(
            user=users[other],
            table_id=table.pk,
            move=parse_move({"action": "pass", "seq": hand.seq}),
            now=at + 4,
        )
        table.refresh_from_db()
        again = seat_context(table, dealer, now=at + 4.5)
        assert {**again, "now": 0} == {**ctx, "now": 0}
        # kept through the opponent's pass
        assert fetch_table(table.pk).hand.snapshot.rob_base["seq"] == kong.seq - 1
        assert check_snapshot(table.hand)
    # the kong maker may not act before the window's end, alike in both cases
    from games.engine.errors import OutOfTurnError

    with pytest.raises(OutOfTurnError):
        table_act(
            user=users[dealer],
            table_id=table.pk,
            move=parse_move({"action": "auto", "seq": kong.seq + 1}),
            now=at + 5,
        )
    # after the window's end (and a clock tick's slack) the real turn shows, its
    # deadline counted from that end in both cases
    table.refresh_from_db()
    later = seat_context(table, dealer, now=float(veil["until"]) + 0.01)
    hand = load_hand(table.hand, seq=table.seq)
    assert later["seq"] == hand.seq and later["my_turn"] is True
    assert later["deadline"]["at"] == int((at + 10 + 15) * 1000)
    assert "kong" in [m["kind"] for m in later["me"]["melds"]]


# -- a win declined on the discard (胡加倍) ------------------------------------

# the 闲家 waits on 4z or 9m (双碰) and the dealer's first discard is 4z: it
# may win on it, and its pass counts a 胡加倍 (erren's win_double system)
DECLINE_DEALER = "55m123m789m11z2z3z4z6z"
DECLINE_OTHER = "4m5m6m555z777z99m44z"
DECLINE_DRAWS = "8m"


@pytest.fixture
def decline_wall(monkeypatch):
    _stack_walls(monkeypatch, lambda: (DECLINE_DEALER, DECLINE_OTHER, DECLINE_DRAWS))


def test_a_win_declined_on_the_discard_shows_only_when_the_veil_lifts(
    room, decline_wall
):
    """The opponent's 胡加倍 count rises when it passes a win on my discard;
    under the veil my frame keeps the count of my discard (else it would say
    the opponent could win on my tile) until the opponent's own discard."""
    from games.presenters import seat_context

    now = time.time()
    a, b = make_player("da"), make_player("db")
    table_quick_match(user=a, room=room, now=now)
    table = table_quick_match(user=b, room=room, now=now)
    users = {0: table.seat0, 1: table.seat1}

    def hand():
        table.refresh_from_db()
        return load_hand(table.hand, seq=table.seq)

    def move(seat, action, at, **fields):
        table_act(
            user=users[seat],
            table_id=table.pk,
            move=parse_move({"action": action, "seq": hand().seq, **fields}),
            now=at,
        )

    for s in (0, 1):
        move(s, "pre_deal", now + 1)
    dealer = hand().state.dealer
    other = 1 - dealer
    move(dealer, "discard", now + 2, tile="4z")
    h = hand()
    assert h.state.phase is Phase.CLAIM and h.state.pending[other]
    assert "win" in {x.kind for x in h.legal_actions(other)}
    before = seat_context(table, dealer, now=now + 2.5)
    assert before["players"]["opponent"]["win_doubles"] == 0
    move(other, "pass", now + 4)
    h = hand()
    declined = [e for e in h.events if e.kind == "win_declined"]
    assert [(e.seat, e.payload) for e in declined] == [(other, {"win_doubles": 1})]
    assert h.state.pending[other] and h.state.phase is Phase.TURN  # it drew 8m
    after = seat_context(table, dealer, now=now + 2.5)
    assert after == before
    html = render_frame(table, dealer, now=now + 4.5)
    assert 'data-testid="win-doubles"' not in html
    # the opponent's own seat sees its count at once
    mine = seat_context(table, other, now=now + 4.5)
    assert mine["players"]["me"]["win_doubles"] == 1
    move(other, "discard", now + 6, tile="8m")  # its own move lifts the veil
    table.refresh_from_db()
    lifted = seat_context(table, dealer, now=now + 6.5)
    assert lifted["players"]["opponent"]["win_doubles"] == 1
    assert 'data-count="1"' in render_frame(table, dealer, now=now + 6.5)
