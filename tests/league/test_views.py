"""The set-up pages: a good form saves and moves on, a bad one says why and saves
nothing; the organiser's evening shows only their pubs."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Fixture, Season, Team
from league.services import fixtures_generate
from tests.factories import FixtureFactory, PubFactory, TeamFactory
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db


def test_a_secretary_creates_a_season_and_lands_on_its_page(client, world):
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {
            "name": "Spring 2027",
            "start_date": "2027-03-01",
            "status": "planning",
            "ruleset_key": "fifteen",
            "march_bonus": 0,
            "points_win": 2,
            "points_loss": 0,
            "points_shutout": 1,
            "tiebreaks": "",
            "min_games": 5,
            "divisions": "North, South",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/clare/manage/seasons/spring-2027/"
    season = Season.objects.get(slug="spring-2027")
    assert season.ruleset.target == 15
    assert season.divisions.count() == 2


def test_an_unknown_preset_posted_by_hand_gets_a_message(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {"name": "X", "start_date": "2027-03-01", "ruleset_key": "poker"},
    )
    assert response.status_code == 200
    assert "Unknown rules preset “poker”." in response.content.decode()
    assert snapshot() == before


def test_a_team_with_the_same_player_twice_is_refused_on_the_page(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "Twins", "pub": world.pub.pk, "player_1": "Ann", "player_2": "Ann"},
    )
    assert response.status_code == 200
    assert "The same player is named twice." in response.content.decode()
    assert snapshot() == before


def test_a_duplicate_team_name_is_refused_on_the_page(client, world):
    TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "harbour hearts", "pub": world.pub.pk, "player_1": "A", "player_2": "B"},
    )
    assert response.status_code == 200
    assert "There is already a team called “harbour hearts” this season." in (
        response.content.decode()
    )
    assert snapshot() == before


def test_generating_over_existing_fixtures_asks_to_replace_them(client, world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7))
    client.force_login(world.secretary)
    url = reverse("league:manage-fixtures-generate", args=["clare", "winter"])
    before = snapshot()
    response = client.post(url, {"start": "2026-09-14", "games_planned": 3})
    assert response.status_code == 200
    assert "already has 6 fixtures. Tick this box to replace them." in response.content.decode()
    assert snapshot() == before
    response = client.post(url, {"start": "2026-09-14", "games_planned": 3, "replace": "on"})
    assert response.status_code == 302
    assert Fixture.objects.filter(season=world.season).earliest("date").date.day == 14


def test_generating_over_results_is_refused_on_the_page(client, world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7))
    Fixture.objects.filter(season=world.season).update(status="played")
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-fixtures-generate", args=["clare", "winter"]),
        {"start": "2026-09-14", "games_planned": 3, "replace": "on"},
    )
    assert response.status_code == 200
    assert "This season already has results." in response.content.decode()
    assert snapshot() == before


def test_an_organiser_postpones_a_fixture_at_their_pub(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    response = client.post(
        reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk]),
        {"next": "https://evil.example/"},
    )
    assert response.status_code == 302
    assert response["Location"] == fixture_at_pub.get_absolute_url()
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "postponed"


def test_a_secretary_edits_a_fixture_into_a_three_team_table(client, world, fixture_at_pub):
    third = TeamFactory(season=world.season, pub=world.pub, name="Third")
    home, away = (ft.team for ft in fixture_at_pub.fixture_teams.all())
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]),
        {
            "date": "2026-10-08",
            "pub": world.pub.pk,
            "home": home.pk,
            "away": away.pk,
            "third": third.pk,
            "games_planned": 6,
            "status": "scheduled",
        },
    )
    assert response.status_code == 302
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert [ft.team for ft in fixture.fixture_teams.all()] == [home, away, third]
    assert (fixture.date, fixture.games_planned) == (datetime.date(2026, 10, 8), 6)


def test_a_secretary_gives_a_pub_to_a_new_organiser_and_takes_it_back(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-organisers", args=["clare"])
    response = client.post(
        url, {"pub": world.other_pub.pk, "username": "thatch", "password": "pint-of-plain-25"}
    )
    assert response.status_code == 302
    user = world.other_pub.organisers.get(username="thatch")
    assert client.get(url).status_code == 200
    response = client.post(
        reverse("league:manage-organiser-remove", args=["clare", "cronins", user.pk])
    )
    assert response.status_code == 302
    assert not world.other_pub.organisers.filter(pk=user.pk).exists()


def test_a_taken_username_with_a_password_is_refused_on_the_page(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-organisers", args=["clare"]),
        {"pub": world.other_pub.pk, "username": "harbour", "password": "pint-of-plain-25"},
    )
    assert response.status_code == 200
    assert "The username “harbour” is taken." in response.content.decode()
    assert snapshot() == before


def test_tonight_shows_only_the_organiser_pubs_fixtures_of_today(client, world):
    today = timezone.localdate()
    mine = FixtureFactory(season=world.season, pub=world.pub, date=today)
    FixtureFactory(season=world.season, pub=world.other_pub, date=today)
    FixtureFactory(season=world.season, pub=world.pub, date=today - datetime.timedelta(days=1))
    client.force_login(world.organiser)
    response = client.get(reverse("league:tonight", args=["clare"]))
    assert response.status_code == 200
    assert list(response.context["fixtures"]) == [mine]
    page = response.content.decode()
    assert "Tonight at The Harbour Bar" in page
    assert reverse("scoring:fixture-play", args=[mine.pk]) in page
    assert {t.pub for t in response.context["teams"]} == {world.pub}


def test_a_secretary_sees_every_pub_tonight(client, world):
    today = timezone.localdate()
    FixtureFactory(season=world.season, pub=world.pub, date=today)
    FixtureFactory(season=world.season, pub=world.other_pub, date=today)
    client.force_login(world.secretary)
    response = client.get(reverse("league:tonight", args=["clare"]))
    assert len(response.context["fixtures"]) == 2


def test_a_pub_of_another_league_is_not_offered_for_a_team(client, world):
    stranger = PubFactory(league=world.other_league)
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "T", "pub": stranger.pk, "player_1": "A", "player_2": "B"},
    )
    assert response.status_code == 200
    assert not Team.objects.exists()


def test_wrong_ids_are_not_found(client, world):
    client.force_login(world.secretary)
    assert client.get("/clare/manage/seasons/nope/").status_code == 404
    assert client.get("/nope/manage/").status_code == 404
    assert client.get("/clare/fixtures/999999/edit/").status_code == 404
    assert client.post("/clare/manage/organisers/harbour/999999/remove/").status_code == 404


def test_an_organiser_changes_the_initial_password(client, world):
    from tests.factories import PASSWORD

    client.force_login(world.organiser)
    response = client.post(
        reverse("league:password-change"),
        {
            "old_password": PASSWORD,
            "new_password1": "my-own-pint-25",
            "new_password2": "my-own-pint-25",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("league:password-change-done")
    world.organiser.refresh_from_db()
    assert world.organiser.check_password("my-own-pint-25")


@pytest.mark.parametrize("model", ["league", "pub", "season", "player", "team", "fixture"])
def test_the_admin_lists_open_with_their_filters_and_search(client, world, fixture_at_pub, model):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("boss", password="x-boss-25")
    client.force_login(admin)
    url = reverse(f"admin:league_{model}_changelist")
    assert client.get(url, {"q": "Harbour"}).status_code == 200
    first = fixture_at_pub if model == "fixture" else None
    if first:
        change = reverse("admin:league_fixture_change", args=[first.pk])
        assert client.get(change).status_code == 200
