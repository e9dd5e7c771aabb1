"""Deciding cases in admin: inquiry, reversal preview, decisions, audit, notices."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from accounts.models import LedgerEntry, Message, Profile
from accounts.selectors import ledger_drift
from moderation.models import AuditEntry, Case, Sanction
from moderation.services.cases import case_appeal
from moderation.services.decisions import (
    DecisionError,
    case_decide,
    case_inquiry_open,
    reversal_preview,
)
from moderation.services.triage import case_triage
from tests.games.conftest import make_player
from tests.moderation.helpers import moderator, played, reported_case

pytestmark = pytest.mark.django_db


def _total_coins() -> int:
    return int(Profile.objects.aggregate(s=Sum("coins"))["s"])


def _rake() -> int:
    """The site's rake in sum: what the rake entries took, less reversals."""
    taken = LedgerEntry.objects.filter(kind="rake").aggregate(s=Sum("amount"))["s"]
    back = LedgerEntry.objects.filter(kind="reversal", reverses__kind="rake").aggregate(
        s=Sum("amount")
    )["s"]
    return -int(taken or 0) - int(back or 0)


def test_reversal_conserves_balances_plus_rake_and_is_shown_first(alice, bob):
    mod = moderator()
    case, record = reported_case(alice, bob, category="collusion")
    second = played(alice, bob, minutes=5, winner=1, fan=16)
    case_triage(case_id=case.pk)  # attaches the pair's hands to the evidence
    before = _total_coins() + _rake()
    preview = reversal_preview(hand_ids=[record.pk, second.pk])
    # bob won 8 fan × 10 and 16 fan × 10: alice paid 80 + 160, the site kept
    # 4 + 8 of it; the reversal gives alice 240, takes 228 from bob, returns 12
    assert preview.totals[alice.pk]["coins"] == 240
    assert preview.totals[bob.pk]["coins"] == -228
    assert (preview.players_coins, preview.rake) == (12, 12) and preview.conserved
    assert preview.totals[bob.pk]["points"] == -(8 + 16)
    with pytest.raises(DecisionError, match="预览"):
        case_decide(
            case_id=case.pk,
            moderator=mod,
            outcome="warn",
            reason="刷分",
            reverse_hand_ids=[record.pk, second.pk],
            previewed_hand_ids=[record.pk],
        )
    coins = {u.pk: Profile.objects.get(user=u).coins for u in (alice, bob)}
    case_decide(
        case_id=case.pk,
        moderator=mod,
        outcome="warn",
        reason="刷分",
        reverse_hand_ids=[record.pk, second.pk],
        previewed_hand_ids=[second.pk, record.pk],
    )
    assert _total_coins() + _rake() == before
    assert Profile.objects.get(user=alice).coins == coins[alice.pk] + 240
    assert Profile.objects.get(user=bob).coins == coins[bob.pk] - 228
    assert ledger_drift() == []
    entry = AuditEntry.objects.get(action="decide", case=case)
    assert entry.actor == mod and entry.reason == "刷分"
    assert entry.before["balances"][str(alice.pk)]["coins"] == coins[alice.pk]
    assert entry.after["balances"][str(alice.pk)]["coins"] == coins[alice.pk] + 240
    assert entry.after["case"]["reversed_hands"] == sorted([record.pk, second.pk])


def test_an_inquiry_locks_the_case_to_its_moderator(alice, bob):
    first, second = moderator("mod1"), moderator("mod2")
    case, _record = reported_case(alice, bob)
    case_inquiry_open(case_id=case.pk, moderator=first)
    case.refresh_from_db()
    assert case.status == "review" and case.inquiry_by == first
    with pytest.raises(DecisionError, match="mod1"):
        case_decide(case_id=case.pk, moderator=second, outcome="dismiss", reason="x")
    with pytest.raises(DecisionError, match="mod1"):
        case_inquiry_open(case_id=case.pk, moderator=second)
    case_decide(case_id=case.pk, moderator=first, outcome="dismiss", reason="正常")
    case.refresh_from_db()
    assert (case.status, case.outcome, case.inquiry_by) == ("decided", "dismiss", None)
    with pytest.raises(DecisionError, match="已经处理"):
        case_decide(case_id=case.pk, moderator=first, outcome="ban", reason="x")


def test_suspend_writes_a_sanction_notices_and_an_appeal_reopens(
    alice, bob, django_capture_on_commit_callbacks
):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    with pytest.raises(DecisionError, match="天数"):
        case_decide(case_id=case.pk, moderator=mod, outcome="suspend", reason="x")
    with pytest.raises(DecisionError, match="理由"):
        case_decide(case_id=case.pk, moderator=mod, outcome="ban", reason="  ")
    with django_capture_on_commit_callbacks(execute=True):
        case_decide(
            case_id=case.pk, moderator=mod, outcome="suspend", reason="脚本证据", days=3
        )
    sanction = Sanction.objects.get(user=bob)
    assert sanction.kind == "suspend" and sanction.reason == "脚本证据"
    assert sanction.ends - sanction.starts == timedelta(days=3)
    to_alice = Message.objects.get(recipient=alice)
    assert "已经处理" in to_alice.body and "已对该玩家采取措施" in to_alice.body
    assert "脚本证据" not in to_alice.body  # the reason is for the player
    to_bob = Message.objects.get(recipient=bob)
    assert "暂停账号" in to_bob.body and "脚本证据" in to_bob.body
    assert to_bob.reply_url == reverse("moderation:appeal", args=[case.pk])
    # English readers see English
    from django.utils import translation

    with translation.override("en"):
        subject, body = to_bob.shown()
    assert subject == "Moderation decision" and "Suspend" in body
    with django_capture_on_commit_callbacks(execute=True):
        case_appeal(case_id=case.pk, user=bob, text="我没有作弊")
    case.refresh_from_db()
    assert (case.status, case.appealed) == ("open", True)
    with pytest.raises(DecisionError, match="已经对这次处理提出过申诉"):
        case_appeal(case_id=case.pk, user=bob, text="again")
    with pytest.raises(DecisionError):
        case_appeal(case_id=case.pk, user=alice, text="not mine")
    assert list(
        AuditEntry.objects.filter(case=case).values_list("action", flat=True)
    ) == ["appeal", "decide"]


def test_audit_entries_cannot_be_changed_or_deleted(alice, bob):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    case_decide(case_id=case.pk, moderator=mod, outcome="warn", reason="注意")
    entry = AuditEntry.objects.get(case=case)
    entry.reason = "改"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


def test_permissions_of_the_queue(client, alice, bob):
    case, _record = reported_case(alice, bob)
    url = reverse("admin:moderation_case_change", args=[case.pk])
    queue = reverse("admin:moderation_case_changelist")
    client.force_login(alice)  # a player: no admin at all
    assert client.get(queue).status_code == 302
    assert client.get(url).status_code == 302
    mod = moderator()
    client.force_login(mod)
    assert client.get(queue).status_code == 200
    page = client.get(url).content.decode()
    assert 'data-testid="evidence"' in page and 'data-testid="priority"' in page
    for hook in ("decide-dismiss", "decide-warn", "decide-suspend", "decide-ban"):
        assert f'data-testid="{hook}"' in page
    assert 'name="reason"' in page
    # a moderator cannot edit balances: no change of profiles, no ledger entries
    profile = Profile.objects.get(user=alice)
    change = reverse("admin:accounts_profile_change", args=[profile.pk])
    client.post(change, {"nickname": "x", "coins": 999999})
    assert Profile.objects.get(user=alice).coins == profile.coins
    add = reverse("admin:accounts_ledgerentry_add")
    assert client.get(add).status_code == 403
    response = client.post(
        add, {"user": alice.pk, "currency": "coins", "amount": 5, "reason": "x"}
    )
    assert response.status_code == 403
    assert not LedgerEntry.objects.filter(kind="correction", user=alice).exists()
    # nor the schedule (only superusers change settings)
    assert (
        client.get(
            reverse("admin:django_celery_beat_periodictask_changelist")
        ).status_code
        == 403
    )
    # a staff member without the group sees no queue
    plain = make_player("plainstaff")
    plain.is_staff = True
    plain.save()
    client.force_login(plain)
    assert client.get(queue).status_code == 403


def test_the_case_page_decides_with_the_buttons(client, alice, bob):
    mod = moderator()
    case, record = reported_case(alice, bob)
    case_triage(case_id=case.pk)
    client.force_login(mod)
    act = reverse("admin:moderation_case_act", args=[case.pk])
    page = client.post(act, {"do": "preview", "hands": [record.pk], "reason": "r"})
    html = page.content.decode()
    assert 'data-testid="reversal-preview" data-conserved="1"' in html
    done = client.post(
        act,
        {
            "do": "ban",
            "reason": "<b>多次</b>",
            "hands": [record.pk],
            "previewed": [record.pk],
        },
    )
    assert done.status_code == 302
    case.refresh_from_db()
    assert (case.outcome, case.reversed_hands) == ("ban", [record.pk])
    assert Sanction.objects.get(user=bob).ends is None
    html = client.get(reverse("admin:moderation_case_change", args=[case.pk])).content
    assert b"&lt;b&gt;" in html and b"<b>\xe5\xa4\x9a" not in html
    # a player cannot post decisions
    other = reported_case(make_player("x1"), make_player("x2"))[0]
    client.force_login(alice)
    act = reverse("admin:moderation_case_act", args=[other.pk])
    client.post(act, {"do": "ban", "reason": "x"})
    other.refresh_from_db()
    assert other.status == "open"


def test_players_see_only_their_own_reports_and_never_evidence(client, alice, bob):
    case, _record = reported_case(alice, bob)
    case_triage(case_id=case.pk)
    client.force_login(bob)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-testid="my-report"' not in page
    client.force_login(alice)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert page.count('data-testid="my-report"') == 1
    assert "evidence" not in page and "priority" not in page


def test_decided_reports_show_their_outcome_to_the_reporter(client, alice, bob):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    case_inquiry_open(case_id=case.pk, moderator=mod)
    client.force_login(alice)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-status="review"' in page
    case_decide(case_id=case.pk, moderator=mod, outcome="dismiss", reason="正常")
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-status="decided"' in page and "未发现违规" in page
    assert Case.objects.get().decided_at <= timezone.now()


def test_a_reporter_whose_reports_are_dismissed_weighs_less(alice, bob):
    from moderation.priority import reporter_weight

    assert reporter_weight(upheld=0, dismissed=0) == 1.0
    assert reporter_weight(upheld=0, dismissed=4) == pytest.approx(1 / 3)
    assert reporter_weight(upheld=4, dismissed=0) == pytest.approx(5 / 3)
    mod = moderator()
    carol, dave = make_player("carol"), make_player("dave")
    for i in range(3):  # alice's three earlier reports were all dismissed
        victim = make_player(f"v{i}")
        old = reported_case(alice, victim)[0]
        case_decide(case_id=old.pk, moderator=mod, outcome="dismiss", reason="无")
    noisy = case_triage(case_id=reported_case(alice, bob)[0].pk)
    fresh = case_triage(case_id=reported_case(carol, dave)[0].pk)
    part = {p["key"]: p for p in noisy.priority_parts}["reports"]
    assert part["detail"]["weights"] == [0.4] and part["points"] == 6.0
    assert noisy.priority < fresh.priority


def test_an_appeal_is_a_reply_to_the_message(client, alice, bob):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    case_decide(case_id=case.pk, moderator=mod, outcome="mute", reason="骂人", days=1)
    from moderation.services.notices import case_notify_decided

    case_notify_decided(case_id=case.pk)
    client.force_login(bob)
    inbox = client.get(reverse("accounts:inbox")).content.decode()
    url = reverse("moderation:appeal", args=[case.pk])
    assert f'action="{url}"' in inbox and 'data-testid="inbox-message"' in inbox
    done = client.post(url, {"text": "<b>误会</b>"}, follow=True).content.decode()
    assert "申诉已提交" in done
    case.refresh_from_db()
    assert case.status == "open" and case.appealed
    client.force_login(mod)
    page = client.get(reverse("admin:moderation_case_change", args=[case.pk]))
    assert "&lt;b&gt;误会&lt;/b&gt;" in page.content.decode()
