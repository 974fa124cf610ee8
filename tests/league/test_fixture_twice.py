"""A match is entered once. Two taps on "Add fixture" on a slow connection, or a fixture
added again by hand, made the same match twice on one night: two lines on the season's
list and the noticeboard, and a game could be started in either. The second is refused,
naming the first; a team that already plays someone else that night is allowed (a
catch-up night) but the secretary is told, as is a night after the season's end date."""

import datetime
import threading

import pytest
from django.db import connection
from django.urls import reverse

from league import services
from league.models import Fixture
from league.services import LeagueError
from tests.factories import FixtureFactory, TeamFactory
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

NIGHT = datetime.date(2026, 10, 1)  # FixtureFactory's date, a Thursday


def add_form(world, home, away, date="2026-10-01"):
    return {"date": date, "pub": world.pub.pk, "home": home.pk, "away": away.pk, "games_planned": 3}


def test_the_same_match_on_the_same_night_is_refused_naming_the_one_there_is(fixture_at_pub):
    world_season = fixture_at_pub.season
    home, away = [ft.team for ft in fixture_at_pub.fixture_teams.all()]
    before = snapshot()
    for teams in ([home, away], [away, home]):  # home and away swapped is the same match
        with pytest.raises(LeagueError, match="Harbour Hearts v Cronin's Jinkers is already"):
            services.fixture_create(
                season=world_season, pub=fixture_at_pub.pub, date=NIGHT, teams=teams
            )
    assert snapshot() == before
    # Another night is another match.
    services.fixture_create(
        season=world_season,
        pub=fixture_at_pub.pub,
        date=NIGHT + datetime.timedelta(7),
        teams=[away, home],
    )


def test_a_second_tap_on_add_fixture_says_nothing_was_saved_at_the_top(
    client, world, fixture_at_pub
):
    home, away = [ft.team for ft in fixture_at_pub.fixture_teams.all()]
    client.force_login(world.secretary)
    url = reverse("league:manage-fixture-create", args=["clare", "winter"])
    response = client.post(url, add_form(world, home, away))
    assert response.status_code == 200
    box = response.text.split('id="error-summary"', 1)[1].split("</div>", 1)[0]
    assert "Nothing was saved" in box
    assert "Harbour Hearts v Cronin&#x27;s Jinkers is already on Thursday 1 October 2026" in box
    assert response.text.count("is already on Thursday") == 1  # said once, not twice
    assert Fixture.objects.filter(season=world.season).count() == 1


def test_moving_a_fixture_onto_the_night_its_match_is_already_on_is_refused(world, fixture_at_pub):
    home, away = [ft.team for ft in fixture_at_pub.fixture_teams.all()]
    later = FixtureFactory(
        season=world.season, pub=world.pub, date=NIGHT + datetime.timedelta(7), teams=[away, home]
    )
    with pytest.raises(LeagueError, match="already on Thursday 1 October"):
        services.fixture_update(fixture=later, date=NIGHT, status="scheduled")
    later.refresh_from_db()
    assert later.date == NIGHT + datetime.timedelta(7)


def test_a_team_playing_twice_that_night_is_saved_and_the_secretary_told(
    client, world, fixture_at_pub
):
    home, _ = [ft.team for ft in fixture_at_pub.fixture_teams.all()]
    third = TeamFactory(season=world.season, pub=world.pub, name="Thatch Aces")
    client.force_login(world.secretary)
    url = reverse("league:manage-fixture-create", args=["clare", "winter"])
    response = client.post(url, add_form(world, third, home), follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        f"Thatch Aces v Harbour Hearts on {fixture_at_pub.date.day} "
        f"{fixture_at_pub.date:%B} added.",
        "Harbour Hearts also plays that night: Harbour Hearts v Cronin's Jinkers "
        "at The Harbour Bar.",
    ]
    assert Fixture.objects.filter(season=world.season).count() == 2


def add_twice_at_once(world, home, away):
    barrier = threading.Barrier(2)
    outcomes = []

    def add():
        try:
            barrier.wait(timeout=10)
            services.fixture_create(
                season=world.season, pub=world.pub, date=NIGHT, teams=[home, away]
            )
            outcomes.append("added")
        except LeagueError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=add) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    return sorted(outcomes)


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_taps_arriving_at_once_add_one_fixture(world):
    home, away = (TeamFactory(season=world.season, pub=world.pub) for _ in range(2))
    for _ in range(5):
        Fixture.objects.filter(season=world.season).delete()
        assert add_twice_at_once(world, home, away) == ["added", "refused"]
        assert Fixture.objects.filter(season=world.season).count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_season_lock_two_taps_at_once_add_the_match_twice(world, monkeypatch):
    """The negative control: the season's lock switched off in the app's own code path,
    both taps look before either adds (each waits for the other after looking: waiting
    only before, a tap on a busy machine could look after the other had added)."""
    home, away = (TeamFactory(season=world.season, pub=world.pub) for _ in range(2))
    barrier = threading.Barrier(2)
    look = services._check_entered_once

    def look_then_wait(*args, **kwargs):
        look(*args, **kwargs)
        barrier.wait(timeout=10)

    monkeypatch.setattr(services, "_lock_season", lambda season: season)  # not locked
    monkeypatch.setattr(services, "_check_entered_once", look_then_wait)
    assert add_twice_at_once(world, home, away) == ["added", "added"]
    assert Fixture.objects.filter(season=world.season).count() == 2


def test_a_match_put_off_past_the_seasons_end_is_saved_and_the_organiser_told(
    client, world, fixture_at_pub
):
    world.season.end_date = datetime.date(2026, 12, 17)
    world.season.save()
    services.fixture_postpone(fixture=fixture_at_pub)
    client.force_login(world.organiser)
    url = reverse("league:fixture-reschedule", args=["clare", fixture_at_pub.pk])
    response = client.post(url, {"date": "2027-01-14"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said[-1] == (
        "That night is after Winter ends on 17 December 2026; "
        "a secretary can move the season's end date."
    )
    fixture_at_pub.refresh_from_db()
    assert (fixture_at_pub.date, fixture_at_pub.status) == (datetime.date(2027, 1, 14), "scheduled")


def test_a_fixture_in_play_reads_in_play_on_its_edit_page(client, world, fixture_at_pub):
    """Found by a walk: the Status box of a match under way read "Scheduled", as every
    other page said "In play"; a secretary saving the form thought they set it back."""
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_started=1)
    client.force_login(world.secretary)
    page = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk])).text
    assert '<option value="scheduled" selected>In play</option>' in page
    assert "A game of this match has started" in page
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_started=0)
    page = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk])).text
    assert '<option value="scheduled" selected>Scheduled</option>' in page
