"""Play bans store a reason code and its numbers, not Chinese text.

The system's play bans were created with the reason "最近 N 盘中有 M 盘中途离开或
断线托管" written in Chinese, which English readers then saw as is.  They now
carry ``reason_code`` "abandons" and ``reason_params`` {"window", "n"},
translated when shown; existing rows are converted.
"""

import re

from django.db import migrations, models

PATTERN = re.compile(r"^最近 (\d+) 盘中有 (\d+) 盘中途离开或断线托管$")


def to_codes(apps, schema_editor):
    Sanction = apps.get_model("moderation", "Sanction")
    for s in Sanction.objects.filter(kind="playban", reason_code=""):
        m = PATTERN.match(s.reason or "")
        if m is None:
            continue
        s.reason_code = "abandons"
        s.reason_params = {"window": int(m.group(1)), "n": int(m.group(2))}
        s.reason = ""
        s.save(update_fields=["reason_code", "reason_params", "reason"])


def to_text(apps, schema_editor):
    Sanction = apps.get_model("moderation", "Sanction")
    for s in Sanction.objects.filter(reason_code="abandons"):
        p = s.reason_params or {}
        s.reason = f"最近 {p.get('window')} 盘中有 {p.get('n')} 盘中途离开或断线托管"
        s.save(update_fields=["reason"])


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_audit_live_hand_view"),
    ]

    operations = [
        migrations.AddField(
            model_name="sanction",
            name="reason_code",
            field=models.CharField(
                blank=True,
                help_text="系统给出的原因（如自动禁赛），显示时按读者的语言翻译。",
                max_length=24,
                verbose_name="原因代码",
            ),
        ),
        migrations.AddField(
            model_name="sanction",
            name="reason_params",
            field=models.JSONField(blank=True, default=dict, verbose_name="原因参数"),
        ),
        migrations.RunPython(to_codes, to_text),
    ]
