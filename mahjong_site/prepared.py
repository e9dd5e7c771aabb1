"""Querysets compiled to SQL once and run many times with another key.

Django compiles a queryset to SQL on every execution.  For the few queries
run on every move at a table (the table row with its room, hand and match,
read by each seat's consumer and locked by every write), compiling costs
about three times as much CPU as running the query.  :class:`PreparedQuery`
compiles once per database alias and afterwards only executes the SQL with
the new key, building the instances with Django's own machinery (converters,
``Model.from_db``, select_related populators), so the objects are the same as
the queryset would give.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

_SENTINEL = -7_364_519_283
"""Placeholder key used while compiling; must not equal any real key."""


class _Compiled:
    def __init__(self, queryset: QuerySet[Any]) -> None:
        db = queryset.db
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        positions = [i for i, p in enumerate(params) if p == _SENTINEL]
        if len(positions) != 1:
            raise ValueError("the queryset must use the key exactly once")
        self.db = db
        self.sql = sql
        self.params = list(params)
        self.position = positions[0]
        self.compiler = compiler
        klass_info = compiler.klass_info
        assert klass_info is not None
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [
            f[0].target.attname for f in compiler.select[self.start : self.end]
        ]
        self.populators = get_related_populators(klass_info, compiler.select, db)
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError("composite primary keys are not supported")
        # the same converters results_iter() would look up on every call
        self.converters = compiler.get_converters(fields)

    def convert(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """Apply the database converters to one fetched row."""
        if not self.converters:
            return row
        (out,) = self.compiler.apply_converters([row], self.converters)
        return tuple(out)


class PreparedQuery(Generic[M]):
    """``build(key)`` → a queryset filtered by ``key``; run it for any key.

    ``build`` must return a plain model queryset (no ``values()``, no
    annotations, no prefetch) that uses ``key`` as exactly one SQL parameter,
    e.g. ``lambda pk: Table.objects.select_related("room").filter(pk=pk)``.

    ``first(key)`` returns the first instance or None.  Compiled at the first
    call (under a lock; safe to share between threads) for the database the
    queryset routes to, which must not change while the process runs.
    """

    def __init__(self, build: Callable[[Any], QuerySet[M]]) -> None:
        self._build = build
        self._compiled: _Compiled | None = None
        self._lock = threading.Lock()

    def _get(self) -> _Compiled:
        compiled = self._compiled
        if compiled is None:
            with self._lock:
                compiled = self._compiled
                if compiled is None:
                    compiled = _Compiled(self._build(_SENTINEL))
                    self._compiled = compiled
        return compiled

    def first(self, key: Any) -> M | None:
        """Run the query for ``key``; the first row as an instance, or None."""
        c = self._get()
        params = list(c.params)
        params[c.position] = key
        with connections[c.db].cursor() as cursor:
            cursor.execute(c.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        row = c.convert(row)
        obj = c.model.from_db(c.db, c.init_list, row[c.start : c.end])
        for populator in c.populators:
            populator.populate(row, obj)
        return obj  # type: ignore[no-any-return]
