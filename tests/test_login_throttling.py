"""Logging in: throttled per username and address, sessions renewed and ended."""

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def login_throttling(settings):
    settings.AXES_ENABLED = True


def attempt(client, username, password, address="198.51.100.7", **headers):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def test_five_failures_lock_that_username_from_that_address(client):
    user = UserFactory()
    for _ in range(4):
        assert attempt(client, user.username, "wrong").status_code == 200
    assert attempt(client, user.username, "wrong").status_code == 429  # the fifth locks
    locked = attempt(client, user.username, PASSWORD)
    assert locked.status_code == 429
    assert "Too many tries" in locked.text
    assert "_auth_user_id" not in client.session


def test_another_organiser_behind_the_same_pub_address_still_logs_in(client):
    unlucky, other = UserFactory(), UserFactory()
    for _ in range(5):
        attempt(client, unlucky.username, "wrong")
    response = attempt(client, other.username, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(other.pk)


def test_the_same_username_from_another_address_is_not_locked(client):
    user = UserFactory()
    for _ in range(5):
        attempt(client, user.username, "wrong", address="198.51.100.7")
    assert attempt(client, user.username, PASSWORD, address="198.51.100.8").status_code == 302


def test_a_success_resets_the_count(client):
    user = UserFactory()
    for _ in range(4):
        attempt(client, user.username, "wrong")
    assert attempt(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        attempt(client, user.username, "wrong")
    assert attempt(client, user.username, PASSWORD).status_code == 302


def test_behind_one_proxy_the_address_the_proxy_saw_is_used(client, settings):
    settings.PROXY_COUNT = 1
    user = UserFactory()
    proxy = "10.0.0.2"
    for forged in range(5):
        # The client forges the first entry; the proxy appends the real address.
        attempt(
            client,
            user.username,
            "wrong",
            address=proxy,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{forged}, 203.0.113.5",
        )
    locked = attempt(
        client,
        user.username,
        PASSWORD,
        address=proxy,
        HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.5",
    )
    assert locked.status_code == 429
    elsewhere = attempt(
        client, user.username, PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.6"
    )
    assert elsewhere.status_code == 302


def test_the_session_key_changes_at_login(client):
    user = UserFactory()
    client.get(reverse("login"))
    client.session.save()
    before = client.session.session_key
    attempt(client, user.username, PASSWORD)
    assert client.session.session_key != before


def test_logout_ends_the_session(client):
    user = UserFactory()
    attempt(client, user.username, PASSWORD)
    key = client.session.session_key
    assert client.post(reverse("logout")).status_code == 302
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=key).exists()


def test_deactivating_a_user_ends_their_sessions(client):
    user = UserFactory()
    attempt(client, user.username, PASSWORD)
    assert client.get("/").wsgi_request.user == user
    user.is_active = False
    user.save()
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_one_password_against_many_usernames_locks_that_address(client, settings):
    """Twenty failures from one address, whatever the usernames, lock the address."""
    user = UserFactory()
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        attempt(client, f"guess{n}", "Password1")
    locked = attempt(client, user.username, PASSWORD)
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    elsewhere = attempt(client, user.username, PASSWORD, address="198.51.100.8")
    assert elsewhere.status_code == 302


def test_a_few_failures_of_several_people_behind_one_address_lock_nobody_else(client, settings):
    user = UserFactory()
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT - 1):
        attempt(client, f"typo{n % 4}", "wrong")
    assert attempt(client, user.username, PASSWORD).status_code == 302


def test_an_email_address_logs_in_however_its_capitals_are_typed(client):
    # Sign-up keeps the address in small letters; "Mary.Keane@Eircom.net", typed as at
    # sign-up, was refused at every later login.
    from league.services import account_create

    account_create(email="Mary.Keane@Eircom.net", password=PASSWORD)
    response = attempt(client, " Mary.Keane@Eircom.net", PASSWORD)
    assert response.status_code == 302
    assert client.session.get("_auth_user_id")
