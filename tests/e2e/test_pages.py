"""The public pages open on a phone, read right and pass axe's WCAG 2.2 AA rules."""

import datetime

import pytest
from django.urls import reverse

from league import services
from league.models import Fixture, League
from scoring.demo import load_demo
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo()


def test_the_home_page_shows_the_league_name(demo, live_server, page, assert_accessible):
    page.goto(live_server.url)
    page.wait_for_load_state()
    assert_accessible(page)  # the site's list of leagues
    page.get_by_role("main").get_by_role("link", name="Clare Twenty-Five League").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == "Clare Twenty-Five League"
    assert page.get_by_role("link", name="Clare Twenty-Five League").is_visible()
    assert_accessible(page)


def test_the_demo_season_page_lists_teams_and_results(demo, live_server, page, assert_accessible):
    page.goto(live_server.url)
    page.get_by_role("main").get_by_role("link", name="Clare Twenty-Five League").click()
    page.get_by_role("heading", level=2).get_by_role("link").first.click()
    page.wait_for_load_state()
    assert page.get_by_text("Harbour Hearts").first.is_visible()
    assert "Clare Twenty-Five League" in page.locator("header").inner_text()
    assert_accessible(page)
    # Nothing is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_last_season_s_table_is_found_from_the_league_page_after_a_new_season_starts(
    demo, live_server, page, assert_accessible
):
    league = League.objects.get()
    old = league.seasons.current()
    services.season_close(season=old)
    services.season_create(league=league, name="Spring 2027", start_date=datetime.date(2027, 3, 1))
    page.goto(f"{live_server.url}{league.get_absolute_url()}")
    assert_accessible(page)
    page.get_by_role("link", name="All seasons").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == "Seasons"
    listed = page.get_by_role("main")  # the header links to the current season too
    assert listed.get_by_role("link", name="Spring 2027", exact=True).is_visible()
    assert listed.get_by_role("link", name=old.name, exact=True).is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)
    page.get_by_role("link", name=f"Team table of {old.name}").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text().startswith(old.name)


def test_a_played_fixture_says_who_won_the_match_and_each_game_why(
    demo, live_server, page, assert_accessible
):
    fixture = Fixture.objects.filter(status="played").order_by("date", "pk").first()
    page.goto(live_server.url + reverse("league:fixture", args=["clare", fixture.pk]))
    page.wait_for_load_state()
    result = page.locator(".match-result").inner_text()
    assert " won the match " in result or result.startswith("The match was level")
    assert "reached 25" in page.locator("#fixture-games").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=ARTIFACTS / "fixture-played-phone.png", full_page=True)
    assert_accessible(page)


def test_the_skip_link_jumps_to_the_content(demo, live_server, page):
    page.goto(live_server.url)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    assert skip.evaluate("el => el === document.activeElement")
    skip.press("Enter")
    assert page.url.endswith("#main")


def test_a_button_s_address_opened_as_a_page_reads_well(demo, live_server, page, assert_accessible):
    from scoring.models import Game

    game = Game.objects.first()
    response = page.goto(live_server.url + reverse("scoring:deal-record", args=[game.pk]))
    assert response.status == 405
    assert page.get_by_role("heading", level=1).inner_text() == "This address is for a button"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)


def test_a_long_name_with_no_spaces_does_not_widen_the_public_pages(
    demo, live_server, page, assert_accessible
):
    """Found by a walk: a 100-letter team name made the home and season pages scroll
    sideways on a phone."""
    from league.models import Team

    team = Team.objects.order_by("pk").first()
    players = list(team.players.values_list("name", flat=True))
    services.team_update(team=team, name="Harbour" * 14 + "Ha", pub=team.pub, player_names=players)
    services.pub_update(pub=team.pub, name="Cronins" * 14 + "Cr")
    league = League.objects.get()
    pages = [
        league.get_absolute_url(),
        league.seasons.current().get_absolute_url(),
        team.get_absolute_url(),
        team.pub.get_absolute_url(),
        team.fixtures.filter(status="played").first().get_absolute_url(),
    ]
    wide = {}
    for url in pages:
        page.goto(live_server.url + url)
        page.wait_for_load_state()
        wide[url] = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=ARTIFACTS / "long-name-team.png", full_page=True)
    assert all(width <= 390 for width in wide.values()), wide
