"""A game as the league's results see it: plain data (`league.results.GameSummary`),
so league/ never reads scoring/'s tables.

A game has result rows once it is finished, whether or not it counts: the league
decides what counts (a season's game, confirmed where the season asks for it).
"""

from django.db.models import Prefetch

import rules
from league import results
from scoring.models import Deal, Game, GameSide


def game_summary(game: Game, result: rules.GameResult, sides) -> results.GameSummary | None:
    """The finished game's summary from its `sides` (with their players) and the rules'
    `result` of its live deals, or None while it goes on."""
    if not result.finished:
        return None
    total = sum(result.scores)
    return results.GameSummary(
        game_id=game.pk,
        league_id=game.league_id,
        season_id=game.season_id,
        fixture_id=game.fixture_id,
        number=game.number,
        confirmed=game.is_confirmed,
        finished_at=game.finished_at,
        reason=result.why.text([side.label for side in sides]) if result.why else "",
        sides=tuple(
            results.SideSummary(
                side=side.index,
                label=side.label,
                team_id=side.team_id,
                pub_id=side.pub_id,
                player_ids=tuple(sorted(p.pk for p in side.players.all())),
                points_for=result.scores[side.index],
                points_against=total - result.scores[side.index],
                won=result.winner == side.index,
                shutout=result.shutout and result.winner == side.index,
                marches=result.marches[side.index],
            )
            for side in sides
        ),
    )


def record_results(game: Game, result: rules.GameResult) -> None:
    """Tell the league what the game now is. Inside the game's transaction."""
    sides = GameSide.objects.filter(game=game).prefetch_related("players")
    summary = game_summary(game, result, sides) if result.finished else None
    results.results_record(league_id=game.league_id, game_id=game.pk, summary=summary)


SIDES = Prefetch("game_sides", queryset=GameSide.objects.prefetch_related("players"))


def season_summaries(season) -> list[results.GameSummary]:
    """Every finished game of a season, scored again by the rules from its live deals
    (a repair, or after a bulk load), in a few queries."""
    games = (
        Game.objects.finished()
        .filter(season=season)
        .select_related("confirmation")
        .prefetch_related(SIDES, Prefetch("deals", Deal.objects.live(), to_attr="live_deals"))
    )
    summaries = []
    for game in games:
        deals = sorted(game.live_deals, key=lambda deal: deal.number)
        result = rules.score_game(
            game.ruleset, sides=game.sides, deals=[deal.as_rules_deal() for deal in deals]
        )
        summary = game_summary(game, result, game.game_sides.all())
        if summary is not None:
            summaries.append(summary)
    return summaries
