"""Public pages for visitors come whole from the cache, keyed by the league's content
version: one query, nothing per person, 304 when the visitor's copy is current, and a
new result shows at once (issue 14)."""

import gzip

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import SeasonFactory, TeamFactory, UserFactory, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    season = SeasonFactory(league__slug="clare", slug="winter")
    a, b = TeamFactory(season=season, name="Aces"), TeamFactory(season=season, name="Bowers")
    win_game(season=season, winner=a, loser=b)
    return season


def teams_url(season):
    return reverse("league:standings-teams", args=["clare", season.slug])


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return response, len(queries)


def test_a_visitor_gets_the_page_from_the_cache_in_one_query_with_nothing_per_person(season):
    visitor = Client()
    first, _ = get(visitor, teams_url(season))
    again, queries = get(visitor, teams_url(season))
    assert again.status_code == 200
    assert queries == 1  # the league's content version
    assert again.content == first.content
    assert "Set-Cookie" not in again and not again.cookies
    assert "Cookie" not in again.get("Vary", "")
    assert "csrf" not in again.content.decode().lower()
    assert (
        "s-maxage" in again["Cache-Control"] and "stale-while-revalidate" in again["Cache-Control"]
    )
    assert again["ETag"].startswith('"') and again["Last-Modified"]


def test_a_current_copy_gets_304_and_a_new_result_a_new_page(season):
    visitor = Client()
    first, _ = get(visitor, teams_url(season))
    not_modified, queries = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert not_modified.status_code == 304 and queries == 1
    assert not_modified.content == b""
    aces, bowers = season.teams.order_by("name")
    win_game(season=season, winner=bowers, loser=aces)
    fresh, _ = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert fresh.status_code == 200
    assert fresh["ETag"] != first["ETag"]


def test_the_page_goes_out_gzipped_when_the_browser_takes_it(season):
    response, _ = get(Client(), teams_url(season), accept_encoding="gzip, br")
    response, _ = get(Client(), teams_url(season), accept_encoding="gzip, br")
    assert response["Content-Encoding"] == "gzip"
    assert b"Aces" in gzip.decompress(response.content)
    assert "Accept-Encoding" in response["Vary"]


def test_unknown_query_parameters_make_no_new_cache_entry(season):
    visitor = Client()
    get(visitor, teams_url(season))
    entries = len(cache._cache)
    for n in range(5):
        get(visitor, f"{teams_url(season)}?utm_source=poster{n}")
    assert len(cache._cache) == entries


def test_people_logged_in_are_never_served_the_visitors_copy(client, season):
    get(Client(), teams_url(season))
    client.force_login(UserFactory())
    response, queries = get(client, teams_url(season))
    assert "Log out" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    assert queries > 1


def test_a_game_sheet_is_cached_for_visitors_and_follows_each_deal(season):
    from tests.factories import play_game

    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[(3, 2)])
    url = reverse("scoring:game-sheet", args=[game.pk])
    first, _ = get(Client(), url)
    again, queries = get(Client(), url)
    assert queries == 1 and again.content == first.content
    import uuid

    from scoring.services import deal_record

    deal_record(game=game, dealer=1, tricks=[1, 4], key=uuid.uuid4(), version=game.version)
    after, _ = get(Client(), url)
    assert after.content != first.content


def test_a_game_in_play_refreshes_itself_for_visitors_only(client, season):
    from tests.factories import play_game

    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[(3, 2)])
    url = reverse("scoring:game-sheet", args=[game.pk])
    polling = 'data-hx-trigger="every 20s"'
    assert polling in Client().get(url).content.decode()
    # The fragment the refresh asks for comes from the cache too.
    fragment, queries = get(Client(), url, hx_request="true", hx_target="sheet")
    fragment, queries = get(Client(), url, hx_request="true", hx_target="sheet")
    assert queries == 1 and fragment.content.decode().lstrip().startswith('<div id="sheet"')
    secretary = UserFactory()
    season.league.secretaries.add(secretary)
    client.force_login(secretary)
    assert polling not in client.get(url).content.decode()  # a scorer's entry is never wiped
