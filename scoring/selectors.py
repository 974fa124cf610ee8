"""Reads for the table sheet, the match page and the game's record."""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.db import connection

import rules
from league import rows
from league.models import ByName, Fixture, FixtureTeam, Pub
from league.permissions import roles_sql
from scoring.models import Confirmation, Deal, Game, GameEvent, GameSide

SHEET_RELATIONS = ("league", "season", "pub", "fixture__pub", "confirmation")


def game_for_sheet(queryset=None):
    queryset = queryset if queryset is not None else Game.objects.all()
    return queryset.select_related(*SHEET_RELATIONS).prefetch_related("game_sides")


def game_to_change(pk, user=None) -> Game | None:
    """The game `pk` as a change reads it, inside its transaction: its row locked until
    the transaction ends, with what the permission check and the services read (the pub
    the game is played at as `fixture_pub_id`, whether it is `confirmed`, the sides'
    names in seat order as `labels`, which `services.side_labels` takes, and on
    PostgreSQL `user`'s `roles` in the game's league, as `permissions.roles_sql` reads
    them), in one query.
    Only the game's own row is locked. Nothing else is joined: a change done is answered
    with a redirect or the sheet read afresh (`game_for_sheet`); a sheet drawn with a
    refusal, or a finished game's line, reads the rest then.

    The night's busiest read, so on PostgreSQL it is written out: the ORM took 2.3 ms of
    the app's CPU to build it, and written out a deal POST takes 3.4 ms less (12.8 ms to
    9.4 ms in process, `bench/RESULTS.md`)."""
    if connection.vendor == "postgresql":
        # Who the user is in the game's league, for the permission check (`keep_roles`).
        person = user.pk if user is not None and user.is_authenticated else None
        found = rows.select(
            Game, GAME_TO_CHANGE + ROW_LOCK, {"game": pk, "user": person}, GAME_TO_CHANGE_EXTRA
        )
        return found[0] if found else None
    # SQLite (`make run`): no arrays and no row locks (one writer at a time anyway).
    games = Game.objects.select_related("fixture", "confirmation").prefetch_related("game_sides")
    return games.filter(pk=pk).first()


GAME_TO_CHANGE = f"""
    SELECT {rows.columns(Game, "game")}, fixture.pub_id,
           EXISTS (SELECT 1 FROM {Confirmation._meta.db_table} WHERE game_id = game.id),
           ARRAY (SELECT label FROM {GameSide._meta.db_table} WHERE game_id = game.id
                   ORDER BY index),
           ARRAY ({roles_sql("game.league_id")})
      FROM {Game._meta.db_table} game
      LEFT JOIN {Fixture._meta.db_table} fixture ON fixture.id = game.fixture_id
     WHERE game.id = %(game)s
"""
GAME_TO_CHANGE_EXTRA = ("fixture_pub_id", "confirmed", "labels", "roles")
ROW_LOCK = " FOR UPDATE OF game"


def next_dealer_of(game: Game, live_deals: list[Deal]) -> int:
    """Who deals the next deal: left of the last dealer, or the first dealer."""
    if not live_deals:
        return game.first_dealer
    return rules.next_dealer(live_deals[-1].dealer, game.sides)


@dataclass(frozen=True)
class MatchTeam:
    label: str
    won: int
    team_id: int | None = None


@dataclass(frozen=True)
class Match:
    fixture: Fixture
    games: list[Game]
    teams: list[MatchTeam]
    in_play: Game | None
    next_number: int | None
    proposed_dealer: int

    def named(self, names: Mapping[int, str]) -> "Match":
        """The match with its teams named by `names` (by team id), as a game of it was
        played: its sheet names them so, whatever they are called now."""
        teams = [replace(team, label=names.get(team.team_id, team.label)) for team in self.teams]
        return replace(self, teams=teams)

    @property
    def score_text(self) -> str:
        return " – ".join(f"{team.label} {team.won}" for team in self.teams)

    @property
    def result_text(self) -> str:
        """Once every planned game is won: who won the match and by how many games
        ("Cronin's Jinkers win the match 2–1"), or that it is level. Else ""."""
        finished = [game for game in self.games if game.winner is not None]
        if not self.teams or len(finished) < self.fixture.games_planned:
            return ""
        ranked = sorted(self.teams, key=lambda team: -team.won)
        games = "–".join(str(team.won) for team in ranked)
        if len(ranked) > 1 and ranked[0].won == ranked[1].won:
            return f"The match is level, {games}"
        return f"{ranked[0].label} win the match {games}"


MATCH_GAMES = f"""
    SELECT game.*,
           (SELECT side.team_id FROM {GameSide._meta.db_table} side
             WHERE side.game_id = game.id AND side."index" = game.winner) AS winning_team
      FROM {Game._meta.db_table} game
     WHERE game.fixture_id = %s
     ORDER BY game.number
"""


def match_for(fixture: Fixture) -> Match:
    """A fixture's match: its games, games won per team (in seat order), the game in
    play, the number of the next game to start and who should deal first in it (left of
    the last dealer of the previous game)."""
    seats = list(FixtureTeam.objects.filter(fixture=fixture).select_related("team"))
    # The games with the team of the side that won each (None while in play), written
    # out: the sheet shows the match's score after every deal, and the ORM took longer
    # to build this statement than the database takes to answer it. A page showing the
    # games' sides reads them itself.
    games = list(Game.objects.raw(MATCH_GAMES, [fixture.pk]))
    won = {seat.team_id: 0 for seat in seats}
    for game in games:
        if game.winning_team in won:
            won[game.winning_team] += 1
    in_play = next((game for game in games if game.status == Game.Status.IN_PLAY), None)
    next_number = None
    if in_play is None and len(games) < fixture.games_planned:
        next_number = len(games) + 1
    proposed = 0
    if games and next_number is not None:  # only a game that can start needs a dealer
        last = games[-1].deals.live().order_by("-number").first()
        if last is not None:
            proposed = rules.next_dealer(last.dealer, games[-1].sides)
    return Match(
        fixture=fixture,
        games=games,
        teams=[MatchTeam(seat.team.name, won[seat.team_id], seat.team_id) for seat in seats],
        in_play=in_play,
        next_number=next_number,
        proposed_dealer=proposed % max(len(seats), 1),
    )


def game_events(game: Game):
    return GameEvent.objects.filter(game=game).select_related("user", "link", "deal")


def roles_in_league(game: Game, user_ids) -> dict[int, str]:
    """What each login is in the game's league, in words a public page may show ("the
    league secretary", "the organiser of The Harbour Bar"), in 2 queries. Logins are
    not shown to the public: the role says who did it."""
    user_ids = {pk for pk in user_ids if pk is not None}
    if not user_ids:
        return {}
    secretaries = set(game.league.secretaries.filter(pk__in=user_ids).values_list("pk", flat=True))
    pubs = defaultdict(list)
    organised = (
        Pub.organisers.through.objects.filter(pub__league=game.league, user_id__in=user_ids)
        .order_by(ByName("pub__name"))
        .values_list("user_id", "pub_id", "pub__name")
    )
    for user_id, pub_id, name in organised:
        pubs[user_id].append((pub_id != game.venue_id, name))  # where the game is played first
    roles = {}
    for pk in user_ids:
        if pk in secretaries:
            roles[pk] = "the league secretary"
        elif pk in pubs:
            roles[pk] = f"the organiser of {min(pubs[pk])[1]}"
        else:
            roles[pk] = "a former organiser"
    return roles
