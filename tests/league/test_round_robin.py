"""The round-robin generator: every pair meets once (or twice), byes for odd counts,
one fixture a team a week, at the home team's pub, and never over results."""

import datetime
from collections import Counter
from itertools import combinations

import pytest

from league.models import Fixture, FixtureTeam
from league.services import LeagueError, fixtures_generate, round_robin
from tests.factories import PubFactory, TeamFactory
from tests.league.conftest import snapshot

START = datetime.date(2026, 9, 7)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 8, 9])
def test_every_pair_meets_exactly_once_in_a_single_round(count):
    rounds = round_robin(list(range(count)))
    pairs = Counter(frozenset(pair) for r in rounds for pair in r)
    assert set(pairs) == {frozenset(p) for p in combinations(range(count), 2)}
    assert set(pairs.values()) == {1}


@pytest.mark.parametrize("count", [4, 5, 8])
def test_every_pair_meets_twice_home_and_away_in_a_double_round(count):
    rounds = round_robin(list(range(count)), double=True)
    ordered = Counter(pair for r in rounds for pair in r)
    assert set(ordered) == {p for a, b in combinations(range(count), 2) for p in ((a, b), (b, a))}
    assert set(ordered.values()) == {1}


@pytest.mark.parametrize("count", [3, 5, 7])
def test_an_odd_count_gives_each_team_one_bye(count):
    rounds = round_robin(list(range(count)))
    assert len(rounds) == count
    byes = Counter(
        team for r in rounds for team in range(count) if all(team not in pair for pair in r)
    )
    assert byes == Counter(range(count))


@pytest.mark.parametrize("count", [4, 6, 8])
def test_home_and_away_are_balanced_within_one(count):
    rounds = round_robin(list(range(count)))
    homes = Counter(home for r in rounds for home, _ in r)
    assert max(homes.values()) - min(homes.get(t, 0) for t in range(count)) <= 1


@pytest.mark.django_db
def test_fixtures_are_one_a_team_a_week_at_the_home_team_pub(world):
    pubs = [world.pub, world.other_pub, PubFactory(league=world.league)]
    teams = [TeamFactory(season=world.season, pub=pubs[i % 3]) for i in range(8)]
    fixtures = fixtures_generate(season=world.season, start=START, games_planned=3)
    assert len(fixtures) == 28
    seats = FixtureTeam.objects.filter(fixture__season=world.season).select_related("fixture")
    per_week = Counter((ft.team_id, ft.fixture.date) for ft in seats)
    assert set(per_week.values()) == {1}
    assert {f.date for f in fixtures} == {START + datetime.timedelta(weeks=w) for w in range(7)}
    for ft in seats.filter(seat=0).select_related("team"):
        assert ft.fixture.pub_id == ft.team.pub_id
    pairs = Counter(frozenset(f.fixture_teams.values_list("team_id", flat=True)) for f in fixtures)
    assert len(pairs) == 28 == len(list(combinations(teams, 2)))
    assert {f.games_planned for f in fixtures} == {3}


@pytest.mark.django_db
def test_a_double_round_gives_every_pair_two_fixtures_over_twice_the_weeks(world):
    for _ in range(5):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures = fixtures_generate(season=world.season, start=START, double=True)
    assert len(fixtures) == 20
    assert len({f.date for f in fixtures}) == 10


@pytest.mark.django_db
def test_generating_again_replaces_fixtures_without_results(world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    first = fixtures_generate(season=world.season, start=START)
    second = fixtures_generate(season=world.season, start=START + datetime.timedelta(days=1))
    assert Fixture.objects.filter(season=world.season).count() == 6
    assert not Fixture.objects.filter(pk__in=[f.pk for f in first]).exists()
    assert {f.date.weekday() for f in second} == {1}


@pytest.mark.django_db
def test_the_generator_refuses_to_run_over_results(world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures = fixtures_generate(season=world.season, start=START)
    Fixture.objects.filter(pk=fixtures[0].pk).update(status=Fixture.Status.PLAYED)
    before = snapshot()
    with pytest.raises(LeagueError, match="already has results"):
        fixtures_generate(season=world.season, start=START)
    assert snapshot() == before


@pytest.mark.django_db
def test_the_generator_refuses_to_run_over_a_game_in_play(world):
    from scoring.services import SideSpec, game_start

    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixture = fixtures_generate(season=world.season, start=START)[0]
    teams = [ft.team for ft in fixture.fixture_teams.all()]
    game_start(
        season=world.season,
        fixture=fixture,
        number=1,
        first_dealer=0,
        sides=[SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in teams],
    )
    before = snapshot()
    with pytest.raises(LeagueError, match="already has results"):
        fixtures_generate(season=world.season, start=START)
    assert snapshot() == before


@pytest.mark.django_db
def test_the_generator_needs_two_teams(world):
    TeamFactory(season=world.season, pub=world.pub)
    with pytest.raises(LeagueError, match="at least two teams"):
        fixtures_generate(season=world.season, start=START)
    assert not Fixture.objects.exists()
