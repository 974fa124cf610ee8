"""A drive's settings put right after it was set up, and a drive set up by mistake taken
off. There was no way to do either: 12 games typed for 10, or the wrong fee, stayed for
the night, and a drive set up twice stayed on the list for good."""

import datetime

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from drives import services
from drives.models import Drive, Entry
from drives.services import DriveError
from tests.drives.test_door_and_setup import organiser_of, url
from tests.drives.test_services import make_drive, play_game
from tests.factories import PubFactory, UserFactory
from tests.questions import ask

pytestmark = pytest.mark.django_db


def said(response) -> str:
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def settings_of(drive) -> dict:
    drive = Drive.objects.get(pk=drive.pk)
    return {f.name: getattr(drive, f.name) for f in Drive._meta.concrete_fields}


# 1. The service: what may change, and when.


def test_before_game_1_anything_may_be_put_right():
    drive = make_drive(4)
    services.drive_update(
        drive=drive, name=" Friday  25 ", games=10, jackpot=8, table_size=6, places=2, entry_fee=5
    )
    drive.refresh_from_db()
    assert (drive.name, drive.games, drive.table_size, drive.places) == ("Friday 25", 10, 6, 2)
    assert drive.entry_fee == 5


def test_the_format_stays_once_someone_is_checked_in():
    drive = make_drive(1)
    before = settings_of(drive)
    with pytest.raises(DriveError, match="People are checked in already"):
        services.drive_update(drive=drive, format=Drive.Format.INDIVIDUAL)
    assert settings_of(drive) == before
    empty = make_drive(0)
    services.drive_update(drive=empty, format=Drive.Format.INDIVIDUAL, table_size=5)
    assert Drive.objects.get(pk=empty.pk).individual


def test_settings_the_set_up_form_refuses_are_refused_and_change_nothing():
    drive = make_drive(4, games=10)
    before = settings_of(drive)
    for change, words in [
        ({"jackpot": 11}, "The jackpot at 11 wins is more than the 10 games: lower it"),
        ({"games": 8, "cookie_jar": [9]}, "Cookie-jar game 9 is not one of the drive's games"),
        ({"table_size": 5}, "With partners, tables seat 4"),
        ({"name": "Fri\u200bday"}, "hidden characters"),
        ({"name": "   "}, "Type the drive's name: it is empty."),
    ]:
        with pytest.raises(DriveError, match=words):
            services.drive_update(drive=drive, **change)
        assert settings_of(drive) == before


def test_while_it_plays_the_games_prizes_and_fee_change_and_the_seating_stays():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    play_game(drive)  # game 2 in play
    before = settings_of(drive)
    for change in ({"table_size": 6}, {"movement": Drive.Movement.LOSERS_MOVE}):
        with pytest.raises(DriveError, match="Game 1 has started: the format, the seats"):
            services.drive_update(drive=drive, **change)
    with pytest.raises(DriveError, match="Game 2 is in play: the drive has at least 2 games"):
        services.drive_update(drive=drive, games=1)
    assert settings_of(drive) == before
    services.drive_update(drive=drive, games=2, jackpot=None, places=1, entry_fee=3, table_size=4)
    drive.refresh_from_db()
    assert (drive.games, drive.places, drive.entry_fee) == (2, 1, 3)


def test_a_finished_drive_keeps_the_settings_it_was_played_by():
    drive = make_drive(4, games=1)
    services.drive_start(drive=drive)
    play_game(drive)
    with pytest.raises(DriveError, match="This drive has finished"):
        services.drive_update(drive=drive, places=1)


def test_a_drive_is_removed_with_its_entries_before_game_1_only():
    drive, kept = make_drive(4), make_drive(4)
    services.drive_remove(drive=drive)
    assert not Drive.objects.filter(pk=drive.pk).exists()
    assert not Entry.objects.filter(drive_id=drive.pk).exists()
    services.drive_start(drive=kept)
    with pytest.raises(DriveError, match="Game 1 has started: the drive stays"):
        services.drive_remove(drive=kept)
    assert Drive.objects.filter(pk=kept.pk).exists()


# 2. The pages.


def test_the_settings_page_shows_the_drive_as_it_is_and_saves_what_it_shows():
    drive = make_drive(4, games=12, cookie_jar=[3, 7])
    client = organiser_of(drive)
    door = client.get(url("door", drive)).content.decode()
    assert f'href="{url("edit", drive)}">Change the settings</a>' in door
    page = client.get(url("edit", drive)).content.decode()
    assert 'name="games" value="12"' in page and 'name="cookie_jar" value="3, 7"' in page
    data = {
        "name": "Monday drive",
        "date": "2026-10-05",
        "pub": drive.pub.pk,
        "format": "partners",
        "table_size": 4,
        "games": 10,
        "movement": drive.movement,
        "places": 3,
        "cookie_jar": "3, 7",
        "tie_rule": "cut",
    }
    response = client.post(url("edit", drive), data)
    assert response.url == url("door", drive)
    assert said(response) == "The drive's settings are saved."
    assert Drive.objects.get(pk=drive.pk).games == 10
    refused = client.post(url("edit", drive), {**data, "cookie_jar": "11"})
    assert refused.status_code == 200
    assert "Cookie-jar game 11 is not one of the drive&#x27;s games." in refused.text
    assert Drive.objects.get(pk=drive.pk).cookie_jar == [3, 7]


def test_while_it_plays_the_seating_fields_are_shown_but_not_taken():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    page = client.get(url("edit", drive)).content.decode()
    assert page.count("Set for the night: game 1 has started.") == 4
    data = {
        "name": "Monday drive",
        "date": "2026-10-05",
        "table_size": 6,  # disabled: not taken
        "games": 18,
        "places": 3,
        "tie_rule": "cut",
    }
    response = client.post(url("edit", drive), data)
    assert response.status_code == 302
    drive.refresh_from_db()
    assert (drive.games, drive.table_size) == (18, 4)


def test_only_the_pub_s_organisers_may_change_or_remove_a_drive():
    drive = make_drive(4)
    stranger = Client()
    stranger.force_login(UserFactory())
    outsider = UserFactory()  # an organiser of another pub of the league
    PubFactory(league=drive.league).organisers.add(outsider)
    other_pub = Client()
    other_pub.force_login(outsider)
    before = settings_of(drive)
    for client in (stranger, other_pub):
        assert client.get(url("edit", drive)).status_code == 403
        assert client.post(url("edit", drive), {"games": 5}).status_code == 403
        assert ask(client, url("remove", drive)).status_code == 403
        assert client.post(url("remove", drive), {"confirm": "yes"}).status_code == 403
    anonymous = Client().post(url("remove", drive), {"confirm": "yes"})
    assert anonymous.url.startswith("/login/")
    assert settings_of(drive) == before


def test_remove_asks_first_and_back_after_yes_says_it_is_gone():
    drive = make_drive(3)
    client = organiser_of(drive)
    question = ask(client, url("remove", drive)).content.decode()
    assert "Remove Monday drive?" in question
    assert "and the 3 pairs checked in go with it" in question
    assert Drive.objects.filter(pk=drive.pk).exists()
    response = client.post(url("remove", drive), {"confirm": "yes"})
    assert response.url == f"/{drive.league.slug}/drives/"
    assert said(response) == "Monday drive on Monday 5 October removed."
    assert not Drive.objects.filter(pk=drive.pk).exists()
    back = client.get(url("remove", drive))
    assert said(back) == "Already removed: that drive is no longer on the list."


def test_a_drive_in_play_is_not_removed_and_the_page_offers_no_remove():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    assert url("remove", drive) not in client.get(url("edit", drive)).content.decode()
    response = ask(client, url("remove", drive))
    assert said(response) == "Game 1 has started: the drive stays, with its results."
    assert Drive.objects.filter(pk=drive.pk).exists()


def test_a_finished_drive_s_settings_page_says_why_it_cannot_change():
    drive = make_drive(4, games=1)
    services.drive_start(drive=drive)
    play_game(drive)
    client = organiser_of(drive)
    assert "Change the settings" not in client.get(url("door", drive)).content.decode()
    response = client.get(url("edit", drive))
    assert said(response) == "This drive has finished: its settings stay as they were played."


def test_a_date_typed_wrong_is_put_right():
    drive = make_drive(0)
    services.drive_update(drive=drive, date=datetime.date(2026, 10, 9))
    assert Drive.objects.get(pk=drive.pk).date == datetime.date(2026, 10, 9)
