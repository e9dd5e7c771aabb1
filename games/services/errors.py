"""The refusal every table service raises: a message for the player."""

from __future__ import annotations

from typing import Any


class TableError(ValueError):
    """A request the table refuses; ``str(exc)`` is shown to the player.

    ``message`` is a msgid marked with ``gettext_lazy`` (Chinese, with
    ``%(name)s`` placeholders) and ``params`` its values (strings, numbers or
    lazy strings); ``str(exc)`` translates both in the language active when it
    is read, so a refusal raised in a service is shown in the player's
    language by the consumer or view that catches it (issue 11 §6).
    """

    def __init__(self, message: Any, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        text = str(self.message)
        if not self.params:
            return text
        return text % {k: str(v) for k, v in self.params.items()}
