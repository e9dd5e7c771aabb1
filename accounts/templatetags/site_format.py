"""Display filters shared by the site's templates."""

from django import template

register = template.Library()


@register.filter
def thousands(value: object) -> str:
    """Format an integer with comma thousands separators (10000 -> "10,000").

    Non-numbers are returned unchanged as text.
    """
    try:
        return f"{int(value):,}"  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return str(value)


@register.filter(name="data_name")
def data_name_filter(value: object) -> str:
    """``{{ level.name|data_name }}``: a stored name (level, level scheme,
    room) in the active language; see :func:`accounts.data_names.data_name`."""
    from accounts.data_names import data_name

    return data_name(value)
