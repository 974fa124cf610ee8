"""
The table sheet's races, over HTTP, between two gunicorn worker processes on PostgreSQL.

Phones post at the same moment: the threads of `race` each open a connection first,
wait for one another, then send. A negative control runs the same harness against a
deliberately unguarded read-then-insert (no constraint, no lock) and must see duplicates:
the harness can see a race when there is one.
"""

import http.client
import secrets
import time
import urllib.parse
import uuid

import psycopg
import pytest

from scoring.models import Deal, Game, ScorerLink
from scoring.services import SideSpec, game_start
from tests.factories import PubFactory, SeasonFactory, TeamFactory
from tests.reliability.conftest import database_url, race

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 16


def new_game() -> Game:
    season = SeasonFactory()
    pub = PubFactory(league=season.league)
    teams = [TeamFactory(season=season, pub=pub) for _ in range(2)]
    return game_start(
        season=season,
        pub=pub,
        sides=[SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in teams],
    )


def scorer_session(base: str, game: Game) -> str:
    """Open a scorer link as a phone does; returns the Cookie header for its posts.
    The CSRF cookie is one the phone made up: Django only checks that the form's token
    matches it."""
    link = ScorerLink.objects.create(game=game)
    parts = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", link.get_absolute_url())
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 302, response.status
    cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie")]
    return next(c for c in cookies if c.startswith("sessionid="))


def deal_poster(base: str, game: Game, cookie: str):
    parts = urllib.parse.urlsplit(base)
    csrf = secrets.token_hex(16)
    path = f"/games/{game.pk}/deals/"

    def prepare(_i):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.connect()
        return conn

    def post(conn, **fields) -> int:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf, "mode": "split", **fields})
        conn.request(
            "POST",
            path,
            body=body,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"{cookie}; csrftoken={csrf}",
                "Referer": base + path,
            },
        )
        response = conn.getresponse()
        response.read()
        conn.close()
        return response.status

    return prepare, post


def same_deal_from_sixteen_phones(base: str) -> tuple[Game, list]:
    game = new_game()
    prepare, post = deal_poster(base, game, scorer_session(base, game))
    key = str(uuid.uuid4())
    fields = {"key": key, "version": game.version, "dealer": 0, "first": 2}
    return game, race(PHONES, prepare, lambda i, conn: post(conn, **fields))


def two_deals_for_one_number(base: str) -> tuple[Game, list]:
    game = new_game()
    prepare, post = deal_poster(base, game, scorer_session(base, game))
    fields = [
        {"key": str(uuid.uuid4()), "version": game.version, "dealer": 0, "first": first}
        for first in (1, 3)
    ]
    return game, race(2, prepare, lambda i, conn: post(conn, **fields[i]))


def test_sixteen_phones_posting_the_same_deal_at_once_save_one_deal(gunicorn):
    for _ in range(3):
        game, statuses = same_deal_from_sixteen_phones(gunicorn)

        assert statuses == [302] * PHONES
        assert Deal.objects.filter(game=game).count() == 1
        game.refresh_from_db()
        assert game.version == 2
        assert game.scores == [10, 15]


def test_two_phones_saving_different_deals_as_the_same_number_one_is_saved_the_other_told(
    gunicorn,
):
    for _ in range(3):
        game, statuses = two_deals_for_one_number(gunicorn)

        # One redirect to the sheet (saved), one 409: "someone else changed this game".
        assert sorted(statuses) == [302, 409]
        assert Deal.objects.filter(game=game).count() == 1
        assert Deal.objects.get(game=game).number == 1


def test_the_harness_sees_duplicates_on_an_unguarded_read_then_insert():
    """The negative control: the same race, against a table with no constraint and a
    check-then-insert with no lock, as code without the sheet's guards would do."""
    url = database_url()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE race_control (game int, number int)")
    try:

        def prepare(_i):
            return psycopg.connect(url, autocommit=True)

        def fire(_i, conn):
            with conn:
                taken = conn.execute(
                    "SELECT count(*) FROM race_control WHERE game = 1 AND number = 1"
                ).fetchone()[0]
                if taken:
                    return "told"
                time.sleep(0.01)  # the work a view does between its check and its write
                conn.execute("INSERT INTO race_control VALUES (1, 1)")
                return "saved"

        results = race(PHONES, prepare, fire)
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT count(*) FROM race_control").fetchone()[0]
        assert results.count("saved") == rows
        assert rows > 1, "the harness should see the unguarded race"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP TABLE race_control")
