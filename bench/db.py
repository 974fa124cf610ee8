"""The bench's own PostgreSQL database: made fresh for a run and dropped after it.

The server and role come from DATABASE_URL (as `make bench` sets it); only the
database name is replaced, so the project's own database is never touched.
"""

import os

import dj_database_url
import psycopg
from psycopg import sql

NAME = "twentyfive_bench"
DROP = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")


def bench_url(url: str, name: str = NAME) -> str:
    config = dj_database_url.parse(url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise SystemExit("make bench needs DATABASE_URL to point at PostgreSQL.")
    user, password = config["USER"], config["PASSWORD"]
    host, port = config["HOST"] or "127.0.0.1", config["PORT"] or 5432
    return f"postgres://{user}:{password}@{host}:{port}/{name}"


def _admin(url: str):
    """A connection to the server's maintenance database, to create and drop ours."""
    config = dj_database_url.parse(url)
    return psycopg.connect(
        dbname="postgres",
        user=config["USER"],
        password=config["PASSWORD"],
        host=config["HOST"] or "127.0.0.1",
        port=config["PORT"] or 5432,
        autocommit=True,
    )


def recreate(url: str, name: str = NAME) -> None:
    with _admin(url) as conn:
        conn.execute(DROP.format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop(url: str, name: str = NAME) -> None:
    with _admin(url) as conn:
        conn.execute(DROP.format(sql.Identifier(name)))


def use(name: str = NAME) -> str:
    """Point this process (before django.setup()) at the bench database; returns its URL."""
    source = os.environ.get("DATABASE_URL", "postgres://twentyfive:twentyfive@127.0.0.1:5432/x")
    url = bench_url(source, name)
    recreate(source, name)
    os.environ["DATABASE_URL"] = url
    return url
