"""Reads reused by the league's pages, each a fixed number of queries."""

from django.db.models import Prefetch

from league.models import Fixture, FixtureTeam, Player, Team


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
