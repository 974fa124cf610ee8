"""With Redis out of reach the site carries on from the database (config/redis_cache.py):
visitors get their pages, an organiser logged in records a deal, and the pages show
it. With Django's plain backend (the guard off) the same visit fails."""

import uuid

import pytest
import redis
from django.test import Client
from django.urls import reverse

from tests.factories import (
    SeasonFactory,
    TeamFactory,
    UserFactory,
    play_game,
    win_game,
)

pytestmark = pytest.mark.django_db

# Nothing listens on port 1: every connection is refused.
NOWHERE = "redis://127.0.0.1:1/0"


def redis_at(backend: str) -> dict:
    return {"default": {"BACKEND": backend, "LOCATION": NOWHERE}}


@pytest.fixture
def season():
    season = SeasonFactory(league__slug="clare", slug="winter")
    a, b = TeamFactory(season=season, name="Aces"), TeamFactory(season=season, name="Bowers")
    win_game(season=season, winner=a, loser=b)
    return season


def standings_url(season):
    return reverse("league:standings-teams", args=["clare", season.slug])


def test_without_redis_visitors_and_organisers_carry_on(season, settings, caplog):
    secretary = UserFactory()
    season.league.secretaries.add(secretary)
    organiser = Client()
    organiser.force_login(secretary)  # before Redis goes: logging in waits for it

    settings.CACHES = redis_at("config.redis_cache.RedisCache")
    settings.PUBLISHED_VERSIONS = True
    visitor = Client()
    for _ in range(2):
        page = visitor.get(standings_url(season))
        assert page.status_code == 200 and "Aces" in page.content.decode()
    assert "Redis is out of reach" in caplog.text
    assert "Log out" in organiser.get(standings_url(season)).content.decode()

    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[])
    sheet_url = reverse("scoring:game-sheet", args=[game.pk])
    before = visitor.get(sheet_url)
    saved = organiser.post(
        reverse("scoring:deal-record", args=[game.pk]),
        {
            "key": str(uuid.uuid4()),
            "version": game.version,
            "mode": "split",
            "dealer": 0,
            "first": 3,
        },
    )
    assert saved.status_code == 302
    game.refresh_from_db()
    assert game.scores == [15, 10]
    after = visitor.get(sheet_url)
    assert before.status_code == after.status_code == 200
    assert after.content != before.content  # the visitor sees the deal at once


def test_negative_control_with_djangos_plain_backend_a_visit_fails(season, settings):
    settings.CACHES = redis_at("django.core.cache.backends.redis.RedisCache")
    settings.PUBLISHED_VERSIONS = True
    with pytest.raises(redis.ConnectionError):
        Client().get(standings_url(season))
