"""Levels: the three seeded schemes and deriving a level from 实力积分."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import LevelScheme, User
from accounts.selectors import level_for_points, level_progress, level_scheme_active
from accounts.services import level_scheme_activate

pytestmark = pytest.mark.django_db

# Copied from the seed documents (see accounts/migrations/0002_level_schemes.py).
SEED_002 = [
    ("雀蛋", 0), ("雀仔", 400), ("麻雀", 800), ("雀头", 1500), ("铜雀", 3000),
    ("银雀", 8000), ("金雀", 12000), ("雀王", 20000), ("雀霸", 30000),
    ("雀皇", 45000), ("雀妖", 70000), ("雀仙", 100000), ("雀魔", 200000),
    ("雀圣", 500000), ("雀神", 1000000), ("自摸王", 2000000),
]  # fmt: skip
SEED_003 = [
    ("武林新丁", 0), ("江湖麻袋", 50), ("街头混混", 100), ("街头霸王", 200),
    ("茶室常客", 400), ("茶室不败", 800), ("酒店经理", 2000), ("酒店至尊", 5000),
    ("县级大师", 10000), ("市级大师", 15000), ("省级大师", 20000),
    ("国家大师", 30000), ("国际大师", 50000), ("特级大师", 80000),
    ("麻将理事", 100000), ("麻将部长", 225000), ("麻将皇帝", 400000),
    ("麻将无敌", 750000),
]  # fmt: skip
SEED_000 = [
    ("白板", 0), ("一万", 200), ("二万", 500), ("三万", 800), ("四万", 1200),
    ("五万", 2000), ("六万", 3000), ("七万", 5000), ("八万", 8000),
    ("九万", 12000), ("东风", 20000), ("南风", 30000), ("西风", 40000),
    ("北风", 80000), ("中", 120000),
]  # fmt: skip

SCHEMES = {
    "雀级（实力积分）": SEED_002,
    "武林（游戏等级）": SEED_003,
    "牌名（等级级别称号积分）": SEED_000,
}


def _table(scheme: LevelScheme) -> list[tuple[str, int]]:
    return [(lv.name, lv.min_points) for lv in scheme.levels.order_by("rank")]


def test_migration_loads_the_three_seed_tables_with_seed_002_active():
    assert {s.name: _table(s) for s in LevelScheme.objects.all()} == SCHEMES
    assert [s.name for s in LevelScheme.objects.filter(is_active=True)] == [
        "雀级（实力积分）"
    ]
    ranks = list(
        level_scheme_active()
        .levels.order_by("min_points")
        .values_list("rank", flat=True)
    )
    assert ranks == list(range(1, 17))


@pytest.mark.parametrize(("index", "entry"), list(enumerate(SEED_002)))
def test_active_scheme_level_at_every_threshold(index, entry):
    name, threshold = entry
    assert level_for_points(points=threshold).name == name
    below = SEED_002[index - 1][0] if index else SEED_002[0][0]
    assert level_for_points(points=threshold - 1).name == below
    if index + 1 < len(SEED_002):
        assert level_for_points(points=SEED_002[index + 1][1] - 1).name == name
    else:
        assert level_for_points(points=10**12).name == "自摸王"


@pytest.mark.parametrize(
    "scheme_name", ["武林（游戏等级）", "牌名（等级级别称号积分）"]
)
def test_level_at_every_threshold_after_switching_scheme(scheme_name):
    table = SCHEMES[scheme_name]
    level_scheme_activate(scheme=LevelScheme.objects.get(name=scheme_name))
    assert level_scheme_active().name == scheme_name
    assert LevelScheme.objects.filter(is_active=True).count() == 1
    for index, (name, threshold) in enumerate(table):
        assert level_for_points(points=threshold).name == name
        below = table[index - 1][0] if index else table[0][0]
        assert level_for_points(points=threshold - 1).name == below


def test_negative_points_get_the_lowest_level():
    assert level_for_points(points=-500).name == "雀蛋"


def test_no_active_scheme_means_no_level():
    LevelScheme.objects.update(is_active=False)
    assert level_for_points(points=1000) is None


def test_two_active_schemes_are_refused_by_the_database():
    with pytest.raises(IntegrityError), transaction.atomic():
        LevelScheme.objects.update(is_active=True)


def test_level_progress_between_and_at_the_top():
    progress = level_progress(points=600)
    assert progress.level.name == "雀仔"
    assert progress.next_level.name == "麻雀"
    assert progress.points_to_next == 200
    assert progress.fraction == pytest.approx(0.5)
    top = level_progress(points=3_000_000)
    assert top.level.name == "自摸王"
    assert top.next_level is None
    assert top.fraction == 1.0


def test_header_level_follows_the_active_scheme(client):
    user = User.objects.create_user("qian", "qian@example.com", "pw-qian-9876")
    user.profile.rating_points = 1500
    user.profile.save()
    client.force_login(user)
    assert "雀头" in client.get(reverse("home")).content.decode()
    level_scheme_activate(scheme=LevelScheme.objects.get(name="武林（游戏等级）"))
    page = client.get(reverse("home")).content.decode()
    assert "茶室不败" in page  # 800 <= 1500 < 2000
    assert "雀头" not in page
