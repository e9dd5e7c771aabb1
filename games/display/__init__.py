"""How the site formats what the table shows, one concept per module.

:mod:`.tiles` (tile images, pools, the own hand's tile buttons),
:mod:`.names` (rule sets, fans, the bot, seat winds, the claim prompt),
:mod:`.settlement` (the settlement's lines and notes), :mod:`.values`
(signed amounts, times, lookups).  Plain functions: the Django template
library ``mj_table`` and the Jinja2 environment (mahjong_site.jinja_env)
register them; records, the replay and forms call them directly.  No rule is
decided here: what a line or a tile means comes from the engine.
"""
