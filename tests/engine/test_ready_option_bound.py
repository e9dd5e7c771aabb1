"""报听 options on a turn: the 14 tiles' shanten is skipped when the hand
before the draw is two or more from tenpai (issue 15 self-play speed).

A drawn tile lowers the shanten by at most one, so such a hand cannot be
tenpai after any discard and offers no ``ready`` with a tile;
:meth:`HandRules._tenpai_after_discard` says so from the memoised shanten of
the hand before the draw.
"""

from __future__ import annotations

from games.engine import analysis, options, selfplay
from games.engine.actions import Discard, Ready
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

# shanten 3 (2 with the 9p it draws): no 报听 on its turn
FAR = "2366m78p1459s225z"


def test_tenpai_after_discard_matches_a_fresh_shanten(monkeypatch):
    # over whole self-played hands of the rule sets with 报听 (kongs,
    # claims, 财神, timeouts), every answer equals the 14 tiles' shanten
    # worked out afresh
    bounded = options.HandRules._tenpai_after_discard
    asked = [0, 0]

    def checked(self, seat):
        got = bounded(self, seat)
        s = self.state
        fresh = analysis.hand_shanten(
            s.concealed[seat], len(s.melds[seat]), s.wild, self.ruleset
        )
        assert got == (fresh <= 0)
        asked[0] += 1
        asked[1] += got
        return got

    monkeypatch.setattr(options.HandRules, "_tenpai_after_discard", checked)
    for name in ("liangren", "youxi"):
        summary = selfplay.run(name, 8, 5, check=True)
        assert not summary["errors"]
    assert asked[0] > 300 and 20 < asked[1] < asked[0]


def test_far_hand_after_a_draw_is_not_asked_its_fourteen_tiles(monkeypatch):
    hand = stacked("youxi", "1m2m3m4m5m6m7m8m9m1p1p2p3p5s", FAR, draws="9p")
    hand.apply(Discard(0, hand.seq, Tile.parse("5s")), now=1002.0)
    state = hand.state
    if state.phase.value == "claim":
        hand.apply(hand.default_action(1), now=1003.0)
    assert hand.state.turn == 1 and hand.state.drawn[1] == Tile.parse("9p").index
    asked: list[int] = []
    real = analysis.hand_shanten

    def counting(counts, melds, wild, ruleset):
        asked.append(sum(counts))
        return real(counts, melds, wild, ruleset)

    monkeypatch.setattr(analysis, "hand_shanten", counting)
    hand._shanten_memo.pop((*hand.state.concealed[1], 0), None)
    legal = hand.legal_actions(1)
    assert not any(isinstance(a, Ready) for a in legal)
    assert 14 not in asked  # the 13 tiles before the draw were known
