"""The bench's floors for the deal POST (bench/floors.py) answer the deal's address on a
server of their own: one writes nothing, the others the deal's own rows, as the app does,
and the last gives the news of the change through Redis as the app does. They are
measured, never served by the app: its own URLconf has no such view."""

import secrets
import uuid

import pytest
import redis

from bench.server import Browser, serving
from scoring.models import Deal, GameEvent
from tests.factories import UserFactory
from tests.reliability.conftest import database_url
from tests.reliability.test_races_http import new_game

pytestmark = pytest.mark.django_db(transaction=True)


REDIS = "redis://127.0.0.1:6379/3"


def post_a_deal(floor: str, settings, **env):
    game = new_game()
    user = UserFactory(username=f"floor-{floor}")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the server's
    user.set_password("floor-secretary-25")
    user.save()
    game.league.secretaries.add(user)
    env = {"DJANGO_SETTINGS_MODULE": "bench.floor_settings", "BENCH_FLOOR": floor, **env}
    with serving(database_url(), workers=1, extra_env=env) as base:
        browser = Browser(base)
        browser.login(user.username, "floor-secretary-25")
        fields = {"key": str(uuid.uuid4()), "version": 1, "mode": "split", "dealer": 0}
        status, _ = browser.post(f"/games/{game.pk}/deals/", {**fields, "first": 3})
    return status, game


def test_the_logged_in_floor_answers_as_the_deal_post_does_and_writes_nothing(settings):
    status, game = post_a_deal("logged-in", settings)
    assert status == 302
    assert not Deal.objects.filter(game=game).exists()


@pytest.mark.parametrize("floor", ["statements", "two-trips", "two-trips-news"])
def test_the_writing_floors_write_the_deals_own_rows(floor, settings):
    status, game = post_a_deal(floor, settings)
    assert status == 302
    deal = Deal.objects.get(game=game)
    assert (deal.number, deal.tricks, deal.dealer) == (1, "32", 0)
    game.refresh_from_db()
    assert game.scores == [15, 10] and game.version == 2
    assert GameEvent.objects.filter(game=game, deal=deal).exists()


@pytest.mark.parametrize("floor, news", [("two-trips", False), ("two-trips-news", True)])
def test_the_news_floor_publishes_the_leagues_new_version_as_the_app_does(floor, news, settings):
    prefix = f"floor-{secrets.token_hex(4)}"
    client = redis.Redis.from_url(REDIS)
    status, game = post_a_deal(floor, settings, REDIS_URL=REDIS, DJANGO_CACHE_PREFIX=prefix)
    published = list(client.scan_iter(f"{prefix}:*published:{game.league.slug}"))
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    assert status == 302
    assert bool(published) is news


def test_the_app_itself_has_no_floor():
    from django.urls import resolve

    assert resolve("/games/1/deals/").func.__module__ == "scoring.views"
