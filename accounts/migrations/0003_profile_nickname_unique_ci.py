"""Nicknames are unique ignoring case: rename existing clashes, then add the constraint.

Of each group of clashing nicknames the oldest profile keeps its nickname; the others
get the lowest free numeric suffix ("东风客2", "东风客3", ...).
"""

import django.db.models.functions.text
from django.db import migrations, models


def rename_clashing_nicknames(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    used: set[str] = set()
    for profile in Profile.objects.order_by("id").only("id", "nickname"):
        nickname = profile.nickname
        if nickname.lower() in used:
            n = 2
            while True:
                candidate = f"{nickname[: 32 - len(str(n))]}{n}"
                if candidate.lower() not in used and not Profile.objects.filter(
                    nickname__iexact=candidate
                ).exclude(pk=profile.pk).exists():
                    break
                n += 1
            profile.nickname = candidate
            profile.save(update_fields=["nickname"])
        used.add(profile.nickname.lower())


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_level_schemes"),
    ]

    operations = [
        migrations.RunPython(rename_clashing_nicknames, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="profile",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("nickname"),
                name="unique_profile_nickname_ci",
                violation_error_message="这个昵称已被其他玩家使用，请换一个。",
            ),
        ),
    ]
