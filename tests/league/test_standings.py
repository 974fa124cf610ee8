"""The kept standings rows follow every counted game, in the same transaction, and
match a from-scratch count of the games."""

import threading
import uuid
from collections import Counter, defaultdict
from itertools import permutations

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from league import standings
from league.models import (
    PartnerSeasonRow,
    PlayerSeasonRow,
    PubSeasonRow,
    Season,
    TeamFixtureRow,
    TeamPairRow,
    TeamSeasonRow,
)
from league.ranking import Pair, Totals, rank_teams
from scoring.demo import load_demo
from scoring.models import Confirmation, Game
from scoring.outcome import game_outcome
from scoring.services import (
    ScoringError,
    SideSpec,
    deal_correct,
    deal_record,
    deal_undo,
    game_confirm,
    game_start,
    season_standings_rebuild,
)
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    play_game,
    win_game,
)

COUNTS = standings.COUNT_FIELDS


def counts(row):
    return {name: getattr(row, name) for name in COUNTS}


@pytest.mark.django_db
def test_a_finished_game_adds_to_both_teams_players_pubs_and_the_pair():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    win_game(season=season, winner=home, loser=away)
    assert counts(home.standing) == {
        "played": 1,
        "won": 1,
        "lost": 0,
        "shutout_wins": 0,
        "points_for": 35,
        "points_against": 15,
        "marches": 0,
    }
    away_row = TeamSeasonRow.objects.get(team=away)
    assert (away_row.played, away_row.won, away_row.lost, away_row.points_for) == (1, 0, 1, 15)
    pair = TeamPairRow.objects.get(team=home, opponent=away)
    assert (pair.played, pair.won) == (1, 1)
    for player in home.players.all():
        row = PlayerSeasonRow.objects.get(season=season, player=player)
        assert (row.played, row.won) == (1, 1)
    assert PartnerSeasonRow.objects.filter(season=season, won=1).count() == 2
    assert PubSeasonRow.objects.get(season=season, pub=home.pub).won == 1


@pytest.mark.django_db
def test_a_game_in_play_counts_for_nothing():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    play_game(season=season, teams=[home, away], deals=[(3, 2)])
    assert not TeamSeasonRow.objects.exists()
    assert not PlayerSeasonRow.objects.exists()


@pytest.mark.django_db
def test_a_march_and_a_shutout_are_counted():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    win_game(season=season, winner=home, loser=away, shutout=True)
    row = TeamSeasonRow.objects.get(team=home)
    assert (row.marches, row.shutout_wins, row.points_for, row.points_against) == (1, 1, 25, 0)


@pytest.mark.django_db
def test_a_changed_outcome_is_taken_out_and_the_new_one_put_in():
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    game = win_game(season=season, winner=home, loser=away)
    before = game_outcome(game)
    # As a correction would: the same game, now won by the away side.
    game.scores, game.winner = [15, 35], 1
    game.save()
    standings.standings_game_changed(before=before, after=game_outcome(game))
    assert (TeamSeasonRow.objects.get(team=home).won, TeamSeasonRow.objects.get(team=away).won) == (
        0,
        1,
    )
    assert TeamSeasonRow.objects.get(team=home).played == 1
    # Taken out altogether (undone): every count back to zero.
    standings.standings_game_changed(before=game_outcome(game), after=None)
    assert set(TeamSeasonRow.objects.values_list("played", "won", "points_for")) == {(0, 0, 0)}
    assert set(TeamPairRow.objects.values_list("played", flat=True)) == {0}


@pytest.mark.django_db
def test_only_confirmed_games_count_when_the_season_says_so():
    season = SeasonFactory(confirmed_only=True)
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    game = win_game(season=season, winner=home, loser=away)
    assert not TeamSeasonRow.objects.filter(played__gt=0).exists()
    before = game_outcome(game)
    Confirmation.objects.create(game=game)
    standings.standings_game_changed(before=before, after=game_outcome(game))
    assert TeamSeasonRow.objects.get(team=home).won == 1


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
    row = TeamFixtureRow.objects.get(fixture=fixture, team=away)
    assert (row.played, row.won, row.round) == (3, 2, fixture.round)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)
@pytest.mark.django_db(transaction=True)
def test_two_games_saved_at_once_both_land_in_the_rows():
    """F() updates: two transactions adding to the same rows never lose one another."""
    season = SeasonFactory()
    home, away = TeamFactory(season=season), TeamFactory(season=season)
    games = [win_game(season=season, winner=home, loser=away) for _ in range(2)]
    outcomes = [game_outcome(g) for g in games]
    TeamSeasonRow.objects.all().delete()
    TeamPairRow.objects.all().delete()
    barrier = threading.Barrier(2)

    def add(outcome):
        try:
            with transaction.atomic():
                barrier.wait(timeout=10)
                standings.standings_game_changed(before=None, after=outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(o,)) for o in outcomes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert TeamSeasonRow.objects.get(team=home).won == 2
    assert TeamPairRow.objects.get(team=away, opponent=home).lost == 2


@pytest.mark.django_db
def test_a_rebuild_from_the_games_outcomes_gives_the_same_rows():
    season = SeasonFactory()
    fixture = FixtureFactory(season=season)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture)
    win_game(season=season, winner=away, loser=home, fixture=fixture, number=2, shutout=True)
    kept = kept_rows(season)
    season.confirmed_only = True
    season.save()
    games = Game.objects.filter(season=season)
    standings.standings_season_rebuild(
        season_id=season.pk, outcomes=[game_outcome(g) for g in games]
    )
    assert kept_rows(season) == {}
    season.confirmed_only = False
    season.save()
    games = Game.objects.filter(season=season)
    standings.standings_season_rebuild(
        season_id=season.pk, outcomes=[game_outcome(g) for g in games]
    )
    assert kept_rows(season) == kept


# A from-scratch reference: count the stored games in plain Python.


def reference_rows(season) -> dict:
    rows = defaultdict(Counter)
    games = (
        Game.objects.filter(season=season, status=Game.Status.FINISHED)
        .prefetch_related("game_sides__players", "game_sides__team", "deals")
        .select_related("fixture")
    )
    for game in games:
        if season.confirmed_only and not Confirmation.objects.filter(game=game).exists():
            continue
        sides = list(game.game_sides.all())
        live = [d for d in game.deals.all() if d.live]
        for side in sides:
            mine = game.scores[side.index]
            c = Counter(
                played=1,
                won=int(game.winner == side.index),
                lost=int(game.winner != side.index),
                shutout_wins=int(game.winner == side.index and game.shutout),
                points_for=mine,
                points_against=sum(game.scores) - mine,
                marches=sum(1 for d in live if d.tricks[side.index] == "5"),
            )
            players = [p.pk for p in side.players.all()]
            rows[("team", side.team_id)].update(c)
            rows[("pub", side.team.pub_id)].update(c)
            if game.fixture_id:
                rows[("fixture", game.fixture_id, side.team_id)].update(c)
            for p in players:
                rows[("player", p)].update(c)
            for p, q in permutations(players, 2):
                rows[("partner", p, q)].update(c)
            for other in sides:
                if other is not side:
                    pair = Counter(c)
                    pair["points_against"] = game.scores[other.index]
                    rows[("pair", side.team_id, other.team_id)].update(pair)
    return {key: {n: value[n] for n in COUNTS} for key, value in rows.items()}


def kept_rows(season) -> dict:
    kept = {}
    sources = [
        (TeamSeasonRow, lambda r: ("team", r.team_id)),
        (PubSeasonRow, lambda r: ("pub", r.pub_id)),
        (TeamFixtureRow, lambda r: ("fixture", r.fixture_id, r.team_id)),
        (PlayerSeasonRow, lambda r: ("player", r.player_id)),
        (PartnerSeasonRow, lambda r: ("partner", r.player_id, r.partner_id)),
        (TeamPairRow, lambda r: ("pair", r.team_id, r.opponent_id)),
    ]
    for model, key in sources:
        for row in model.objects.filter(season=season):
            if row.played:
                kept[key(row)] = counts(row)
    return kept


def reference_ranking(season, reference):
    teams = list(season.teams.order_by("pk"))
    totals = [Totals(id=t.pk, name=t.name, **reference.get(("team", t.pk), {})) for t in teams]
    pairs = {
        (key[1], key[2]): Pair(won=c["won"], lost=c["lost"], shutout_wins=c["shutout_wins"])
        for key, c in reference.items()
        if key[0] == "pair"
    }
    placed = rank_teams(
        totals, order=season.tiebreak_order, points=standings.season_points(season), pairs=pairs
    )
    return [(p.position_label, p.totals.name, p.league_points, p.note) for p in placed]


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
def test_kept_rows_and_ranking_equal_a_recount_from_scratch(plans, confirmed_only, tiebreaks):
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
                )
        except (ScoringError, rules.InvalidDeal):
            pass  # refused by the table sheet: nothing changed
    reference = reference_rows(season)
    assert kept_rows(season) == reference
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
def test_a_full_recount_of_the_demo_season_gives_the_kept_rows_in_a_few_queries(
    django_assert_max_num_queries,
):
    load_demo()
    season = Season.objects.get()
    kept = kept_rows(season)
    version = season.league.results_version
    with django_assert_max_num_queries(20):
        season_standings_rebuild(season=season)
    assert kept_rows(season) == kept
    season.league.refresh_from_db()
    assert season.league.results_version == version + 1
