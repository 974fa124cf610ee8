"""
Standings rows, kept in step with the games.

scoring/ describes a finished game as a GameOutcome (plain data, so league/ never
imports scoring/) and calls `standings_game_changed` in the same transaction as the
deal, correction, undo or confirmation that changed it: the old outcome is taken away
and the new one added.

- An **outcome** is None while a game does not count (not finished, no season, or
  not yet confirmed in a season that counts only confirmed games): scoring decides.
- A **row** holds counts (played, won, lost, shutout wins, points for and against,
  marches) for a team, a pair of teams, a team in a fixture, a player, a pair of
  partners or a pub, in one season. Rows are changed with F() expressions, so two
  games saved at once both land; keys are taken in one fixed order, so two such
  transactions never wait on each other in a circle.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import permutations

from django.db import transaction
from django.db.models import Count, F, Sum
from django.db.models.functions import Now
from django.urls import reverse

from league.models import (
    League,
    PartnerSeasonRow,
    PlayerSeasonRow,
    PubSeasonRow,
    Season,
    StandingsRow,
    Team,
    TeamFixtureRow,
    TeamPairRow,
    TeamSeasonRow,
)
from league.ranking import Pair, Points, Totals, rank_players, rank_pubs, rank_teams


@dataclass(frozen=True)
class SideOutcome:
    team_id: int | None
    pub_id: int | None
    player_ids: tuple[int, ...]
    points_for: int
    points_against: int
    won: bool
    marches: int
    shutout_win: bool


@dataclass(frozen=True)
class GameOutcome:
    season_id: int
    fixture_id: int | None
    confirmed: bool
    sides: tuple[SideOutcome, ...]
    round: int | None = None


# The models in the order their rows are always taken (see the module docstring).
ROW_MODELS = (
    TeamSeasonRow,
    TeamPairRow,
    TeamFixtureRow,
    PlayerSeasonRow,
    PartnerSeasonRow,
    PubSeasonRow,
)

Key = tuple[type[StandingsRow], tuple[tuple[str, int], ...]]


def side_counts(side: SideOutcome, *, against: int | None = None) -> Counter:
    """What one side's game adds to a row."""
    return Counter(
        played=1,
        won=int(side.won),
        lost=int(not side.won),
        shutout_wins=int(side.shutout_win),
        points_for=side.points_for,
        points_against=side.points_against if against is None else against,
        marches=side.marches,
    )


def outcome_rows(outcome: GameOutcome) -> dict[Key, Counter]:
    """Every row the outcome adds to, with what it adds."""
    rows: dict[Key, Counter] = {}

    def add(model, counts, **key):
        rows.setdefault((model, tuple(sorted(key.items()))), Counter()).update(counts)

    season = outcome.season_id
    for side in outcome.sides:
        counts = side_counts(side)
        if side.team_id is not None:
            add(TeamSeasonRow, counts, season_id=season, team_id=side.team_id)
            if outcome.fixture_id is not None:
                add(
                    TeamFixtureRow,
                    counts,
                    season_id=season,
                    fixture_id=outcome.fixture_id,
                    team_id=side.team_id,
                    round=outcome.round or 1,
                )
        for player_id in side.player_ids:
            add(PlayerSeasonRow, counts, season_id=season, player_id=player_id)
        for player_id, partner_id in permutations(side.player_ids, 2):
            add(
                PartnerSeasonRow,
                counts,
                season_id=season,
                player_id=player_id,
                partner_id=partner_id,
            )
        if side.pub_id is not None:
            add(PubSeasonRow, counts, season_id=season, pub_id=side.pub_id)
    for side, other in permutations(outcome.sides, 2):
        if side.team_id is not None and other.team_id is not None:
            add(
                TeamPairRow,
                side_counts(side, against=other.points_for),
                season_id=season,
                team_id=side.team_id,
                opponent_id=other.team_id,
            )
    return rows


def standings_game_changed(*, before: GameOutcome | None, after: GameOutcome | None) -> None:
    """Take `before` out of the kept rows and put `after` in.

    Call inside the transaction that changed the game. What before and after share
    cancels out first, so a deal that changes nothing that counts writes nothing.
    """
    if before == after:
        return
    net: dict[Key, Counter] = {}
    for outcome, sign in ((before, -1), (after, 1)):
        if outcome is None:
            continue
        for key, counts in outcome_rows(outcome).items():
            total = net.setdefault(key, Counter())
            for name, value in counts.items():
                total[name] += sign * value
    changes = {key: counts for key, counts in net.items() if any(counts.values())}
    if not changes:
        return
    for model in ROW_MODELS:
        keys = sorted(key for (m, key) in changes if m is model)
        if not keys:
            continue
        model.objects.bulk_create([model(**dict(key)) for key in keys], ignore_conflicts=True)
        for key in keys:
            counts = changes[(model, key)]
            lookup = {name: value for name, value in key if name != "round"}
            model.objects.filter(**lookup).update(
                updated_at=Now(),
                **{name: F(name) + value for name, value in counts.items() if value},
            )
    season_id = (before or after).season_id
    results_changed(League.objects.filter(seasons__pk=season_id))


def results_changed(leagues) -> None:
    """Move the leagues' results version on, after their rows were changed (last, so
    row locks are always taken before the league's)."""
    leagues.update(results_version=F("results_version") + 1)


def standings_season_rebuild(*, season_id: int, outcomes: Iterable[GameOutcome | None]) -> None:
    """Throw away a season's kept rows and count `outcomes` again from nothing: a
    repair, or a recount after a bulk load. The caller (scoring/) passes the outcome of
    every game of the season. The rows are summed in memory and written once each."""
    totals: dict[Key, Counter] = defaultdict(Counter)
    for outcome in outcomes:
        if outcome is not None:
            for key, counts in outcome_rows(outcome).items():
                totals[key].update(counts)
    with transaction.atomic():
        for model in ROW_MODELS:
            model.objects.filter(season_id=season_id).delete()
            model.objects.bulk_create(
                [model(**dict(key), **counts) for (m, key), counts in totals.items() if m is model],
                batch_size=2000,
            )
        results_changed(League.objects.filter(seasons__pk=season_id))


# ---------------------------------------------------------------------------
# Reads: the tables drawn from the kept rows, each a fixed number of queries.
# Rows come out as plain dicts, ready for league.tables, the exports and print.
# ---------------------------------------------------------------------------

COUNT_FIELDS = StandingsRow.COUNTS


def tiebreak_keys(season: Season) -> list[str]:
    """The season's tie-break order, without any key this code does not know."""
    return [key for key in season.tiebreak_order if key in Season.TIEBREAKS]


def season_points(season: Season) -> Points:
    return Points(win=season.points_win, loss=season.points_loss, shutout=season.points_shutout)


def _totals(id, name, row, **extra) -> Totals:
    counts = {name: getattr(row, name) for name in COUNT_FIELDS} if row else {}
    return Totals(id=id, name=name, **counts, **extra)


def _percent(totals: Totals) -> int:
    return round(100 * totals.won / totals.played) if totals.played else 0


def fixtures_won(season: Season) -> dict[int, int]:
    """Fixtures each team won: more games of the fixture than any other team in it."""
    by_fixture = defaultdict(list)
    rows = TeamFixtureRow.objects.filter(season=season).values_list("fixture_id", "team_id", "won")
    for fixture_id, team_id, won in rows:
        by_fixture[fixture_id].append((won, team_id))
    wins: Counter = Counter()
    for entries in by_fixture.values():
        entries.sort(reverse=True)
        if entries[0][0] > 0 and (len(entries) == 1 or entries[0][0] > entries[1][0]):
            wins[entries[0][1]] += 1
    return wins


def team_pairs(season: Season) -> dict[tuple[int, int], Pair]:
    rows = TeamPairRow.objects.filter(season=season).values_list(
        "team_id", "opponent_id", "won", "lost", "shutout_wins"
    )
    return {(t, o): Pair(won=w, lost=lost, shutout_wins=s) for t, o, w, lost, s in rows}


def team_rows(season: Season, *, division_id=None, pub_id=None) -> list[dict]:
    """The team table: ranked within each division (or the whole season), in 3 queries.
    A pub filter keeps the positions the teams hold in their division."""
    teams = Team.objects.filter(season=season).select_related("pub", "division", "standing")
    if division_id is not None:
        teams = teams.filter(division_id=division_id)
    won_fixtures = fixtures_won(season)
    pairs = team_pairs(season)
    groups = defaultdict(list)
    for team in teams:
        groups[team.division.name if team.division else ""].append(team)
    league_slug = season.league.slug
    rows = []
    for division_name in sorted(groups):
        members = {team.pk: team for team in groups[division_name]}
        totals = [
            _totals(
                team.pk,
                team.name,
                getattr(team, "standing", None),
                fixtures_won=won_fixtures[team.pk],
            )
            for team in members.values()
        ]
        placed = rank_teams(
            totals, order=tiebreak_keys(season), points=season_points(season), pairs=pairs
        )
        for p in placed:
            team = members[p.totals.id]
            if pub_id is not None and team.pub_id != pub_id:
                continue
            rows.append(
                {
                    **_row(p.totals),
                    "position": p.position,
                    "position_label": p.position_label,
                    "shared": p.shared,
                    "note": p.note,
                    "league_points": p.league_points,
                    "difference": p.totals.difference,
                    "fixtures_won": p.totals.fixtures_won,
                    "pub": team.pub.name,
                    "division": division_name,
                    "url": reverse("league:standings-team", args=[league_slug, team.pk]),
                }
            )
    return rows


def _row(totals: Totals) -> dict:
    return {
        "id": totals.id,
        "name": totals.name,
        **{name: getattr(totals, name) for name in COUNT_FIELDS},
        "win_percent": _percent(totals),
    }


def player_rows(season: Season) -> tuple[list[dict], list[dict]]:
    """Ranked players (with the season's minimum games) and the rest, in 1 query."""
    rows = PlayerSeasonRow.objects.filter(season=season).select_related("player__home_pub")
    players = {row.player_id: row.player for row in rows}
    ranked, others = rank_players(
        [_totals(row.player_id, row.player.name, row) for row in rows],
        min_games=season.min_games,
    )
    return _player_dicts(ranked, players, season.league.slug), _player_dicts(
        others, players, season.league.slug
    )


def _player_dicts(items, players, league_slug) -> list[dict]:
    out = []
    for item in items:
        totals = getattr(item, "totals", item)
        player = players[totals.id]
        out.append(
            {
                **_row(totals),
                "position": getattr(item, "position", None),
                "position_label": item.position_label if hasattr(item, "position") else "",
                "pub": player.home_pub.name if player.home_pub else "",
                "url": reverse("league:standings-player", args=[league_slug, player.pk]),
            }
        )
    return out


def all_time_player_rows(league: League, *, min_games: int) -> tuple[list[dict], list[dict]]:
    """Every season of the league added up, in 1 query."""
    rows = (
        PlayerSeasonRow.objects.filter(season__league=league)
        .values("player_id", "player__name", "player__home_pub__name")
        .annotate(**{name: Sum(name) for name in COUNT_FIELDS})
        .order_by("player_id")
    )
    pubs = {row["player_id"]: row["player__home_pub__name"] or "" for row in rows}
    totals = [
        Totals(
            id=row["player_id"],
            name=row["player__name"],
            **{name: row[name] for name in COUNT_FIELDS},
        )
        for row in rows
    ]
    ranked, others = rank_players(totals, min_games=min_games)

    def as_dict(item):
        totals = getattr(item, "totals", item)
        return {
            **_row(totals),
            "position": getattr(item, "position", None),
            "position_label": item.position_label if hasattr(item, "position") else "",
            "pub": pubs[totals.id],
            "url": reverse("league:standings-player", args=[league.slug, totals.id]),
        }

    return [as_dict(i) for i in ranked], [as_dict(i) for i in others]


def pub_rows(season: Season | None, *, league: League | None = None) -> list[dict]:
    """The pub table for a season, or all-time for a league, in 2 queries."""
    league = league or season.league
    scope = {"season": season} if season else {"season__league": league}
    rows = (
        PubSeasonRow.objects.filter(**scope)
        .values("pub_id", "pub__name", "pub__slug")
        .annotate(**{name: Sum(name) for name in COUNT_FIELDS})
        .order_by("pub_id")
    )
    team_counts = dict(
        Team.objects.filter(**scope)
        .values("pub_id")
        .annotate(n=Count("pk"))
        .values_list("pub_id", "n")
    )
    by_id = {row["pub_id"]: row for row in rows}
    placed = rank_pubs(
        [
            Totals(id=r["pub_id"], name=r["pub__name"], **{n: r[n] for n in COUNT_FIELDS})
            for r in rows
        ]
    )
    return [
        {
            **_row(p.totals),
            "position": p.position,
            "position_label": p.position_label,
            "teams": team_counts.get(p.totals.id, 0),
            "url": reverse("league:pub", args=[league.slug, by_id[p.totals.id]["pub__slug"]]),
        }
        for p in placed
    ]
