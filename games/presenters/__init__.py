"""What one seat sees: the frame's context and its rendering.

One concept per module:

- :mod:`.context`: :func:`seat_context`, the frame's whole context (its keys,
  the contract with the templates, are documented there);
- :mod:`.render`: :func:`render_frame` (the Jinja2 template), its fragments
  and :func:`render_toast`;
- :mod:`.players`: the two plates (profile, level, 游戏币) and the opponent's
  disconnect notice;
- :mod:`.actions`: the buttons offered and the waits shown;
- :mod:`.systems`: the live 倍数 and the pool limit of the rule sets that
  have them;
- :mod:`.settlement`: the settlement panel (also the replay's last step);
- :mod:`.events`: what the hand's log tells beyond the view (call-outs,
  timed-out discards, the last discard);
- :mod:`.seats`: ``me`` / ``opponent`` and the winds' characters.

The names below are the package's interface for views, consumers and the
replay.
"""

from .context import seat_context
from .players import clear_profile_cache
from .render import render_elsewhere, render_frame, render_toast
from .seats import WIND_ZH
from .settlement import settlement_view

__all__ = [
    "WIND_ZH",
    "clear_profile_cache",
    "render_elsewhere",
    "render_frame",
    "render_toast",
    "seat_context",
    "settlement_view",
]
