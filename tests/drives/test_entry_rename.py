"""A name typed wrong at the door is put right on the entry's page, at any time: the
entry keeps its seats, wins and place. Found by a walk: once game 1 had started, the
only way to fix "Nuala Kelihe" was "Leaves now" and a new entry, which lost her wins."""

import pytest
from django.test import Client

from drives import selectors, services
from drives.models import Entry
from drives.services import DriveError
from tests.drives.test_door_and_setup import organiser_of, said, url
from tests.drives.test_services import make_drive, play_game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_name_put_right_keeps_the_wins_and_the_place():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    play_game(drive, side=0)
    entry = drive.entries.get(name="A0")
    wins = selectors.drive_prizes(drive)
    nóra = PlayerFactory(league=drive.league, name="Nóra Considine")
    services.entry_rename(
        drive=drive, entry=entry, name="Nuala Kelly", partner_name="nora considine"
    )
    entry.refresh_from_db()
    assert str(entry) == "Nuala Kelly & Nóra Considine"  # the league's spelling
    assert (entry.player, entry.partner) == (None, nóra)
    assert entry.seats.count() == 2
    assert selectors.drive_prizes(drive) == wins  # the same places, by entry


def test_a_name_of_someone_else_checked_in_is_refused_and_nothing_changed():
    drive = make_drive(2)
    entry = drive.entries.get(name="A0")
    with pytest.raises(DriveError, match="“B1” is checked in already"):
        services.entry_rename(drive=drive, entry=entry, name="A0", partner_name="b1")
    with pytest.raises(DriveError, match="A pair needs two different people"):
        services.entry_rename(drive=drive, entry=entry, name="A0", partner_name="a0")
    with pytest.raises(DriveError, match="Type the partner's name"):
        services.entry_rename(drive=drive, entry=entry, name="A0", partner_name=" ")
    entry.refresh_from_db()
    assert str(entry) == "A0 & B0"


def test_the_organiser_puts_a_name_right_on_the_entrys_page():
    drive = make_drive(2)
    services.drive_start(drive=drive)
    entry = drive.entries.get(name="A0")
    organiser = organiser_of(drive)
    page = organiser.get(url("entry-name", drive, entry.pk)).text
    assert 'value="A0"' in page and 'value="B0"' in page
    response = organiser.post(
        url("entry-name", drive, entry.pk), {"name": "Nuala Kelly", "partner_name": "B0"}
    )
    assert response["Location"] == url("door", drive)
    assert said(response) == "Name put right: Nuala Kelly & B0."
    assert str(Entry.objects.get(pk=entry.pk)) == "Nuala Kelly & B0"
    # A refusal keeps what was typed, says why, and changes nothing.
    response = organiser.post(
        url("entry-name", drive, entry.pk), {"name": "A1", "partner_name": "B0"}
    )
    assert response.status_code == 422
    assert "Nothing was saved" in response.text
    assert "“A1” is checked in already (A1 &amp; B1)." in response.text
    assert 'value="A1"' in response.text
    assert str(Entry.objects.get(pk=entry.pk)) == "Nuala Kelly & B0"


def test_only_the_pubs_organisers_put_a_name_right():
    drive = make_drive(1)
    entry = drive.entries.get()
    visitor = Client()
    assert visitor.get(url("entry", drive, entry.pk)).status_code == 200
    assert url("entry-name", drive, entry.pk) not in visitor.get(url("entry", drive, entry.pk)).text
    assert url("entry-name", drive, entry.pk) in organiser_of(drive).get(url("door", drive)).text
    response = visitor.post(url("entry-name", drive, entry.pk), {"name": "X", "partner_name": "Y"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert str(Entry.objects.get(pk=entry.pk)) == "A0 & B0"
