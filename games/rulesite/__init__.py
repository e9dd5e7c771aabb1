"""The browsing half of the site (issue 12): the rules site (规则) generated from
the rule-set data, and the fan calculator (算番器).

Layers: ``calculator`` (input → analysis, no Django), ``selectors`` (page data
from the rule sets, the examples and the level tables), ``texts`` (the site's
own words for rule-set facts, through gettext), ``views`` and ``urls``.
"""
