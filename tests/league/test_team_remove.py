"""A team entered by mistake is taken off its season by a secretary, asked first and
told which fixtures go with it, while no game of it has started. There was no way to
but the Django admin, which secretaries have no access to."""

import pytest
from django.urls import reverse

from league import services
from league.models import Fixture, Player, Team
from scoring.models import Game
from scoring.services import SideSpec, game_next, game_start
from tests.factories import FixtureFactory, TeamFactory
from tests.league.conftest import snapshot
from tests.league.test_fixture_remove import (
    game_starts_after_the_check,
    postgres_only,
    remove_while_a_game_starts,
)

pytestmark = pytest.mark.django_db


def remove_url(team):
    return reverse("league:team-remove", args=["clare", team.pk])


def edit_page(client, team) -> str:
    return client.get(reverse("league:team-edit", args=["clare", team.pk])).content.decode()


def test_a_secretary_removes_a_team_with_its_fixtures_after_being_asked(
    client, world, fixture_at_pub
):
    home, away = [ft.team for ft in fixture_at_pub.fixture_teams.all()]
    other = TeamFactory(season=world.season, pub=world.pub, name="Thatch Aces")
    FixtureFactory(season=world.season, pub=world.pub, teams=[other, home])
    players = list(home.players.values_list("pk", flat=True))
    client.force_login(world.secretary)
    assert f'action="{remove_url(home)}"' in edit_page(client, home)
    before = snapshot()
    asked = client.post(remove_url(home))
    assert asked.status_code == 200 and snapshot() == before
    page = asked.content.decode()
    assert "Remove Harbour Hearts from Winter?" in page
    assert "Its 2 fixtures go with it:" in page
    assert (
        "Harbour Hearts v Cronin&#x27;s Jinkers" in page and "Thatch Aces v Harbour Hearts" in page
    )
    response = client.post(remove_url(home), {"confirm": "yes"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Harbour Hearts removed from Winter, with its 2 fixtures."]
    assert not Team.objects.filter(pk=home.pk).exists()
    assert not Fixture.objects.filter(season=world.season).exists()
    assert Player.objects.filter(pk__in=players).count() == len(players)  # in the league still
    assert Team.objects.filter(pk__in=[away.pk, other.pk]).count() == 2


def test_a_team_with_a_game_started_stays_and_offers_no_remove(client, world, fixture_at_pub):
    home = fixture_at_pub.fixture_teams.first().team
    game_next(fixture=fixture_at_pub, number=1, first_dealer=0)
    client.force_login(world.secretary)
    assert remove_url(home) not in edit_page(client, home)
    before = snapshot()
    response = client.post(remove_url(home), {"confirm": "yes"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Harbour Hearts has a game started, so it stays; its players can be changed."]
    assert snapshot() == before


def test_a_team_that_played_in_a_game_of_no_fixture_stays(client, world):
    team, other = (TeamFactory(season=world.season, pub=world.pub) for _ in range(2))
    game_start(
        season=world.season,
        pub=world.pub,
        sides=[SideSpec(label=t.name, team=t) for t in (team, other)],
    )
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(remove_url(team), {"confirm": "yes"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        f"{team.name} has played, so it stays."
    ]
    assert snapshot() == before


def test_a_second_tap_on_remove_says_it_is_removed_already(client, world):
    team = TeamFactory(season=world.season, pub=world.pub)
    client.force_login(world.secretary)
    first = client.post(remove_url(team), {"confirm": "yes"}, follow=True)
    assert [str(m) for m in first.context["messages"]] == [f"{team.name} removed from Winter."]
    again = client.post(remove_url(team), {"confirm": "yes"}, follow=True)
    said = [str(m) for m in again.context["messages"]]
    assert said == ["Already removed: that team is no longer in the season."]


def test_an_organiser_is_not_offered_remove(client, world, fixture_at_pub):
    home = fixture_at_pub.fixture_teams.first().team
    client.force_login(world.organiser)
    assert remove_url(home) not in edit_page(client, home)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_team_whose_game_is_starting_meanwhile_stays(fixture_at_pub):
    home = fixture_at_pub.fixture_teams.first().team
    outcomes, game_kept = remove_while_a_game_starts(
        fixture_at_pub, lambda: services.team_remove(team=home)
    )
    assert outcomes["remove"] == (
        "Harbour Hearts has a game started, so it stays; its players can be changed."
    )
    assert game_kept and Team.objects.filter(pk=home.pk).exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_game_of_its_started_after_the_check_waits_and_is_never_thrown_away(
    fixture_at_pub, monkeypatch
):
    home = fixture_at_pub.fixture_teams.first().team
    start = game_starts_after_the_check(monkeypatch, "_lock_team_fixtures", locked=True)
    assert services.team_remove(team=home) == 1
    start["thread"].join(timeout=20)
    assert str(start["got"]) == "This fixture is no longer on the list: it was removed."
    assert not Game.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_fixtures_lock_a_game_started_after_the_check_is_thrown_away(
    fixture_at_pub, monkeypatch
):
    """The negative control: the team's fixtures read without their lock, and a game
    started and saved on another phone between the check and the removal: the removal
    deletes the fixture and the game with it."""
    home = fixture_at_pub.fixture_teams.first().team
    start = game_starts_after_the_check(monkeypatch, "_lock_team_fixtures", locked=False)
    services.team_remove(team=home)
    assert isinstance(start["got"], Game)  # a game saved ...
    assert not Game.objects.filter(pk=start["got"].pk).exists()  # ... and thrown away
