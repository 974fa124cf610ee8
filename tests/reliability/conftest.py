import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]


def database_url(name: str | None = None) -> str:
    """A URL for the test database (or another database on the same server)."""
    s = connection.settings_dict
    host, port = s["HOST"] or "127.0.0.1", s["PORT"] or 5432
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{host}:{port}/{name or s['NAME']}"


def libpq_env() -> dict:
    s = connection.settings_dict
    return {
        "PGHOST": s["HOST"] or "127.0.0.1",
        "PGPORT": str(s["PORT"] or 5432),
        "PGUSER": s["USER"],
        "PGPASSWORD": s["PASSWORD"],
    }


@contextlib.contextmanager
def scratch_database(suffix: str):
    """An empty database beside the test database, dropped afterwards; yields its URL."""
    name = f"{connection.settings_dict['NAME']}_{suffix}"
    s = connection.settings_dict
    admin = psycopg.connect(
        dbname="postgres",
        user=s["USER"],
        password=s["PASSWORD"],
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        autocommit=True,
    )
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    try:
        admin.execute(drop)
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        yield database_url(name)
    finally:
        admin.execute(drop)
        admin.close()


def run_python(args: list[str], env: dict, timeout: float = 120) -> str:
    """Run `python <args>` in the project with `env` added; its stdout, or fail the test."""
    import os

    result = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def race(n: int, prepare, fire) -> list:
    """n threads: each runs prepare() (say, opening a connection), waits until all are
    ready, then fire(prepared) at the same moment. Returns what each fire returned."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def one(i):
        prepared = prepare(i)
        try:
            barrier.wait(timeout=30)
            results[i] = fire(i, prepared)
        except Exception as exc:  # every failure is part of the answer
            results[i] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture(scope="module")
def gunicorn(django_db_setup, django_db_blocker):
    """gunicorn with two worker processes serving the test database over loopback."""
    from bench.server import serving

    with django_db_blocker.unblock():
        url = database_url()
    # Production settings serve static files from the collectstatic manifest.
    run_python(
        ["manage.py", "collectstatic", "--noinput", "-v0"],
        {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "collectstatic-only-" + "x" * 40},
    )
    with serving(url, workers=2) as base:
        yield base
