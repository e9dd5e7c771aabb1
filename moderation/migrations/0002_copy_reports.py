"""Move the reports filed before moderation existed (games.Report) into cases.

Each old report becomes an atom of the open case against the hand's other
player in its category (old reasons map onto the new categories: 作弊 →
作弊/外挂, 故意拖延 → 恶意拖延/挂机, 辱骂 → 辱骂, 程序错误 and 其他 → 其他,
the old reason kept at the head of the text).  Reports of a hand against the
bot (no other player) have nobody to act against: they are kept as cases of
the bot's account only when it exists, otherwise dropped with the hand's
log still in place.  The ``moderator`` group is created here too.
"""

from django.db import migrations

CATEGORY = {
    "cheating": "cheating",
    "abuse": "abuse",
    "stalling": "stalling",
    "bug": "other",
    "other": "other",
}

MODERATOR_PERMISSIONS = {
    "moderation": [
        "view_case",
        "decide_case",
        "view_report",
        "view_sanction",
        "view_appeal",
        "view_auditentry",
    ],
    "games": [
        "view_handrecord",
        "view_handevent",
        "view_handseat",
        "view_table",
        "view_match",
    ],
    "accounts": ["view_user", "view_profile", "view_ledgerentry"],
}


def copy_reports(apps, schema_editor):
    OldReport = apps.get_model("games", "Report")
    Case = apps.get_model("moderation", "Case")
    Report = apps.get_model("moderation", "Report")
    Profile = apps.get_model("accounts", "Profile")
    for old in OldReport.objects.select_related("hand").order_by("id"):
        hand = old.hand
        suspect_id = (
            hand.seat1_id if hand.seat0_id == old.reporter_id else hand.seat0_id
        )
        if suspect_id is None:  # a practice hand against the bot
            bot = Profile.objects.filter(is_bot=True).order_by("id").first()
            if bot is None:
                continue
            suspect_id = bot.user_id
        category = CATEGORY.get(old.reason, "other")
        case = Case.objects.filter(
            suspect_id=suspect_id, category=category, status__in=["open", "review"]
        ).first()
        if case is None:
            case = Case.objects.create(
                suspect_id=suspect_id,
                category=category,
                created=old.created,
                opened=old.created,
                updated=old.created,
            )
        text = old.text if old.reason != "bug" else f"[程序错误] {old.text}".strip()
        atom = Report.objects.create(
            case=case,
            reporter_id=old.reporter_id,
            category=category,
            hand=hand,
            text=text,
            created=old.created,
            updated=old.created,
        )
        atom.hands.add(hand)


def moderator_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderator")
    for app_label, codenames in MODERATOR_PERMISSIONS.items():
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label=app_label, codename__in=codenames
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_cases"),
        ("games", "0007_backfill_handseats"),
        ("accounts", "0006_message_reply_url"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(copy_reports, migrations.RunPython.noop),
        migrations.RunPython(moderator_group, migrations.RunPython.noop),
    ]
