"""Settings come from the environment, and junk there fails early and clearly."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def django_setup(**env):
    """Start Django in a fresh interpreter with the given environment."""
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))
    }
    environment.update({"DJANGO_SETTINGS_MODULE": "config.settings", **env})
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('ok')"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql2://nobody@nowhere/db", "DJANGO_DEBUG": "1"}, "DATABASE_URL"),
        ({"DATABASE_URL": "not a url at all", "DJANGO_DEBUG": "1"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://", "DJANGO_DEBUG": "1"}, "DATABASE_URL names no database"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be 1 or 0"),
        (
            {
                "DJANGO_DEBUG": "1",
                "DJANGO_DB_POOL_SIZE": "lots",
                "DATABASE_URL": "postgres://u@localhost/db",
            },
            "DJANGO_DB_POOL_SIZE must be a whole number",
        ),
        ({}, "DJANGO_SECRET_KEY is not set"),
    ],
    ids=[
        "unknown database",
        "junk url",
        "no database name",
        "junk debug flag",
        "junk number",
        "production without a secret key",
    ],
)
def test_a_junk_setting_gives_a_clear_improperly_configured(env, message):
    result = django_setup(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_development_settings_start_with_the_sqlite_default():
    result = django_setup(DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_sqlite_default_waits_for_writers_instead_of_failing():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "o = settings.DATABASES['default']['OPTIONS']; "
        "print(o['transaction_mode'], o['timeout'], 'WAL' in o['init_command'])"
    )
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))
    }
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1")
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["IMMEDIATE", "20", "True"]


def test_the_tests_run_on_postgresql_through_the_connection_pool(settings):
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] >= 2
