"""The site's number format, one place for templates and messages alike."""


def thousands(value: object) -> str:
    """Format an integer with comma thousands separators (10000 -> "10,000").

    The site writes coins and points so in both languages (the top bar, the
    boards, the lobby's refusals). Non-numbers are returned unchanged as text.
    """
    try:
        return f"{int(value):,}"  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return str(value)
