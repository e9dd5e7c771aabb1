"""Admin keeps a live hand's private events from staff (issue 11 §5.7).

The attack run found the deal and every draw of a hand being played readable
by any staff user in admin.  Until the hand ends staff see each private event
in its public form (what the opponent sees) and no actions; a superuser sees
the full log, and each such view is an audit entry.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from games.models import HandEvent, HandRecord
from moderation.models import AuditEntry
from tests.games.driver import live_hand, play_out
from tests.moderation.helpers import moderator

pytestmark = pytest.mark.django_db


def _shown(value) -> str:
    """How the admin prints a JSON value in a read-only cell."""
    return escape(json.dumps(value, ensure_ascii=False))


@pytest.fixture
def live(alice, room):
    table, record = live_hand(alice, room)
    private = list(
        HandEvent.objects.filter(hand=record, public__isnull=False).order_by("seq")
    )
    assert any(e.kind == "deal" for e in private), [e.kind for e in private]
    return table, record, private


def _staff_client(client, user):
    client.force_login(user)
    return client


def test_staff_see_a_live_hands_private_events_redacted(client, live):
    _table, record, private = live
    staff = _staff_client(client, moderator())
    html = staff.get(
        reverse("admin:games_handrecord_change", args=[record.pk])
    ).content.decode()
    deal = next(e for e in private if e.kind == "deal")
    assert _shown(deal.payload) not in html
    assert _shown(deal.public) in html
    for event in private:
        assert _shown(event.payload) not in html, event.kind
    # the single event's page too
    page = staff.get(reverse("admin:games_handevent_change", args=[deal.pk]))
    assert page.status_code == 200
    assert _shown(deal.payload) not in page.content.decode()
    assert _shown(deal.public) in page.content.decode()
    assert not AuditEntry.objects.filter(action="live_hand_view").exists()


def test_a_superuser_sees_them_and_the_view_is_audited(client, live, django_user_model):
    _table, record, private = live
    root = django_user_model.objects.create_superuser("root", "r@example.com", "pw")
    client.force_login(root)
    html = client.get(
        reverse("admin:games_handrecord_change", args=[record.pk])
    ).content.decode()
    deal = next(e for e in private if e.kind == "deal")
    assert _shown(deal.payload) in html
    entry = AuditEntry.objects.get(action="live_hand_view")
    assert entry.actor == root and entry.after["hand"] == record.pk
    assert entry.after["players"] == [record.seat0_id, record.seat1_id]
    client.get(reverse("admin:games_handevent_change", args=[deal.pk]))
    assert AuditEntry.objects.filter(action="live_hand_view").count() == 2
    # the audit log is in admin, read-only
    log = client.get(reverse("admin:moderation_auditentry_changelist"))
    assert log.status_code == 200


def test_after_the_hand_staff_see_everything_unaudited(client, live, alice):
    table, record, _private = live
    play_out(table, {0: alice}, seed=9)
    record.refresh_from_db()
    assert record.status != HandRecord.Status.LIVE
    staff = _staff_client(client, moderator())
    html = staff.get(
        reverse("admin:games_handrecord_change", args=[record.pk])
    ).content.decode()
    for deal in HandEvent.objects.filter(hand=record, kind="deal"):  # one a seat
        assert _shown(deal.payload) in html
    assert not AuditEntry.objects.filter(action="live_hand_view").exists()


def test_the_log_cannot_be_edited_in_admin(client, live, django_user_model):
    _table, _record, private = live
    root = django_user_model.objects.create_superuser("root", "r@example.com", "pw")
    client.force_login(root)
    event = private[0]
    url = reverse("admin:games_handevent_change", args=[event.pk])
    client.post(url, {"payload": json.dumps({"forged": True})})
    event.refresh_from_db()
    assert "forged" not in json.dumps(event.payload)
    assert client.post(
        reverse("admin:games_handevent_delete", args=[event.pk]), {"post": "yes"}
    ).status_code in (403, 302)
    assert HandEvent.objects.filter(pk=event.pk).exists()
