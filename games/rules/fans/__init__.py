"""Fan definitions: the :class:`~.base.Fan` unit and the fan tables built from it."""

from .base import Fan, FanLine

__all__ = ["Fan", "FanLine"]
