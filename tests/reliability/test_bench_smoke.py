"""The benchmark's league generator, run once at size S (make bench runs it at S and M)."""

import pytest

from bench.generate import GAMES_PER_FIXTURE, build_league
from bench.measure import read_path_parts, repair_function
from bench.recount import kept, recount
from bench.snapshot import differences, league_snapshot, standings_snapshot
from league.models import Team
from scoring.models import Deal, Game

pytestmark = pytest.mark.django_db


def test_the_s_league_has_its_teams_and_about_five_thousand_deals_and_true_standings():
    built = build_league("S", seed=25, path="bulk")

    assert Team.objects.filter(season=built.season).count() == 20
    assert Game.objects.filter(season=built.season, status="finished").count() == 380 * 7
    deals = Deal.objects.filter(game__season=built.season).count()
    assert deals == built.deals
    assert 4_500 <= deals <= 5_500
    assert kept(built.season) == recount(built.season)


def test_the_bulk_path_stores_the_same_rows_as_the_services_deal_by_deal():
    # Two weeks of the S season (20 fixtures of 7 games), written both ways.
    service = build_league("S", seed=7, path="service", rounds=2, slug="smoke-service")
    bulk = build_league("S", seed=7, path="bulk", rounds=2, slug="smoke-bulk")

    assert service.games == bulk.games == 2 * 10 * GAMES_PER_FIXTURE
    a, b = league_snapshot(service.season), league_snapshot(bulk.season)
    assert a["deals"], "the slice has deals"
    assert differences(a, b) == []
    assert standings_snapshot(service.season)["results"]
    assert kept(service.season) == recount(service.season)


def test_the_apps_repair_of_a_generated_season_changes_no_row():
    built = build_league("S", seed=11, rounds=2, slug="smoke-recompute")
    before = standings_snapshot(built.season)
    _, repair = repair_function()

    repair(built.season)

    assert standings_snapshot(built.season) == before
    assert kept(built.season) == recount(built.season)


def test_the_read_paths_parts_read_what_the_read_path_reads():
    # The bench's parts of the read path run the app's own statements and ranking: the
    # team rows statement returns every team, head-to-head the pairs of teams level on points.
    from league import standings

    built = build_league("S", seed=13, rounds=3, slug="smoke-parts")
    parts = read_path_parts(built.season)

    assert set(parts) == {"team_rows_statement", "head_to_head_statement", "ranking"}
    assert len(parts["team_rows_statement"]()) == 20
    league_points = {row["id"]: row["league_points"] for row in standings.team_rows(built.season)}
    pairs = parts["head_to_head_statement"]()
    assert pairs and all(league_points[team] == league_points[other] for team, other in pairs)
    assert [row.totals.id for row in parts["ranking"]()[0]] == [
        row["id"] for row in standings.team_rows(built.season)
    ]
