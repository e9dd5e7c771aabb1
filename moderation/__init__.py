"""Moderation (举报, issue 14): reports and cases, triage, decisions, sanctions.

Seed 000: "举报：怀疑被作弊，按「举报」键，相关部门24小时内处理，以站内信通知。"
A player's report is an atom of a :class:`~moderation.models.Case` (one open
case per suspect and category, as lichess); Celery triages it (evidence and
priority); a moderator decides in Django admin; both sides hear of it in the
inbox; the decision has teeth (:mod:`moderation.restrictions`).
"""
