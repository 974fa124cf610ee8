"""The round-robin generator: every pair meets once (or twice), byes for odd counts,
one fixture a team a week, at the home team's pub, and never over results. With
divisions, a round-robin within each division (teams with no division make a group of
their own), every division's round N on the same night."""

import datetime
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django.asserts import assertTemplateUsed

from league.models import Fixture, FixtureTeam
from league.services import LeagueError, fixtures_generate, round_robin
from tests.factories import DivisionFactory, PubFactory, SeasonFactory, TeamFactory
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


def _seated(season):
    """Each generated fixture as (round, date, pub id, home team, away team)."""
    seats = {}
    for ft in FixtureTeam.objects.filter(fixture__season=season).select_related("fixture", "team"):
        seats.setdefault(ft.fixture, {})[ft.seat] = ft.team
    return [(f.round, f.date, f.pub_id, teams[0], teams[1]) for f, teams in seats.items()]


def _groups(world, *sizes, undivided=0):
    """Divisions of the given sizes (teams spread over three pubs), then `undivided`
    teams with no division: the groups of teams, divided first."""
    pubs = [world.pub, world.other_pub, PubFactory(league=world.league)]
    names = ["North", "South", "East", "West"]
    groups = []
    for name, size in zip(names, sizes, strict=False):
        division = DivisionFactory(season=world.season, name=name)
        groups.append(
            [
                TeamFactory(season=world.season, pub=pubs[i % 3], division=division)
                for i in range(size)
            ]
        )
    if undivided:
        groups.append([TeamFactory(season=world.season, pub=pubs[i % 3]) for i in range(undivided)])
    return groups


@pytest.mark.django_db
@pytest.mark.parametrize("double", [False, True])
def test_with_divisions_teams_play_only_their_own_division_on_shared_nights(world, double):
    north, south = _groups(world, 4, 3)
    fixtures = fixtures_generate(season=world.season, start=START, double=double)
    seated = _seated(world.season)
    times = 2 if double else 1
    assert len(fixtures) == len(seated) == (6 + 3) * times
    group_of = {team: n for n, group in enumerate([north, south]) for team in group}
    assert all(group_of[home] == group_of[away] for *_, home, away in seated)
    for group in (north, south):
        met = Counter(frozenset((home, away)) for *_, home, away in seated if home in group)
        assert met == {frozenset(pair): times for pair in combinations(group, 2)}
        if double:
            assert len({(home, away) for *_, home, away in seated if home in group}) == len(
                group
            ) * (len(group) - 1)
    # Round N of every division on the same night, week N; a team plays once a night.
    rounds = range(1, 3 * times + 1)
    for group in (north, south):
        assert {r for r, _, _, home, _ in seated if home in group} == set(rounds)
    assert all(date == START + datetime.timedelta(weeks=r - 1) for r, date, *_ in seated)
    per_night = Counter((team, date) for _, date, _, home, away in seated for team in (home, away))
    assert set(per_night.values()) == {1}
    assert all(pub == home.pub_id for _, _, pub, home, _ in seated)


@pytest.mark.django_db
def test_teams_with_no_division_play_one_another_alongside_the_divisions(world):
    north, undivided = _groups(world, 6, undivided=2)
    fixtures_generate(season=world.season, start=START)
    seated = _seated(world.season)
    assert len(seated) == 15 + 1
    assert all((home in north) == (away in north) for *_, home, away in seated)
    # The group of two meets on the first night and is done; the division plays on.
    assert [(r, {home, away}) for r, *_, home, away in seated if home in undivided] == [
        (1, set(undivided))
    ]
    assert {date for _, date, *_ in seated} == {
        START + datetime.timedelta(weeks=w) for w in range(5)
    }


@pytest.mark.django_db
def test_without_divisions_the_round_robin_is_the_whole_season_as_before(world):
    # A division nobody is in changes nothing.
    DivisionFactory(season=world.season, name="North")
    for i in range(5):
        TeamFactory(season=world.season, pub=[world.pub, world.other_pub][i % 2])
    teams = list(world.season.teams.all())
    fixtures_generate(season=world.season, start=START)
    expected = [
        (number, START + datetime.timedelta(weeks=number - 1), home.pub_id, home, away)
        for number, pairs in enumerate(round_robin(teams), start=1)
        for home, away in pairs
    ]
    assert _seated(world.season) == expected


@pytest.mark.django_db
def test_a_division_of_one_team_is_refused_with_its_name(world):
    _groups(world, 3, 1)
    before = snapshot()
    with pytest.raises(LeagueError, match="South has only one team"):
        fixtures_generate(season=world.season, start=START)
    assert snapshot() == before


@pytest.mark.django_db
def test_a_lone_team_with_no_division_beside_divisions_is_refused_by_name(world):
    _groups(world, 3)
    TeamFactory(season=world.season, pub=world.pub, name="Kilrush Kings")
    with pytest.raises(LeagueError, match="Kilrush Kings is in no division"):
        fixtures_generate(season=world.season, start=START)
    assert not Fixture.objects.exists()


@pytest.mark.django_db
def test_the_generate_page_says_fixtures_stay_within_each_division(client, world):
    client.force_login(world.secretary)
    response = client.get(reverse("league:manage-fixtures-generate", args=["clare", "winter"]))
    assert response.status_code == 200
    assertTemplateUsed(response, "league/fixtures_generate.html")
    assert "fixtures are made within each division" in response.content.decode()


@pytest.mark.django_db
def test_the_generator_costs_the_same_queries_for_a_big_league_as_a_small_one(world):
    # It wrote fixtures one at a time (2 queries each): a 60-team season's 1,770
    # fixtures took 3,540 round trips in one request.
    def queries(count):
        season = SeasonFactory(league=world.league)
        for _ in range(count):
            TeamFactory(season=season, pub=world.pub)
        with CaptureQueriesContext(connection) as captured:
            fixtures = fixtures_generate(season=season, start=START)
        assert len(fixtures) == count * (count - 1) // 2
        assert FixtureTeam.objects.filter(fixture__season=season).count() == 2 * len(fixtures)
        return len(captured)

    assert queries(4) == queries(12)
