"""Room names stored as data, marked for translation.

The lobby rooms are rows loaded by ``games/migrations/0002_rooms.py`` and
``0010_rooms_per_ruleset.py``; pages
show them through :func:`accounts.data_names.data_name` (``gettext`` of the
stored name).  ``gettext_noop`` here keeps their msgids in django.po when
``makemessages`` runs.
"""

from django.utils.translation import gettext_noop

ROOM_NAMES = (
    gettext_noop("新手场"),
    gettext_noop("初级场"),
    gettext_noop("高级场"),
    # games/migrations/0010_rooms_per_ruleset.py
    gettext_noop("国标新手场"),
    gettext_noop("国标高级场"),
    gettext_noop("手游新手场"),
    gettext_noop("手游高级场"),
    gettext_noop("JJ新手场"),
    gettext_noop("JJ高级场"),
    gettext_noop("两人新手场"),
    gettext_noop("两人高级场"),
    gettext_noop("优嘻新手场"),
    gettext_noop("优嘻高级场"),
)
"""The seeded rooms' names, in lobby order."""
