"""Afterwards: a drive counts in each player's all-time record, apart from league
standings, shown on the league's player pages through drives' template tag."""

import ast
import datetime
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from drives import selectors, services
from drives.models import Seat
from tests.drives.test_services import make_drive
from tests.factories import PlayerFactory, PubFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def win_every_game(drive, player):
    services.drive_start(drive=drive)
    while True:
        drive.refresh_from_db()
        seat = Seat.objects.get(drive=drive, game=drive.game, entry__player=player)
        services.result_record(drive=drive, game=drive.game, table=seat.table, side=seat.side)
        if services.game_next(drive=drive) is None:
            return


@pytest.fixture
def winner():
    drive = make_drive(0, games=3, places=1)
    player = PlayerFactory(league=drive.league, name="Nora Cronin")
    services.entry_add(drive=drive, name="Nora Cronin", partner_name="Sean Burke")
    services.entry_add(drive=drive, name="Y", partner_name="Z")
    win_every_game(drive, player)
    return player


def pages(player):
    slug = player.league.slug
    return (
        reverse("league:player", args=[slug, player.pk]),
        reverse("league:standings-player", args=[slug, player.pk]),
    )


def test_a_player_who_won_a_drive_sees_it_on_their_pages(client, winner):
    for page in pages(winner):
        response = client.get(page)
        assert response.status_code == 200
        assert "Drives won: 1, games won at drives: 3." in response.content.decode(), page


def test_a_player_with_no_drive_sees_nothing_about_drives(client, winner):
    other = PlayerFactory(league=winner.league, name="Mary Byrne")
    for page in pages(other):
        body = client.get(page).content.decode()
        assert "Drives won" not in body and "games won at drives" not in body


def test_a_drive_counts_once_it_is_over_even_on_a_cached_page(client):
    drive = make_drive(0, games=2, places=1)
    player = PlayerFactory(league=drive.league, name="Nora Cronin")
    services.entry_add(drive=drive, name="Nora Cronin", partner_name="Sean Burke")
    services.entry_add(drive=drive, name="Y", partner_name="Z")
    services.drive_start(drive=drive)
    seat = Seat.objects.get(drive=drive, game=1, entry__player=player)
    services.result_record(drive=drive, game=1, table=seat.table, side=1 - seat.side)
    page = pages(player)[0]
    assert "Drives won" not in client.get(page).content.decode()  # playing: not yet
    services.game_next(drive=drive)
    drive.refresh_from_db()
    seat = Seat.objects.get(drive=drive, game=2, entry__player=player)
    services.result_record(drive=drive, game=2, table=seat.table, side=1 - seat.side)
    services.game_next(drive=drive)
    assert "Drives won: 0, games won at drives: 0." in client.get(page).content.decode()


def test_a_finished_drive_s_public_page_lists_its_winners(client, winner):
    drive = winner.league.drives.get()
    response = client.get(drive.get_absolute_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert "winners-heading" in body and "(3 wins)" in body
    assert "Nora Cronin &amp; Sean Burke" in body
    listed = client.get(reverse("drives:list", args=[drive.league.slug]))
    assert listed.status_code == 200 and drive.name in listed.content.decode()
    home = client.get(reverse("league:league", args=[drive.league.slug]))
    assert reverse("drives:list", args=[drive.league.slug]) in home.content.decode()


def test_a_drive_in_play_shows_no_winners_yet(client):
    drive = make_drive(2)
    services.drive_start(drive=drive)
    assert "winners-heading" not in client.get(drive.get_absolute_url()).content.decode()


def test_league_s_python_imports_nothing_from_drives():
    offenders = {}
    for path in (ROOT / "league").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            bad = [n for n in names if n == "drives" or n.startswith("drives.")]
            if bad:
                offenders[str(path.relative_to(ROOT))] = bad
    assert offenders == {}


def a_drive_of(player, *, won: bool):
    """A finished drive of two pairs in the player's league: the player's pair wins every
    game, or loses every game."""
    drive = services.drive_create(
        league=player.league,
        pub=PubFactory(league=player.league),
        name="Monday drive",
        date=datetime.date(2026, 10, 5),
        preset="progressive",
        games=2,
        places=1,
        jackpot=None,
    )
    services.entry_add(drive=drive, name=player.name, partner_name="Sean Burke")
    services.entry_add(drive=drive, name="Y", partner_name="Z")
    services.drive_start(drive=drive)
    while True:
        drive.refresh_from_db()
        seat = Seat.objects.get(drive=drive, game=drive.game, entry__player=player)
        side = seat.side if won else 1 - seat.side
        services.result_record(drive=drive, game=drive.game, table=seat.table, side=side)
        if services.game_next(drive=drive) is None:
            return drive


def test_a_player_s_drive_record_takes_the_same_queries_however_many_drives(winner):
    with CaptureQueriesContext(connection) as one:
        assert selectors.player_drive_record(winner) == {"drives": 1, "games_won": 3, "won": 1}
    a_drive_of(winner, won=True)
    a_drive_of(winner, won=False)
    with CaptureQueriesContext(connection) as three:
        assert selectors.player_drive_record(winner) == {"drives": 3, "games_won": 5, "won": 2}
    assert len(three) == len(one)


def test_a_drive_checked_into_but_never_played_is_not_a_drive_played(winner):
    """Found by a walk: a player checked in during a drive's last game, who never sat at a
    table, had it counted in their record's drives played."""
    drive = services.drive_create(
        league=winner.league,
        pub=PubFactory(league=winner.league),
        name="Friday drive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=1,
        places=1,
        jackpot=None,
    )
    services.entry_add(drive=drive, name="W", partner_name="X")
    services.entry_add(drive=drive, name="Y", partner_name="Z")
    services.drive_start(drive=drive)
    services.entry_add(drive=drive, name=winner.name, partner_name="Late Partner")
    services.result_record(drive=drive, game=1, table=1, side=0)
    assert services.game_next(drive=drive) is None  # finished
    assert selectors.player_drive_record(winner) == {"drives": 1, "games_won": 3, "won": 1}
