"""The live table's template library (``{% load mj_table %}``): it only
formats.  The helpers live by concept in :mod:`games.display` (tiles, names,
settlement lines, small values); the rules they show come from the engine.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.display import names, settlement, tiles, values

register = template.Library()

register.filter("tile_name", tiles.tile_name_filter)
register.simple_tag(tiles.tile, name="tile")
register.simple_tag(tiles.tiles, name="tiles")
register.simple_tag(tiles.backs, name="backs")
register.simple_tag(tiles.hand_tile, name="hand_tile", takes_context=True)
register.filter("waits_attr", tiles.waits_attr)
register.filter("get_item", values.get_item)
register.filter("signed", values.signed)
register.filter("ms_until", values.ms_until)
register.filter("line_value", settlement.line_value)
register.filter("settle_lines", settlement.settle_lines)
register.filter("fan_name", names.fan_name)
register.filter("ruleset_name", names.ruleset_name)
register.filter("ruleset_tagline", names.ruleset_tagline)
register.filter("seat_wind", names.seat_wind)
register.filter("bot_name", names.bot_name_filter)


@register.simple_tag(takes_context=True)
def jinja_include(context: Any, name: str) -> SafeString:
    """Insert a Jinja2 partial into a Django page.

    Usage: ``{% jinja_include "games/partials/status.html" %}``.

    The frame partials are Jinja2 templates (``templates/jinja2/``, the engine
    named ``jinja2``), rendered after every event by games.presenters; the
    table page's first paint inserts the same partials with the page's
    context, so each partial exists once.  Raises ``TemplateDoesNotExist``
    for an unknown name.
    """
    from django.template import engines

    template = engines["jinja2"].get_template(name)
    return SafeString(template.render(context.flatten()))
