"""Load the three level tables of the seed rule documents; seed 002's is active."""

from django.db import migrations

# (scheme name, source, active, [(name, min_points), ...] in rank order)
SCHEMES = [
    (
        "雀级（实力积分）",
        "seed 002 · 实力积分等级说明",
        True,
        [
            ("雀蛋", 0),
            ("雀仔", 400),
            ("麻雀", 800),
            ("雀头", 1500),
            ("铜雀", 3000),
            ("银雀", 8000),
            ("金雀", 12000),
            ("雀王", 20000),
            ("雀霸", 30000),
            ("雀皇", 45000),
            ("雀妖", 70000),
            ("雀仙", 100000),
            ("雀魔", 200000),
            ("雀圣", 500000),
            ("雀神", 1000000),
            ("自摸王", 2000000),
        ],
    ),
    (
        "武林（游戏等级）",
        "seed 003 · 四、游戏等级",
        False,
        [
            ("武林新丁", 0),
            ("江湖麻袋", 50),
            ("街头混混", 100),
            ("街头霸王", 200),
            ("茶室常客", 400),
            ("茶室不败", 800),
            ("酒店经理", 2000),
            ("酒店至尊", 5000),
            ("县级大师", 10000),
            ("市级大师", 15000),
            ("省级大师", 20000),
            ("国家大师", 30000),
            ("国际大师", 50000),
            ("特级大师", 80000),
            ("麻将理事", 100000),
            ("麻将部长", 225000),
            ("麻将皇帝", 400000),
            ("麻将无敌", 750000),
        ],
    ),
    (
        "牌名（等级级别称号积分）",
        "seed 000 · 二．等级级别称号积分",
        False,
        [
            ("白板", 0),
            ("一万", 200),
            ("二万", 500),
            ("三万", 800),
            ("四万", 1200),
            ("五万", 2000),
            ("六万", 3000),
            ("七万", 5000),
            ("八万", 8000),
            ("九万", 12000),
            ("东风", 20000),
            ("南风", 30000),
            ("西风", 40000),
            ("北风", 80000),
            ("中", 120000),
        ],
    ),
]


def load(apps, schema_editor):
    LevelScheme = apps.get_model("accounts", "LevelScheme")
    Level = apps.get_model("accounts", "Level")
    for name, source, active, levels in SCHEMES:
        scheme, _ = LevelScheme.objects.get_or_create(
            name=name, defaults={"source": source, "is_active": active}
        )
        for rank, (level_name, min_points) in enumerate(levels, start=1):
            Level.objects.get_or_create(
                scheme=scheme,
                rank=rank,
                defaults={"name": level_name, "min_points": min_points},
            )


def unload(apps, schema_editor):
    LevelScheme = apps.get_model("accounts", "LevelScheme")
    LevelScheme.objects.filter(name__in=[s[0] for s in SCHEMES]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
