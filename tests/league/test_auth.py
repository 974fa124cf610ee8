"""Who is logged in: league.auth.UserBackend reads them as Django's ModelBackend would."""

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.auth import UserBackend
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

USER_BACKEND = "league.auth.UserBackend"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def log_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_a_login_is_kept_by_the_user_backend_and_read_back_as_the_orm_reads_it(client):
    user = UserFactory(first_name="Máire", email="maire@example.ie")
    assert log_in(client, user.username, PASSWORD).status_code == 302
    assert client.session["_auth_user_backend"] == USER_BACKEND
    with CaptureQueriesContext(connection) as queries:
        read = UserBackend().get_user(user.pk)
    assert len(queries) == 1
    assert model_to_dict(read) == model_to_dict(get_user_model().objects.get(pk=user.pk))
    assert (read.pk, read.last_login) == (user.pk, get_user_model().objects.get().last_login)


def test_nobody_is_read_for_a_user_gone_or_made_inactive():
    user = UserFactory()
    backend = UserBackend()
    assert backend.get_user(user.pk + 1) is None
    user.is_active = False
    user.save()
    assert backend.get_user(user.pk) is None


def test_a_person_made_inactive_is_logged_out_on_their_next_page(client):
    user = UserFactory()
    client.force_login(user, backend=USER_BACKEND)
    assert client.get(reverse("league:home")).wsgi_request.user == user
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert not client.get(reverse("league:home")).wsgi_request.user.is_authenticated


def test_a_login_made_before_the_user_backend_stays_logged_in(client):
    user = UserFactory()
    client.force_login(user, backend=MODEL_BACKEND)
    assert client.get(reverse("league:home")).wsgi_request.user == user
    assert client.session[SESSION_KEY] == str(user.pk)


@pytest.mark.parametrize("guard", [True, False])
def test_a_wrong_password_is_checked_once_not_again_by_the_backend_kept_for_old_logins(
    client, monkeypatch, guard
):
    """UserBackend stops Django there when it refuses a login; without that, the
    ModelBackend listed after it would check the same password a second time."""
    if not guard:
        monkeypatch.setattr(UserBackend, "authenticate", ModelBackend.authenticate)
    user = UserFactory()
    checked, check = [], get_user_model().check_password

    def counted(self, raw):
        checked.append(raw)
        return check(self, raw)

    monkeypatch.setattr(get_user_model(), "check_password", counted)
    page = log_in(client, user.username, "not-the-password")
    assert page.status_code == 200 and SESSION_KEY not in client.session
    assert len(checked) == (1 if guard else 2)
