"""What a secretary is told when a season's change has effects they may not expect:
games already started keep their rules, and a second season running takes the public
pages."""

import datetime

import pytest
from django.urls import reverse

from league.models import Fixture, Season
from tests.factories import SeasonFactory
from tests.league.test_views import _edit_season, _season_data

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(message) for message in response.wsgi_request._messages]


def test_new_rules_mid_season_say_the_games_started_keep_theirs(client, world, fixture_at_pub):
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_started=3)
    response = _edit_season(client, world, ruleset_key="forty-five")
    assert said(response) == [
        "Winter saved. The new rules are for the games started from now on: the 3 games "
        "already started keep the rules they started with."
    ]


def test_new_rules_before_any_game_are_just_saved(client, world, fixture_at_pub):
    response = _edit_season(client, world, target=30)
    assert said(response) == ["Winter saved."]


def test_new_league_points_are_not_said_to_wait_for_new_games(client, world, fixture_at_pub):
    """League points count for every game at once: the tables are read with them."""
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_started=1)
    response = _edit_season(client, world, points_win=3)
    assert said(response) == ["Winter saved."]


def test_a_second_season_set_running_says_which_the_public_pages_show(client, world):
    spring = SeasonFactory(
        league=world.league,
        name="Spring",
        slug="spring",
        start_date=datetime.date(2026, 11, 2),
        status=Season.Status.PLANNING,
    )
    client.force_login(world.secretary)
    url = reverse("league:manage-season-edit", args=["clare", "spring"])
    response = client.post(url, _season_data(spring, status="running"))
    assert said(response) == [
        "Spring saved.",
        "Winter and Spring are both running. The home page, the team table and the pub "
        "screens show Spring, the one that started last. Close Winter when its last match "
        "is played.",
    ]


def test_a_next_season_set_running_before_it_starts_says_the_old_one_shows_till_then(client, world):
    """Found by a walk: it said the pages show the old season, "the one that started
    last", and to close the new one, not yet started."""
    SeasonFactory(
        league=world.league,
        name="Spring",
        slug="spring",
        start_date=datetime.date(2099, 2, 1),
        status=Season.Status.RUNNING,
    )
    response = _edit_season(client, world, name="Winter 2026")
    assert said(response) == [
        "Winter 2026 saved.",
        "Winter 2026 and Spring are both running. The home page, the team table and the "
        "pub screens show Winter 2026 until Spring starts on 1 February 2099. Close "
        "Winter 2026 when its last match is played.",
    ]


def test_one_season_running_says_nothing_more(client, world):
    response = _edit_season(client, world, name="Winter League")
    assert said(response) == ["Winter League saved."]
