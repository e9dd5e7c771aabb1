# ruff: noqa: E501  (message texts, one msgid per sentence)
"""站内信 of moderation: decisions to reporters and the reported player,
escalations to moderators.

Messages are stored in Chinese and carry their msgids and parameters
(``accounts.Message.i18n``), so each reader sees them in their own
language.  Reporters learn the outcome (action taken or not), never the
evidence; the reported player learns the decision, its reason, until when,
and how to appeal (a reply to the message: ``reply_url``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_noop

from accounts.models import User
from accounts.services import inbox_send
from games.models import HandSeat

from ..models import UPHELD, AuditEntry, Case, Sanction
from ..restrictions import until_text

OUTCOME_LABELS = {
    "dismiss": gettext_noop("驳回"),
    "warn": gettext_noop("警告"),
    "mute": gettext_noop("禁言"),
    "suspend": gettext_noop("暂停账号"),
    "ban": gettext_noop("封禁"),
}
SANCTION_LABELS = {
    "mute": gettext_noop("禁言"),
    "suspend": gettext_noop("暂停账号"),
    "ban": gettext_noop("封禁"),
    "playban": gettext_noop("禁赛（中途弃局）"),
}
CATEGORY_LABELS = {
    "cheating": gettext_noop("作弊/外挂"),
    "collusion": gettext_noop("串通刷分"),
    "stalling": gettext_noop("恶意拖延/挂机"),
    "abuse": gettext_noop("辱骂"),
    "other": gettext_noop("其他"),
}


def _render(parts: list[list[Any]]) -> str:
    """The Chinese text of message parts (msgid % params, msgids untranslated)."""
    out = []
    for p in parts:
        msgid, params = p[0], (p[1] if len(p) > 1 else {})
        values = {k: v[0] if isinstance(v, list) else v for k, v in params.items()}
        out.append(msgid % values if values else msgid)
    return "\n\n".join(out)


def _send(
    *, to: User | int, subject: list[Any], body: list[list[Any]], reply_url: str = ""
) -> None:
    recipient = to if isinstance(to, User) else User.objects.get(pk=to)
    inbox_send(
        recipient=recipient,
        subject=_render([subject]),
        body=_render(body),
        reply_url=reply_url,
        i18n={"subject": subject, "body": body},
    )


def _nickname(user_id: int) -> str:
    user = User.objects.select_related("profile").get(pk=user_id)
    profile = getattr(user, "profile", None)
    return profile.nickname if profile else user.get_username()


def _hands(ids: list[int]) -> str:
    return ", ".join(f"#{h}" for h in ids)


def _what_it_did(case: Case, audit_id: int | None) -> dict[str, Any]:
    """What the decision of audit entry ``audit_id`` did (the latest decision
    of ``case`` when None): hands reversed and restored, sanctions lifted, and
    whether it replaced an earlier decision (after an appeal)."""
    decisions = AuditEntry.objects.filter(case=case, action=AuditEntry.Action.DECIDE)
    entry = (
        decisions.filter(pk=audit_id).first()
        if audit_id is not None
        else decisions.order_by("-at", "-id").first()
    )
    after = (entry.after if entry else None) or {}
    return {
        "reversed": list(after.get("reversed", case.reversed_hands or [])),
        "restored": list(after.get("restored", [])),
        "lifted": list(after.get("lifted", [])),
        "again": entry is not None and decisions.filter(pk__lt=entry.pk).exists(),
    }


def case_notify_decided(*, case_id: int, audit_id: int | None = None) -> int:
    """Send the messages of the decision of audit entry ``audit_id`` (by
    default the case's latest); return how many were sent.

    A first decision tells the reporters the outcome and, when it acts
    against them, the reported player.  A later decision (after an appeal)
    tells both sides what changed: the sanctions lifted, the hands whose
    reversal was undone, the new outcome.
    """
    case = Case.objects.get(pk=case_id)
    upheld = case.outcome in UPHELD
    did = _what_it_did(case, audit_id)
    reversed_hands, restored = did["reversed"], did["restored"]
    again = did["again"]
    sent = 0
    suspect = _nickname(case.suspect_id)
    category = [CATEGORY_LABELS[case.category]]
    outcome = [OUTCOME_LABELS[case.outcome]]
    reporters = sorted(
        {r for r in case.reports.values_list("reporter_id", flat=True) if r}
    )
    for reporter in reporters:
        body: list[list[Any]]
        if again:
            body = [
                [
                    gettext_noop(
                        "你对「%(player)s」的举报（%(category)s，案件 #%(case)s）在对方申诉后已经重新审查。"
                    ),
                    {"player": suspect, "category": category, "case": case.pk},
                ],
                [
                    gettext_noop("复查结果：维持对该玩家的措施（%(outcome)s）。"),
                    {"outcome": outcome},
                ]
                if upheld
                else [gettext_noop("复查结果：撤销对该玩家的处罚，不再采取措施。")],
            ]
            if restored:
                body.append(
                    [
                        gettext_noop("此前冲正的牌局已恢复原来的结算：%(hands)s"),
                        {"hands": _hands(restored)},
                    ]
                )
            subject = [gettext_noop("你的举报已复查")]
        else:
            body = [
                [
                    gettext_noop(
                        "你对「%(player)s」的举报（%(category)s，案件 #%(case)s）已经处理。"
                    ),
                    {"player": suspect, "category": category, "case": case.pk},
                ],
                [gettext_noop("结果：已对该玩家采取措施。")]
                if upheld
                else [gettext_noop("结果：经核查未发现违规，未采取措施。")],
            ]
            subject = [gettext_noop("你的举报已处理")]
        if reversed_hands:
            body.append([gettext_noop("相关牌局的游戏币和实力积分已按账目冲正。")])
        body.append([gettext_noop("谢谢你帮助维护公平的牌桌。")])
        _send(to=reporter, subject=subject, body=body)
        sent += 1
    if upheld or reversed_hands or again:
        sanction = case.sanctions.filter(lifted_at__isnull=True).order_by("-id").first()
        if again:
            body = [
                [
                    gettext_noop(
                        "你对案件 #%(case)s（%(category)s）的申诉已经审查，处理结果：%(outcome)s。"
                    ),
                    {"case": case.pk, "category": category, "outcome": outcome},
                ]
            ]
        else:
            body = [
                [
                    gettext_noop(
                        "关于你的案件 #%(case)s（%(category)s），处理结果：%(outcome)s。"
                    ),
                    {"case": case.pk, "category": category, "outcome": outcome},
                ]
            ]
        body.append([gettext_noop("理由：%(reason)s"), {"reason": case.reason}])
        for lifted in did["lifted"]:
            body.append(
                [
                    gettext_noop("原来的处罚（%(kind)s）已解除。"),
                    {"kind": [SANCTION_LABELS.get(lifted["kind"], lifted["kind"])]},
                ]
            )
        if sanction is not None and upheld:
            body.append(
                [gettext_noop("有效期至：%(until)s"), {"until": until_text(sanction)}]
                if sanction.ends
                else [gettext_noop("有效期：直到解除。")]
            )
        if reversed_hands:
            body.append(
                [
                    gettext_noop("以下牌局的游戏币和实力积分已冲正：%(hands)s"),
                    {"hands": _hands(reversed_hands)},
                ]
            )
        if restored:
            body.append(
                [
                    gettext_noop("以下牌局的游戏币和实力积分已恢复：%(hands)s"),
                    {"hands": _hands(restored)},
                ]
            )
        appealable = upheld or bool(case.reversed_hands)
        if appealable:
            body.append(
                [
                    gettext_noop(
                        "如有异议，可以直接回复这封站内信提出申诉，案件会重新审查。"
                    )
                ]
            )
        _send(
            to=case.suspect_id,
            subject=[gettext_noop("申诉结果")] if again else [gettext_noop("处理通知")],
            body=body,
            reply_url=reverse("moderation:appeal", args=[case.pk])
            if appealable
            else "",
        )
        sent += 1
    # the other players of reversed or restored hands who did not report:
    # their balances moved
    for hands, other_subject, text in (
        (
            reversed_hands,
            gettext_noop("牌局冲正通知"),
            gettext_noop(
                "经管理员处理（案件 #%(case)s），以下牌局的游戏币和实力积分已冲正：%(hands)s"
            ),
        ),
        (
            restored,
            gettext_noop("牌局恢复通知"),
            gettext_noop(
                "经管理员复查（案件 #%(case)s），以下牌局的游戏币和实力积分已恢复原来的结算：%(hands)s"
            ),
        ),
    ):
        others = set(
            HandSeat.objects.filter(hand_id__in=hands)
            .exclude(user_id__in=[case.suspect_id, *reporters])
            .exclude(user__profile__is_bot=True)
            .values_list("user_id", flat=True)
        )
        for other in sorted(others):
            _send(
                to=other,
                subject=[other_subject],
                body=[[text, {"case": case.pk, "hands": _hands(hands)}]],
            )
            sent += 1
    return sent


def notify_lifted(*, sanction_id: int, reason: str) -> int:
    """Tell both sides that a sanction was lifted early: the player, and the
    reporters of the case that decided it.  Returns how many were sent."""
    sanction = Sanction.objects.select_related("case").get(pk=sanction_id)
    kind = [SANCTION_LABELS.get(sanction.kind, sanction.kind)]
    _send(
        to=sanction.user_id,
        subject=[gettext_noop("处罚已解除")],
        body=[
            [gettext_noop("你的处罚（%(kind)s）已由管理员提前解除。"), {"kind": kind}],
            [gettext_noop("理由：%(reason)s"), {"reason": reason}],
        ],
    )
    sent = 1
    case = sanction.case
    if case is None:
        return sent
    suspect = _nickname(sanction.user_id)
    for reporter in sorted(
        {r for r in case.reports.values_list("reporter_id", flat=True) if r}
    ):
        _send(
            to=reporter,
            subject=[gettext_noop("你举报的玩家的处罚已解除")],
            body=[
                [
                    gettext_noop(
                        "你举报的「%(player)s」（案件 #%(case)s）的处罚（%(kind)s）已由管理员解除。"
                    ),
                    {"player": suspect, "case": case.pk, "kind": kind},
                ],
                [gettext_noop("谢谢你帮助维护公平的牌桌。")],
            ],
        )
        sent += 1
    return sent


def notify_escalated(*, case: Case, moderators: list[User]) -> None:
    """Tell every moderator that ``case`` is overdue (24 hours)."""
    for moderator in moderators:
        _send(
            to=moderator,
            subject=[gettext_noop("举报案件超时未处理：#%(case)s"), {"case": case.pk}],
            body=[
                [
                    gettext_noop(
                        "案件 #%(case)s（%(category)s，优先级 %(priority)s）已超过 24 小时未处理，已升级并排在队列最前。"
                    ),
                    {
                        "case": case.pk,
                        "category": [CATEGORY_LABELS[case.category]],
                        "priority": case.priority,
                    },
                ],
                [
                    gettext_noop("处理地址：%(url)s"),
                    {"url": reverse("admin:moderation_case_change", args=[case.pk])},
                ],
            ],
        )


def reason_part(sanction: Sanction) -> list[Any]:
    """The "原因：…" line of a sanction's notice: a system reason as its own
    msgid and parameters (translated for each reader), else the words."""
    if sanction.reason_code == "abandons":
        return [
            gettext_noop("原因：最近 %(window)d 盘中有 %(n)d 盘中途离开或断线托管"),
            dict(sanction.reason_params),
        ]
    return [gettext_noop("原因：%(reason)s"), {"reason": sanction.reason}]


def notify_playban(*, sanction: Sanction) -> None:
    """Tell a player of their automatic play ban: why and until when."""
    _send(
        to=sanction.user_id,
        subject=[gettext_noop("暂时禁止入座")],
        body=[
            reason_part(sanction),
            [
                gettext_noop("禁赛至 %(until)s，到期自动解除。"),
                {"until": until_text(sanction)},
            ],
        ],
    )
