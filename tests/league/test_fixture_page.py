"""The fixture page tells a reader how the match went: games won so far, who won the
match once it is played, and why each game was won (a 25–25 game is not a draw)."""

import html

import pytest
from django.urls import reverse

from league.models import Fixture, SideResult
from tests.factories import win_game

pytestmark = pytest.mark.django_db


def _page(client, fixture) -> str:
    response = client.get(reverse("league:fixture", args=["clare", fixture.pk]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _teams(fixture):
    return [ft.team for ft in Fixture.objects.get(pk=fixture.pk).fixture_teams.all()]


def test_a_match_in_play_shows_the_games_won_so_far(client, world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=away, loser=home, fixture=fixture_at_pub)
    page = _page(client, fixture_at_pub)
    assert "Games won so far: Harbour Hearts 0 – Cronin's Jinkers 1" in page
    assert "won the match" not in page


def test_a_played_match_names_its_winner_and_the_games(client, world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    win_game(season=world.season, winner=away, loser=home, fixture=fixture_at_pub, number=2)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=3)
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "played"
    page = _page(client, fixture_at_pub)
    assert "Harbour Hearts won the match 2–1." in page
    assert "so far" not in page


def test_a_played_match_level_on_games_says_so(client, world, fixture_at_pub):
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(games_planned=2)
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    win_game(season=world.season, winner=away, loser=home, fixture=fixture_at_pub, number=2)
    page = _page(client, fixture_at_pub)
    assert "The match was level, 1–1." in page
    assert "won the match" not in page


def test_each_game_says_why_it_was_won(client, world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    game = win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    reason = SideResult.objects.get(game_id=game.pk, won=True).reason
    assert reason.startswith("Harbour Hearts reached 25")
    assert reason in _page(client, fixture_at_pub)


def test_no_result_line_before_a_game_is_finished(client, world, fixture_at_pub):
    page = _page(client, fixture_at_pub)
    assert "No games finished yet." in page
    assert "Games won" not in page and "the match" not in page


def test_where_only_confirmed_games_count_the_page_says_which_wait(client, world, fixture_at_pub):
    # The page said "won the match 2–1" while the table, counting only confirmed games,
    # gave neither team the fixture, and nothing said why.
    world.season.confirmed_only = True
    world.season.save()
    home, away = _teams(fixture_at_pub)
    first = win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub, number=2)
    SideResult.objects.filter(game_id=first.pk).update(confirmed=True)
    page = _page(client, fixture_at_pub)
    assert page.count("Not counted yet: waits for confirmation") == 1
    assert "Only confirmed games count in the table: 1 game waits for confirmation." in page


def test_where_every_game_counts_nothing_is_said_of_confirmation(client, world, fixture_at_pub):
    home, away = _teams(fixture_at_pub)
    win_game(season=world.season, winner=home, loser=away, fixture=fixture_at_pub)
    assert "confirmation" not in _page(client, fixture_at_pub)
