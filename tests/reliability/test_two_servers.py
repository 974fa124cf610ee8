"""
Two app servers, as separate gunicorn processes on two ports, on one PostgreSQL and one
Redis (issue 14): a result saved through one is on the other's next page (no stale
cache), a session made on one works on the other, and sixteen phones racing the same
deal across both still save one deal.
"""

import re
import secrets
import urllib.parse
import urllib.request
import uuid

import pytest
import redis

from bench.server import Browser, serving
from scoring.models import Deal
from tests.factories import PASSWORD, UserFactory
from tests.reliability.conftest import database_url, race
from tests.reliability.test_races_http import PHONES, deal_poster, new_game, scorer_session

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = "redis://127.0.0.1:6379/3"


@pytest.fixture(scope="module")
def two_servers(django_db_setup, django_db_blocker):
    redis.Redis.from_url(REDIS).ping()  # make test starts Redis when it is down
    prefix = f"two-servers-{secrets.token_hex(4)}"
    with django_db_blocker.unblock():
        url = database_url()
    # One deployment: every app server has the same secret key, or a login made on one
    # is refused and ended on the other (README, Production).
    env = {
        "REDIS_URL": REDIS,
        "DJANGO_CACHE_PREFIX": prefix,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    }
    with (
        serving(url, workers=1, extra_env=env) as one,
        serving(url, workers=1, extra_env=env) as two,
    ):
        yield one, two
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def get(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return response.read().decode()


def test_a_deal_saved_through_one_server_is_on_the_others_next_page(two_servers):
    one, two = two_servers
    game = new_game()
    path = f"/games/{game.pk}/"
    before = get(two, path)  # now in the shared cache
    assert get(two, path) == before
    prepare, post = deal_poster(one, game, scorer_session(one, game))
    status = post(prepare(0), key=str(uuid.uuid4()), version=game.version, dealer=0, first=4)
    assert status == 302
    after = get(two, path)
    assert after != before
    game.refresh_from_db()
    assert game.scores == [20, 5]
    assert "20" in after and "5" in after


def test_each_server_shows_every_deal_saved_through_the_other_on_its_next_page(two_servers):
    """Each server answers a visitor from its own memory while it has heard of no change
    (config/redis_cache.py: Heard): after every deal saved through one, the other's very
    next page shows it, ten times over, both ways."""
    for n in range(10):
        writer, reader = two_servers if n % 2 == 0 else reversed(two_servers)
        game = new_game()
        path = f"/games/{game.pk}/"
        before = get(reader, path)
        assert get(reader, path) == before  # held by the reader
        prepare, post = deal_poster(writer, game, scorer_session(writer, game))
        status = post(prepare(0), key=str(uuid.uuid4()), version=game.version, dealer=0, first=3)
        assert status == 302
        after = get(reader, path)
        assert after != before, f"round {n}: the reader's page is the old one"
        assert re.search(r"\b15\b", after) and re.search(r"\b10\b", after)


def test_a_login_made_on_one_server_is_kept_on_the_other(two_servers, settings):
    # A secretary logged in through one server and sent to the other by the balancer
    # must stay logged in on both (a login is checked with the secret key).
    one, two = two_servers
    game = new_game()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the servers'
    game.league.secretaries.add(UserFactory(username="una"))
    sheet = f"/games/{game.pk}/"
    phone = Browser(one)
    phone.login("una", PASSWORD)
    for base in (two, one, two):
        phone.base = base
        status, page = phone.get(sheet)
        assert status == 200, f"{base}: {status}"
        assert "Log out" in page


def test_a_scorer_session_made_on_one_server_scores_on_the_other(two_servers):
    one, two = two_servers
    game = new_game()
    cookie = scorer_session(one, game)
    prepare, post = deal_poster(two, game, cookie)
    status = post(prepare(0), key=str(uuid.uuid4()), version=game.version, dealer=0, first=2)
    assert status == 302
    assert Deal.objects.filter(game=game).count() == 1


def test_sixteen_phones_racing_across_both_servers_save_one_deal(two_servers):
    one, two = two_servers
    game = new_game()
    cookie = scorer_session(one, game)
    posters = [deal_poster(base, game, cookie) for base in (one, two)]
    fields = {"key": str(uuid.uuid4()), "version": game.version, "dealer": 0, "first": 2}

    def prepare(i):
        return posters[i % 2][0](i)

    statuses = race(PHONES, prepare, lambda i, conn: posters[i % 2][1](conn, **fields))

    assert statuses == [302] * PHONES
    assert Deal.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.scores == [10, 15]


def test_the_servers_share_the_page_cache(two_servers):
    one, two = two_servers
    game = new_game()
    path = f"/games/{game.pk}/record/"
    get(one, path)
    keys = redis.Redis.from_url(REDIS).keys("two-servers-*:page:*")
    assert keys, "the page kept by one server is in Redis for both"
    assert urllib.parse.urlsplit(one).port != urllib.parse.urlsplit(two).port
