"""A player taken off a team and named nowhere else, such as a name mistyped and then
put right, leaves the league's list of players: it was offered in every team form's
list of names, and on its pub's page, for good. A player anything names stays."""

import datetime

import pytest
from django.urls import reverse

from drives.models import Drive, Entry
from league import services
from league.models import Player
from tests.factories import PlayerFactory, SeasonFactory, TeamFactory, UserFactory, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def typo(world):
    """Harbour Hearts, entered with "Jonh Murphy" for John Murphy."""
    jonh = PlayerFactory(league=world.league, name="Jonh Murphy", home_pub=world.pub)
    mary = PlayerFactory(league=world.league, name="Mary Hayes", home_pub=world.pub)
    return TeamFactory(
        season=world.season, pub=world.pub, name="Harbour Hearts", players=[jonh, mary]
    )


def put_right(team, *names):
    return services.team_update(team=team, name=team.name, pub=team.pub, player_names=list(names))


def test_a_mistyped_player_put_right_leaves_the_leagues_list(client, world, typo):
    client.force_login(world.organiser)
    url = reverse("league:team-edit", args=["clare", typo.pk])
    data = {"name": "Harbour Hearts", "pub": world.pub.pk, "player_1": "John Murphy"}
    response = client.post(url, data | {"player_2": "Mary Hayes"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Harbour Hearts saved. “Jonh Murphy”, in no other team and with no game played, is "
        "no longer in the league's list of players."
    ]
    names = set(world.league.players.values_list("name", flat=True))
    assert names == {"John Murphy", "Mary Hayes"}


def test_a_player_with_a_game_played_stays(world, typo):
    other = TeamFactory(season=world.season, pub=world.other_pub)
    win_game(season=world.season, winner=typo, loser=other)
    assert put_right(typo, "John Murphy", "Mary Hayes").players_gone == []
    assert Player.objects.filter(name="Jonh Murphy").exists()


def test_a_player_in_another_seasons_team_stays(world, typo):
    spring = SeasonFactory(league=world.league, start_date=datetime.date(2027, 3, 1))
    jonh = Player.objects.get(name="Jonh Murphy")
    TeamFactory(season=spring, pub=world.pub, players=[jonh, PlayerFactory(league=world.league)])
    assert put_right(typo, "John Murphy", "Mary Hayes").players_gone == []


def test_a_player_with_a_login_or_at_a_card_drive_stays(world, typo):
    jonh = Player.objects.get(name="Jonh Murphy")
    jonh.user = UserFactory()
    jonh.save()
    assert put_right(typo, "John Murphy", "Mary Hayes").players_gone == []
    jonh.user = None
    jonh.save()
    put_right(typo, "Jonh Murphy", "Mary Hayes")
    drive = Drive.objects.create(
        league=world.league, pub=world.pub, name="Monday drive", date=datetime.date(2026, 10, 5)
    )
    Entry.objects.create(drive=drive, name="Jonh Murphy", player=jonh)
    assert put_right(typo, "John Murphy", "Mary Hayes").players_gone == []
    assert Player.objects.filter(name="Jonh Murphy").exists()


def test_players_kept_on_the_team_are_not_touched(world, typo):
    assert put_right(typo, "Mary Hayes", "Jonh Murphy").players_gone == []
    assert world.league.players.count() == 2
