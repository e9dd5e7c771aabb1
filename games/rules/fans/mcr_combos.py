"""Fans made of several sets, with MCR's combination principles.

Seed 003 (and 002/004) list five counting principles: 不重复 (no repeat),
不拆移 (a set is not split or moved), 不得相同 (a set that has formed a fan
with another cannot form the same fan again), 就高不就低 (take the higher),
套算一次 (a set not yet combined may combine once with one already combined).
For the chow fans (一般高 喜相逢 连六 老少副 and the 3- and 4-chow fans) and
the pung fans (双同刻 三同刻 三节高 三风刻 大三元 …) these principles are not a
simple 不计 list, so the sets are analysed together here, with the standard
algorithm of ChineseOfficialMahjongHelper (the calculator behind our oracle):

* 4 chows: a 4-chow fan (一色四同顺 / 一色四步高) stands alone; else the first
  3-chow fan found among the four triples counts, plus at most one 1-fan fan
  of the fourth chow with the other three (一般高 > 喜相逢 > 连六 > 老少副);
  else the pairwise 1-fan fans are counted, at most one per chow that has
  any partner and at most three in all, dropping repeats from 老少副 up.
* 3 chows: a 3-chow fan stands alone; else at most two pairwise fans.
* pungs likewise: a 4-pung fan alone; a 3-pung fan plus one 2-pung fan of
  the remaining pung; else every pair of pungs.

Tiles are compared in the calculator's order (万 条 筒 风 中发白) so that the
first fan found among equals is the same as the oracle's.
"""

from __future__ import annotations

# Tile index (0-33) -> (suit, rank) in the calculator's order: suit 1 万,
# 2 条, 3 筒, 4 winds, 5 dragons (rank 1 中, 2 发, 3 白).
_SUIT = {0: 1, 1: 3, 2: 2}


def ocode(i: int) -> int:
    """Return the calculator's tile code (suit << 4 | rank) of tile index ``i``."""
    if i < 27:
        return (_SUIT[i // 9] << 4) | (i % 9 + 1)
    if i < 31:
        return 0x40 | (i - 26)
    return 0x50 | (34 - i)  # 白 31 -> 3, 发 32 -> 2, 中 33 -> 1


OCODE = tuple(ocode(i) for i in range(34))

PURE_DOUBLE_CHOW = "PURE_DOUBLE_CHOW"
MIXED_DOUBLE_CHOW = "MIXED_DOUBLE_CHOW"
SHORT_STRAIGHT = "SHORT_STRAIGHT"
TWO_TERMINAL_CHOWS = "TWO_TERMINAL_CHOWS"
_PAIR_ORDER = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)

Fans = tuple[tuple[str, int], ...]


def _shifted1(a: int, b: int, c: int) -> bool:
    return a + 1 == b and b + 1 == c


def _shifted1_any(a: int, b: int, c: int) -> bool:
    x, y, z = sorted((a, b, c))
    return x + 1 == y and y + 1 == z


def _mixed(a: int, b: int, c: int) -> bool:
    return a != b and a != c and b != c


def _four_chows(t0: int, t1: int, t2: int, t3: int) -> str | None:
    if t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3:
        return "FOUR_PURE_SHIFTED_CHOWS"
    if t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return "FOUR_PURE_SHIFTED_CHOWS"
    if t0 == t1 == t2 == t3:
        return "QUADRUPLE_CHOW"
    return None


def _three_chows(t0: int, t1: int, t2: int) -> str | None:
    s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
    r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
    if _mixed(s0, s1, s2):
        if _shifted1_any(r0, r1, r2):
            return "MIXED_SHIFTED_CHOWS"
        if r0 == r1 == r2:
            return "MIXED_TRIPLE_CHOW"
        if sorted((r0, r1, r2)) == [2, 5, 8]:
            return "MIXED_STRAIGHT"
    else:
        if t0 + 3 == t1 and t1 + 3 == t2:
            return "PURE_STRAIGHT"
        if t0 + 2 == t1 and t1 + 2 == t2:
            return "PURE_SHIFTED_CHOWS"
        if _shifted1(t0, t1, t2):
            return "PURE_SHIFTED_CHOWS"
        if t0 == t1 == t2:
            return "PURE_TRIPLE_CHOW"
    return None


def _two_chows(t0: int, t1: int) -> str | None:
    if t0 >> 4 != t1 >> 4:
        if t0 & 15 == t1 & 15:
            return MIXED_DOUBLE_CHOW
    else:
        if t0 + 3 == t1 or t1 + 3 == t0:
            return SHORT_STRAIGHT
        r = {t0 & 15, t1 & 15}
        if r == {2, 8}:
            return TWO_TERMINAL_CHOWS
        if t0 == t1:
            return PURE_DOUBLE_CHOW
    return None


def _extra(t0: int, t1: int, t2: int, x: int) -> str | None:
    found = {_two_chows(t0, x), _two_chows(t1, x), _two_chows(t2, x)}
    for f in _PAIR_ORDER:
        if f in found:
            return f
    return None


def _limit(fans: list[str | None], max_cnt: int) -> dict[str, int]:
    """The 套算一次 / 不得相同 limit: keep at most ``max_cnt`` pair fans."""
    table = [0, 0, 0, 0]
    cnt = 0
    for f in fans:
        if f is not None:
            cnt += 1
            table[_PAIR_ORDER.index(f)] += 1
    limit = 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while table[idx] > limit and cnt > max_cnt:
                table[idx] -= 1
                cnt -= 1
        limit -= 1
    return {f: n for f, n in zip(_PAIR_ORDER, table, strict=True) if n}


def chow_fans(mids: tuple[int, ...]) -> Fans:
    """Fans of the chows whose middle tiles (calculator codes) are ``mids``, sorted.

    Not memoised here: the scorer memoises its analyses by set
    (:mod:`.mcr_common`)."""
    out: dict[str, int] = {}
    n = len(mids)
    if n == 4:
        t = mids
        f = _four_chows(*t)
        if f:
            return ((f, 1),)
        for a, b, c, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f = _three_chows(t[a], t[b], t[c])
            if f:
                out[f] = 1
                e = _extra(t[a], t[b], t[c], t[x])
                if e:
                    out[e] = 1
                return tuple(out.items())
        pairs = [
            _two_chows(t[0], t[1]),
            _two_chows(t[0], t[2]),
            _two_chows(t[0], t[3]),
            _two_chows(t[1], t[2]),
            _two_chows(t[1], t[3]),
            _two_chows(t[2], t[3]),
        ]
        max_cnt = 3
        for i0, i1, i2 in ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)):
            if pairs[i0] is None and pairs[i1] is None and pairs[i2] is None:
                max_cnt -= 1
        if max_cnt > 0:
            out = _limit(pairs, max_cnt)
        return tuple(out.items())
    if n == 3:
        f = _three_chows(*mids)
        if f:
            return ((f, 1),)
        pairs = [
            _two_chows(mids[0], mids[1]),
            _two_chows(mids[0], mids[2]),
            _two_chows(mids[1], mids[2]),
        ]
        return tuple(_limit(pairs, 2).items())
    if n == 2:
        f = _two_chows(*mids)
        return ((f, 1),) if f else ()
    return ()


_E, _S, _W, _N = 0x41, 0x42, 0x43, 0x44
_BIG_THREE_WINDS = ((_E, _S, _W), (_E, _S, _N), (_E, _W, _N), (_S, _W, _N))


def _four_pungs(t0: int, t1: int, t2: int, t3: int) -> str | None:
    if t0 < 0x40 and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return "FOUR_PURE_SHIFTED_PUNGS"
    if (t0, t1, t2, t3) == (_E, _S, _W, _N):
        return "BIG_FOUR_WINDS"
    return None


def _three_pungs(t0: int, t1: int, t2: int) -> str | None:
    if t0 < 0x40 and t1 < 0x40 and t2 < 0x40:
        s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
        r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
        if _mixed(s0, s1, s2):
            if _shifted1_any(r0, r1, r2):
                return "MIXED_SHIFTED_PUNGS"
            if r0 == r1 == r2:
                return "TRIPLE_PUNG"
        elif _shifted1(t0, t1, t2):
            return "PURE_SHIFTED_PUNGS"
    else:
        if (t0, t1, t2) in _BIG_THREE_WINDS:
            return "BIG_THREE_WINDS"
        if (t0, t1, t2) == (0x51, 0x52, 0x53):
            return "BIG_THREE_DRAGONS"
    return None


def _two_pungs(t0: int, t1: int) -> str | None:
    if t0 < 0x40 and t1 < 0x40:
        if t0 & 15 == t1 & 15:
            return "DOUBLE_PUNG"
    elif t0 > 0x50 and t1 > 0x50:
        return "TWO_DRAGON_PUNGS"
    return None


def _add(out: dict[str, int], f: str | None) -> None:
    if f:
        out[f] = out.get(f, 0) + 1


def pung_fans(tiles: tuple[int, ...]) -> Fans:
    """Fans of the pungs/kongs whose tiles (calculator codes) are ``tiles``, sorted.

    Not memoised here: the scorer memoises its analyses by set
    (:mod:`.mcr_common`)."""
    out: dict[str, int] = {}
    n = len(tiles)
    t = tiles
    if n == 4:
        f = _four_pungs(*t)
        if f:
            return ((f, 1),)
        free = -1
        for a, b, c, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f = _three_pungs(t[a], t[b], t[c])
            if f:
                out[f] = 1
                free = x
                break
        if free >= 0:
            for i in range(4):
                if i != free:
                    f = _two_pungs(t[i], t[free])
                    if f:
                        _add(out, f)
                        break
            return tuple(out.items())
        for i in range(4):
            for j in range(i + 1, 4):
                _add(out, _two_pungs(t[i], t[j]))
        return tuple(out.items())
    if n == 3:
        f = _three_pungs(*t)
        if f:
            return ((f, 1),)
        for i in range(3):
            for j in range(i + 1, 3):
                _add(out, _two_pungs(t[i], t[j]))
        return tuple(out.items())
    if n == 2:
        _add(out, _two_pungs(t[0], t[1]))
    return tuple(out.items())
