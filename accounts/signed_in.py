"""The signed-in player of a ``login_required`` view, typed as the site's User."""

from django.http import HttpRequest

from .models import User


def signed_in_user(request: HttpRequest) -> User:
    """``request.user`` behind ``login_required``: always a :class:`User`.

    The type checker sees ``User | AnonymousUser``; this narrows it.  The
    object is ``request.user`` itself (Django's lazy stand-in, which
    ``isinstance`` sees through).
    """
    user = request.user
    assert isinstance(user, User), "only for login_required views"
    return user
