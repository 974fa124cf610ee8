"""
Services that change games. Each runs in one transaction, checks the rules through
`rules.score_game`, writes the game's totals and tells the league its result
(`league.results`) with the deal, and leaves a GameEvent behind.

A confirmed game is frozen: no deal, undo or correction, except a correction by an
organiser or secretary with a reason, which clears the confirmation in the same
transaction, so the result is confirmed again.

Every change to a game locks its row first (`select_for_update`) and checks the
`version` the phone saw, so two phones never overwrite one another: the second is told
(`StaleGame`). The database backs this up with its constraints (one live deal per
number, unique idempotency keys, one confirmation per game).
"""

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

import rules
from league import results, rows
from league.models import Fixture, Player, Pub, Season, Team
from scoring.models import Confirmation, Deal, Game, GameEvent, GameSide, ScorerLink
from scoring.outcome import record_results, season_summaries
from scoring.wording import link_whose


class ScoringError(Exception):
    """A change to a game that cannot be made, with a message for the person asking."""


class StaleGame(ScoringError):
    """The phone saw an older state of the game than the one stored."""

    def __init__(self, game: Game):
        self.game = game
        super().__init__(
            "Someone else changed this game while you were entering. "
            "Here is the game as it stands now."
        )


class KeyReused(ScoringError):
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
        raise ScoringError("The first dealer must be one of the sides.")
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
            reopened_match=fixture is not None and fixture.status == Fixture.Status.PLAYED,
        )
        for index, spec in enumerate(sides):
            side = GameSide.objects.create(
                game=game,
                index=index,
                team=spec.team,
                label=spec.label,
                pub=spec.team.pub if spec.team else game.pub,
            )
            side.players.set(spec.players)
        _fixture_sync(game)
        if fixture is not None and fixture.status == Fixture.Status.PLAYED:
            results.fixture_played_changed(fixture)
        _event(
            game=game, kind=GameEvent.Kind.STARTED, user=_person(user), text=_describe_start(game)
        )
        results.content_changed(league_id=game.league_id)
    return game


def _describe_start(game: Game) -> str:
    labels = [side.label for side in game.game_sides.all()]
    return f"{' v '.join(labels)}; {labels[game.first_dealer]} deals first"


def game_next(*, fixture: Fixture, number: int, first_dealer: int, user=None) -> Game:
    """Start game `number` of a fixture's match, its teams as the sides in seat order.

    Tapping "Start game 3" twice starts one game: the second tap finds it.
    """
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update()
            .select_related("season")
            .filter(pk=fixture.pk)
            .first()
        )
        if fixture is None:  # removed by a secretary since the page was opened
            raise ScoringError("This fixture is no longer on the list: it was removed.")
        if fixture.status == Fixture.Status.POSTPONED:
            raise ScoringError("This fixture is postponed: set a new date first.")
        games = list(fixture.games.order_by("number"))
        for game in games:
            if game.number == number:
                return game
        if number != len(games) + 1:
            raise ScoringError(f"The next game of this match is game {len(games) + 1}.")
        if any(game.status == Game.Status.IN_PLAY for game in games):
            raise ScoringError("Finish the game in play before starting the next one.")
        if number > fixture.games_planned:
            raise ScoringError(fixture.all_played)
        teams = [ft.team for ft in fixture.fixture_teams.select_related("team")]
        sides = [
            SideSpec(label=team.name, team=team, players=list(team.players.all())) for team in teams
        ]
        return game_start(
            season=fixture.season,
            fixture=fixture,
            number=number,
            first_dealer=first_dealer,
            sides=sides,
            user=user,
        )


def game_result(game: Game, extra: Sequence[rules.Deal] = ()) -> rules.GameResult:
    """Score the game's live deals (and any deal about to be added) by the rules."""
    deals = [deal.as_rules_deal() for deal in game.deals.live().order_by("number")]
    return rules.score_game(game.ruleset, sides=game.sides, deals=[*deals, *extra])


def side_labels(game: Game) -> list[str]:
    known = getattr(game, "labels", None)
    return list(known) if known is not None else [side.label for side in game.game_sides.all()]


# What `_write_totals` writes: a game's row keeps the rest as it started.
TOTALS = ("scores", "winner", "reason", "shutout", "status", "finished_at", "version")


def _write_totals(game: Game, result: rules.GameResult) -> None:
    """Write the game's totals from `result`, and tell the league: its result rows when
    the game is or was finished, the fixture's count when that changes, and otherwise
    just that a public page (the sheet) changed."""
    was_finished = _set_totals(game, result)
    rows.update(game, TOTALS)
    if was_finished != result.finished:
        _fixture_sync(game)
    if was_finished or result.finished:
        record_results(game, result)
    else:
        results.content_changed(league_id=game.league_id)


def _set_totals(game: Game, result: rules.GameResult) -> bool:
    """Set the game's totals from `result`, unsaved; whether the game was finished before."""
    was_finished = game.status == Game.Status.FINISHED
    game.scores = list(result.scores)
    game.winner = result.winner
    game.reason = result.why.text(side_labels(game)) if result.why else ""
    game.shutout = result.shutout
    game.status = Game.Status.FINISHED if result.finished else Game.Status.IN_PLAY
    game.finished_at = (game.finished_at or timezone.now()) if result.finished else None
    game.version += 1
    return was_finished


def _write_deal(game: Game, deal: Deal, result: rules.GameResult, line: GameEvent) -> None:
    """Write a new deal, the game's totals from `result` and the record's `line` of the
    deal, and tell the league, as `rows.insert`, `_write_totals` and `rows.insert` do.

    A deal that neither finishes its game nor follows its end changes no result row:
    on PostgreSQL its writes and the league's new content version are then one statement
    (`rows.deal_written`), the deal POST's busiest case at one trip to the database in
    place of four."""
    playing = game.status != Game.Status.FINISHED and not result.finished
    if connection.vendor != "postgresql" or not playing:
        rows.insert(deal)
        line.deal = deal  # now with its id
        _write_totals(game, result)
        rows.insert(line)
        return
    _set_totals(game, result)
    (slug,) = rows.deal_written(deal, game, TOTALS, line, results.CONTENT_CHANGED, [game.league_id])
    results.pages_changed(slug)


def _fixture_sync(game: Game) -> None:
    """Tell the league how many of the fixture's games have started and finished."""
    if game.fixture_id is None:
        return
    counts = Game.objects.filter(fixture_id=game.fixture_id).aggregate(
        started=Count("pk"), finished=Count("pk", filter=Q(status=Game.Status.FINISHED))
    )
    results.fixture_progress(fixture_id=game.fixture_id, **counts)


def _event(**fields) -> GameEvent:
    """Write one line of the game's record."""
    return rows.insert(GameEvent(**fields))


def _person(user):
    return user if user is not None and user.is_authenticated else None


def _texts(tricks, trick_winners) -> tuple[str, str]:
    return "".join(str(t) for t in tricks), "".join(str(w) for w in trick_winners or ())


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
    existing.game = game  # the game it was checked against, for the line in words
    return existing


def describe_deal(game: Game, deal: Deal | rules.Deal, labels: Sequence[str] | None = None) -> str:
    """A deal in words: "Harbour Hearts 3, The Robbers 2; The Robbers dealt"."""
    labels = labels if labels is not None else side_labels(game)
    tricks = deal.trick_counts if isinstance(deal, Deal) else deal.tricks
    parts = [f"{label} {count}" for label, count in zip(labels, tricks, strict=False)]
    text = ", ".join(parts)
    if 0 <= deal.dealer < len(labels):
        text += f"; {labels[deal.dealer]} dealt"
    if deal.bonus_side is not None and 0 <= deal.bonus_side < len(labels):
        text += f"; highest trump: {labels[deal.bonus_side]}"
    return text


def _rules_deal(dealer, tricks, trick_winners, bonus_side) -> rules.Deal:
    return rules.Deal(
        dealer=dealer,
        tricks=tuple(tricks),
        trick_winners=tuple(trick_winners) if trick_winners else None,
        bonus_side=bonus_side,
    )


def _deal_create(
    game, number, dealer, tricks_text, winners_text, bonus_side, key, user, link, version=None
):
    # Undone and corrected deals keep their rows, so a number may already have versions.
    if version is None:
        version = game.deals.filter(number=number).count() + 1
    deal = _new_deal(
        game, number, dealer, tricks_text, winners_text, bonus_side, key, user, link, version
    )
    return rows.insert(deal)


def _new_deal(
    game, number, dealer, tricks_text, winners_text, bonus_side, key, user, link, version
) -> Deal:
    """A deal of `game`, not yet written."""
    return Deal(
        game=game,
        number=number,
        version=version,
        dealer=dealer,
        tricks=tricks_text,
        trick_winners=winners_text,
        bonus_side=bonus_side,
        key=key,
        entered_by=_person(user),
        entered_via=link,
    )


# Every deal of a game, and a deal saved under a key: the deal POST's second read,
# written out (the ORM's `Q(game=...) | Q(key=...)` cost it 1.4 ms more of the app's CPU).
DEALS_OF_GAME_OR_KEY = f"""
    SELECT {rows.columns(Deal, "deal")} FROM {Deal._meta.db_table} deal
     WHERE deal.game_id = %s OR deal.key = %s
"""


def _as_stored(key: uuid.UUID):
    return Deal._meta.get_field("key").get_db_prep_value(key, connection)


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
    locked: bool = False,
) -> Deal:
    """Record the next deal of a game.

    A retry with the same key returns the deal already stored; the same key with a
    different deal raises KeyReused; a stale `version` raises StaleGame; a deal the
    rules refuse raises rules.InvalidDeal. Nothing is written in any of those cases.

    The game's row is read and locked here, unless the caller says `locked=True`: that
    it read `game` through `selectors.game_to_change` in a transaction still open
    around this call, so the row is locked and current and is not read again (the sheet's
    POST, which needs the game first to check who may score it). The deal is then
    written against that instance, and the caller's `game` is the game as saved. A race
    lost then (an IntegrityError) spoils the caller's transaction: the caller ends it
    and records the deal again, which finds what won (`views.deal_record`).
    """
    if locked and not transaction.get_connection().in_atomic_block:
        raise RuntimeError("locked=True: read the game and record the deal in one transaction.")
    tricks_text, winners_text = _texts(tricks, trick_winners)
    labels = side_labels(game)  # fixed when the game started: read before the lock
    try:
        # A savepoint of its own inside a caller's transaction, to answer a lost race
        # here; none when `locked`, where the caller does.
        with transaction.atomic(savepoint=not locked):
            if not locked:
                game = _locked(game, labels)
            # Every deal of the game, and a deal already saved with this key, at once.
            deals = rows.select(Deal, DEALS_OF_GAME_OR_KEY, [game.pk, _as_stored(key)])
            existing = next((deal for deal in deals if deal.key == key), None)
            if existing is not None:
                return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
            if game.version != version:
                raise StaleGame(game)
            _check_not_confirmed(game)
            live = sorted((deal for deal in deals if deal.live), key=lambda deal: deal.number)
            new = _rules_deal(dealer, tricks, trick_winners, bonus_side)
            result = rules.score_game(
                game.ruleset,
                sides=game.sides,
                deals=[*(deal.as_rules_deal() for deal in live), new],
            )
            number = len(result.deals)
            versions = sum(1 for deal in deals if deal.number == number)
            deal = _new_deal(
                game,
                number,
                dealer,
                tricks_text,
                winners_text,
                bonus_side,
                key,
                user,
                link,
                version=versions + 1,
            )
            line = GameEvent(
                game=game,
                kind=GameEvent.Kind.DEAL,
                user=deal.entered_by,
                link=link,
                deal=deal,
                text=f"Deal {deal.number}: {describe_deal(game, deal, labels)}",
            )
            _write_deal(game, deal, result, line)
            return deal
    except IntegrityError:
        if locked:
            raise
        # Lost a race that the database settled: the same key, or the same deal number
        # saved by another phone a moment earlier. What was written onto `game` is
        # rolled back: read it again as stored.
        game.refresh_from_db()
        existing = Deal.objects.filter(key=key).first()
        if existing is not None:
            return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
        raise StaleGame(game) from None


def deal_correct(
    *,
    game: Game,
    number: int,
    dealer: int,
    tricks: Sequence[int],
    trick_winners: Sequence[int] | None = None,
    bonus_side: int | None = None,
    key: uuid.UUID,
    version: int,
    reason: str = "",
    user=None,
    link: ScorerLink | None = None,
    later: Mapping | None = None,
    take_out_later: bool = False,
) -> Deal:
    """Correct deal `number`: the old version stays (`live=False`), a new one is added.

    The game is rescored from all its live deals. A confirmed game is corrected only by
    an organiser or secretary (not through a scorer link), with a `reason`; the
    correction clears its confirmation, so the result is confirmed again. Errors as for
    `deal_record`. The game's record says when the correction changed the winner.

    `later` corrects a later deal in the same change (its `number`, `dealer`, `tricks`,
    `trick_winners`, `bonus_side` and `key`): one that no longer fits once this one is
    corrected, such as a deal stopped at the target that the corrected score no longer
    reaches. Each alone would be refused, and once the match's next game has started
    neither deal can be undone instead.

    `take_out_later`: where with this correction the game is over after deal `number`,
    the deals after it were played after the game was won; they are taken out of the
    game in the same change (`live=False`, kept in its record). Undo, the other way, is
    refused once the match's next game has started. Where the game goes on, the
    correction is saved as any other and the later deals stay.
    """
    tricks_text, winners_text = _texts(tricks, trick_winners)
    reason = reason.strip()
    try:
        with transaction.atomic():
            game = _locked(game)
            existing = Deal.objects.filter(key=key).first()
            if existing is not None and existing.number == number:
                return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
            if existing is not None:
                raise KeyReused()
            if game.version != version:
                raise StaleGame(game)
            if game.is_confirmed and link is not None:
                raise ScoringError(CONFIRMED)
            if game.is_confirmed and not reason:
                raise ScoringError("This game is confirmed: give a reason for the correction.")
            live = list(game.deals.live().order_by("number"))
            old = next((deal for deal in live if deal.number == number), None)
            if old is None:
                raise ScoringError(f"This game has no deal {number}.")
            as_before = (old.dealer, old.tricks, old.trick_winners, old.bonus_side)
            if as_before == (dealer, tricks_text, winners_text, bonus_side):
                raise ScoringError(
                    f"Nothing to correct: deal {number} is already {describe_deal(game, old)}. "
                    "Change what was wrong, then save."
                )
            changes = {number: _rules_deal(dealer, tricks, trick_winners, bonus_side)}
            if later is not None:
                later_old = next((d for d in live if d.number == later["number"]), None)
                if later_old is None or later["number"] <= number:
                    raise ScoringError(
                        f"This game has no deal {later['number']} after deal {number}."
                    )
                new_later = _rules_deal(
                    later["dealer"], later["tricks"], later["trick_winners"], later["bonus_side"]
                )
                if new_later == later_old.as_rules_deal():
                    later = None  # left as it was: nothing of it to correct
                else:
                    changes[later["number"]] = new_later
            taken_out = []
            if take_out_later and later is None:
                upto = [deal for deal in live if deal.number <= number]
                deals = [changes.get(deal.number) or deal.as_rules_deal() for deal in upto]
                if rules.score_game(game.ruleset, sides=game.sides, deals=deals).finished:
                    taken_out = [deal for deal in live if deal.number > number]
                    live = upto
            deals = [changes.get(deal.number) or deal.as_rules_deal() for deal in live]
            result = rules.score_game(game.ruleset, sides=game.sides, deals=deals)
            if not result.finished:
                _check_no_later_game(game)
            was = describe_deal(game, old)
            winner_before = game.winner
            unconfirmed = game.is_confirmed
            if unconfirmed:
                game.confirmation.delete()
                Game.confirmation.related.delete_cached_value(game)  # now unconfirmed
            old.live = False
            old.save(update_fields=["live"])
            deal = _deal_create(
                game, number, dealer, tricks_text, winners_text, bonus_side, key, user, link
            )
            text = f"Deal {number}: {was} → {describe_deal(game, deal)}"
            if later is not None:
                text += "; " + _correct_later(game, later_old, later, user, link)
            if taken_out:
                Deal.objects.filter(pk__in=[d.pk for d in taken_out]).update(live=False)
                text += f"; {_deals_in_words(taken_out)} taken out: played after the game was over"
            _write_totals(game, result)
            if reason:
                text += f". Reason: {reason}"
            if game.winner != winner_before:
                text += ". " + winner_change(game, winner_before)
            if unconfirmed:
                text += (
                    ". The confirmation is cleared: the result is confirmed again, by the "
                    "other side's link or an organiser"
                )
            _event(
                game=game,
                kind=GameEvent.Kind.CORRECTION,
                user=deal.entered_by,
                link=link,
                deal=deal,
                text=text,
            )
            return deal
    except IntegrityError:
        existing = Deal.objects.filter(key=key).first()
        if existing is not None and existing.number == number:
            return _replayed(existing, game, dealer, tricks_text, winners_text, bonus_side)
        raise StaleGame(Game.objects.get(pk=game.pk)) from None


def _deals_in_words(deals: Sequence[Deal]) -> str:
    """ "deal 4", or "deals 4 to 6": deals numbered one after another."""
    first, last = deals[0].number, deals[-1].number
    return f"deal {first}" if first == last else f"deals {first} to {last}"


def _correct_later(game: Game, old: Deal, later: Mapping, user, link) -> str:
    """Replace `old` by the `later` deal corrected with it; its words for the record."""
    was = describe_deal(game, old)
    old.live = False
    old.save(update_fields=["live"])
    tricks_text, winners_text = _texts(later["tricks"], later["trick_winners"])
    deal = _deal_create(
        game,
        old.number,
        later["dealer"],
        tricks_text,
        winners_text,
        later["bonus_side"],
        later["key"],
        user,
        link,
    )
    return f"deal {old.number}, with it: {was} → {describe_deal(game, deal)}"


def deal_undo(*, game: Game, version: int, user=None, link: ScorerLink | None = None) -> Deal:
    """Take back the last live deal (its row stays, `live=False`). Not on a confirmed game."""
    with transaction.atomic():
        game = _locked(game)
        if game.version != version:
            raise StaleGame(game)
        _check_not_confirmed(game)
        last = game.deals.live().order_by("-number").first()
        if last is None:
            raise ScoringError("There is no deal to undo.")
        _check_no_later_game(game)
        last.live = False
        last.save(update_fields=["live"])
        _write_totals(game, game_result(game))
        _event(
            game=game,
            kind=GameEvent.Kind.UNDO,
            user=_person(user),
            link=link,
            deal=last,
            text=f"Deal {last.number} undone: {describe_deal(game, last)}",
        )
        return last


CONFIRMED = (
    "This game is confirmed, so it takes no more changes. An organiser can still correct "
    "a deal, with a reason; the result is then confirmed again."
)


def _locked(game: Game, labels: Sequence[str] | None = None) -> Game:
    """The game's row, locked for this transaction, with its confirmation (if any).
    `labels`, the sides' names as read before (they never change), spare a query."""
    locked = (
        Game.objects.select_for_update(of=("self",))
        .select_related("confirmation")
        .filter(pk=game.pk)
        .first()
    )
    if locked is None:  # taken back meanwhile (`game_remove`)
        raise ScoringError(f"Game {game.number} was taken back: it was started by mistake.")
    locked.labels = labels
    return locked


def _check_not_confirmed(game: Game) -> None:
    if game.is_confirmed:
        raise ScoringError(CONFIRMED)


def winner_change(game: Game, winner_before: int | None) -> str:
    """In words, how a correction changed who won the game."""
    labels = side_labels(game)
    if game.winner is None:
        return f"{labels[winner_before]} no longer wins: the game goes on"
    if winner_before is None:
        return f"The game is now won: {game.reason}"
    return f"The winner changes from {labels[winner_before]} to {labels[game.winner]}"


def _check_no_later_game(game: Game) -> None:
    """A game of a match reopens only while the match has not gone on past it."""
    if (
        game.fixture_id
        and Game.objects.filter(fixture_id=game.fixture_id, number__gt=game.number).exists()
    ):
        raise ScoringError(
            f"Game {game.number + 1} of this match has started, so this game must keep "
            "a winner. Correct the deal instead."
        )


def game_remove(*, game: Game, version: int) -> Game:
    """Take back a game started by mistake, before any deal of it was entered: it goes as
    if never started, and its match's count of games with it (a match marked played
    before it started is played again). Under the game's lock,
    which every deal takes first, so a deal sent meanwhile is never thrown away with it;
    then its fixture's, as a deal that finishes a game takes them."""
    with transaction.atomic():
        game = _locked(game)
        if game.version != version:
            raise StaleGame(game)
        if game.deals.exists():
            raise ScoringError(f"Deals were entered in game {game.number}, so it stays.")
        _check_no_later_game(game)
        fixture = None
        if game.fixture_id:
            fixture = Fixture.objects.select_for_update().get(pk=game.fixture_id)
        game.delete()
        _fixture_sync(game)
        if game.reopened_match:
            Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
        if fixture is not None:
            played = fixture.status == Fixture.Status.PLAYED
            fixture.refresh_from_db(fields=["status"])
            if played != (fixture.status == Fixture.Status.PLAYED):
                results.fixture_played_changed(fixture)
        results.content_changed(league_id=game.league_id)
    return game


def game_confirm(*, game: Game, version: int | None = None, user=None, link=None) -> Confirmation:
    """Confirm a finished game's result, once. Through a scorer link only by the other
    side: a link given to a side that entered none of the game's deals (through any of
    its links). An organiser who entered deals of the game may confirm it, and the
    record says so."""
    try:
        with transaction.atomic():
            game = _locked(game)
            if version is not None and game.version != version:
                raise StaleGame(game)
            if game.is_confirmed:
                raise ScoringError("This game is already confirmed.")
            if not game.is_finished:
                raise ScoringError("A game is confirmed once it is won; this one is still in play.")
            if link is not None:
                _check_link_may_confirm(game, link)
            confirmation = Confirmation.objects.create(
                game=game, confirmed_by=_person(user), confirmed_via=link
            )
            game.version += 1
            game.save(update_fields=["version"])
            record_results(game, game_result(game))
            text = f"Confirmed: {' – '.join(str(s) for s in game.scores)}. {game.reason}"
            person = _person(user)
            if person is not None and game.deals.live().filter(entered_by=person).exists():
                text += ". Entered and confirmed by the same organiser."
            _event(
                game=game,
                kind=GameEvent.Kind.CONFIRMED,
                user=person,
                link=link,
                text=text,
            )
            return confirmation
    except IntegrityError:
        raise ScoringError("This game is already confirmed.") from None


def _check_link_may_confirm(game: Game, link: ScorerLink) -> None:
    if link.side is None:
        raise ScoringError(
            "Only the other side's own link, or an organiser, can confirm this result."
        )
    if game.deals.live().filter(entered_via__side=link.side).exists():
        raise ScoringError(
            "Your side entered deals of this game, so the other side confirms the result."
        )


def link_create(*, game: Game, side: int | None = None, user=None) -> ScorerLink:
    """A new private link to score this game (for one side, when `side` is given)."""
    if side is not None and not 0 <= side < game.sides:
        raise ScoringError("Choose one of the game's sides for the link.")
    with transaction.atomic():
        game = _locked(game)
        if game.is_confirmed:
            raise ScoringError("This game is confirmed: it takes no more scores.")
        link = ScorerLink.objects.create(game=game, side=side, created_by=_person(user))
        _event(
            game=game,
            kind=GameEvent.Kind.LINK,
            user=_person(user),
            link=link,
            text=f"Scorer link {link.number} {_link_for(link)} made",
        )
        results.content_changed(league_id=game.league_id)
        return link


def _link_for(link: ScorerLink) -> str:
    """Whose a scorer link is, in words: "for the table", or "for" its side."""
    return f"for {link_whose(link.side, side_labels(link.game))}"


def link_revoke(*, link: ScorerLink, user=None) -> ScorerLink:
    """Stop a scorer link working. Revoking twice changes nothing."""
    with transaction.atomic():
        link = ScorerLink.objects.select_for_update().get(pk=link.pk)
        if link.revoked_at is not None:
            return link
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        _event(
            game_id=link.game_id,
            kind=GameEvent.Kind.REVOKED,
            user=_person(user),
            link=link,
            text=f"Scorer link {link.number} {_link_for(link)} withdrawn",
        )
        results.content_changed(league_id=link.game.league_id)
        return link


def season_results_rebuild(*, season: Season) -> None:
    """Write a season's result rows again from its games, scored by the rules from their
    live deals: a repair, or after a bulk load."""
    results.results_rebuild(season_id=season.pk, summaries=season_summaries(season))
