"""
Services that change games. Each runs in one transaction, checks the rules through
`rules.score_game`, writes the game's totals and the league's standings rows with the
deal, and leaves a GameEvent behind.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

import rules
from league import standings
from league.models import Fixture, Player, Pub, Season, Team
from scoring.models import Deal, Game, GameEvent, GameSide, ScorerLink
from scoring.outcome import game_outcome


class StaleGame(Exception):
    """The phone saw an older state of the game than the one stored."""

    def __init__(self, game: Game):
        self.game = game
        super().__init__(
            "Someone else changed this game while you were entering. "
            "Here is the game as it stands now."
        )


class KeyReused(Exception):
    """The same submission key arrived with a different deal."""

    def __init__(self):
        super().__init__("This form was already used for a different deal. Reload and enter again.")


@dataclass(frozen=True)
class SideSpec:
    label: str
    team: Team | None = None
    players: Sequence[Player] = ()


def game_start(
    *,
    season: Season | None,
    sides: Sequence[SideSpec],
    first_dealer: int = 0,
    fixture: Fixture | None = None,
    pub: Pub | None = None,
    number: int = 1,
    ruleset: rules.Ruleset | None = None,
    league=None,
    user=None,
) -> Game:
    """Start a game with its sides in seat order. The rules in force are copied onto
    the game, so later changes to the season never rewrite it."""
    ruleset = ruleset or (season.ruleset if season else rules.RULESETS["twenty-five"])
    ruleset.check_sides(len(sides))
    if not 0 <= first_dealer < len(sides):
        raise ValueError("The first dealer must be one of the sides.")
    league = league or (season.league if season else pub.league)
    with transaction.atomic():
        game = Game.objects.create(
            league=league,
            season=season,
            fixture=fixture,
            pub=pub or (fixture.pub if fixture else None),
            number=number,
            sides=len(sides),
            first_dealer=first_dealer,
            ruleset_key=ruleset.key,
            target=ruleset.target,
            march_bonus=ruleset.march_bonus,
            march_wins=ruleset.march_wins,
            scores=[0] * len(sides),
        )
        for index, spec in enumerate(sides):
            side = GameSide.objects.create(game=game, index=index, team=spec.team, label=spec.label)
            side.players.set(spec.players)
        GameEvent.objects.create(game=game, kind=GameEvent.Kind.STARTED, user=user)
    return game


def game_result(game: Game, extra: Sequence[rules.Deal] = ()) -> rules.GameResult:
    """Score the game's live deals (and any deal about to be added) by the rules."""
    deals = [deal.as_rules_deal() for deal in game.deals.live().order_by("number")]
    return rules.score_game(game.ruleset, sides=game.sides, deals=[*deals, *extra])


def _write_totals(game: Game, result: rules.GameResult, *, before) -> None:
    game.scores = list(result.scores)
    game.winner = result.winner
    game.reason = result.reason
    game.shutout = result.shutout
    game.status = Game.Status.FINISHED if result.finished else Game.Status.IN_PLAY
    game.finished_at = (game.finished_at or timezone.now()) if result.finished else None
    game.version += 1
    game.save()
    standings.standings_game_changed(before=before, after=game_outcome(game))


def _replayed(existing: Deal, game, dealer, tricks_text, winners_text, bonus_side) -> Deal:
    """A retry of a submission already stored: the stored deal, if it is the same deal."""
    same = (
        existing.game_id == game.pk
        and existing.dealer == dealer
        and existing.tricks == tricks_text
        and existing.trick_winners == winners_text
        and existing.bonus_side == bonus_side
    )
    if not same:
        raise KeyReused()
    return existing


def deal_record(
    *,
    game: Game,
    dealer: int,
    tricks: Sequence[int],
    trick_winners: Sequence[int] | None = None,
    bonus_side: int | None = None,
    key: uuid.UUID,
    version: int,
    user=None,
    link: ScorerLink | None = None,
) -> Deal:
    """Record the next deal of a game.

    A retry with the same key returns the deal already stored; the same key with a
    different deal raises KeyReused; a stale `version` raises StaleGame; a deal the
    rules refuse raises rules.InvalidDeal. Nothing is written in any of those cases.
    """
    tricks_text = "".join(str(t) for t in tricks)
    winners_text = "".join(str(w) for w in trick_winners or ())
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game.pk)
            existing = Deal.objects.filter(key=key).first()
            if existing is not None:
                return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
            if game.version != version:
                raise StaleGame(game)
            new = rules.Deal(
                dealer=dealer,
                tricks=tuple(tricks),
                trick_winners=tuple(trick_winners) if trick_winners else None,
                bonus_side=bonus_side,
            )
            result = game_result(game, [new])
            before = game_outcome(game)
            deal = Deal.objects.create(
                game=game,
                number=len(result.deals),
                dealer=dealer,
                tricks=tricks_text,
                trick_winners=winners_text,
                bonus_side=bonus_side,
                key=key,
                entered_by=user if user and user.is_authenticated else None,
                entered_via=link,
            )
            _write_totals(game, result, before=before)
            GameEvent.objects.create(
                game=game,
                kind=GameEvent.Kind.DEAL,
                user=deal.entered_by,
                link=link,
                deal=deal,
                text=f"Deal {deal.number}: tricks {'–'.join(tricks_text)}",
            )
            return deal
    except IntegrityError:
        # Lost a race that the database settled: the same key, or the same deal number
        # saved by another phone a moment earlier.
        existing = Deal.objects.filter(key=key).first()
        if existing is not None:
            return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
        raise StaleGame(Game.objects.get(pk=game.pk)) from None
