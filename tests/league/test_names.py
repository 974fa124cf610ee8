"""Names (issue 12, item 8): the same name in another case or Unicode form is the same
name, and names with hidden characters are refused with a message, changing nothing."""

import unicodedata

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from league import services
from league.models import Player, Team
from league.services import LeagueError
from tests.factories import PlayerFactory, TeamFactory
from tests.league.conftest import snapshot
from tests.league.test_after_edits import team_players

pytestmark = pytest.mark.django_db

NFD_SEAN = unicodedata.normalize("NFD", "Seán Ó Briain")


def test_a_player_in_capitals_or_another_unicode_form_is_the_same_player(world):
    sean = PlayerFactory(league=world.league, name="Seán Ó Briain")
    for spelling in ("SEÁN Ó BRIAIN", NFD_SEAN, "  seán   ó briain "):
        team = services.team_create(
            season=world.season,
            name=f"Team {len(spelling)}",
            pub=world.pub,
            player_names=[spelling, f"Partner {len(spelling)}"],
        )
        assert sean in team.players.all()
        team.delete()
    assert Player.objects.filter(league=world.league).count() == 1 + 3


def test_a_new_player_whose_name_differs_only_by_its_fada_is_refused_naming_the_one_there_is(
    world,
):
    # "Sean Murphy" typed for "Seán Murphy" made a second player: one person's games
    # split between two lines of the player table.
    PlayerFactory(league=world.league, name="Seán Ó Briain")
    before = snapshot()
    with pytest.raises(LeagueError) as refused:
        services.team_create(
            season=world.season,
            name="Ennis Aces",
            pub=world.pub,
            player_names=["Sean O Briain", "Nóra Keane"],
        )
    assert "“Sean O Briain” looks like Seán Ó Briain, a player of the league already" in str(
        refused.value
    )
    assert "such as a town: “Sean O Briain (Ennis)”" in str(refused.value)
    assert snapshot() == before
    team = services.team_create(
        season=world.season,
        name="Ennis Aces",
        pub=world.pub,
        player_names=["Sean O Briain (Ennis)", "Nóra Keane"],
    )
    assert Player.objects.filter(league=world.league).count() == 3
    assert team.players.count() == 2


def test_a_look_alike_who_plays_for_another_team_is_not_offered_as_the_one_to_type(world):
    """Found by a walk: "type “Seán Ó Briain” to mean them" for a player of another team
    this season, and typing it was refused as "already plays for": the hint went round."""
    sean = PlayerFactory(league=world.league, name="Seán Ó Briain")
    taken = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    taken.members.all().delete()
    taken.members.create(player=sean, season=world.season)
    before = snapshot()
    with pytest.raises(LeagueError) as refused:
        services.team_create(
            season=world.season,
            name="Ennis Aces",
            pub=world.pub,
            player_names=["Sean O Briain", "Nóra Keane"],
        )
    said = str(refused.value)
    assert "“Sean O Briain” looks like Seán Ó Briain, who plays for The Robbers this season" in (
        said
    )
    assert "to mean them" not in said
    assert "such as a town: “Sean O Briain (Ennis)”" in said
    assert snapshot() == before


def test_renaming_a_player_to_another_in_capitals_is_refused(world):
    PlayerFactory(league=world.league, name="Seán Ó Briain")
    other = PlayerFactory(league=world.league, name="Pádraig")
    before = snapshot()
    for spelling in ("SEÁN Ó BRIAIN", NFD_SEAN):
        with pytest.raises(LeagueError, match="already a player called"):
            services.player_update(player=other, name=spelling, home_pub=None)
    assert snapshot() == before


def test_renaming_a_player_to_another_but_for_the_fadas_is_refused_and_their_own_fadas_kept(
    world,
):
    # The rename skipped the check a new player gets: "Brid Moloney" beside "Bríd
    # Moloney", one person on two lines of the player table.
    PlayerFactory(league=world.league, name="Bríd Moloney")
    other = PlayerFactory(league=world.league, name="Pádraig Keane")
    before = snapshot()
    with pytest.raises(LeagueError) as refused:
        services.player_update(player=other, name="brid moloney", home_pub=None)
    assert "“brid moloney” looks like Bríd Moloney, a player of the league already" in str(
        refused.value
    )
    assert snapshot() == before
    services.player_update(player=other, name="Padraig Keane", home_pub=None)  # their own
    assert Player.objects.get(pk=other.pk).name == "Padraig Keane"


def test_a_team_named_again_in_another_case_is_refused(world):
    TeamFactory(season=world.season, pub=world.pub, name="ÁINE TEAM")
    before = snapshot()
    with pytest.raises(LeagueError, match="already a team called"):
        services.team_create(
            season=world.season, name="áine team", pub=world.pub, player_names=["A", "B"]
        )
    assert snapshot() == before


@pytest.mark.parametrize("name", ["Thé Robbers", "TheRobbers", "The Robber's"])
def test_a_team_named_like_another_but_for_accents_apostrophes_or_spaces_is_refused(world, name):
    """Found by a walk: "Thé Robbers" and "TheRobbers" were taken beside "The Robbers",
    two rows no one could tell apart on the table, as pubs and players are refused."""
    robbers = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    other = TeamFactory(season=world.season, pub=world.pub, name="Five Fingers")
    before = snapshot()
    for attempt in (
        lambda: services.team_create(
            season=world.season, name=name, pub=world.pub, player_names=["A", "B"]
        ),
        lambda: services.team_update(
            team=other, name=name, pub=world.pub, player_names=team_players(other)
        ),
    ):
        with pytest.raises(LeagueError) as refused:
            attempt()
        assert f"“{name}” looks like “The Robbers”, a team of this season already" in str(
            refused.value
        )
    assert snapshot() == before
    # Its own name, written another way, is fine.
    services.team_update(team=robbers, name=name, pub=world.pub, player_names=team_players(robbers))


@pytest.mark.parametrize(
    "name",
    ["Se\u200bán", "\u202eniairB", "Áine\u2066 Team", "Bríd\ufeff", "Nóra\u200d"],
)
def test_hidden_characters_in_a_name_are_refused_and_nothing_is_saved(world, name):
    before = snapshot()
    with pytest.raises(LeagueError, match="hidden characters"):
        services.team_create(season=world.season, name=name, pub=world.pub, player_names=["A", "B"])
    with pytest.raises(LeagueError, match="hidden characters"):
        services.team_create(
            season=world.season, name="Fine", pub=world.pub, player_names=[name, "B"]
        )
    with pytest.raises(LeagueError, match="hidden characters"):
        services.pub_create(league=world.league, name=name)
    assert snapshot() == before


def test_the_team_form_shows_the_hidden_character_message(client, world):
    from django.urls import reverse

    client.force_login(world.secretary)
    url = reverse("league:manage-team-create", args=[world.league.slug, world.season.slug])
    response = client.post(
        url, {"name": "Harbour\u200b Hearts", "pub": world.pub.pk, "player_1": "A", "player_2": "B"}
    )
    assert response.status_code == 200
    assert "hidden characters" in response.content.decode()
    assert not Team.objects.exists()


def test_the_database_refuses_the_same_name_in_another_case(world):
    """The constraint behind the services, for a write that goes around them."""
    PlayerFactory(league=world.league, name="Seán Ó Briain")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(league=world.league, name="SEÁN Ó BRIAIN")
    TeamFactory(season=world.season, pub=world.pub, name="ÁINE TEAM")
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(season=world.season, pub=world.pub, name="áine team")


READER_ORDER = ["Áine Casey", "Brian Ó Sé", "de Búrca Seán", "Zoe Walsh"]


def test_the_database_lists_names_with_their_letter_whatever_their_fada_or_capital(world):
    # By the database's own order (the C locale) "Áine" and "de Búrca" came after "Zoe".
    for name in reversed(READER_ORDER):
        PlayerFactory(league=world.league, name=name)
        TeamFactory(season=world.season, pub=world.pub, name=name)
    players = Player.objects.filter(name__in=READER_ORDER).values_list("name", flat=True)
    teams = Team.objects.filter(season=world.season).values_list("name", flat=True)
    assert list(players) == READER_ORDER
    assert list(teams) == READER_ORDER


def test_the_fixture_form_offers_the_teams_in_a_readers_order(client, world):
    for name in reversed(READER_ORDER):
        TeamFactory(season=world.season, pub=world.pub, name=name)
    client.force_login(world.secretary)
    page = client.get(reverse("league:manage-fixture-create", args=["clare", "winter"]))
    home = page.content.decode().split('name="home"')[1].split("</select>")[0]
    assert [home.index(name) for name in READER_ORDER] == sorted(
        home.index(name) for name in READER_ORDER
    )
