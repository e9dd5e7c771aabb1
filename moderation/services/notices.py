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

from ..models import UPHELD, Case, Sanction
from ..restrictions import until_text

OUTCOME_LABELS = {
    "dismiss": gettext_noop("驳回"),
    "warn": gettext_noop("警告"),
    "mute": gettext_noop("禁言"),
    "suspend": gettext_noop("暂停账号"),
    "ban": gettext_noop("封禁"),
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


def case_notify_decided(*, case_id: int) -> int:
    """Send the decision's messages; return how many were sent."""
    case = Case.objects.get(pk=case_id)
    upheld = case.outcome in UPHELD
    reversed_hands = list(case.reversed_hands or [])
    sent = 0
    suspect = _nickname(case.suspect_id)
    reporters = sorted(
        {r for r in case.reports.values_list("reporter_id", flat=True) if r}
    )
    for reporter in reporters:
        body: list[list[Any]] = [
            [
                gettext_noop(
                    "你对「%(player)s」的举报（%(category)s，案件 #%(case)s）已经处理。"
                ),
                {
                    "player": suspect,
                    "category": [CATEGORY_LABELS[case.category]],
                    "case": case.pk,
                },
            ],
            [gettext_noop("结果：已对该玩家采取措施。")]
            if upheld
            else [gettext_noop("结果：经核查未发现违规，未采取措施。")],
        ]
        if reversed_hands:
            body.append([gettext_noop("相关牌局的游戏币和实力积分已按账目冲正。")])
        body.append([gettext_noop("谢谢你帮助维护公平的牌桌。")])
        _send(to=reporter, subject=[gettext_noop("你的举报已处理")], body=body)
        sent += 1
    if upheld or reversed_hands:
        sanction = case.sanctions.order_by("-id").first()
        body = [
            [
                gettext_noop(
                    "关于你的案件 #%(case)s（%(category)s），处理结果：%(outcome)s。"
                ),
                {
                    "case": case.pk,
                    "category": [CATEGORY_LABELS[case.category]],
                    "outcome": [OUTCOME_LABELS[case.outcome]],
                },
            ],
            [gettext_noop("理由：%(reason)s"), {"reason": case.reason}],
        ]
        if sanction is not None:
            body.append(
                [gettext_noop("有效期至：%(until)s"), {"until": until_text(sanction)}]
                if sanction.ends
                else [gettext_noop("有效期：直到解除。")]
            )
        if reversed_hands:
            body.append(
                [
                    gettext_noop("以下牌局的游戏币和实力积分已冲正：%(hands)s"),
                    {"hands": ", ".join(f"#{h}" for h in reversed_hands)},
                ]
            )
        body.append(
            [gettext_noop("如有异议，可以直接回复这封站内信提出申诉，案件会重新审查。")]
        )
        _send(
            to=case.suspect_id,
            subject=[gettext_noop("处理通知")],
            body=body,
            reply_url=reverse("moderation:appeal", args=[case.pk]),
        )
        sent += 1
    # the other players of reversed hands who did not report: their balances moved
    others = set(
        HandSeat.objects.filter(hand_id__in=reversed_hands)
        .exclude(user_id__in=[case.suspect_id, *reporters])
        .exclude(user__profile__is_bot=True)
        .values_list("user_id", flat=True)
    )
    for other in sorted(others):
        _send(
            to=other,
            subject=[gettext_noop("牌局冲正通知")],
            body=[
                [
                    gettext_noop(
                        "经管理员处理（案件 #%(case)s），以下牌局的游戏币和实力积分已冲正：%(hands)s"
                    ),
                    {
                        "case": case.pk,
                        "hands": ", ".join(f"#{h}" for h in reversed_hands),
                    },
                ]
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


def notify_playban(*, sanction: Sanction) -> None:
    """Tell a player of their automatic play ban: why and until when."""
    _send(
        to=sanction.user_id,
        subject=[gettext_noop("暂时禁止入座")],
        body=[
            [gettext_noop("原因：%(reason)s"), {"reason": sanction.reason}],
            [
                gettext_noop("禁赛至 %(until)s，到期自动解除。"),
                {"until": until_text(sanction)},
            ],
        ],
    )
