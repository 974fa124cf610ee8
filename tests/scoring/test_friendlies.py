"""Friendlies: their sides are free text, or players whose home pub is the friendly's
pub. A player of another pub named in one is not linked to it, so no made-up game
reaches his page; a friendly never counts in the standings, and a player's page marks
it as a friendly."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from league.models import SideResult
from scoring.models import Game
from tests.factories import PlayerFactory
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def friendly(client, world):
    """A finished friendly at the organiser's pub, naming one of its players and a
    player of another pub."""
    other_pub = world.other_game.pub
    world.mine = PlayerFactory(league=world.league, name="Áine Local", home_pub=world.pub)
    world.theirs = PlayerFactory(league=world.league, name="Bríd Away", home_pub=other_pub)
    client.force_login(world.organiser)
    response = client.post(
        reverse("scoring:friendly-start", args=[world.pub.pk]),
        {"ruleset": "twenty-five", "sides": "Áine Local\nBríd Away", "first_dealer": 1},
    )
    assert response.status_code == 302
    world.friendly = Game.objects.get(season=None, pub=world.pub)
    play(world.friendly, 5, 0)
    client.logout()
    return world


def _player_page(client, world, player) -> str:
    url = reverse("league:standings-player", args=[world.league.slug, player.pk])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_of_another_pub_is_a_free_text_side(friendly):
    sides = {side.label: list(side.players.all()) for side in friendly.friendly.game_sides.all()}
    assert sides == {"Áine Local": [friendly.mine], "Bríd Away": []}


def test_the_other_pubs_player_page_has_no_made_up_game(client, friendly):
    html = _player_page(client, friendly, friendly.theirs)
    assert friendly.friendly.get_absolute_url() not in html


def test_the_own_pubs_player_page_marks_the_friendly(client, friendly):
    html = _player_page(client, friendly, friendly.mine)
    assert friendly.friendly.get_absolute_url() in html
    assert "Friendly" in html


def test_a_friendly_never_counts_in_the_standings(friendly):
    assert SideResult.objects.filter(players=friendly.mine).exists()  # on their page
    assert not SideResult.objects.counted().filter(players=friendly.mine).exists()


def test_two_sides_named_alike_but_for_capitals_are_refused(client, world):
    client.force_login(world.organiser)
    before = Game.objects.count()
    response = client.post(
        reverse("scoring:friendly-start", args=[world.pub.pk]),
        {"ruleset": "twenty-five", "sides": "Bob\nbob", "first_dealer": 1},
    )
    assert "Each side needs a name of its own." in response.content.decode()
    assert Game.objects.count() == before


def test_a_friendlys_sheet_and_record_say_it_is_a_friendly(client, friendly):
    """Its sheet read "Game 1 · Áine Local v Bríd Away", as a league game's does: a
    visitor could not tell it would not count."""
    game = friendly.friendly
    sheet = client.get(game.get_absolute_url()).content.decode()
    pub = escape(game.pub.name)
    assert f"<h1>A friendly at {pub}" in sheet
    assert "Not in the league table." in sheet
    assert "<title>A friendly: Áine Local v Bríd Away" in sheet
    record = client.get(reverse("scoring:game-record", args=[game.pk])).content.decode()
    assert f"A friendly at {pub}:" in record
