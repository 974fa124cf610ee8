"""The site's home lists its leagues, finds them by name, address, pub or town, and
says how to start one."""

import pytest
from django.urls import reverse

from tests.factories import LeagueFactory, PubFactory

pytestmark = pytest.mark.django_db


def test_one_league_is_listed_not_redirected_to_with_a_way_to_start_one(client):
    LeagueFactory(name="Clare League", slug="clare")
    response = client.get(reverse("league:home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Clare League" in page
    assert f'href="{reverse("league:signup")}"' in page and "Start a league" in page


def test_a_logged_in_person_starts_a_league_directly(client, world):
    client.force_login(world.organiser)
    page = client.get(reverse("league:home")).content.decode()
    assert f'href="{reverse("league:league-create")}"' in page


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("clare", ["Clare League"]),
        ("KERRY", ["Kerry League"]),
        ("kilrush", ["Clare League"]),
        ("harbour", ["Clare League"]),
        ("", ["Clare League", "Kerry League"]),
        ("nowhere", []),
        ("\x00clare\x07", ["Clare League"]),
        ("%", []),
    ],
)
def test_the_search_finds_leagues_by_name_address_pub_or_town(client, query, found):
    clare = LeagueFactory(name="Clare League", slug="clare")
    PubFactory(league=clare, name="The Harbour Bar", town="Kilrush")
    LeagueFactory(name="Kerry League", slug="kerry")
    response = client.get(reverse("league:home"), {"q": query})
    assert response.status_code == 200
    assert [league.name for league in response.context["leagues"]] == found


def test_the_home_costs_one_query(client, django_assert_num_queries):
    for n in range(3):
        league = LeagueFactory()
        PubFactory(league=league, town=f"Town {n}")
    with django_assert_num_queries(1):
        client.get(reverse("league:home"), {"q": "town"})


def test_two_leagues_of_one_name_are_told_apart_by_their_address(client):
    # A league imported from its own data file keeps its name: the home listed "Clare
    # League" twice, with nothing to say which was the copy.
    LeagueFactory(name="Clare League", slug="clare")
    LeagueFactory(name="Clare league", slug="clare-copy")
    LeagueFactory(name="Kerry League", slug="kerry")
    page = client.get(reverse("league:home")).content.decode()
    assert "/clare/ ·" in page and "/clare-copy/ ·" in page
    assert "/kerry/ ·" not in page  # a name of its own needs no address
