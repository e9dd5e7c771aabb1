"""Names stored as data (level schemes and levels), translated when shown.

The level tables are rows loaded from the seeds by the data migration
``accounts/migrations/0002_level_schemes.py``; their names are Chinese, as the
seeds give them.  The interface translates them at display time with
:func:`data_name` (``gettext`` of the stored name), and the tuples below mark
every seeded name with ``gettext_noop`` so that ``makemessages`` keeps the
msgids in ``locale/en/LC_MESSAGES/django.po``.  A name an admin adds later
without a translation is shown as stored.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

LEVEL_SCHEME_NAMES = (
    gettext_noop("雀级（实力积分）"),
    gettext_noop("武林（游戏等级）"),
    gettext_noop("牌名（等级级别称号积分）"),
)
"""The seeded level schemes' names (seed 002, 003, 000)."""

LEVEL_NAMES = (
    # 雀级（实力积分）, seed 002 · 实力积分等级说明
    gettext_noop("雀蛋"),
    gettext_noop("雀仔"),
    gettext_noop("麻雀"),
    gettext_noop("雀头"),
    gettext_noop("铜雀"),
    gettext_noop("银雀"),
    gettext_noop("金雀"),
    gettext_noop("雀王"),
    gettext_noop("雀霸"),
    gettext_noop("雀皇"),
    gettext_noop("雀妖"),
    gettext_noop("雀仙"),
    gettext_noop("雀魔"),
    gettext_noop("雀圣"),
    gettext_noop("雀神"),
    gettext_noop("自摸王"),
    # 武林（游戏等级）, seed 003 · 四、游戏等级
    gettext_noop("武林新丁"),
    gettext_noop("江湖麻袋"),
    gettext_noop("街头混混"),
    gettext_noop("街头霸王"),
    gettext_noop("茶室常客"),
    gettext_noop("茶室不败"),
    gettext_noop("酒店经理"),
    gettext_noop("酒店至尊"),
    gettext_noop("县级大师"),
    gettext_noop("市级大师"),
    gettext_noop("省级大师"),
    gettext_noop("国家大师"),
    gettext_noop("国际大师"),
    gettext_noop("特级大师"),
    gettext_noop("麻将理事"),
    gettext_noop("麻将部长"),
    gettext_noop("麻将皇帝"),
    gettext_noop("麻将无敌"),
    # 牌名（等级级别称号积分）, seed 000 · 二．等级级别称号积分
    gettext_noop("白板"),
    gettext_noop("一万"),
    gettext_noop("二万"),
    gettext_noop("三万"),
    gettext_noop("四万"),
    gettext_noop("五万"),
    gettext_noop("六万"),
    gettext_noop("七万"),
    gettext_noop("八万"),
    gettext_noop("九万"),
    gettext_noop("东风"),
    gettext_noop("南风"),
    gettext_noop("西风"),
    gettext_noop("北风"),
    gettext_noop("中"),
)
"""Every seeded level's name, in the migration's order."""


def data_name(name: Any) -> str:
    """The display form of a stored name (level, level scheme, room) in the
    active language: ``"雀头"`` → ``"Lead Sparrow"`` in English.

    ``None``/empty gives ``""``; a name without a translation is returned as
    stored (admin-made names, player data never pass through here).
    """
    if not name:
        return ""
    return gettext(str(name))
