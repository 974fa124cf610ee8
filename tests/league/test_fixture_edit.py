"""Editing a fixture: an organiser moves their own fixture's date and status only; its
teams, pub and planned games are the secretary's. The status follows the games."""

import datetime

import pytest
from django.urls import reverse

from league import services
from league.models import Fixture
from league.services import LeagueError
from tests.factories import TeamFactory, play_game, win_game
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db


def _teams(fixture):
    return [ft.team for ft in Fixture.objects.get(pk=fixture.pk).fixture_teams.all()]


def _secretarys_form(fixture, **fields):
    """The secretary's edit form of `fixture` as it stands, with `fields`."""
    home, away = _teams(fixture)
    data = {"date": fixture.date.isoformat(), "pub": fixture.pub.pk}
    return data | {"home": home.pk, "away": away.pk} | fields


def _edit(client, fixture, **data):
    return client.post(reverse("league:fixture-edit", args=["clare", fixture.pk]), data)


def test_an_organiser_moves_the_date_but_cannot_re_pair_or_move_the_pub(
    client, world, fixture_at_pub
):
    home, away = _teams(fixture_at_pub)
    stranger = TeamFactory(season=world.season, pub=world.other_pub, name="Strangers")
    client.force_login(world.organiser)
    response = _edit(
        client,
        fixture_at_pub,
        date="2026-10-15",
        status="scheduled",
        pub=world.other_pub.pk,
        home=stranger.pk,
        away=away.pk,
        games_planned=9,
    )
    assert response.status_code == 302
    assert response["Location"] == fixture_at_pub.get_absolute_url()
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert fixture.date == datetime.date(2026, 10, 15)
    assert (fixture.pub, fixture.games_planned) == (world.pub, fixture_at_pub.games_planned)
    assert _teams(fixture) == [home, away]


def test_the_organiser_form_shows_only_date_and_status(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    response = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]))
    assert list(response.context["form"].fields) == ["date", "status"]
    client.force_login(world.secretary)
    response = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]))
    assert "home" in response.context["form"].fields


def test_a_secretary_still_re_pairs_a_fixture(client, world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    third = TeamFactory(season=world.season, pub=world.pub, name="Third")
    client.force_login(world.secretary)
    response = _edit(
        client,
        fixture_at_pub,
        date="2026-10-08",
        status="scheduled",
        pub=world.other_pub.pk,
        home=away.pk,
        away=third.pk,
        games_planned=4,
    )
    assert response.status_code == 302
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert _teams(fixture) == [away, third]
    assert (fixture.pub, fixture.games_planned) == (world.other_pub, 4)


def test_an_organiser_of_another_pub_cannot_edit_it(client, world, fixture_at_pub):
    client.force_login(world.other_organiser)
    before = snapshot()
    response = _edit(client, fixture_at_pub, date="2026-10-15", status="postponed")
    assert response.status_code == 403
    assert snapshot() == before


def test_played_with_no_finished_game_is_refused_with_a_message(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    before = snapshot()
    response = _edit(client, fixture_at_pub, date="2026-10-01", status="played")
    assert response.status_code == 200
    assert "no finished game" in response.content.decode()
    assert snapshot() == before


def _start_game(world, fixture):
    home, away = _teams(fixture)
    return win_game(season=world.season, winner=home, loser=away, fixture=fixture)


def test_postponed_with_results_is_refused_by_edit_and_by_postpone(world, fixture_at_pub):
    _start_game(world, fixture_at_pub)
    before = snapshot()
    with pytest.raises(LeagueError, match="has a game started, so it cannot be postponed"):
        services.fixture_update(
            fixture=fixture_at_pub, date=fixture_at_pub.date, status="postponed"
        )
    with pytest.raises(LeagueError, match="has a game started, so it cannot be postponed"):
        services.fixture_postpone(fixture=Fixture.objects.get(pk=fixture_at_pub.pk))
    assert snapshot() == before


def test_a_game_in_play_also_stops_a_postponement(world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    play_game(season=world.season, teams=[home, away], deals=[], fixture=fixture_at_pub)
    with pytest.raises(LeagueError, match="cannot be postponed"):
        services.fixture_postpone(fixture=fixture_at_pub)
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "scheduled"


def test_a_match_in_play_is_not_offered_a_postponement_nor_asked_about_one(
    client, world, fixture_at_pub
):
    """Found by a walk: the season's list offered Postpone for a match in play, asked
    "Postpone …?", and only refused after "Yes"."""
    home, away = _teams(fixture_at_pub)
    play_game(season=world.season, teams=[home, away], deals=[], fixture=fixture_at_pub)
    client.force_login(world.secretary)
    listed = client.get(reverse("league:manage-season", args=["clare", world.season.slug]))
    postpone = reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk])
    assert postpone not in listed.text
    response = client.post(postpone, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Harbour Hearts v Cronin's Jinkers has a game started, so it cannot be postponed."
    ]
    assert "Postpone it" not in response.text
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "scheduled"


def test_fewer_planned_games_than_played_is_refused(world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=2)
    before = snapshot()
    with pytest.raises(LeagueError, match="already has 2 games; it cannot plan fewer"):
        services.fixture_update(
            fixture=fixture_at_pub,
            date=fixture_at_pub.date,
            status="scheduled",
            games_planned=1,
        )
    assert snapshot() == before


def test_played_is_allowed_once_a_game_is_finished(world, fixture_at_pub):
    _start_game(world, fixture_at_pub)
    services.fixture_update(fixture=fixture_at_pub, date=fixture_at_pub.date, status="played")
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "played"


def _finish_every_game(world, fixture):
    home, away = _teams(fixture)
    for number in range(1, fixture.games_planned + 1):
        win_game(season=world.season, winner=home, loser=away, fixture=fixture, number=number)
    fixture = Fixture.objects.get(pk=fixture.pk)
    assert (fixture.status, fixture.games_finished) == ("played", fixture.games_planned)
    return fixture


def _status_errors(response) -> list[str]:
    assert response.status_code == 200
    return list(response.context["form"].errors.get("status", []))


def test_a_finished_fixture_cannot_go_back_to_scheduled(client, world, fixture_at_pub):
    fixture = _finish_every_game(world, fixture_at_pub)
    home, away = _teams(fixture)
    client.force_login(world.secretary)
    before = snapshot()
    response = _edit(
        client,
        fixture,
        date="2026-10-01",
        status="scheduled",
        pub=world.pub.pk,
        home=home.pk,
        away=away.pk,
        games_planned=3,
    )
    assert _status_errors(response) == [
        "All 3 games of this fixture are finished, so it stays played. "
        "To play more games, raise the games planned."
    ]
    assert snapshot() == before


def test_an_organiser_cannot_set_a_finished_fixture_back_to_scheduled(
    client, world, fixture_at_pub
):
    fixture = _finish_every_game(world, fixture_at_pub)
    client.force_login(world.organiser)
    before = snapshot()
    response = _edit(client, fixture, date="2026-10-01", status="scheduled")
    assert _status_errors(response) == [
        "All 3 games of this fixture are finished, so it stays played. "
        "A secretary can plan more games."
    ]
    assert snapshot() == before


def test_a_finished_fixture_planned_for_more_games_is_scheduled_again(
    client, world, fixture_at_pub
):
    fixture = _finish_every_game(world, fixture_at_pub)
    home, away = _teams(fixture)
    client.force_login(world.secretary)
    response = _edit(
        client,
        fixture,
        date="2026-10-01",
        status="scheduled",
        pub=world.pub.pk,
        home=home.pk,
        away=away.pk,
        games_planned=5,
    )
    assert response.status_code == 302
    fixture = Fixture.objects.get(pk=fixture.pk)
    assert (fixture.status, fixture.games_planned) == ("scheduled", 5)


def test_a_fixture_with_a_game_still_to_play_may_stay_scheduled(client, world, fixture_at_pub):
    _start_game(world, fixture_at_pub)
    client.force_login(world.organiser)
    response = _edit(client, fixture_at_pub, date="2026-10-08", status="scheduled")
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture_at_pub.pk).date == datetime.date(2026, 10, 8)


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("9999-12-31", "Give a date between 1 January 2000 and 31 December 2100."),
        ("1900-01-01", "Give a date between 1 January 2000 and 31 December 2100."),
        ("2026-09-06", "Winter starts on 7 September 2026: give a date from then on."),
    ],
)
def test_a_fixture_moved_to_an_impossible_date_is_refused(
    client, world, fixture_at_pub, date, message
):
    client.force_login(world.organiser)
    before = snapshot()
    response = _edit(client, fixture_at_pub, date=date, status="scheduled")
    assert response.status_code == 200
    assert list(response.context["form"].errors["date"]) == [message]
    assert snapshot() == before


def test_a_fixture_from_before_its_season_can_still_change_its_status(
    client, world, fixture_at_pub
):
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(date=datetime.date(2026, 9, 1))
    client.force_login(world.organiser)
    response = _edit(client, fixture_at_pub, date="2026-09-01", status="postponed")
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "postponed"


def test_a_match_cut_short_is_played_once_its_planned_games_are_lowered_to_those_finished(
    client, world, fixture_at_pub
):
    """The hall closed after game 1 of 3: the secretary lowers the games planned to 1.
    It was refused on Status ("All 1 games … are finished, so it stays played. … raise
    the games planned"), the field not touched and the opposite of what was done."""
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=1)
    client.force_login(world.secretary)
    data = _secretarys_form(fixture_at_pub, status="scheduled", games_planned=1)
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]), data, follow=True
    )
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert (fixture.games_planned, fixture.status) == (1, "played")
    assert "Fixture saved: its 1 planned game is finished, so it is played." in response.text


def test_a_match_marked_played_before_its_games_are_finished_says_its_result_stands(
    client, world, fixture_at_pub
):
    """Found by a walk: marking a match played at 1 of 3 games said only "Fixture
    saved.", leaving the secretary to guess what the match's result now is."""
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=1)
    client.force_login(world.secretary)
    data = _secretarys_form(fixture_at_pub, status="played", games_planned=3)
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]), data, follow=True
    )
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "played"
    assert (
        "Fixture saved: the match is played, after 1 of its 3 games. Its result stands on "
        "the game finished." in response.text
    )


def test_more_games_planned_for_a_played_match_says_when_it_is_in_play_again(
    client, world, fixture_at_pub
):
    """Found by a secretary's walk: raising the games planned of a played fixture said
    only "Fixture saved.", while the page still showed it played."""
    home, away = _teams(fixture_at_pub)
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_planned=1)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=1)
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "played"
    client.force_login(world.secretary)
    data = _secretarys_form(fixture_at_pub, status="played", games_planned=3)
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]), data, follow=True
    )
    assert (
        "Fixture saved, with 3 games planned. Its result stands as played until game 2 is "
        "started; then the match is in play again until game 3 is finished." in response.text
    )
    response = _edit(client, fixture_at_pub, **(data | {"date": "2026-10-20"}))
    assert [str(m) for m in response.wsgi_request._messages] == ["Fixture saved."]


def test_a_match_under_way_moved_to_another_pub_says_who_looks_after_its_games(
    client, world, fixture_at_pub
):
    """Its games go with it, out of the first pub's organisers' hands: the secretary
    was told only "Fixture saved."."""
    _start_game(world, fixture_at_pub)
    home, away = _teams(fixture_at_pub)
    client.force_login(world.secretary)
    data = {
        "date": fixture_at_pub.date.isoformat(),
        "status": "scheduled",
        "pub": world.other_pub.pk,
        "home": home.pk,
        "away": away.pk,
        "games_planned": fixture_at_pub.games_planned,
    }
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]), data, follow=True
    )
    assert Fixture.objects.get(pk=fixture_at_pub.pk).pub == world.other_pub
    assert (
        "Its game goes with it to Nora Cronin's: the organisers there look after it now, "
        "not The Harbour Bar's."
    ) in response.text.replace("&#x27;", "'")
