"""Who is logged in: read on every request they make (settings.AUTHENTICATION_BACKENDS)."""

import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection

from league import rows


class UserBackend(ModelBackend):
    """Django's `ModelBackend`, with the logged-in user read by SQL made once
    (`rows.select`): every request of an organiser or a secretary reads it, and the
    ORM took longer to build that query than the database to answer it.

    Passwords are checked here alone: a login refused here is refused, not checked again
    by `ModelBackend`, which stays listed after this one only so that the logins made
    before it stay logged in."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            raise PermissionDenied  # Django stops there: no other backend is asked
        return user

    def get_user(self, user_id):
        found = rows.select(get_user_model(), _user_by_id(), [user_id])
        user = found[0] if found else None
        return user if self.user_can_authenticate(user) else None


@functools.cache
def _user_by_id() -> str:
    model, quoted = get_user_model(), connection.ops.quote_name
    return (
        f"SELECT {rows.columns(model, 'person')} FROM {quoted(model._meta.db_table)} person "
        f"WHERE person.{quoted(model._meta.pk.column)} = %s"
    )
