"""Each table's own scorer link: records only its own table's result for the game in play
of its own drive, refuses once the drive is finished; a wrong token is not found."""

import pytest
from django.test import Client
from django.urls import reverse

from drives import services
from drives.models import Result, TableLink
from tests.drives.test_services import make_drive, play_game
from tests.factories import PubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    drive = make_drive(8, games=2)
    services.drive_start(drive=drive)
    return drive


def link_of(drive, table):
    return TableLink.objects.get(drive=drive, table=table)


def test_the_organiser_sees_a_link_and_qr_for_every_table_others_are_refused(running):
    target = reverse("drives:table-links", args=[running.league.slug, running.pk])
    assert Client().get(target).status_code == 403
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(target).status_code == 403
    organiser = UserFactory()
    running.pub.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    body = client.get(target).content.decode()
    assert body.count('<svg role="img"') == 4 and "Table 4" in body
    assert all(link.get_absolute_url() in body for link in TableLink.objects.filter(drive=running))
    assert TableLink.objects.filter(drive=running).count() == 4  # made at the seating
    grid = client.get(reverse("drives:grid", args=[running.league.slug, running.pk]))
    assert target in grid.content.decode()


def test_a_table_s_link_records_its_own_table_without_an_account(running):
    link = link_of(running, 3)
    client = Client(enforce_csrf_checks=True)
    page = client.get(link.get_absolute_url())
    assert "Table 3, game 1: which pair won?" in page.content.decode()
    token = page.context["csrf_token"]
    response = client.post(
        link.get_absolute_url(),
        {"side": "1", "game": "1", "table": "2", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    assert list(Result.objects.filter(drive=running).values_list("table", "side")) == [(3, 1)]
    page = client.get(link.get_absolute_url()).content.decode()
    assert "result entered" in page and "Tap the other pair to change it" in page


def test_at_a_table_of_three_pairs_another_pair_is_tapped_to_change_it():
    """Found by a walk: "Tap the other pair" at a table of six, where there are two."""
    drive = make_drive(6, preset="six")
    services.drive_start(drive=drive)
    link = link_of(drive, 1)
    services.result_record(drive=drive, game=1, table=1, side=2)
    page = Client().get(link.get_absolute_url()).content.decode()
    assert "Tap another pair to change it" in page and "the other pair" not in page


def test_a_post_without_the_csrf_token_is_refused(running):
    link = link_of(running, 1)
    client = Client(enforce_csrf_checks=True)
    assert client.post(link.get_absolute_url(), {"side": "0", "game": "1"}).status_code == 403
    assert not Result.objects.exists()


def test_a_stale_page_cannot_write_into_the_next_game(client, running):
    link = link_of(running, 1)
    play_game(running)
    response = client.post(link.get_absolute_url(), {"side": "0", "game": "1"})
    assert response.status_code == 409
    assert "Game 1 is not the game in play" in response.content.decode()
    assert not Result.objects.filter(drive=running, game=2).exists()


def test_bad_input_is_a_message_not_an_error(client, running):
    link = link_of(running, 1)
    response = client.post(link.get_absolute_url(), {"side": "x", "game": "1"})
    assert response.status_code == 400 and "Choose the pair that won" in response.content.decode()


def test_the_link_refuses_once_the_drive_is_finished(client, running):
    link = link_of(running, 1)
    play_game(running)
    play_game(running)
    running.refresh_from_db()
    assert running.status == "finished"
    assert "This drive has finished" in client.get(link.get_absolute_url()).content.decode()
    before = Result.objects.count()
    response = client.post(link.get_absolute_url(), {"side": "0", "game": "2"})
    assert response.status_code == 409 and "This drive has finished" in response.content.decode()
    assert Result.objects.count() == before


def test_a_wrong_token_or_another_league_s_address_is_not_found(client, running):
    link = link_of(running, 1)
    wrong = reverse("drives:table-scorer", args=[running.league.slug, "not-a-token"])
    assert client.get(wrong).status_code == 404
    assert client.post(wrong, {"side": "0", "game": "1"}).status_code == 404
    other = reverse("drives:table-scorer", args=[PubFactory().league.slug, link.token])
    assert client.get(other).status_code == 404
    assert not Result.objects.exists()


def test_a_link_of_one_drive_never_records_at_another(client, running):
    other = make_drive(8, games=2)
    services.drive_start(drive=other)
    link = link_of(running, 2)
    client.post(link.get_absolute_url(), {"side": "0", "game": "1"})
    assert not Result.objects.filter(drive=other).exists()
    assert Result.objects.filter(drive=running, table=2).count() == 1


def test_a_table_s_link_can_be_typed_short_lowercase_or_in_capitals(running):
    # Read off the organiser's page when a phone will not scan the code: no 0, o, 1, l
    # or i to mistake for another, and a phone that capitalises it still finds it.
    link = link_of(running, 2)
    assert len(link.token) == 20 and not set("0o1li") & set(link.token)
    assert link.token == link.token.lower()
    shouted = link.get_absolute_url().replace(link.token, link.token.upper())
    page = Client().get(shouted)
    assert "Table 2, game 1: which pair won?" in page.content.decode()
