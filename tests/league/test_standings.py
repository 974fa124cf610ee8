"""Standings are derived from the result rows (one per side per finished game), which
scoring/ writes through `league.results` in the deal's own transaction; every table
equals a recount of the raw deals (`bench.recount`)."""

import threading
import uuid
from collections import Counter, defaultdict

import pytest
from django.db import connection
from django.db.models import F
from django.db.models.functions import Coalesce
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bench.recount import kept, recount
from league import services as league_services
from league import standings
from league.models import Season, SideResult, Team
from league.ranking import Pair, Totals, rank_teams
from scoring.demo import load_demo
from scoring.models import Game
from scoring.services import (
    ScoringError,
    SideSpec,
    deal_correct,
    deal_record,
    deal_undo,
    game_confirm,
    game_start,
    season_results_rebuild,
)
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    play_game,
    win_game,
)


def team_row(season, team) -> dict:
    return next(row for row in standings.team_rows(season) if row["id"] == team.pk)


def counts(row) -> dict:
    return {name: row[name] for name in standings.COUNT_FIELDS}


@pytest.mark.django_db
def test_a_finished_game_counts_for_both_teams_their_players_and_pubs():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    win_game(season=season, winner=home, loser=away)
    assert counts(team_row(season, home)) == {
        "played": 1,
        "won": 1,
        "lost": 0,
        "shutout_wins": 0,
        "points_for": 35,
        "points_against": 15,
        "marches": 0,
    }
    row = team_row(season, away)
    assert (row["played"], row["won"], row["lost"], row["points_for"]) == (1, 0, 1, 15)
    ranked, others = standings.player_rows(season)  # below the minimum games: unranked
    played_won = sorted((r["played"], r["won"]) for r in ranked + others)
    assert played_won == [(1, 0), (1, 0), (1, 1), (1, 1)]
    pubs = {r["id"]: r for r in standings.pub_rows(season)}
    assert pubs[home.pub_id]["won"] == 1
    assert SideResult.objects.count() == 2
    assert kept(season) == recount(season)


@pytest.mark.django_db
def test_the_team_tables_written_out_read_is_the_models_own():
    # The team table's one statement is written out for speed; the ORM's reading of the
    # same models is the reference: each division, teams without one, a team with no
    # kept row yet, and another season's team left out.
    season = SeasonFactory()
    north, south = DivisionFactory(season=season), DivisionFactory(season=season)
    a, b = TeamFactory(season=season, division=north), TeamFactory(season=season, division=north)
    c = TeamFactory(season=season, division=south)
    TeamFactory(season=season)  # no division, no games: no kept row
    TeamFactory(season=SeasonFactory(league=season.league))
    win_game(season=season, winner=a, loser=b)
    win_game(season=season, winner=c, loser=a, shutout=True)
    kept = {
        name: Coalesce(F(f"standing__{name}"), 0)
        for name in ("played", "won", "shutout_wins", "points_for", "points_against")
    }
    kept["lost"] = Coalesce(F("standing__played") - F("standing__won"), 0)
    kept |= {name: Coalesce(F(f"standing__{name}"), 0) for name in ("marches", "fixtures_won")}
    fields = ["pk", "name", *Totals._fields[2:], "pub_id", "pub__name", "division__name"]

    def by_orm(**division):
        teams = Team.objects.filter(season=season, **division).annotate(**kept)
        return list(teams.values_list(*fields))

    # In no order: the ranking orders them.
    assert sorted(standings.kept_team_rows(season)) == sorted(by_orm())
    assert len(by_orm()) == 4
    for division in (north, south):
        in_division = standings.kept_team_rows(season, division_id=division.pk)
        assert sorted(in_division) == sorted(by_orm(division=division))


@pytest.mark.django_db
def test_head_to_head_reads_only_teams_level_before_it_in_one_division(
    django_assert_num_queries,
):
    # Four teams on 2 league points each (a win and a loss). North's a and b met; c met
    # only d, in another division: head-to-head ranks within a division, so only a and
    # b's pairs are read.
    season = SeasonFactory()
    north, south = DivisionFactory(season=season), DivisionFactory(season=season)
    a, b, c = (TeamFactory(season=season, division=north) for _ in range(3))
    d = TeamFactory(season=season, division=south)
    for winner, loser in ((a, b), (b, a), (c, d), (d, c)):
        win_game(season=season, winner=winner, loser=loser)
    met_once_each = Pair(won=1, lost=1, shutout_wins=0)

    with django_assert_num_queries(1):
        pairs = standings.head_to_head(season)

    assert pairs == {(a.pk, b.pk): met_once_each, (b.pk, a.pk): met_once_each}
    assert standings.head_to_head(season, division_id=south.pk) == {}
    # A shutout more for a, and points for first: a (75) stands alone; b and c (50 each)
    # are level but never met.
    win_game(season=season, winner=a, loser=b, shutout=True)
    season.tiebreaks = ["points_for", "head_to_head", "points", "difference", "marches"]
    assert standings.head_to_head(season) == {}
    # Head-to-head first: every two teams of a division that met.
    season.tiebreaks = ["head_to_head", "points", "difference", "points_for", "marches"]
    assert standings.head_to_head(season) == {
        (a.pk, b.pk): Pair(won=2, lost=1, shutout_wins=1),
        (b.pk, a.pk): Pair(won=1, lost=2, shutout_wins=0),
    }
    # No head-to-head in the order: nothing to read.
    season.tiebreaks = ["points", "difference"]
    with django_assert_num_queries(0):
        assert standings.head_to_head(season) == {}


def test_the_database_can_work_out_every_tie_break_before_head_to_head():
    # head_to_head finds the teams level in SQL: a key added to the season's choices
    # needs its SQL too, or the table of a season ordered by it could not be drawn.
    assert set(standings.LEVEL_KEYS) == set(Season.TIEBREAKS) - {"head_to_head"}


@pytest.mark.django_db
def test_a_game_in_play_has_no_result_rows():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    play_game(season=season, teams=[home, away], deals=[(3, 2)])
    assert not SideResult.objects.exists()
    assert team_row(season, home)["played"] == 0


@pytest.mark.django_db
def test_a_march_and_a_shutout_are_counted():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    win_game(season=season, winner=home, loser=away, shutout=True)
    row = team_row(season, home)
    assert (row["marches"], row["shutout_wins"], row["points_for"], row["points_against"]) == (
        1,
        1,
        25,
        0,
    )


@pytest.mark.django_db
def test_undo_takes_a_finished_game_out_and_a_correction_changes_its_winner():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    game = win_game(season=season, winner=home, loser=away)
    deal_correct(
        game=game, number=2, dealer=1, tricks=[0, 5], key=uuid.uuid4(), version=game.version
    )
    assert (team_row(season, home)["won"], team_row(season, away)["won"]) == (0, 1)
    game.refresh_from_db()
    deal_undo(game=game, version=game.version)
    assert not SideResult.objects.exists()
    assert team_row(season, home)["played"] == 0
    assert kept(season) == recount(season)


@pytest.mark.django_db
def test_only_confirmed_games_count_when_the_season_says_so():
    season = SeasonFactory(confirmed_only=True)
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    game = win_game(season=season, winner=home, loser=away)
    assert team_row(season, home)["played"] == 0
    game_confirm(game=game)
    assert team_row(season, home)["won"] == 1
    season.confirmed_only = False
    season.save()
    win_game(season=season, winner=away, loser=home)
    assert (team_row(season, home)["played"], team_row(season, away)["won"]) == (2, 1)
    assert kept(season) == recount(season)


@pytest.mark.django_db
def test_fixtures_won_counts_the_team_that_won_more_games_of_the_fixture():
    season = SeasonFactory()
    fixture = FixtureFactory(season=season)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture, number=1)
    win_game(season=season, winner=away, loser=home, fixture=fixture, number=2)
    assert standings.fixtures_won(season) == {}
    win_game(season=season, winner=away, loser=home, fixture=fixture, number=3)
    assert standings.fixtures_won(season) == {away.pk: 1}
    fixture.refresh_from_db()
    assert (fixture.games_started, fixture.games_finished) == (3, 3)


@pytest.mark.django_db
def test_a_fixture_counts_as_won_once_it_is_played_not_while_it_is_in_play():
    # 1-0 up after game 1 of 3, the table already said "Fixtures won 4" (3 before), and
    # would have taken it back had they lost the match.
    season = SeasonFactory()
    fixture = FixtureFactory(season=season, games_planned=3)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture, number=1)
    win_game(season=season, winner=home, loser=away, fixture=fixture, number=2)
    assert standings.fixtures_won(season) == {}
    assert team_row(season, home)["fixtures_won"] == 0
    win_game(season=season, winner=away, loser=home, fixture=fixture, number=3)
    assert standings.fixtures_won(season) == {home.pk: 1}
    assert team_row(season, home)["fixtures_won"] == 1


@pytest.mark.django_db
def test_a_played_fixture_given_more_games_is_no_longer_counted_as_won():
    # The secretary plans two more games: the fixture is in play again, and its kept
    # rows say so at once (no drift until its next game).
    season = SeasonFactory()
    fixture = FixtureFactory(season=season, games_planned=1)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture, number=1)
    assert team_row(season, home)["fixtures_won"] == 1
    fixture.refresh_from_db()
    league_services.fixture_update(
        fixture=fixture, date=fixture.date, status="scheduled", games_planned=3
    )
    assert team_row(season, home)["fixtures_won"] == 0
    league_services.fixture_update(
        fixture=fixture, date=fixture.date, status="played", games_planned=1
    )
    assert team_row(season, home)["fixtures_won"] == 1


@pytest.mark.django_db
def test_a_played_fixture_reopened_by_its_next_game_is_no_longer_counted_as_won():
    # Found by a walk: the secretary planned 5 games of a played match and left it
    # played; game 4's start put it back in play, but the table kept "Fixtures won 3"
    # (2 by a recount) until a game of the match was finished.
    from scoring.services import game_next

    season = SeasonFactory()
    fixture = FixtureFactory(season=season, games_planned=1)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture, number=1)
    fixture.refresh_from_db()
    league_services.fixture_update(
        fixture=fixture, date=fixture.date, status="played", games_planned=3
    )
    assert team_row(season, home)["fixtures_won"] == 1
    game_next(fixture=fixture, number=2, first_dealer=0)
    fixture.refresh_from_db()
    assert fixture.state_display == "In play"
    assert team_row(season, home)["fixtures_won"] == 0
    assert kept(season) == recount(season)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)
@pytest.mark.django_db(transaction=True)
def test_two_games_finished_at_once_both_count():
    """Each game writes only its own result rows: two games finishing at the same
    moment never lose one another."""
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    games = [play_game(season=season, teams=[home, away], deals=[(4, 1)]) for _ in range(2)]
    barrier = threading.Barrier(2)

    def finish(game):
        try:
            barrier.wait(timeout=10)
            deal_record(game=game, dealer=1, tricks=[3, 2], key=uuid.uuid4(), version=game.version)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert team_row(season, home)["won"] == 2
    assert kept(season) == recount(season)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)
@pytest.mark.django_db(transaction=True)
def test_control_without_the_teams_lock_two_games_finished_at_once_go_wrong(monkeypatch):
    """The negative control: the same two games with the kept rows' lock switched off in
    the app's own code path. Each transaction counts without the other's game: one
    overwrites the other's count, or (the kept row being one per team) fails and its
    deal is refused."""
    from league import standings as standings_module

    def unlocked(teams):
        ids = list(teams.order_by("pk").values_list("pk", flat=True))
        barrier.wait(timeout=10)  # both count before either commits
        return ids

    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    games = [play_game(season=season, teams=[home, away], deals=[(4, 1)]) for _ in range(2)]
    barrier = threading.Barrier(2)
    monkeypatch.setattr(standings_module, "lock_teams", unlocked)
    outcomes = []

    def finish(game):
        try:
            deal_record(game=game, dealer=1, tricks=[3, 2], key=uuid.uuid4(), version=game.version)
            outcomes.append("saved")
        except ScoringError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    refused = outcomes.count("refused")
    assert refused == 1 or kept(season) != recount(season)  # the defect, one way or the other


@pytest.mark.django_db
def test_a_repair_from_the_games_gives_the_same_rows():
    season = SeasonFactory()
    fixture = FixtureFactory(season=season)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture)
    win_game(season=season, winner=away, loser=home, fixture=fixture, number=2, shutout=True)
    before = sorted(SideResult.objects.values_list("game_id", "side", "points_for", "won"))
    SideResult.objects.filter(season=season).update(points_for=0)  # damaged by hand

    season_results_rebuild(season=season)

    after = sorted(SideResult.objects.values_list("game_id", "side", "points_for", "won"))
    assert after == before
    assert kept(season) == recount(season)


def reference_ranking(season, reference):
    """The team table ranked from the recount, head-to-head from the games as stored."""

    teams = list(season.teams.order_by("pk"))
    totals = [Totals(id=t.pk, name=t.name, **reference.get(("team", t.pk), {})) for t in teams]
    placed = rank_teams(
        totals,
        order=season.tiebreak_order,
        points=standings.season_points(season),
        pairs={key: Pair(**counts) for (kind, key), counts in reference.items() if kind == "pair"},
    )
    # A team yet to play has no tie-break note: its counts are all 0.
    return [
        (p.position_label, p.totals.name, p.league_points, p.note if p.totals.played else "")
        for p in placed
    ]


splits = st.lists(st.integers(0, 5), min_size=1, max_size=5)
ACTIONS = ["none", "confirm", "undo", "correct"]
game_plans = st.lists(
    st.tuples(
        st.integers(0, 3), st.integers(1, 3), splits, st.booleans(), st.sampled_from(ACTIONS)
    ),
    min_size=1,
    max_size=8,
)


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    plans=game_plans,
    confirmed_only=st.booleans(),
    tiebreaks=st.permutations(Season.DEFAULT_TIEBREAKS),
)
def test_the_tables_and_ranking_equal_a_recount_from_scratch(plans, confirmed_only, tiebreaks):
    league = LeagueFactory()
    season = SeasonFactory(league=league, confirmed_only=confirmed_only, tiebreaks=tiebreaks)
    pubs = [PubFactory(league=league) for _ in range(2)]
    teams = [TeamFactory(season=season, pub=pubs[i % 2]) for i in range(4)]
    fixtures, numbers = {}, Counter()
    for home_index, offset, tricks, in_fixture, action in plans:
        home, away = teams[home_index], teams[(home_index + offset) % 4]
        fixture = None
        if in_fixture:
            pair = (home.pk, away.pk)
            if pair not in fixtures:
                fixtures[pair] = FixtureFactory(season=season, pub=home.pub, teams=[home, away])
            fixture = fixtures[pair]
            numbers[pair] += 1
        game = game_start(
            season=season,
            fixture=fixture,
            number=numbers[(home.pk, away.pk)] if fixture else 1,
            pub=home.pub,
            sides=[
                SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in (home, away)
            ],
        )
        dealer = 0
        for first in tricks:
            if game.winner is not None:
                break
            deal_record(
                game=game,
                dealer=dealer,
                tricks=[first, 5 - first],
                key=uuid.uuid4(),
                version=game.version,
            )
            game.refresh_from_db()
            dealer = 1 - dealer
        try:
            if action == "confirm" and game.winner is not None:
                game_confirm(game=game)
            elif action == "undo" and game.version > 1:
                deal_undo(game=game, version=game.version)
            elif action == "correct" and game.version > 1:
                first = game.deals.live().order_by("number").first()
                deal_correct(
                    game=game,
                    number=1,
                    dealer=first.dealer,
                    tricks=list(reversed(first.trick_counts)),
                    key=uuid.uuid4(),
                    version=game.version,
                    reason="swapped",
                )
        except (ScoringError, rules.InvalidDeal):
            pass  # refused by the table sheet: nothing changed
    reference = recount(season)
    assert kept(season) == reference
    page = [
        (r["position_label"], r["name"], r["league_points"], r["note"])
        for r in standings.team_rows(season)
    ]
    assert page == reference_ranking(season, reference)


@pytest.mark.django_db
def test_the_demo_team_table_matches_a_count_of_its_games():
    load_demo()
    season = Season.objects.get(league__slug="clare")
    rows = {row["name"]: row for row in standings.team_rows(season)}
    assert len(rows) == 8
    finished = Game.objects.filter(season=season, status=Game.Status.FINISHED).prefetch_related(
        "game_sides"
    )
    by_hand = defaultdict(Counter)
    for game in finished:
        for side in game.game_sides.all():
            by_hand[side.label]["played"] += 1
            by_hand[side.label]["won"] += game.winner == side.index
            by_hand[side.label]["points_for"] += game.scores[side.index]
    for name, row in rows.items():
        assert row["played"] == by_hand[name]["played"]
        assert row["won"] == by_hand[name]["won"]
        assert row["points_for"] == by_hand[name]["points_for"]
        assert row["league_points"] >= 2 * row["won"]
    assert sum(row["played"] for row in rows.values()) == 2 * 42
    assert sum(row["won"] for row in rows.values()) == 42
    positions = [row["position"] for row in standings.team_rows(season)]
    assert positions == sorted(positions) and positions[0] == 1


@pytest.mark.django_db
def test_a_repair_of_the_demo_season_changes_nothing_but_the_version(
    django_assert_max_num_queries,
):
    load_demo()
    season = Season.objects.get()
    before = kept(season)
    assert before == recount(season)
    version = season.league.content_version
    with django_assert_max_num_queries(22):
        season_results_rebuild(season=season)
    assert kept(season) == before
    season.league.refresh_from_db()
    assert season.league.content_version == version + 1
