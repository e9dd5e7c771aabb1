"""The hand's seed commitment is shown at the table from the deal (issue 12
tester fault 2): /fair/ says the site publishes the seed's SHA-256 at the start,
so the frames and the table page carry it from the first frame, the settlement
shows it beside the revealed seed, and it is never the seed itself."""

from __future__ import annotations

import hashlib
import html
import re

from django.urls import reverse

from games.models import HandRecord
from games.presenters import render_frame
from games.services import table_play_bot
from games.services.hands import load_hand
from tests.games.driver import play_out

COMMIT = re.compile(r'data-testid="table-commitment" data-commitment="([0-9a-f]{64})"')


def test_the_commitment_is_at_the_table_from_the_first_frame(client, alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    table.refresh_from_db()
    record = table.hand
    hand = load_hand(record, seq=table.seq)
    assert not hand.ended
    for seat in (0, 1):
        frame = render_frame(table, seat, hand=hand)
        assert COMMIT.search(frame).group(1) == record.commitment
        # the commitment, never the seed, while the hand is played
        assert record.secret_seed not in frame
        assert record.commitment != record.secret_seed
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert COMMIT.search(page).group(1) == record.commitment
    assert record.secret_seed not in page
    assert 'id="mj-commit"' in page and "本局承诺" in page

    # at the end: the settlement shows it beside the revealed seed, and the
    # seed hashes to what the table showed from the deal
    play_out(table, {0: alice}, seed=3)
    record = HandRecord.objects.get(pk=record.pk)
    table.refresh_from_db()
    frame = render_frame(table, 0)
    seed = html.unescape(
        re.search(r'data-testid="settle-seed" data-full="([^"]+)"', frame).group(1)
    )
    shown = re.search(r'data-testid="settle-commitment" data-full="(\w+)"', frame)
    assert shown.group(1) == record.commitment
    prefix = "erren2-wall-v2:"
    assert hashlib.sha256((prefix + seed).encode()).hexdigest() == record.commitment
