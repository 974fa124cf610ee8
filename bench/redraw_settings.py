"""The app's settings with no cache at all (Django's dummy cache, the league's version
read from PostgreSQL): every visitor's page is drawn anew, as the first visit after a
change is. The bench's redraw run serves these; the app never does."""

from config.settings import *  # noqa: F403

CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
PUBLISHED_VERSIONS = False
