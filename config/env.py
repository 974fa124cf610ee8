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


def env_email(*, debug: bool) -> dict:
    """The default mailer (Django's MAILERS["default"]), from EMAIL_URL
    (smtp://user:password@host:587, smtps:// for SSL on 465), else the usual
    DJANGO_EMAIL_HOST, _PORT, _HOST_USER, _HOST_PASSWORD, _USE_TLS, _USE_SSL; else files
    in DJANGO_EMAIL_FILE_PATH when it is set (tests); else the console in development
    and the machine's own mail server (localhost:25) in production."""
    from urllib.parse import unquote, urlsplit

    smtp = "django.core.mail.backends.smtp.EmailBackend"
    raw = os.environ.get("EMAIL_URL", "").strip()
    if raw:
        parts = urlsplit(raw)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ImproperlyConfigured(
                "EMAIL_URL must look like smtp://user:password@host:587 "
                f"(or smtps:// for SSL); got a {parts.scheme or 'schemeless'} URL."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured("EMAIL_URL has a port that is not a number.") from None
        ssl = parts.scheme == "smtps"
        options = {
            "host": parts.hostname,
            "port": port or (465 if ssl else 587),
            "username": unquote(parts.username or ""),
            "password": unquote(parts.password or ""),
            "use_ssl": ssl,
            "use_tls": not ssl,
        }
        return {"BACKEND": smtp, "OPTIONS": options}
    if os.environ.get("DJANGO_EMAIL_HOST", "").strip():
        ssl = env_bool("DJANGO_EMAIL_USE_SSL", False)
        options = {
            "host": os.environ["DJANGO_EMAIL_HOST"].strip(),
            "port": env_int("DJANGO_EMAIL_PORT", 465 if ssl else 587),
            "username": os.environ.get("DJANGO_EMAIL_HOST_USER", ""),
            "password": os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", ""),
            "use_ssl": ssl,
            "use_tls": env_bool("DJANGO_EMAIL_USE_TLS", not ssl),
        }
        return {"BACKEND": smtp, "OPTIONS": options}
    if os.environ.get("DJANGO_EMAIL_FILE_PATH", "").strip():
        return {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": os.environ["DJANGO_EMAIL_FILE_PATH"].strip()},
        }
    if debug:
        return {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    # The machine's own mail server, as Django does by default.
    return {"BACKEND": smtp, "OPTIONS": {"host": "localhost", "port": 25}}
