"""Reads reused by the league's pages, each a fixed number of queries."""

from django.db.models import Prefetch

from league.models import Fixture, FixtureTeam, Team


def fixtures_with_teams(queryset):
    """Fixtures with their pub and teams in seat order, in two queries."""
    return queryset.select_related("pub", "season__league").prefetch_related(
        Prefetch("fixture_teams", queryset=FixtureTeam.objects.select_related("team"))
    )


def teams_with_players(queryset):
    return queryset.select_related("pub", "division").prefetch_related("players")


def season_fixtures(season):
    return fixtures_with_teams(Fixture.objects.for_season(season)).order_by("date", "pk")


def season_teams(season):
    return teams_with_players(Team.objects.filter(season=season))
