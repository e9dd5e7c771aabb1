"""``python -m games.engine selfplay …`` (see :mod:`games.engine.selfplay`)."""

from .selfplay import main

raise SystemExit(main())
