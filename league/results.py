"""
The one writer of results, and the league's content version.

scoring/ owns games and deals; league/ owns what the standings count. When a game
changes, scoring/ tells league/ what the game now is, as plain data (`GameSummary`,
computed by `rules`), by calling `results_record` inside the transaction that changed
the game. No other code writes `SideResult` rows.

`content_changed` moves a league's content version on: every change that shows on a
public page calls it (in its own transaction), and every cached page or table is kept
under the version, so nothing is ever served stale.
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Case, F, Value, When

from league.models import Fixture, FixtureTeam, League, Season, SideResult
from league.standings import standings_derive

# Seconds a published version is kept unless moved on before: then the next reader makes
# a new one, and each page of the league is drawn once more. Short, so that a version that
# could not be published (Redis out of reach) leaves no page older than this.
PUBLISHED_FOR = 60


@dataclass(frozen=True)
class SideSummary:
    """One side of a finished game, as the rules scored it."""

    side: int
    label: str
    team_id: int | None
    pub_id: int | None
    player_ids: tuple[int, ...]
    points_for: int
    points_against: int
    won: bool
    shutout: bool
    marches: int


@dataclass(frozen=True)
class GameSummary:
    """A finished game: where it belongs, whether it is confirmed, and its sides."""

    game_id: int
    league_id: int
    season_id: int | None
    fixture_id: int | None
    number: int
    confirmed: bool
    finished_at: datetime
    sides: tuple[SideSummary, ...]
    reason: str = ""


# One statement that also says the league's address, to publish it under.
CONTENT_CHANGED = (
    f"UPDATE {League._meta.db_table} SET content_version = content_version + 1 "
    "WHERE id = %s RETURNING slug"
)


def content_changed(*, league_id: int) -> None:
    """Move the league's content version on (last in a transaction, so row locks are
    always taken before the league's); with several app servers, publish it too."""
    with connection.cursor() as cursor:
        cursor.execute(CONTENT_CHANGED, [league_id])
        row = cursor.fetchone()
    if row is not None:
        pages_changed(row[0])


def pages_changed(slug: str) -> None:
    """Once the change is committed, give the league's pages a new published version.

    Where app servers share a cache (`settings.PUBLISHED_VERSIONS`, with Redis), the page
    cache asks the cache, not the database, which version of a league is current: a
    fresh random token, set here after the commit and before the changer's own answer
    goes out, so whoever asks next, on any server, gets the new pages. Redis's backend
    also announces it (config/redis_cache.py): every app server then drops the copy of
    the old token it keeps in its own memory, before this answer goes out. A token lost
    from the cache is made again by the next reader: a page drawn anew, never an old
    one. Should Redis be out of reach just then, the change stays saved and the failure
    is logged (`robust`), and the pages catch up when the token runs out (PUBLISHED_FOR).
    With each process's own memory, the database's version is the one used."""
    if settings.PUBLISHED_VERSIONS:
        transaction.on_commit(lambda: _publish(slug), robust=True)


def _publish(slug: str) -> None:
    key, token = published_key(slug), secrets.token_hex(8)
    announce = getattr(cache, "announce", None)  # Redis's, not the memory cache's
    if announce is None:
        cache.set(key, token, PUBLISHED_FOR)
    else:
        announce(key, token, PUBLISHED_FOR)


def published_version(slug: str) -> str:
    """The league's published version (made now if the cache has none)."""
    key = published_key(slug)
    version = cache.get(key)
    if version is None:
        fresh = secrets.token_hex(8)
        # Of two readers at once, the first to add wins; the other takes its token.
        version = fresh if cache.add(key, fresh, PUBLISHED_FOR) else cache.get(key, fresh)
    return version


def published_key(slug: str) -> str:
    return f"published:{slug}"


def results_record(*, league_id: int, game_id: int, summary: GameSummary | None) -> None:
    """Make the game's result rows say `summary` (None: the game is not finished, so it
    has no rows). Call inside the transaction that changed the game."""
    rows = SideResult.objects.filter(game_id=game_id)
    before = list(rows.values_list("season_id", "team_id"))
    if before:
        rows.delete()
    _write([summary] if summary is not None else [])
    after = [(summary.season_id, side.team_id) for side in summary.sides] if summary else []
    season_id = next((season for season, _ in before + after if season is not None), None)
    if season_id is not None:
        teams = {team for _, team in before + after if team is not None}
        standings_derive(season_id=season_id, team_ids=teams)
    content_changed(league_id=league_id)


def results_rebuild(*, season_id: int, summaries: Sequence[GameSummary]) -> None:
    """Write a season's result rows again from nothing: a repair, or after a bulk load.
    `summaries` are every finished game of the season."""
    with transaction.atomic():
        league_id = Season.objects.values_list("league_id", flat=True).get(pk=season_id)
        SideResult.objects.filter(season_id=season_id).delete()
        _write(summaries)
        standings_derive(season_id=season_id)
        content_changed(league_id=league_id)


def _write(summaries: Sequence[GameSummary]) -> None:
    pairs = [(summary, side) for summary in summaries for side in summary.sides]
    rows = SideResult.objects.bulk_create(
        (
            SideResult(
                league_id=summary.league_id,
                season_id=summary.season_id,
                fixture_id=summary.fixture_id,
                game_id=summary.game_id,
                game_number=summary.number,
                confirmed=summary.confirmed,
                finished_at=summary.finished_at,
                reason=summary.reason[:200],
                side=side.side,
                label=side.label,
                team_id=side.team_id,
                pub_id=side.pub_id,
                partnership="-".join(str(p) for p in sorted(side.player_ids)),
                points_for=side.points_for,
                points_against=side.points_against,
                won=side.won,
                shutout=side.shutout,
                marches=side.marches,
            )
            for summary, side in pairs
        ),
        batch_size=2000,
    )
    Through = SideResult.players.through
    Through.objects.bulk_create(
        (
            Through(sideresult_id=row.pk, player_id=player_id)
            for row, (_, side) in zip(rows, pairs, strict=True)
            for player_id in side.player_ids
        ),
        batch_size=5000,
    )


def fixture_played_changed(fixture: Fixture) -> None:
    """A fixture went in or out of "played" through its games (a played fixture's next
    game started, the secretary having planned more; or that game taken back): its teams'
    kept rows count it as won, or no longer. Call inside the game's transaction, after
    `fixture_progress`."""
    teams = FixtureTeam.objects.filter(fixture=fixture).values_list("team_id", flat=True)
    standings_derive(season_id=fixture.season_id, team_ids=list(teams))


def fixture_progress(*, fixture_id: int, started: int, finished: int) -> None:
    """Record how many of a fixture's games have started and finished; a fixture is
    played once its planned games are finished. Call inside the game's transaction."""
    played = Fixture.Status.PLAYED
    Fixture.objects.filter(pk=fixture_id).update(
        games_started=started,
        games_finished=finished,
        status=Case(
            When(games_planned__lte=finished, then=Value(played)),
            When(status=played, then=Value(Fixture.Status.SCHEDULED)),
            default=F("status"),
        ),
    )
