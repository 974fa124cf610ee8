"""The table sheet."""

from django.shortcuts import get_object_or_404, render

from scoring.models import Game


def game_sheet(request, pk):
    game = get_object_or_404(
        Game.objects.select_related("league", "season", "fixture").prefetch_related("game_sides"),
        pk=pk,
    )
    deals = game.deals.live().order_by("number")
    return render(
        request,
        "scoring/game_sheet.html",
        {"league": game.league, "season": game.season, "game": game, "deals": deals},
    )


def fixture_play(request, fixture_pk):
    """Play a fixture's match: to the game in play, or start the next one."""
    from django.shortcuts import redirect

    from league.models import Fixture

    fixture = get_object_or_404(Fixture.objects.select_related("season__league"), pk=fixture_pk)
    return redirect(fixture)
