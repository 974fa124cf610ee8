"""A league's seasons, newest first, each with its dates, whether it is the current one
or closed, and its team table; and the links that lead there, so last season's final
table is never lost once a new season starts."""

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from league import services
from league.models import Season
from tests.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db

SEASONS_URL = "/clare/seasons/"


def card_of(html: str, name: str) -> str:
    """The list item that names season `name`."""
    cards = [card for card in html.split('<li class="card"')[1:] if f">{name}</a>" in card]
    assert len(cards) == 1, name
    return cards[0].split("</li>")[0]


@pytest.fixture
def seasons(world):
    """Winter closed and Spring 2027 created after it, as a secretary does; two older
    seasons that started the same day; and a season of another league."""
    services.season_close(season=world.season)
    spring = services.season_create(
        league=world.league, name="Spring 2027", start_date=datetime.date(2027, 3, 1)
    )
    summer = SeasonFactory(
        league=world.league,
        name="Summer 2026",
        slug="summer-2026",
        start_date=datetime.date(2026, 5, 4),
        end_date=datetime.date(2026, 8, 31),
        status=Season.Status.FINISHED,
    )
    cup = SeasonFactory(
        league=world.league,
        name="Summer Cup",
        slug="summer-cup",
        start_date=datetime.date(2026, 5, 4),
        status=Season.Status.FINISHED,
    )
    SeasonFactory(league=world.other_league, name="Kerry Winter", slug="winter")
    world.season.refresh_from_db()
    return [spring, world.season, cup, summer]


def test_the_seasons_page_lists_every_season_newest_first_with_its_links(client, seasons):
    response = client.get(reverse("league:seasons", args=["clare"]))
    assert response.status_code == 200
    assert "league/seasons.html" in [t.name for t in response.templates]
    assert list(response.context["seasons"]) == seasons
    html = response.content.decode()
    names = ["Spring 2027", "Winter", "Summer Cup", "Summer 2026"]
    assert [html.index(f">{name}</a>") for name in names] == sorted(
        html.index(f">{name}</a>") for name in names
    )
    assert "Kerry Winter" not in html
    for season in seasons:
        card = card_of(html, season.name)
        assert f'href="{season.get_absolute_url()}"' in card
        table = reverse("league:standings-teams", args=["clare", season.slug])
        assert f'href="{table}"' in card
    assert "Current season" in card_of(html, "Spring 2027")
    assert "Closed" in card_of(html, "Winter") and "Current" not in card_of(html, "Winter")
    assert "7 Sep 2026" in card_of(html, "Winter")
    assert "4 May 2026 – 31 Aug 2026" in card_of(html, "Summer 2026")


def test_a_running_season_is_the_current_one_though_a_later_one_is_planned(client, world):
    SeasonFactory(
        league=world.league,
        name="Spring 2027",
        slug="spring-2027",
        start_date=datetime.date(2027, 3, 1),
        status=Season.Status.PLANNING,
    )
    html = client.get(SEASONS_URL).content.decode()
    assert "Current season" in card_of(html, "Winter")
    assert "Current" not in card_of(html, "Spring 2027")
    assert "Planning" in card_of(html, "Spring 2027")


def test_a_league_without_seasons_says_so(client):
    LeagueFactory(slug="newcomers")
    response = client.get(reverse("league:seasons", args=["newcomers"]))
    assert response.status_code == 200
    assert "No seasons yet." in response.content.decode()


def test_the_seasons_of_an_unknown_league_are_not_found(client, world):
    assert client.get("/nowhere/seasons/").status_code == 404


def test_the_league_page_links_to_the_seasons_once_there_is_a_second(client, world):
    assert f'href="{SEASONS_URL}"' not in client.get("/clare/").content.decode()
    services.season_close(season=world.season)
    services.season_create(
        league=world.league, name="Spring 2027", start_date=datetime.date(2027, 3, 1)
    )
    html = client.get("/clare/").content.decode()
    assert f'href="{SEASONS_URL}"' in html
    assert "All seasons" in html


def test_the_season_page_and_the_standings_tabs_lead_to_the_other_seasons(client, seasons):
    winter = seasons[1]
    for url in (
        winter.get_absolute_url(),
        reverse("league:standings-teams", args=["clare", winter.slug]),
        reverse("league:standings-players", args=["clare", winter.slug]),
        reverse("league:all-time-teams", args=["clare"]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'href="{SEASONS_URL}"' in response.content.decode(), url


def test_the_seasons_page_costs_the_same_few_queries_for_two_seasons_or_twelve(
    client, world, django_assert_num_queries
):
    SeasonFactory(league=world.league, start_date=datetime.date(2025, 9, 1))
    # The page's version (config/page_cache.py), the league, its seasons, the current one.
    with django_assert_num_queries(4):
        assert client.get(SEASONS_URL).status_code == 200
    for year in range(2015, 2025):
        SeasonFactory(league=world.league, start_date=datetime.date(year, 9, 1))
    cache.clear()  # seasons made by the factory do not move the page's version
    with django_assert_num_queries(4):
        response = client.get(SEASONS_URL)
    assert len(response.context["seasons"]) == 12


def test_a_season_set_running_before_it_starts_waits_for_its_first_day(client, world):
    # A secretary readying next season set it to Running (as its page advises): the home
    # page, the pubs' screens and the header went to it, tonight's matches and all.
    start = timezone.localdate() + datetime.timedelta(days=30)
    spring = SeasonFactory(
        league=world.league, name="Spring", slug="spring", start_date=start, status="running"
    )
    assert world.league.seasons.current() == world.season
    assert "Current season" in card_of(client.get(SEASONS_URL).content.decode(), "Winter")

    world.season.status = Season.Status.FINISHED  # the one being played is closed
    world.season.save()
    assert world.league.seasons.current() == spring
