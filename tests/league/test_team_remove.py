"""A team entered by mistake is taken off its season by a secretary, asked first and
told which fixtures go with it, while no game of it has started. There was no way to
but the Django admin, which secretaries have no access to."""

import datetime
import threading

import pytest
from django.db import DatabaseError, connection
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
from tests.questions import ask

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
    asked = ask(client, remove_url(home))
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
    # The question, reached by Back or an old tab, said "No game of theirs has started".
    question = client.get(remove_url(home), follow=True)
    said = [str(m) for m in question.context["messages"]]
    assert said == ["Harbour Hearts has a game started, so it stays; its players can be changed."]
    assert "Remove Harbour Hearts" not in question.content.decode()


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


def fixture_added_while_removing(monkeypatch, team, other, *, after, guarded=True):
    """A secretary removes `team` while, on another phone, a fixture of it against
    `other` is added: added at once `after` the removal has read (and locked) the team's
    fixtures, or its team row. `guarded=False` is the negative control: the fixture's
    addition without the team's lock (`services._lock_teams`). What each got."""
    got = {}

    def add_fixture():
        try:
            got["add"] = services.fixture_create(
                season=team.season,
                pub=team.pub,
                date=datetime.date(2026, 10, 8),
                teams=[team, other],
            )
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            got["add"] = error
        finally:
            connection.close()

    real = getattr(services, after)

    def read_then_a_fixture_is_added(*args):
        read = real(*args)
        thread = threading.Thread(target=add_fixture)
        thread.start()
        thread.join(timeout=0.5)  # done, or waiting on the removal's lock
        got["thread"] = thread
        return read

    monkeypatch.setattr(services, after, read_then_a_fixture_is_added)
    if not guarded:
        monkeypatch.setattr(services, "_lock_teams", lambda teams: {t.pk for t in teams})
    try:
        services.team_remove(team=team)
        got["remove"] = "removed"
    except services.LeagueError as error:
        got["remove"] = str(error)
    except DatabaseError as error:  # the outcome under test
        got["remove"] = error
    got["thread"].join(timeout=20)
    return got


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_fixture_added_once_the_team_is_locked_is_refused_in_words(world, monkeypatch):
    home = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    away = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    got = fixture_added_while_removing(monkeypatch, home, away, after="_lock_team")
    assert got["remove"] == "removed"
    assert str(got["add"]) == "Late Entrants was removed meanwhile: nothing was saved."
    assert not Fixture.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_teams_lock_the_fixture_fails_as_a_server_error(world, monkeypatch):
    """The negative control: the fixture added without locking its teams is written
    against a team being deleted; only the database stops it (its foreign key, or the
    deadlock the two end in), as an error the secretary would see as a server error."""
    home = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    away = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    got = fixture_added_while_removing(monkeypatch, home, away, after="_lock_team", guarded=False)
    errors = [got[what] for what in ("add", "remove") if isinstance(got[what], DatabaseError)]
    assert errors, got
    assert not Fixture.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_fixture_added_before_the_team_is_locked_keeps_the_team(world, monkeypatch):
    """The fixture is added between the removal's read of the team's fixtures and its
    lock of the team: the removal sees it and stops, saying why, where before it said
    the team "has played"."""
    home = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    away = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    got = fixture_added_while_removing(monkeypatch, home, away, after="_lock_team_fixtures")
    assert isinstance(got["add"], Fixture)
    assert got["remove"] == (
        "A fixture of Late Entrants was added meanwhile, so nothing was removed. "
        "Look at the team again."
    )
    assert Team.objects.filter(pk=home.pk).exists()


def test_a_team_saved_in_a_tab_after_its_removal_in_another_is_told_so_not_a_404(
    client, world, fixture_at_pub
):
    """Found by a walk: the edit page open in one tab, the team removed in another, then
    "Save team" gave a bare "Not found". It says what happened, and saves nothing. Sent
    without its season (a page from before the pages said it), it leads to Manage or
    Tonight; with it, to the season's page (tests/league/test_removed_meanwhile.py)."""
    team = TeamFactory(season=world.season, pub=world.pub, name="Late Entrants")
    fixture = fixture_at_pub
    data = {"name": "Late Entrants", "pub": world.pub.pk, "player_1": "A B", "player_2": "C D"}
    team_url = reverse("league:team-edit", args=["clare", team.pk])
    fixture_url = reverse("league:fixture-edit", args=["clare", fixture.pk])
    client.force_login(world.secretary)
    client.post(remove_url(team), {"confirm": "yes"})
    services.fixture_delete(fixture=fixture)
    before = snapshot()
    for url, sent, gone in (
        (team_url, data, "That team was removed"),
        (fixture_url, {"date": "2026-10-08"}, "That fixture was removed"),
    ):
        for person, home in ((world.secretary, "manage"), (world.organiser, "tonight")):
            client.force_login(person)
            response = client.post(url, sent, follow=True)
            assert response.redirect_chain[-1][0] == reverse(f"league:{home}", args=["clare"])
            said = f"{gone} while you had the page open. Nothing was saved."
            assert said in [str(m) for m in response.context["messages"]]
        client.force_login(world.other_secretary)  # not one of this league's people
        assert client.post(url, sent).status_code == 404
        assert client.get(url).status_code == 404
    assert snapshot() == before
