"""The drive's pages: public to read; changes for the pub's organisers and the secretary."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from drives import services
from drives.models import Result
from tests.drives.test_services import make_drive, play_game
from tests.factories import PubFactory, UserFactory
from tests.questions import ask

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    drive = make_drive(8)
    services.drive_start(drive=drive)
    return drive


def url(name, drive, *args):
    return reverse(f"drives:{name}", args=[drive.league.slug, drive.pk, *args])


def test_the_drive_wall_prizes_and_entry_pages_are_public(client, running):
    entry = running.entries.first()
    for page in (
        url("drive", running),
        url("wall", running),
        url("prizes", running),
        url("entry", running, entry.pk),
    ):
        assert client.get(page).status_code == 200, page
    wall = client.get(url("wall", running), headers={"HX-Request": "true"})
    assert b'hx-trigger="every 20s"' in wall.content and b"<html" not in wall.content


def test_only_the_pub_s_organisers_and_the_secretary_may_enter_a_result(running):
    organiser, other, secretary = UserFactory(), UserFactory(), UserFactory()
    running.pub.organisers.add(organiser)
    PubFactory(league=running.league).organisers.add(other)
    running.league.secretaries.add(secretary)
    target = url("result", running, 1, 1)
    for user, status in ((None, 403), (other, 403), (organiser, 302), (secretary, 302)):
        client = Client()
        if user:
            client.force_login(user)
        assert client.post(target, {"side": "1"}).status_code == status
        assert client.get(url("grid", running)).status_code == (200 if status == 302 else 403)
    assert Result.objects.get(drive=running).side == 1


def test_someone_whose_login_ended_is_asked_to_log_in_and_brought_back(client, running):
    grid = url("grid", running)
    response = client.get(grid)
    assert response.status_code == 403
    assert f'href="/login/?next={grid}"' in response.content.decode()
    assert "Nothing was changed" not in response.content.decode()  # only a page opened
    # A result tapped on the grid: after the login, back to the grid, not to the address
    # that only takes a POST; nothing saved meanwhile.
    sent = client.post(url("result", running, 1, 1), {"side": "1"}, HTTP_REFERER=grid)
    assert sent.status_code == 403
    assert f'href="/login/?next={grid}"' in sent.content.decode()
    assert "Nothing was changed" in sent.content.decode()
    assert not Result.objects.filter(drive=running).exists()
    # Found by a walk: an organiser whose login ended was told "Not allowed", under the
    # site's name, not the league's. They are asked to log in.
    page = sent.content.decode()
    assert "<h1>Log in to go on</h1>" in page and "Not allowed" not in page
    assert f">{running.league.name}</a>" in page


def test_a_drive_of_another_league_is_not_found_under_this_league(client, running):
    other = PubFactory()
    response = client.get(reverse("drives:drive", args=[other.league.slug, running.pk]))
    assert response.status_code == 404


def test_a_result_by_htmx_returns_the_table_and_bad_input_a_message(running):
    user = UserFactory()
    running.pub.organisers.add(user)
    client = Client()
    client.force_login(user)
    response = client.post(
        url("result", running, 1, 1), {"side": "0"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and b"Table 1" in response.content
    response = client.post(
        url("result", running, 1, 1), {"side": "x"}, headers={"HX-Request": "true"}
    )
    assert b"Choose the pair that won" in response.content
    response = ask(client, url("next", running))  # tables still to come: refused at once
    assert response.status_code == 302
    assert Result.objects.filter(drive=running).count() == 1


def test_set_up_from_a_preset_needs_an_organiser(client):
    pub = PubFactory()
    user = UserFactory()
    pub.organisers.add(user)
    data = {
        "preset": "six",
        "name": "Confey night",
        "date": "2026-10-05",
        "pub": pub.pk,
        "format": "partners",
        "table_size": "6",  # as the kind of night filled it in: what is typed is saved
        "games": "20",
        "movement": "winners_move",
        "places": "3",
        "tie_rule": "cut",
    }
    target = reverse("drives:create", args=[pub.league.slug])
    assert client.post(target, data).status_code == 302  # to the login page
    assert not pub.drives.exists()
    client.force_login(user)
    assert client.post(target, data).status_code == 302
    assert pub.drives.get().table_size == 6


def test_the_wall_says_in_words_who_left_and_who_plays_from_the_next_game(client, running):
    # It showed only "–" for both, where the leaderboard said "(left)".
    leaver = running.entries.first()
    services.entry_leave(drive=running, entry=leaver)
    play_game(running)  # game 2: the leaver has no seat
    late = services.entry_add(drive=running, name="Late", partner_name="Comer")
    wall = client.get(url("wall", running)).content.decode()

    def line(entry):
        return wall.split(escape(str(entry)))[1].split("</li>")[0]

    assert '<span class="wall-table">Left</span>' in line(leaver)
    assert '<span class="wall-table">Plays from game 3</span>' in line(late)
    assert "–" not in wall


def test_a_pair_back_again_is_told_the_game_they_play_from(client, running):
    # Their own page said "You play from game 1" during game 2.
    pair = running.entries.first()
    services.entry_leave(drive=running, entry=pair)
    play_game(running)
    services.entry_return(drive=running, entry=pair)
    page = client.get(url("entry", running, pair.pk)).content.decode()
    assert "You play from game 3." in page
    wall = client.get(url("wall", running)).content.decode()
    assert '<span class="wall-table">Plays from game 3</span>' in wall


def test_the_leaderboard_says_in_words_where_a_late_pair_plays_as_the_wall_does(client, running):
    # Its Table column showed "–" for a pair checked in during the game.
    late = services.entry_add(drive=running, name="Late", partner_name="Comer")
    board = client.get(url("drive", running)).content.decode()
    assert '<td class="num">from game 2</td>' in board.split(escape(str(late)))[1]
    last = make_drive(4, games=1)
    services.drive_start(drive=last)
    late = services.entry_add(drive=last, name="Late", partner_name="Comer")
    board = client.get(url("drive", last)).content.decode()
    assert '<td class="num">no game left</td>' in board.split(escape(str(late)))[1]
