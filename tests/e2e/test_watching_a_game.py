"""A game in play watched by a player with no account: its sheet brings itself up to date
every 20 s, and leaves the watcher where they were reading."""

import uuid

import pytest
from playwright.sync_api import expect

from scoring.services import deal_record
from tests.e2e.conftest import swapped
from tests.e2e.test_sheet import in_view
from tests.factories import PubFactory, SeasonFactory, TeamFactory, play_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_watchers_sheet_comes_up_to_date_and_leaves_them_where_they_were_reading(
    live_server, page, assert_accessible
):
    """Found by a walk: each 20 s look took a watcher reading the deals back up to the
    score, with a focus ring around it, whether or not anything had changed."""
    season = SeasonFactory(target=150)  # a long game: a list of deals to scroll down to
    pub = PubFactory(league=season.league)
    teams = [TeamFactory(season=season, pub=pub, name=n) for n in ("Hearts", "Robbers")]
    game = play_game(season=season, teams=teams, deals=[(2, 3), (3, 2)] * 5)
    page.clock.install()
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.locator(".deals li").last.scroll_into_view_if_needed()  # deal 10
    assert not in_view(page, ".scoreboard")

    deal_record(game=game, dealer=0, tricks=(4, 1), key=uuid.uuid4(), version=game.version)
    with swapped(page, game.get_absolute_url()):
        page.clock.fast_forward(21_000)

    expect(page.locator(".deals li")).to_have_count(11)
    assert in_view(page, ".deals li:nth-child(10)")  # the browser keeps it on the screen
    assert not in_view(page, ".scoreboard")
    assert page.evaluate("document.activeElement === document.body")
    assert_accessible(page)
