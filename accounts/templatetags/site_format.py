"""Display filters shared by the site's templates."""

from django import template

from accounts.formats import thousands

register = template.Library()
register.filter("thousands", thousands)


@register.filter(name="data_name")
def data_name_filter(value: object) -> str:
    """``{{ level.name|data_name }}``: a stored name (level, level scheme,
    room) in the active language; see :func:`accounts.data_names.data_name`."""
    from accounts.data_names import data_name

    return data_name(value)
