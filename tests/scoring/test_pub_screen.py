"""The pub screen: tonight's matches at a pub with the game in play and the season's
table, refreshing itself, answered from the page cache for visitors (issue 14)."""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

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
