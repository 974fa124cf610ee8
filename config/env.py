"""Read settings from the environment, failing early and clearly on junk values."""

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be 1 or 0 (or true/false, yes/no, on/off); got {raw!r}."
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_database(name: str, default: str) -> dict:
    raw = os.environ.get(name) or default
    try:
        config = dj_database_url.parse(raw)
    except Exception as exc:
        raise ImproperlyConfigured(
            f"{name} is not a database URL this app understands ({exc}). "
            "Use postgres://user:password@host:5432/name or sqlite:////absolute/path.sqlite3."
        ) from None
    if config.get("ENGINE") not in {
        "django.db.backends.postgresql",
        "django.db.backends.sqlite3",
    }:
        raise ImproperlyConfigured(f"{name} must point at PostgreSQL or SQLite; got {raw!r}.")
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} names no database; got {raw!r}.")
    return config


def client_ip(request) -> str:
    """The client's address. Behind one reverse proxy (DJANGO_PROXY_COUNT=1) it is the
    last X-Forwarded-For entry, the one our proxy appended; earlier entries came from
    the client and can be forged."""
    from django.conf import settings

    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.PROXY_COUNT and forwarded:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")
