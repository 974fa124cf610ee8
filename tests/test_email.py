"""Email: where it goes is read from the environment, and a forgotten password is reset
by a link sent by email through Django's own views."""

import re

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from config.env import env_email
from tests.factories import UserFactory

EMAIL_VARS = [
    "EMAIL_URL",
    "DJANGO_EMAIL_HOST",
    "DJANGO_EMAIL_PORT",
    "DJANGO_EMAIL_HOST_USER",
    "DJANGO_EMAIL_HOST_PASSWORD",
    "DJANGO_EMAIL_USE_TLS",
    "DJANGO_EMAIL_USE_SSL",
    "DJANGO_EMAIL_FILE_PATH",
]


@pytest.fixture
def no_email_env(monkeypatch):
    for name in EMAIL_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_development_mail_goes_to_the_console(no_email_env):
    assert env_email(debug=True) == {"BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_an_email_file_path_writes_mail_to_files(no_email_env):
    no_email_env.setenv("DJANGO_EMAIL_FILE_PATH", "/tmp/outbox")
    for debug in (True, False):
        assert env_email(debug=debug) == {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": "/tmp/outbox"},
        }


def test_production_without_settings_uses_the_machines_own_mail_server(no_email_env):
    assert env_email(debug=False) == {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "localhost", "port": 25},
    }


def test_email_url_sets_smtp_with_tls(no_email_env):
    no_email_env.setenv("EMAIL_URL", "smtp://league%40example.ie:s%3Dcret@mail.example.ie:587")
    settings = env_email(debug=True)
    assert settings == {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": "mail.example.ie",
            "port": 587,
            "username": "league@example.ie",
            "password": "s=cret",
            "use_ssl": False,
            "use_tls": True,
        },
    }


def test_smtps_url_uses_ssl_on_465(no_email_env):
    no_email_env.setenv("EMAIL_URL", "smtps://u:p@mail.example.ie")
    options = env_email(debug=False)["OPTIONS"]
    assert (options["port"], options["use_ssl"], options["use_tls"]) == (
        465,
        True,
        False,
    )


def test_the_usual_email_variables_set_smtp(no_email_env):
    no_email_env.setenv("DJANGO_EMAIL_HOST", "smtp.example.ie")
    no_email_env.setenv("DJANGO_EMAIL_PORT", "2525")
    no_email_env.setenv("DJANGO_EMAIL_HOST_USER", "me")
    options = env_email(debug=False)["OPTIONS"]
    assert options["host"] == "smtp.example.ie"
    assert options["port"] == 2525
    assert options["username"] == "me"
    assert options["use_tls"] is True


@pytest.mark.parametrize("url", ["http://mail.example.ie", "smtp://", "smtp://h:port/"])
def test_a_bad_email_url_stops_the_app_with_its_name(no_email_env, url):
    no_email_env.setenv("EMAIL_URL", url)
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        env_email(debug=False)


@pytest.mark.django_db
def test_a_forgotten_password_is_reset_by_the_emailed_link(client):
    user = UserFactory(username="una@example.ie", email="una@example.ie")
    page = client.get(reverse("login"))
    assert reverse("password_reset") in page.content.decode()
    response = client.post(reverse("password_reset"), {"email": "UNA@example.ie"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["una@example.ie"]
    link = re.search(r"https?://[^/\s]+(/account/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    set_url = form.redirect_chain[-1][0]
    response = client.post(
        set_url, {"new_password1": "a-new-pint-25", "new_password2": "a-new-pint-25"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("a-new-pint-25")
    assert client.get(reverse("password_reset_complete")).status_code == 200


@pytest.mark.django_db
def test_an_unknown_address_gets_the_same_answer_and_no_email(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.ie"})
    assert response.status_code == 302
    assert mail.outbox == []
