"""The pub screen: a page for the TV on a pub's wall on a match night. Tonight's matches
at the pub with their games won and the game in play, deal by deal, and the season's
team table, in very large type. It refreshes itself every 20 seconds; for visitors it
comes from the page cache (config/page_cache.py), so a room of screens costs nothing."""

from dataclasses import dataclass

from django.db.models import prefetch_related_objects
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from league import standings
from league.models import Fixture, Pub
from league.selectors import fixtures_with_teams
from scoring.selectors import Match, match_for


@dataclass(frozen=True)
class Table:
    match: Match
    scores: list[tuple[str, int]]  # the game in play: each side and its score


@require_safe
def pub_screen(request, league_slug, pub_slug):
    pub = get_object_or_404(
        Pub.objects.select_related("league"), league__slug=league_slug, slug=pub_slug
    )
    today = timezone.localdate()
    fixtures = fixtures_with_teams(Fixture.objects.filter(pub=pub, date=today)).order_by("pk")
    matches = [match_for(fixture) for fixture in fixtures]
    in_play = [match.in_play for match in matches if match.in_play is not None]
    prefetch_related_objects(in_play, "game_sides")
    tables = []
    for match in matches:
        game = match.in_play
        scores = []
        if game is not None:
            scores = [(side.label, game.scores[side.index]) for side in game.game_sides.all()]
        tables.append(Table(match=match, scores=scores))
    season = pub.league.seasons.current()
    context = {
        "league": pub.league,
        "pub": pub,
        "today": today,
        "tables": tables,
        "season": season,
        "divisions": _divisions(pub, standings.team_rows(season)) if season else [],
    }
    return render(request, "scoring/pub_screen.html", context)


def _divisions(pub, rows: list[dict]) -> list[tuple[str, list[dict]]]:
    """The team table as the pub's TV shows it: (division name, its rows). With divisions
    (positions count within each), only those the pub's own teams play in, each under
    its name; a pub with no team of its own shows every division."""
    names = list(dict.fromkeys(row["division"] for row in rows))
    mine = {row["division"] for row in rows if row["pub_id"] == pub.pk}
    return [
        (name, [row for row in rows if row["division"] == name])
        for name in names
        if name in mine or not mine
    ]
