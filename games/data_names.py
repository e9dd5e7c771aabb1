"""Room names stored as data, marked for translation.

The lobby rooms are rows loaded by ``games/migrations/0002_rooms.py``; pages
show them through :func:`accounts.data_names.data_name` (``gettext`` of the
stored name).  ``gettext_noop`` here keeps their msgids in django.po when
``makemessages`` runs.
"""

from django.utils.translation import gettext_noop

ROOM_NAMES = (
    gettext_noop("新手场"),
    gettext_noop("初级场"),
    gettext_noop("高级场"),
)
"""The seeded rooms' names, in lobby order."""
