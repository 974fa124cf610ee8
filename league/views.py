"""Public pages of a league: no login needed to read."""

from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render

from league.models import Fixture, League, Player, Pub, Season, Team
from league.selectors import fixtures_with_teams, season_fixtures, season_teams


def home(request):
    leagues = League.objects.annotate(pub_count=Count("pubs", distinct=True))
    if len(leagues) == 1:
        return redirect(leagues[0])
    return render(request, "league/home.html", {"leagues": leagues})


def league_home(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    season = league.seasons.current()
    context = {"league": league, "season": season, "pubs": league.pubs.all()}
    if season:
        fixtures = fixtures_with_teams(Fixture.objects.for_season(season))
        context["latest"] = fixtures.played().order_by("-date", "-pk")[:8]
        context["next"] = fixtures.upcoming().order_by("date", "pk")[:8]
    return render(request, "league/league_home.html", context)


def season_detail(request, league_slug, season_slug):
    season = get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )
    context = {
        "league": season.league,
        "season": season,
        "teams": season_teams(season),
        "fixtures": season_fixtures(season),
    }
    return render(request, "league/season_detail.html", context)


def pub_detail(request, league_slug, pub_slug):
    pub = get_object_or_404(
        Pub.objects.select_related("league"), league__slug=league_slug, slug=pub_slug
    )
    season = pub.league.seasons.current()
    context = {
        "league": pub.league,
        "pub": pub,
        "season": season,
        "teams": season_teams(season).filter(pub=pub) if season else [],
        "fixtures": season_fixtures(season).filter(pub=pub) if season else [],
    }
    return render(request, "league/pub_detail.html", context)


def player_detail(request, league_slug, pk):
    player = get_object_or_404(
        Player.objects.select_related("league", "home_pub"), league__slug=league_slug, pk=pk
    )
    teams = (
        Team.objects.filter(players=player)
        .select_related("season", "pub")
        .prefetch_related("players")
    )
    return render(
        request,
        "league/player_detail.html",
        {"league": player.league, "player": player, "teams": teams},
    )


def team_detail(request, league_slug, pk):
    team = get_object_or_404(
        Team.objects.select_related("season__league", "pub", "division").prefetch_related(
            "players"
        ),
        season__league__slug=league_slug,
        pk=pk,
    )
    fixtures = season_fixtures(team.season).filter(fixture_teams__team=team)
    return render(
        request,
        "league/team_detail.html",
        {"league": team.season.league, "season": team.season, "team": team, "fixtures": fixtures},
    )


def fixture_detail(request, league_slug, pk):
    fixture = get_object_or_404(
        fixtures_with_teams(Fixture.objects.all()), season__league__slug=league_slug, pk=pk
    )
    games = fixture.games.prefetch_related("game_sides").order_by("number")
    return render(
        request,
        "league/fixture_detail.html",
        {
            "league": fixture.season.league,
            "season": fixture.season,
            "fixture": fixture,
            "games": games,
        },
    )
