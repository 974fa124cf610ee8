"""A season that counts only confirmed games: the games played and not confirmed yet are
listed where the secretary and the organisers work, each with the way to its sheet.
Found by a walk: only each fixture's own page said how many of its games waited, so
a table missing last night's games left a secretary to search fixture by fixture."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.services import game_confirm
from tests.factories import FixtureFactory, TeamFactory, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(world):
    """Two fixtures played, one at each pub; of the three games, one is confirmed."""
    world.season.confirmed_only = True
    world.season.save()
    hearts = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    jinkers = TeamFactory(season=world.season, pub=world.other_pub, name="Cronin's Jinkers")
    here = FixtureFactory(season=world.season, pub=world.pub, teams=[hearts, jinkers])
    there = FixtureFactory(season=world.season, pub=world.other_pub, teams=[jinkers, hearts])
    first = win_game(season=world.season, winner=hearts, loser=jinkers, fixture=here)
    second = win_game(season=world.season, winner=jinkers, loser=hearts, fixture=here, number=2)
    away = win_game(season=world.season, winner=jinkers, loser=hearts, fixture=there)
    game_confirm(game=first)
    return second, away


def sheet(game) -> str:
    return reverse("scoring:game-sheet", args=[game.pk])


def test_the_secretary_sees_every_game_waiting_with_the_way_to_its_sheet(client, world, played):
    second, away = played
    client.force_login(world.secretary)

    text = client.get(reverse("league:manage-season", args=["clare", "winter"])).content.decode()

    assert "2 games wait for confirmation" in text
    assert f'href="{sheet(second)}"' in text and f'href="{sheet(away)}"' in text
    assert text.count("waiting-game") == 2


def test_an_organiser_sees_those_played_at_their_pubs(client, world, played):
    second, away = played
    client.force_login(world.organiser)

    text = client.get(reverse("league:tonight", args=["clare"])).content.decode()

    assert "1 game waits for confirmation" in text
    assert f'href="{sheet(second)}"' in text
    assert f'href="{sheet(away)}"' not in text


def test_nothing_is_said_where_every_game_counts(client, world, played):
    world.season.confirmed_only = False
    world.season.save()
    client.force_login(world.secretary)

    text = client.get(reverse("league:manage-season", args=["clare", "winter"])).content.decode()

    assert "wait for confirmation" not in text


def test_the_list_costs_the_same_queries_however_many_games_wait(client, world, played):
    client.force_login(world.secretary)
    url = reverse("league:manage-season", args=["clare", "winter"])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    before = queries()
    hearts, jinkers = world.season.teams.order_by("name")
    more = FixtureFactory(season=world.season, pub=world.pub, teams=[hearts, jinkers])
    for number in (1, 2, 3):
        win_game(season=world.season, winner=hearts, loser=jinkers, fixture=more, number=number)

    assert queries() == before
