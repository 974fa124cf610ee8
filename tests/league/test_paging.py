"""Lists that grow with the league come a page at a time: the first page holds at most 50
rows and costs the same queries however long the list (issue 14)."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import FixtureFactory, TeamFactory

pytestmark = pytest.mark.django_db


def fixtures(season, count):
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    for _ in range(count):
        FixtureFactory(season=season, pub=home.pub, teams=[home, away])
    cache.clear()  # written around the services: no content version moved the cache on


def visit(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_the_season_page_shows_fifty_fixtures_a_page_for_the_same_queries(client, world):
    url = reverse("league:season", args=[world.league.slug, world.season.slug])
    fixtures(world.season, 60)
    html, small = visit(client, url)
    assert html.count('class="fixture ') == 50
    assert "Page 1 of 2" in html and "Later fixtures" in html
    fixtures(world.season, 100)
    html, large = visit(client, url)
    assert html.count('class="fixture ') == 50 and "Page 1 of 4" in html
    assert large == small
    html, _ = visit(client, url + "?page=4")
    assert html.count('class="fixture ') == 10 and "Earlier fixtures" in html
    html, _ = visit(client, url + "?page=lots")
    assert "Page 1 of 4" in html


def test_a_pubs_and_a_teams_fixtures_are_paged_too(client, world):
    fixtures(world.season, 55)
    team = world.season.teams.first()
    for url in (
        reverse("league:pub", args=[world.league.slug, team.pub.slug]),
        reverse("league:team", args=[world.league.slug, team.pk]),
    ):
        html, _ = visit(client, url)
        assert html.count('class="fixture ') == 50 and "Page 1 of 2" in html
