"""Every list page costs the same number of queries however much it lists: counted at
two sizes of data."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.services import fixtures_generate
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def grow(world, star, size):
    """Add `size` teams (with their fixtures, some tonight), pubs with organisers, and
    a past season in which `star` played, so every list gets longer."""
    today = timezone.localdate()
    for n in range(size):
        pub = PubFactory(league=world.league)
        pub.organisers.add(UserFactory(), world.organiser)
        past = SeasonFactory(
            league=world.league, start_date=datetime.date(2020 - n, 1, 1), status="finished"
        )
        TeamFactory(season=past, pub=pub, players=[star])
        DivisionFactory(season=past)
    for n in range(size * 2):
        TeamFactory(season=world.season, pub=world.pub if n % 2 else world.other_pub)
    fixtures_generate(season=world.season, start=today)
    # Always at least one fixture tonight at the organiser's pub.
    FixtureFactory(
        season=world.season, pub=world.pub, date=today, teams=list(world.season.teams.all()[:2])
    )


def pages(world, star):
    team = star.teams.filter(season=world.season).first()
    fixture = world.season.fixtures.filter(pub=world.pub).first()
    return {
        "league": reverse("league:league", args=["clare"]),
        "seasons": reverse("league:seasons", args=["clare"]),
        "season": reverse("league:season", args=["clare", "winter"]),
        "pub": reverse("league:pub", args=["clare", world.pub.slug]),
        "player": reverse("league:player", args=["clare", star.pk]),
        "team": reverse("league:team", args=["clare", team.pk]),
        "fixture": reverse("league:fixture", args=["clare", fixture.pk]),
        "tonight": reverse("league:tonight", args=["clare"]),
        "manage": reverse("league:manage", args=["clare"]),
        "manage-season": reverse("league:manage-season", args=["clare", "winter"]),
        "organisers": reverse("league:manage-organisers", args=["clare"]),
        "team-create": reverse("league:manage-team-create", args=["clare", "winter"]),
        "fixture-edit": reverse("league:fixture-edit", args=["clare", fixture.pk]),
    }


def count(client, url) -> int:
    client.get(url)  # warm: the session and the caches
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


@pytest.mark.parametrize("role", ["secretary", "organiser", "anonymous"])
def test_each_list_page_costs_the_same_queries_at_two_sizes(client, world, role):
    from tests.factories import PlayerFactory

    star = PlayerFactory(league=world.league, name="Star")
    TeamFactory(season=world.season, pub=world.pub, players=[star])
    grow(world, star, 1)
    if role != "anonymous":
        client.force_login(getattr(world, role))
    urls = pages(world, star)
    if role != "secretary":
        urls = {
            k: v
            for k, v in urls.items()
            if k not in {"manage", "manage-season", "organisers", "team-create"}
        }
    if role == "anonymous":
        urls = {k: v for k, v in urls.items() if k not in {"tonight", "fixture-edit"}}
    small = {name: count(client, url) for name, url in urls.items()}
    grow(world, star, 4)
    large = {name: count(client, url) for name, url in pages(world, star).items() if name in urls}
    assert large == small
    assert world.season.fixtures.count() > 40
