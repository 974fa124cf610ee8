import os

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests
# make around it are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Serve static files without the collectstatic manifest (make test checks that apart)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def no_login_throttling(settings):
    """django-axes needs a request to authenticate; tests that log in with the test
    client have none. tests/test_login_throttling.py turns it back on."""
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with nothing cached (the pages' caches are keyed by row ids)."""
    from django.core.cache import cache

    cache.clear()
