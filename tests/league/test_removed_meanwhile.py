"""A record's edit page open in one tab, the record removed in another (or by someone
else), then the old page's Save: nothing is saved, the person is told in words that it
was removed meanwhile, and they land where they were working (the season's page of
teams and fixtures), never on a bare "Not found" or a server error."""

import pytest
from django.urls import reverse

from league import services
from league.models import Fixture
from tests.factories import FixtureFactory, TeamFactory
from tests.league.conftest import snapshot
from tests.league.test_two_tabs import Tab

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def landed_on(response) -> str:
    return response.redirect_chain[-1][0]


def manage_season(world) -> str:
    return reverse("league:manage-season", args=["clare", world.season.slug])


def season_page(world) -> str:
    return reverse("league:season", args=["clare", world.season.slug])


def test_a_team_removed_in_another_tab_sends_the_secretary_back_to_the_seasons_teams(client, world):
    team = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    client.force_login(world.secretary)
    old = Tab(client, reverse("league:team-edit", args=["clare", team.pk]))
    removed = client.post(
        reverse("league:team-remove", args=["clare", team.pk]), {"confirm": "yes"}, follow=True
    )
    assert said(removed) == ["Late Entrants removed from Winter."]
    before = snapshot()

    response = old.save(name="Late Entrants Again")

    assert response.status_code == 200
    assert landed_on(response) == manage_season(world)
    assert said(response) == [
        "That team was removed from Winter while you had the page open. Nothing was saved."
    ]
    assert snapshot() == before


def test_a_team_removed_while_its_organiser_edits_it_sends_them_to_the_seasons_page(client, world):
    team = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    client.force_login(world.organiser)
    old = Tab(client, reverse("league:team-edit", args=["clare", team.pk]))
    services.team_remove(team=team)  # the secretary, on their own phone
    before = snapshot()

    response = old.save(name="Late Entrants Again")

    assert response.status_code == 200
    assert landed_on(response) == season_page(world)  # an organiser has no Manage page
    assert said(response) == [
        "That team was removed from Winter while you had the page open. Nothing was saved."
    ]
    assert "That team was removed from Winter while you had the page open." in response.text
    assert snapshot() == before


@pytest.mark.parametrize("person", ["secretary", "organiser"])
def test_a_fixture_removed_in_another_tab_says_so_on_the_seasons_page(client, world, person):
    home = TeamFactory(season=world.season, pub=world.pub)
    away = TeamFactory(season=world.season, pub=world.other_pub)
    fixture = FixtureFactory(season=world.season, pub=world.pub, teams=[home, away])
    client.force_login(getattr(world, person))
    old = Tab(client, reverse("league:fixture-edit", args=["clare", fixture.pk]))
    services.fixture_remove(fixture=fixture)
    before = snapshot()

    response = old.save(date="2026-10-08")

    assert response.status_code == 200
    assert landed_on(response) == (
        manage_season(world) if person == "secretary" else season_page(world)
    )
    assert said(response) == [
        "That fixture was removed from Winter while you had the page open. Nothing was saved."
    ]
    assert snapshot() == before


def test_a_new_date_for_a_fixture_removed_meanwhile_is_said_not_a_404(client, world):
    """The "Set a new date" page of a postponed match, opened at the pub; the secretary
    removes the match before it is sent."""
    fixture = FixtureFactory(season=world.season, pub=world.pub, status=Fixture.Status.POSTPONED)
    client.force_login(world.organiser)
    old = Tab(client, reverse("league:fixture-reschedule", args=["clare", fixture.pk]))
    services.fixture_remove(fixture=fixture)
    before = snapshot()

    response = old.save(date="2026-10-15")

    assert response.status_code == 200
    assert landed_on(response) == season_page(world)
    assert said(response) == [
        "That fixture was removed from Winter while you had the page open. Nothing was saved."
    ]
    assert snapshot() == before


@pytest.mark.parametrize("person, home", [("secretary", "manage"), ("organiser", "tonight")])
def test_a_player_who_left_the_league_list_meanwhile_is_said_not_a_404(client, world, person, home):
    """A player taken off their team, named nowhere else, leaves the league's list of
    players: their edit page, open in another tab, says so when saved."""
    team = TeamFactory(season=world.season, pub=world.pub, players=[])
    client.force_login(world.secretary)
    team_url = reverse("league:team-edit", args=["clare", team.pk])
    data = {"name": team.name, "pub": world.pub.pk, "player_1": "Áine Ní Bhriain"}
    entered = client.post(team_url, data | {"player_2": "Seán Ó Briain"}, follow=True)
    assert entered.status_code == 200
    typo = team.players.get(name="Seán Ó Briain")
    client.force_login(getattr(world, person))
    old = Tab(client, reverse("league:player-edit", args=["clare", typo.pk]))
    client.force_login(world.secretary)
    retyped = client.post(team_url, data | {"player_2": "Seán Ó Briain Óg"}, follow=True)
    assert "“Seán Ó Briain”, in no other team" in said(retyped)[0]
    client.force_login(getattr(world, person))
    before = snapshot()

    response = old.save(name="Seán Óg")

    assert response.status_code == 200
    assert landed_on(response) == reverse(f"league:{home}", args=["clare"])
    assert said(response) == [
        "That player was taken off the league's list of players while you had the page "
        "open. Nothing was saved."
    ]
    assert snapshot() == before


@pytest.mark.parametrize("season", ["", "no-such-season", "kerry-winter", "\x00", "a" * 500])
def test_a_season_sent_that_is_not_this_leagues_leads_to_manage_never_a_server_error(
    client, world, season
):
    """An old page from before the edit pages said their season, or a season of another
    league: the same words, on the Manage page."""
    from tests.factories import SeasonFactory

    SeasonFactory(league=world.other_league, slug="kerry-winter", name="Kerry Winter")
    team = TeamFactory(season=world.season, pub=world.pub)
    url = reverse("league:team-edit", args=["clare", team.pk])
    services.team_remove(team=team)
    client.force_login(world.secretary)

    response = client.post(url, {"name": "X", "season": season}, follow=True)

    assert response.status_code == 200
    assert landed_on(response) == reverse("league:manage", args=["clare"])
    assert said(response) == [
        "That team was removed while you had the page open. Nothing was saved."
    ]
