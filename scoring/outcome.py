"""A finished game as the league's standings see it.

Whether a game counts is decided here, from the game as stored: it must belong to a
season, be finished, and be confirmed when its season counts only confirmed games.
"""

from django.db.models import Prefetch

from league.standings import GameOutcome, SideOutcome
from scoring.models import Confirmation, Deal, Game, GameSide

SIDES = Prefetch(
    "game_sides", queryset=GameSide.objects.select_related("team").prefetch_related("players")
)


def game_outcome(game: Game) -> GameOutcome | None:
    """The game's outcome for the standings, or None while it does not count."""
    if game.season_id is None or game.status != Game.Status.FINISHED:
        return None
    confirmed = Confirmation.objects.filter(game_id=game.pk).exists()
    sides = game.game_sides.select_related("team").prefetch_related("players")
    return _outcome(game, list(sides), game.deals.live(), confirmed=confirmed)


def season_outcomes(season) -> list[GameOutcome | None]:
    """Every finished game of a season as `game_outcome` has it, in a few queries."""
    games = (
        Game.objects.finished()
        .filter(season=season)
        .select_related("season", "fixture", "confirmation")
        .prefetch_related(SIDES, Prefetch("deals", Deal.objects.live(), to_attr="live_deals"))
    )
    return [
        _outcome(
            game, game.game_sides.all(), game.live_deals, confirmed=hasattr(game, "confirmation")
        )
        for game in games
    ]


def _outcome(game: Game, sides, live_deals, *, confirmed: bool) -> GameOutcome | None:
    if game.season.confirmed_only and not confirmed:
        return None
    marches = [0] * game.sides
    for deal in live_deals:
        for index, count in enumerate(deal.trick_counts):
            if count == 5:
                marches[index] += 1
    total = sum(game.scores)
    return GameOutcome(
        season_id=game.season_id,
        fixture_id=game.fixture_id,
        round=game.fixture.round if game.fixture_id else None,
        confirmed=confirmed,
        sides=tuple(
            SideOutcome(
                team_id=side.team_id,
                pub_id=side.team.pub_id if side.team else game.pub_id,
                player_ids=tuple(sorted(p.pk for p in side.players.all())),
                points_for=game.scores[side.index],
                points_against=total - game.scores[side.index],
                won=game.winner == side.index,
                marches=marches[side.index],
                shutout_win=game.shutout and game.winner == side.index,
            )
            for side in sides
        ),
    )
