"""The pub screen: tonight's matches at a pub with the game in play and the season's
table, refreshing itself, answered from the page cache for visitors (issue 14)."""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.results import content_changed
from tests.factories import DivisionFactory, PubFactory, SeasonFactory, TeamFactory
from tests.scoring.conftest import fixture_game, play

pytestmark = pytest.mark.django_db


def test_the_screen_shows_tonights_match_the_game_in_play_and_the_table(world):
    world.fixture.date = timezone.localdate()
    world.fixture.save()
    play(world.game, 5, 0)  # game 1 won by the home team
    game_two = fixture_game(world.fixture, number=2, first_dealer=1)
    play(game_two, 2, 3)
    url = reverse("screens:pub", args=[world.league.slug, world.pub.slug])

    html = Client().get(url).content.decode()

    home, away = world.labels
    assert f"{home} <strong>1</strong> – {away} <strong>0</strong>" in html
    assert f"Game 2 in play: {home} <strong>10</strong> – {away} <strong>15</strong>" in html
    assert "the table" in html and 'hx-trigger="every 20s"' in html


def test_another_nights_match_is_not_on_the_screen(world):
    world.fixture.date = timezone.localdate() - datetime.timedelta(days=7)
    world.fixture.save()
    url = reverse("screens:pub", args=[world.league.slug, world.pub.slug])
    assert "No match here tonight." in Client().get(url).content.decode()


def test_a_room_of_screens_costs_one_query_each(world):
    url = reverse("screens:pub", args=[world.league.slug, world.pub.slug])
    Client().get(url)
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(url).status_code == 200
    assert len(queries) == 1
    assert (
        Client().get(reverse("screens:pub", args=[world.league.slug, "nowhere"])).status_code == 404
    )


def test_with_divisions_the_screen_shows_the_pubs_divisions_each_under_its_name():
    # The whole season's rows in one list read "1 N1, 2 N2, 1 S1, 2 S2" with no division
    # named: two teams at the top of one table.
    season = SeasonFactory()
    north, south = (DivisionFactory(season=season, name=name) for name in ("North", "South"))
    pub, other = PubFactory(league=season.league), PubFactory(league=season.league)
    TeamFactory(season=season, pub=pub, division=north, name="Harbour Hearts")
    TeamFactory(season=season, pub=other, division=north, name="Kilkee Knaves")
    TeamFactory(season=season, pub=other, division=south, name="Thatch Trumps")
    url = reverse("screens:pub", args=[season.league.slug, pub.slug])

    html = Client().get(url).content.decode()

    assert "<caption>North</caption>" in html
    assert "Harbour Hearts" in html and "Kilkee Knaves" in html
    assert "Thatch Trumps" not in html and "South" not in html
    neutral = PubFactory(league=season.league)  # no team of its own: every division
    html = Client().get(reverse("screens:pub", args=[season.league.slug, neutral.slug])).text
    assert "<caption>North</caption>" in html and "<caption>South</caption>" in html


def test_teams_with_no_division_are_a_table_named_so_beside_the_divisions():
    """Found by a walk: the teams with no division were a table with no heading under
    the named ones, read as part of the division above."""
    season = SeasonFactory()
    north = DivisionFactory(season=season, name="North")
    pub = PubFactory(league=season.league)
    TeamFactory(season=season, pub=pub, division=north, name="Harbour Hearts")
    TeamFactory(season=season, pub=pub, name="Five Fingers")
    html = Client().get(reverse("screens:pub", args=[season.league.slug, pub.slug])).text
    assert "<caption>North</caption>" in html and "<caption>No division</caption>" in html
    season.teams.update(division=None)  # no divisions at all: one table, no heading
    content_changed(league_id=season.league_id)
    html = Client().get(reverse("screens:pub", args=[season.league.slug, pub.slug])).text
    assert "<caption>" not in html
