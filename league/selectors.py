"""Reads reused by the league's pages, each a fixed number of queries."""

from django.core.paginator import Paginator
from django.db.models import Prefetch

from league.models import Fixture, FixtureTeam, Player, SideResult, Team


def fixtures_with_teams(queryset):
    """Fixtures with their pub and teams in seat order, in two queries."""
    return queryset.select_related("pub", "season__league").prefetch_related(
        Prefetch("fixture_teams", queryset=FixtureTeam.objects.select_related("team"))
    )


def teams_with_players(queryset):
    """Teams with their pub, division, season and players, in two queries."""
    return queryset.select_related("pub", "division", "season__league").prefetch_related(
        Prefetch("players", queryset=Player.objects.select_related("league"))
    )


def season_fixtures(season):
    return fixtures_with_teams(Fixture.objects.for_season(season)).order_by("date", "pk")


def season_teams(season):
    return teams_with_players(Team.objects.filter(season=season))


def fixture_games(fixture) -> list[dict]:
    """A fixture's finished games from its result rows, each with its sides' scores and
    its winner, in game order (1 query)."""
    games: dict[int, dict] = {}
    for row in SideResult.objects.filter(fixture=fixture).order_by("game_number", "side"):
        game = games.setdefault(
            row.game_id,
            {"id": row.game_id, "number": row.game_number, "sides": [], "winner": ""},
        )
        game["sides"].append((row.label, row.points_for))
        if row.won:
            game["winner"] = row.label
    return list(games.values())


PAGE_SIZE = 50


def paged(request, queryset):
    """One page of a list that grows with the league (`?page=`, 50 rows; a page past the
    end or not a number gives the nearest page), so a page costs the same however long
    the list is."""
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))
