"""
Settings, read from the environment. Production is the default; `make run` and
`make test` set the development values they need.

DJANGO_DEBUG            1 for development (default 0)
DJANGO_SECRET_KEY       required when DJANGO_DEBUG is 0
DJANGO_ALLOWED_HOSTS    comma-separated (default: localhost,127.0.0.1)
DJANGO_HTTPS            0 to serve plain HTTP without redirect or secure cookies (default 1)
DJANGO_PROXY_COUNT      reverse proxies in front of the app, 0 or 1 (default 0)
DATABASE_URL            postgres://… or sqlite:////… (default: db.sqlite3 in the project)
REDIS_URL               redis://host:6379/0: the cache (pages, tables, sessions) in Redis, shared
                        by several app servers (default: each process's own memory)
DJANGO_DB_POOL          0 to turn off the psycopg connection pool on PostgreSQL (default 1)
EMAIL_URL               smtp://user:password@host:587 (or DJANGO_EMAIL_HOST and friends)
"""

import datetime
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.env import env_bool, env_database, env_email, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
HTTPS = env_bool("DJANGO_HTTPS", True)
PROXY_COUNT = env_int("DJANGO_PROXY_COUNT", 0)
if PROXY_COUNT not in (0, 1):
    raise ImproperlyConfigured(f"DJANGO_PROXY_COUNT must be 0 or 1; got {PROXY_COUNT}.")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random string in production "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or set DJANGO_DEBUG=1 for development."
        )
    SECRET_KEY = "development-only-key-not-for-production-use-0123456789abcdefghij"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_htmx",
    "django_tables2",
    "axes",
    "league",
    "scoring",
    "drives",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Visitors' public pages from the cache, before anything per person runs; kept with
    # the security headers the next two set.
    "config.page_cache.page_cache",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.no_store_for_people",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.middleware.words_for_a_button_address",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its own response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.context_processors.league",
            ],
        },
    },
]

# Forms are drawn from the project's templates first: templates/django/forms/div.html puts
# a form's mistakes at its top ("Nothing was saved"), its own refusals among them.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# Databases: SQLite in the project folder unless DATABASE_URL says otherwise.
DATABASES = {
    "default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock at BEGIN, and with WAL and a busy timeout
    # concurrent writers wait their turn instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif env_bool("DJANGO_DB_POOL", True):
    # psycopg's own pool (Django's built-in support): each worker keeps a few open
    # connections and hands them to requests, so no request waits to connect. On those
    # kept connections a query run five times is prepared, and PostgreSQL plans it once:
    # planning the sheet's locked read of a game and all it joins costs more than running it.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": env_int("DJANGO_DB_POOL_SIZE", 4), "timeout": 10},
        "server_side_binding": True,
        "prepare_threshold": 5,
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DJANGO_CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# The cache: pages and tables kept under each league's content version, and sessions.
# With REDIS_URL, Django's own Redis backend, shared by every app server; otherwise each
# process's own memory (one server, as `make run` is).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("DJANGO_CACHE_PREFIX", "twentyfive"),
            # A Redis gone quiet is out of reach in a second, not in minutes: the site
            # then answers from the database (config/redis_cache.py).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Which version of a league's pages is current: published in the shared cache (Redis),
# so a visitor's cached page costs no query; else read from the database (league/results.py).
PUBLISHED_VERSIONS = bool(REDIS_URL)
# Sessions read from the cache, written through to the database: no query per request.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "league.auth.UserBackend",
    # Only for the logins made before UserBackend, which name it (league/auth.py).
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "league:after-login"  # organisers land on Tonight
LOGOUT_REDIRECT_URL = "league:home"

LANGUAGE_CODE = "en-ie"
TIME_ZONE = "Europe/Dublin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Tests and the quick start serve static files without collectstatic first.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Security. Every response carries a Content-Security-Policy: scripts only from
# this site or with the per-request nonce, no inline styles, no plugins, no framing.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if PROXY_COUNT:
    # The proxy sets X-Forwarded-Proto and overwrites any value the client sent.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# A form from a page older than the last login or logout: "nothing was saved", in words.
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

# Login throttling (config/login_throttling.py): five failures for one username from
# one address lock that pair for 15 minutes, so others behind the same pub's address
# still log in; twenty failures from one address, any usernames, lock the address.
AXES_HANDLER = "config.login_throttling.PairAndAddressHandler"
AXES_FAILURE_LIMIT = 5
AXES_ADDRESS_FAILURE_LIMIT = 20
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "config.env.client_ip"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_refusals": {"()": "config.log_filters.OneLineForRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_refusals"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Email (password reset, invitations): SMTP from EMAIL_URL or DJANGO_EMAIL_*; files in
# DJANGO_EMAIL_FILE_PATH when set; else the console in development, localhost:25 otherwise.
MAILERS = {"default": env_email(debug=DEBUG)}
DEFAULT_FROM_EMAIL = os.environ.get(
    "DJANGO_DEFAULT_FROM_EMAIL", "Twenty-Five League <noreply@localhost>"
)
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day
