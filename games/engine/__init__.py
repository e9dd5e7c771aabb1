"""The hand state machine, settlement and event log (pure Python, stdlib only).

Entry points: :class:`~games.engine.hand.Hand` (``new``, ``apply``,
``legal_actions``, ``view``, ``replay``), :func:`~games.engine.settle.settle`,
the actions in :mod:`games.engine.actions` and the errors in
:mod:`games.engine.errors`.
"""
