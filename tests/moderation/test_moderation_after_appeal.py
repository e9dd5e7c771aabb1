"""A later decision on an appealed case replaces the earlier one consistently.

Tester's fault (issue 14): dismissing a case after an appeal left the
suspension and the reversal in force, with contradictory inbox messages, and
there was no way to lift a sanction with a reason and tell both sides.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import Message, Profile
from accounts.selectors import ledger_drift
from games.models import HandSeat
from moderation.models import AuditEntry, Sanction
from moderation.restrictions import account_refusal
from moderation.services.cases import case_appeal, sanction_lift
from moderation.services.decisions import DecisionError, case_decide, reversal_preview
from moderation.services.triage import case_triage
from tests.moderation.helpers import moderator, reported_case

pytestmark = pytest.mark.django_db


def _coins(*users) -> list[int]:
    return [Profile.objects.get(user=u).coins for u in users]


def _suspended_with_reversal(alice, bob, capture, settled=None):
    """bob, reported by alice, suspended 3 days with the hand reversed, appeals."""
    settled = [] if settled is None else settled
    mod = moderator()
    case, record = reported_case(alice, bob)
    case_triage(case_id=case.pk)
    settled[:] = _coins(alice, bob)
    with capture(execute=True):
        case_decide(
            case_id=case.pk,
            moderator=mod,
            outcome="suspend",
            reason="脚本证据",
            days=3,
            reverse_hand_ids=[record.pk],
            previewed_hand_ids=[record.pk],
        )
        case_appeal(case_id=case.pk, user=bob, text="我没有作弊")
    Message.objects.all().delete()
    return mod, case, record


def test_dismissing_after_an_appeal_lifts_the_suspension_and_restores_hands(
    alice, bob, django_capture_on_commit_callbacks
):
    settled: list[int] = []
    mod, case, record = _suspended_with_reversal(
        alice, bob, django_capture_on_commit_callbacks, settled
    )
    reversed_coins = _coins(alice, bob)
    assert reversed_coins != settled
    assert account_refusal(user_id=bob.pk) is not None
    # the restoration is previewed like a reversal: what the reversal took
    # comes back, rake included, conserved
    preview = reversal_preview(hand_ids=[], restore_ids=[record.pk])
    assert preview.all_ids == [record.pk] and preview.conserved
    assert preview.totals[bob.pk]["coins"] == settled[1] - reversed_coins[1]
    assert all(row["restore"] for row in preview.rows)
    with django_capture_on_commit_callbacks(execute=True):
        case_decide(
            case_id=case.pk,
            moderator=mod,
            outcome="dismiss",
            reason="申诉成立：是正常的好牌",
            restore_hand_ids=[record.pk],
            previewed_hand_ids=[record.pk],
        )
    case.refresh_from_db()
    assert (case.status, case.outcome) == ("decided", "dismiss")
    assert case.reversed_hands == []
    # nothing of the earlier decision stays in force
    sanction = Sanction.objects.get(user=bob)
    assert sanction.lifted_at is not None and sanction.lifted_by == mod
    assert account_refusal(user_id=bob.pk) is None
    assert _coins(alice, bob) == settled
    assert not HandSeat.objects.filter(hand=record, reversed=True).exists()
    assert ledger_drift() == []
    lift = AuditEntry.objects.get(case=case, action="lift")
    assert lift.reason == "申诉成立：是正常的好牌" and lift.actor == mod
    decide = AuditEntry.objects.filter(case=case, action="decide").latest("id")
    assert decide.after["restored"] == [record.pk]
    assert decide.after["lifted"][0]["id"] == sanction.pk
    # both sides are told the same story
    to_bob = Message.objects.get(recipient=bob)
    assert to_bob.subject == "申诉结果"
    assert "处理结果：驳回" in to_bob.body
    assert "原来的处罚（暂停账号）已解除" in to_bob.body
    assert f"以下牌局的游戏币和实力积分已恢复：#{record.pk}" in to_bob.body
    assert "已冲正" not in to_bob.body and "有效期" not in to_bob.body
    assert to_bob.reply_url == ""  # nothing left to appeal
    to_alice = Message.objects.get(recipient=alice)
    assert to_alice.subject == "你的举报已复查"
    assert "撤销对该玩家的处罚" in to_alice.body
    assert "已采取措施" not in to_alice.body
    assert f"已恢复原来的结算：#{record.pk}" in to_alice.body
    with translation.override("en"):
        subject, body = to_bob.shown()
    assert subject == "Appeal decided"
    assert "The earlier sanction (Suspend) has been lifted." in body
    # the player whose decision went their way cannot appeal it
    with pytest.raises(DecisionError, match="对你有利"):
        case_appeal(case_id=case.pk, user=bob, text="再申诉")


def test_upholding_after_an_appeal_replaces_the_sanction(
    alice, bob, django_capture_on_commit_callbacks
):
    mod, case, record = _suspended_with_reversal(
        alice, bob, django_capture_on_commit_callbacks
    )
    with django_capture_on_commit_callbacks(execute=True):
        case_decide(case_id=case.pk, moderator=mod, outcome="warn", reason="减为警告")
    case.refresh_from_db()
    assert case.reversed_hands == [record.pk]  # not restored: stays reversed
    assert not Sanction.objects.filter(user=bob, lifted_at__isnull=True).exists()
    to_bob = Message.objects.get(recipient=bob)
    assert "处理结果：警告" in to_bob.body and "已解除" in to_bob.body
    assert to_bob.reply_url  # still acted against: may appeal again
    to_alice = Message.objects.get(recipient=alice)
    assert "维持对该玩家的措施（警告）" in to_alice.body


def test_restoring_needs_a_preview_and_only_the_cases_reversed_hands(
    alice, bob, django_capture_on_commit_callbacks
):
    mod, case, record = _suspended_with_reversal(
        alice, bob, django_capture_on_commit_callbacks
    )
    with pytest.raises(DecisionError, match="预览"):
        case_decide(
            case_id=case.pk,
            moderator=mod,
            outcome="dismiss",
            reason="x",
            restore_hand_ids=[record.pk],
        )
    with pytest.raises(DecisionError, match="恢复"):
        case_decide(
            case_id=case.pk,
            moderator=mod,
            outcome="dismiss",
            reason="x",
            restore_hand_ids=[record.pk + 1000],
            previewed_hand_ids=[record.pk + 1000],
        )


def test_lifting_a_sanction_needs_a_reason_and_tells_both_sides(
    alice, bob, django_capture_on_commit_callbacks
):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        case_decide(
            case_id=case.pk, moderator=mod, outcome="suspend", reason="r", days=3
        )
    Message.objects.all().delete()
    sanction = Sanction.objects.get(user=bob)
    with pytest.raises(DecisionError, match="理由"):
        sanction_lift(sanction_id=sanction.pk, by=mod, reason=" ")
    with django_capture_on_commit_callbacks(execute=True):
        sanction_lift(sanction_id=sanction.pk, by=mod, reason="证据不足")
    to_bob = Message.objects.get(recipient=bob)
    assert "你的处罚（暂停账号）已由管理员提前解除" in to_bob.body
    assert "证据不足" in to_bob.body
    to_alice = Message.objects.get(recipient=alice)
    assert "处罚（暂停账号）已由管理员解除" in to_alice.body
    assert "证据不足" not in to_alice.body  # the reason is for the player


def test_the_case_page_lifts_with_a_reason_and_previews_a_restoration(
    client, alice, bob, django_capture_on_commit_callbacks
):
    mod, case, record = _suspended_with_reversal(
        alice, bob, django_capture_on_commit_callbacks
    )
    client.force_login(mod)
    page = client.get(reverse("admin:moderation_case_change", args=[case.pk]))
    html = page.content.decode()
    assert 'data-testid="lift-form"' in html and 'data-testid="restore-hand"' in html
    act = reverse("admin:moderation_case_act", args=[case.pk])
    shown = client.post(act, {"do": "preview", "restore": [record.pk]})
    html = shown.content.decode()
    assert 'data-testid="reversal-preview" data-conserved="1"' in html
    assert f'name="previewed" value="{record.pk}"' in html
    sanction = Sanction.objects.get(user=bob)
    refused = client.post(act, {"do": "lift", "sanction": sanction.pk, "reason": ""})
    assert refused.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            act, {"do": "lift", "sanction": sanction.pk, "reason": "误判"}
        )
    assert done.status_code == 302
    sanction.refresh_from_db()
    assert sanction.lifted_at is not None
    assert Message.objects.filter(recipient=alice).count() == 1


def test_the_sanction_admin_action_asks_for_the_reason(
    client, alice, bob, django_capture_on_commit_callbacks
):
    mod = moderator()
    case, _record = reported_case(alice, bob)
    case_decide(case_id=case.pk, moderator=mod, outcome="ban", reason="r")
    sanction = Sanction.objects.get(user=bob)
    client.force_login(mod)
    url = reverse("admin:moderation_sanction_changelist")
    data = {"action": "lift_sanctions", "_selected_action": [sanction.pk]}
    form = client.post(url, data)
    assert form.status_code == 200 and 'name="reason"' in form.content.decode()
    sanction.refresh_from_db()
    assert sanction.lifted_at is None
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {**data, "lift": "1", "reason": "复核后解除"})
    assert done.status_code == 302
    sanction.refresh_from_db()
    assert sanction.lifted_at is not None
    assert AuditEntry.objects.get(action="lift").reason == "复核后解除"
