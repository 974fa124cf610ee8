"""
Standings, derived from the result rows (`SideResult`, one per side per finished game),
read with the season's settings as they are now. The player and pub tables aggregate
the result rows; the team table reads kept rows (`TeamStanding`, `TeamPairStanding`)
that `standings_derive` writes again from them in the transaction of every change that
counts, so no edit, move or settings change can leave a table differing from a recount
of the games.

Each table is a fixed number of queries however big the league grows; the pages cache
what they draw under the league's content version (`league.results`).
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Count, F, Q, Sum
from django.urls import reverse

from league.models import (
    ByName,
    Division,
    Fixture,
    FixtureTeam,
    League,
    Player,
    Pub,
    Season,
    SideResult,
    Team,
    TeamMember,
    TeamPairStanding,
    TeamStanding,
)
from league.names import as_named_now, renamed, unaccented
from league.ranking import (
    Pair,
    Points,
    Totals,
    rank_players,
    rank_pubs,
    rank_teams,
)

COUNT_FIELDS = (
    "played",
    "won",
    "lost",
    "shutout_wins",
    "points_for",
    "points_against",
    "marches",
)


# What a kept team row (TeamStanding) holds, as `counts()` names it.
KEPT = ("played", "won", "shutout_wins", "points_for", "points_against", "marches")


def counts(prefix: str = "") -> dict:
    """The aggregates every table shares, over result rows (reached through `prefix`)."""
    return {
        "played": Count(f"{prefix}pk"),
        "won": Count(f"{prefix}pk", filter=Q(**{f"{prefix}won": True})),
        "shutout_wins": Count(f"{prefix}pk", filter=Q(**{f"{prefix}shutout": True})),
        "points_for": Sum(f"{prefix}points_for"),
        "points_against": Sum(f"{prefix}points_against"),
        "marches": Sum(f"{prefix}marches"),
    }


def _totals(id, name, row: dict | None, **extra) -> Totals:
    if not row:
        return Totals(id=id, name=name, **extra)
    return Totals(
        id=id,
        name=name,
        played=row["played"],
        won=row["won"],
        lost=row["played"] - row["won"],
        shutout_wins=row["shutout_wins"],
        points_for=row["points_for"] or 0,
        points_against=row["points_against"] or 0,
        marches=row["marches"] or 0,
        **extra,
    )


# How `rank_teams` values a team on each key before head-to-head (`ranking._value`),
# worked out from its kept row; 0 for a team with no kept row, as `kept_team_rows` reads it.
LEVEL_KEYS = {
    "points": "kept.won * %(win)s + (kept.played - kept.won) * %(loss)s"
    " + kept.shutout_wins * %(shutout)s",
    "difference": "kept.points_for - kept.points_against",
    "points_for": "kept.points_for",
    "marches": "kept.marches",
}


def head_to_head(season: Season, *, division_id=None) -> dict[tuple[int, int], Pair]:
    """Head-to-head for the teams `rank_teams` will ask it for, from the kept pair rows:
    for every two teams of a division (or the one given) that met and are level on every
    key of the season's order before head-to-head, what the first earned in the games
    between them (1 query, none when the order has no head-to-head). A big season has
    dozens of groups of teams level on points and thousands of pairs: the database finds
    the groups from the kept rows and reads only the pairs within them."""
    order = tiebreak_keys(season)
    if "head_to_head" not in order:
        return {}
    before = order[: order.index("head_to_head")]
    level = "".join(f", COALESCE({LEVEL_KEYS[k]}, 0) AS level_{n}" for n, k in enumerate(before))
    same_level = "".join(f" AND mine.level_{n} = theirs.level_{n}" for n in range(len(before)))
    in_division = "" if division_id is None else "AND team.division_id = %(division)s"
    points = season_points(season)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH team AS (
                SELECT team.id, COALESCE(team.division_id, 0) AS division_id{level}
                  FROM {Team._meta.db_table} team
                  LEFT JOIN {TeamStanding._meta.db_table} kept ON kept.team_id = team.id
                 WHERE team.season_id = %(season)s {in_division}
            )
            SELECT pair.team_id, pair.opponent_id, pair.won, pair.lost, pair.shutout_wins
              FROM team mine
              JOIN team theirs
                ON theirs.division_id = mine.division_id AND theirs.id <> mine.id{same_level}
              JOIN {TeamPairStanding._meta.db_table} pair
                ON pair.team_id = mine.id AND pair.opponent_id = theirs.id
            """,
            {
                "season": season.pk,
                "division": division_id,
                "win": points.win,
                "loss": points.loss,
                "shutout": points.shutout,
            },
        )
        rows = cursor.fetchall()
    return {
        (team, other): Pair(won=won, lost=lost, shutout_wins=shutout_wins)
        for team, other, won, lost, shutout_wins in rows
    }


# ---------------------------------------------------------------------------
# The tables. Rows come out as plain dicts, ready for league.tables, the exports and
# print.
# ---------------------------------------------------------------------------


def tiebreak_keys(season: Season) -> list[str]:
    """The season's tie-break order, without any key this code does not know."""
    return [key for key in season.tiebreak_order if key in Season.TIEBREAKS]


def season_points(season: Season) -> Points:
    return Points(win=season.points_win, loss=season.points_loss, shutout=season.points_shutout)


def _percent(totals: Totals) -> int:
    return round(100 * totals.won / totals.played) if totals.played else 0


def fixtures_won(season: Season, team_ids: Sequence[int] | None = None) -> dict[int, int]:
    """Fixtures each team won (of these teams, or all): more games of the fixture than
    any other team in it, once the fixture is played (not while it is in play)."""
    by_fixture = defaultdict(list)
    rows = SideResult.objects.counted_in(season).filter(
        fixture__status=Fixture.Status.PLAYED, team__isnull=False
    )
    if team_ids is not None:
        played = FixtureTeam.objects.filter(team_id__in=list(team_ids)).values("fixture_id")
        rows = rows.filter(fixture_id__in=played)
    rows = (
        rows.values("fixture_id", "team_id")
        .annotate(won=Count("pk", filter=Q(won=True)))
        .values_list("fixture_id", "team_id", "won")
    )
    for fixture_id, team_id, won in rows:
        by_fixture[fixture_id].append((won, team_id))
    wins: Counter = Counter()
    for entries in by_fixture.values():
        entries.sort(reverse=True)
        if entries[0][0] > 0 and (len(entries) == 1 or entries[0][0] > entries[1][0]):
            wins[entries[0][1]] += 1
    return wins


def team_counts(season: Season, team_ids: Sequence[int] | None = None) -> dict[int, dict]:
    """Each team's counted games this season (of these teams, or all), summed (1 query)."""
    rows = SideResult.objects.counted_in(season).filter(team__isnull=False)
    if team_ids is not None:
        rows = rows.filter(team_id__in=list(team_ids))
    return {row["team_id"]: row for row in rows.values("team_id").annotate(**counts())}


def lock_teams(teams) -> list[int]:
    """Lock the teams' rows, in one order, for the rest of the transaction; their ids.
    Two games of the same teams finishing at once: the second derive waits for the
    first to commit, then counts its result rows too (no lost update)."""
    return list(teams.select_for_update().order_by("pk").values_list("pk", flat=True))


def standings_derive(*, season_id: int, team_ids: Iterable[int] | None = None) -> None:
    """Write the kept team rows (`TeamStanding`, the team table's fast path) and the
    head-to-head rows between them (`TeamPairStanding`) again from the result rows: for
    these teams, or every team of the season. Call in the transaction of the change that
    made them out of date."""
    season = Season.objects.get(pk=season_id)
    teams = Team.objects.filter(season=season)
    if team_ids is not None:
        teams = teams.filter(pk__in=list(team_ids))
    ids = lock_teams(teams)
    if not ids:
        return
    these = None if team_ids is None else ids  # None: the whole season, read as such
    totals, won = team_counts(season, these), fixtures_won(season, these)
    TeamStanding.objects.filter(team_id__in=ids).delete()
    TeamStanding.objects.bulk_create(
        TeamStanding(
            season=season,
            team_id=team_id,
            fixtures_won=won[team_id],
            **{name: totals.get(team_id, {}).get(name) or 0 for name in KEPT},
        )
        for team_id in ids
    )
    _pairs_derive(season, these)


# A season's head-to-head pairs from its counted sides (`sides`): for each team and each
# other team it met, what it earned in the games between them.
FRESH_PAIRS = """
    SELECT mine.team_id, theirs.team_id AS opponent_id,
           count(*) FILTER (WHERE mine.won) AS won,
           count(*) FILTER (WHERE NOT mine.won) AS lost,
           count(*) FILTER (WHERE mine.shutout) AS shutout_wins
      FROM sides mine
      JOIN sides theirs ON theirs.game_id = mine.game_id AND theirs.team_id <> mine.team_id
     GROUP BY mine.team_id, theirs.team_id
"""


def _pairs_derive(season: Season, ids: list[int] | None) -> None:
    """The head-to-head rows between these teams (every team: None), again from their
    counted result rows. A change to a game changes only the pairs of its own teams,
    which the caller has locked. Worked out in the database, as a season has tens of
    thousands of result rows: on PostgreSQL in one statement that writes only the rows
    that differ (most of a season's pairs stay as they were) and deletes the pairs no
    longer met; elsewhere (SQLite, `make run`) all of them are deleted and written again."""
    pairs = TeamPairStanding.objects.filter(season=season)
    sides = SideResult.objects.counted_in(season).filter(team__isnull=False)
    if ids is not None:
        pairs = pairs.filter(team_id__in=ids, opponent_id__in=ids)
        sides = sides.filter(team_id__in=ids)
    sides_sql, params = (
        sides.order_by().values("game_id", "team_id", "won", "shutout").query.sql_with_params()
    )
    table = TeamPairStanding._meta.db_table
    columns = "(season_id, team_id, opponent_id, won, lost, shutout_wins)"
    if connection.vendor != "postgresql":
        pairs.delete()
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                WITH sides AS NOT MATERIALIZED ({sides_sql})
                INSERT INTO {table} {columns}
                SELECT %s, fresh.* FROM ({FRESH_PAIRS}) fresh
                """,
                [*params, season.pk],
            )
        return
    kept_sql, kept_params = pairs.values(
        "id", "team_id", "opponent_id", "won", "lost", "shutout_wins"
    ).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH sides AS NOT MATERIALIZED ({sides_sql}),
            fresh AS ({FRESH_PAIRS}),
            kept AS ({kept_sql}),
            -- The pairs that differ: new (no kept id), changed, or no longer met (no
            -- fresh team): one hash join of the fresh pairs and the kept ones.
            changed AS (
                SELECT kept.id, fresh.team_id, fresh.opponent_id,
                       fresh.won, fresh.lost, fresh.shutout_wins
                  FROM fresh FULL JOIN kept
                    ON kept.team_id = fresh.team_id AND kept.opponent_id = fresh.opponent_id
                 WHERE (fresh.won, fresh.lost, fresh.shutout_wins)
                       IS DISTINCT FROM (kept.won, kept.lost, kept.shutout_wins)
            ),
            gone AS (
                DELETE FROM {table} WHERE id IN (SELECT id FROM changed WHERE team_id IS NULL)
            )
            INSERT INTO {table} {columns}
            SELECT %s, team_id, opponent_id, won, lost, shutout_wins
              FROM changed WHERE team_id IS NOT NULL
                ON CONFLICT (team_id, opponent_id) DO UPDATE
               SET won = EXCLUDED.won, lost = EXCLUDED.lost,
                   shutout_wins = EXCLUDED.shutout_wins
            """,
            [*params, *kept_params, season.pk],
        )


def team_rows(season: Season, *, division_id=None, pub_id=None) -> list[dict]:
    """The team table from the kept team rows: ranked within each division (or the whole
    season), in 1 query, and one more for head-to-head when the season's order has it
    (the pairs of teams level before it, only). A pub filter keeps the positions the
    teams hold in their division."""
    groups, pubs = division_totals(kept_team_rows(season, division_id=division_id))
    order, points = tiebreak_keys(season), season_points(season)
    pairs = head_to_head(season, division_id=division_id)
    team_url = _team_url(season.league.slug)
    rows = []
    for division_name in sorted(groups, key=lambda name: (name == "", name)):  # none last
        for p in rank_teams(groups[division_name], order=order, points=points, pairs=pairs):
            totals = p.totals
            team_pub, pub_name = pubs[totals.id]
            if pub_id is not None and team_pub != pub_id:
                continue
            rows.append(
                {
                    **_row(totals),
                    "position": p.position,
                    "position_label": p.position_label,
                    "shared": p.shared,
                    # No sentence about counts that are all 0 under a team yet to play.
                    "note": p.note if totals.played else "",
                    "league_points": p.league_points,
                    "difference": totals.difference,
                    "fixtures_won": totals.fixtures_won,
                    "pub": pub_name,
                    "pub_id": team_pub,
                    "division": division_name,
                    "url": team_url(totals.id),
                }
            )
    return rows


# The team table's one read, written out: run for every table drawn, it took the ORM
# longer to build (1.3 ms on the bench's machine) than PostgreSQL takes to answer it for
# 200 teams. Each row is a team's `Totals`, field by field (counts 0 for a team with no
# kept row yet), then its pub's id and name and its division's name. In no order: the
# ranking puts them in order (names included), and sorting here cost 15% of the
# statement. A division's rows have a statement of their own: one statement asking
# whether a division was given cost as much again.
KEPT_TEAM_ROWS = f"""
    SELECT team.id, team.name,
           COALESCE(kept.played, 0), COALESCE(kept.won, 0),
           COALESCE(kept.played - kept.won, 0), COALESCE(kept.shutout_wins, 0),
           COALESCE(kept.points_for, 0), COALESCE(kept.points_against, 0),
           COALESCE(kept.marches, 0), COALESCE(kept.fixtures_won, 0),
           team.pub_id, pub.name, division.name
      FROM {Team._meta.db_table} team
      JOIN {Pub._meta.db_table} pub ON pub.id = team.pub_id
      LEFT JOIN {Division._meta.db_table} division ON division.id = team.division_id
      LEFT JOIN {TeamStanding._meta.db_table} kept ON kept.team_id = team.id
     WHERE team.season_id = %(season)s
"""
KEPT_DIVISION_ROWS = KEPT_TEAM_ROWS + "AND team.division_id = %(division)s"


def kept_team_rows(season: Season, *, division_id=None) -> list[tuple]:
    """The season's teams (of one division, or all) with their kept rows, as plain
    tuples, as a table can have hundreds of teams: a team's `Totals` field by field, then
    pub id, pub name and division name (1 query)."""
    statement = KEPT_TEAM_ROWS if division_id is None else KEPT_DIVISION_ROWS
    with connection.cursor() as cursor:
        cursor.execute(statement, {"season": season.pk, "division": division_id})
        return cursor.fetchall()


def division_totals(kept_rows) -> tuple[dict[str, list[Totals]], dict[int, tuple]]:
    """From `kept_team_rows`: each division's teams' totals (by division name, "" for
    none), and each team's (pub id, pub name)."""
    groups = defaultdict(list)
    pubs = {}
    for *fields, team_pub, pub_name, division in kept_rows:
        totals = Totals(*fields)
        groups[division or ""].append(totals)
        pubs[totals.id] = team_pub, pub_name
    return groups, pubs


def _team_url(league_slug: str):
    """The address of a team's standings page, by its id: resolved once for a table of
    hundreds of teams ("/clare/teams/0/standings/" with the id put in for the 0)."""
    start, _, end = reverse("league:standings-team", args=[league_slug, 0]).rpartition("/0/")
    return lambda pk: f"{start}/{pk}/{end}"


def _row(totals: Totals) -> dict:
    """A table row's id, name, counts (`COUNT_FIELDS`) and share of games won."""
    return {
        "id": totals.id,
        "name": totals.name,
        "played": totals.played,
        "won": totals.won,
        "lost": totals.lost,
        "shutout_wins": totals.shutout_wins,
        "points_for": totals.points_for,
        "points_against": totals.points_against,
        "marches": totals.marches,
        "win_percent": _percent(totals),
    }


def player_counts(results) -> list[dict]:
    """Per player, the counts of `results` (a SideResult queryset), with the player's
    name and home pub (1 query)."""
    Through = SideResult.players.through
    return list(
        Through.objects.filter(sideresult__in=results)
        .values("player_id", "player__name", "player__home_pub__name")
        .annotate(**counts("sideresult__"))
        .order_by("player_id")
    )


def player_rows(season: Season) -> tuple[list[dict], list[dict]]:
    """Ranked players (with the season's minimum games) and the rest, in 1 query."""
    rows = player_counts(SideResult.objects.counted().filter(season=season))
    return _ranked_players(rows, min_games=season.min_games, league_slug=season.league.slug)


def _ranked_players(rows, *, min_games, league_slug) -> tuple[list[dict], list[dict]]:
    pubs = {row["player_id"]: row["player__home_pub__name"] or "" for row in rows}
    ranked, others = rank_players(
        [_totals(row["player_id"], row["player__name"], row) for row in rows],
        min_games=min_games,
    )

    def as_dict(item):
        totals = getattr(item, "totals", item)
        return {
            **_row(totals),
            "position": getattr(item, "position", None),
            "position_label": item.position_label if hasattr(item, "position") else "",
            "pub": pubs[totals.id],
            "url": reverse("league:standings-player", args=[league_slug, totals.id]),
        }

    return [as_dict(i) for i in ranked], [as_dict(i) for i in others]


def all_time_player_rows(league: League, *, min_games: int) -> tuple[list[dict], list[dict]]:
    """Every season of the league added up, in 1 query."""
    rows = player_counts(SideResult.objects.counted().filter(season__league=league))
    return _ranked_players(rows, min_games=min_games, league_slug=league.slug)


def all_time_team_rows(league: League) -> list[dict]:
    """Partnerships across seasons: the same players together, whatever the team was
    called each season, ranked like the player table, in 3 queries (4 when two share a
    name). Each is named by `_partnership_names`, and told apart by `_told_apart`."""
    rows = list(
        SideResult.objects.counted()
        .filter(season__league=league, team__isnull=False)
        .values("partnership")
        .annotate(**counts(), seasons=Count("season", distinct=True))
        .order_by("partnership")
    )
    names = _told_apart(_partnership_names(league), [row["partnership"] for row in rows])
    totals = [
        _totals(index, names.get(row["partnership"], ""), row) for index, row in enumerate(rows)
    ]
    seasons = {index: row["seasons"] for index, row in enumerate(rows)}
    ranked, _ = rank_players(totals, min_games=0)
    return [
        {
            **_row(p.totals),
            "position": p.position,
            "position_label": p.position_label,
            "seasons": seasons[p.totals.id],
        }
        for p in ranked
    ]


def _partnership_names(league: League) -> dict[str, str]:
    """Each partnership's name (`SideResult.partnership`, "3-17"), in 2 queries: the name
    its team has now, in the latest season it has a team in (by start date, then id).
    Its teams are those of exactly its players, games played or not, and those it
    played as, even if their players have changed since."""
    teams, members = {}, defaultdict(list)
    for team_id, name, start, season_id, player_id in TeamMember.objects.filter(
        season__league=league
    ).values_list("team_id", "team__name", "season__start_date", "season_id", "player_id"):
        teams[team_id] = (start, season_id, team_id), name
        members[team_id].append(player_id)
    found = [
        ("-".join(str(p) for p in sorted(players)), *teams[team_id])
        for team_id, players in members.items()
    ]
    found += [
        (partnership, (start, season_id, team_id), name)
        for partnership, team_id, name, start, season_id in SideResult.objects.filter(
            league=league, team__isnull=False
        )
        .values_list(
            "partnership", "team_id", "team__name", "team__season__start_date", "team__season_id"
        )
        .order_by()  # not by the model's ordering, which would undo the distinct
        .distinct()
    ]
    # Latest last, so that its name is the one kept.
    return {partnership: name for partnership, _, name in sorted(found, key=lambda f: f[1])}


def _told_apart(names: dict[str, str], partnerships: list[str]) -> dict[str, str]:
    """Partnerships of one name (a team whose player was replaced, playing on under its
    name) each followed by their players' names, "The Robbers (Eoin Casey & Caitríona
    Daly)", so that no two rows of a table read alike (1 query, only then)."""
    shared = Counter(names.get(p, "") for p in partnerships)
    alike = [p for p in partnerships if shared[names.get(p, "")] > 1]
    if not alike:
        return names
    ids = {int(player) for p in alike for player in p.split("-")}
    players = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    told = {}
    for p in alike:
        who = sorted((players[int(i)] for i in p.split("-") if int(i) in players), key=unaccented)
        told[p] = f"{names.get(p, '')} ({' & '.join(who)})"
    return names | told


def pub_counts(results) -> list[dict]:
    """Per pub, the counts of `results` (a SideResult queryset) and the teams they are
    of, each side counted for the pub it played for (1 query)."""
    return list(
        results.filter(pub__isnull=False)
        .values("pub_id", "pub__name", "pub__slug")
        .annotate(**counts(), teams=Count("team", distinct=True))
        .order_by("pub_id")
    )


def pub_rows(season: Season | None, *, league: League | None = None) -> list[dict]:
    """The pub table for a season, or all-time for a league, in 1 query: each side, and
    its team, counted for the pub it played for (a team that moved pubs is counted with
    each pub it played for)."""
    league = league or season.league
    scope = {"season": season} if season else {"season__league": league}
    rows = pub_counts(SideResult.objects.counted().filter(**scope))
    by_id = {row["pub_id"]: row for row in rows}
    placed = rank_pubs([_totals(r["pub_id"], r["pub__name"], r) for r in rows])
    return [
        {
            **_row(p.totals),
            "position": p.position,
            "position_label": p.position_label,
            "teams": by_id[p.totals.id]["teams"],
            "url": reverse("league:pub", args=[league.slug, by_id[p.totals.id]["pub__slug"]]),
        }
        for p in placed
    ]


def pub_teams_moved_away(season: Season, pub: Pub) -> list[Team]:
    """The teams of `season` counted for `pub` in the pub table (`pub_rows`) that are at
    another pub now, so its page, which lists the teams at the pub now, can say why the
    two differ (1 query)."""
    played = SideResult.objects.counted().filter(season=season, pub=pub).values("team_id")
    return list(season.teams.filter(pk__in=played).exclude(pub=pub).select_related("pub"))


# ---------------------------------------------------------------------------
# A team's and a player's own pages.
# ---------------------------------------------------------------------------


def team_round_rows(season: Season, team_ids: Sequence[int]) -> list[dict]:
    """The teams' counts round by round, for the position chart (1 query)."""
    rows = (
        SideResult.objects.counted()
        .filter(season=season, team_id__in=list(team_ids), fixture__isnull=False)
        .values("team_id", round=F("fixture__round"))
        .annotate(**counts())
    )
    return [{**row, "lost": row["played"] - row["won"]} for row in rows]


def team_opponents(team: Team) -> list[dict]:
    """The team's record against each team it met this season (2 queries)."""
    mine = SideResult.objects.counted().filter(team=team)
    rows = list(
        SideResult.objects.counted()
        .filter(game_id__in=mine.values("game_id"), team__isnull=False)
        .values_list("game_id", "team_id", "won", "points_for")
    )
    names = dict(Team.objects.filter(season_id=team.season_id).values_list("pk", "name"))
    by_game = defaultdict(dict)
    for game_id, team_id, won, points in rows:
        by_game[game_id][team_id] = (won, points)
    totals: dict[int, Counter] = defaultdict(Counter)
    for sides in by_game.values():
        won, points = sides[team.pk]
        for other, (_, other_points) in sides.items():
            if other != team.pk:
                totals[other].update(
                    played=1,
                    won=int(won),
                    lost=int(not won),
                    points_for=points,
                    points_against=other_points,
                )
    return sorted(
        (
            {"opponent_id": other, "name": names.get(other, ""), **{k: c[k] for k in c}}
            for other, c in totals.items()
        ),
        key=lambda row: row["name"],
    )


def player_seasons(player: Player) -> list[dict]:
    """A player's counted games season by season (1 query)."""
    rows = (
        SideResult.objects.counted()
        .filter(players=player)
        .values("season_id", "season__name", "season__slug", "season__start_date")
        .annotate(**counts())
        .order_by("-season__start_date")
    )
    out = []
    for row in rows:
        totals = _totals(row["season_id"], row["season__name"], row)
        out.append({**_row(totals), "slug": row["season__slug"], "percent": _percent(totals)})
    return out


def player_partners(player: Player) -> list[dict]:
    """Who a player played counted games with, and how they did together (1 query)."""
    Through = SideResult.players.through
    mine = SideResult.objects.counted().filter(players=player)
    return list(
        Through.objects.filter(sideresult__in=mine)
        .exclude(player=player)
        .values("player_id", "player__name")
        .annotate(together=Count("pk"), wins=Count("pk", filter=Q(sideresult__won=True)))
        .order_by("-together", ByName("player__name"))
    )


def recent_games(results, limit: int = 10) -> list[dict]:
    """The latest finished games from a team's or player's result rows, with every side's
    score, each side named by its team's name now (`names.as_named_now`), as the page's
    title and tables name it; friendlies are marked, and so is a game the table does not
    count yet (not confirmed, where the season counts only confirmed games) (2 queries)."""
    latest = list(
        results.select_related("fixture", "season").order_by("-finished_at", "-game_id")[:limit]
    )
    sides = defaultdict(list)
    rows = SideResult.objects.filter(game_id__in=[r.game_id for r in latest]).select_related("team")
    for row in rows.order_by("side"):
        sides[row.game_id].append(row)
    names = {game_id: as_named_now(game_sides) for game_id, game_sides in sides.items()}
    return [
        {
            "game_id": row.game_id,
            "won": row.won,
            "friendly": row.season_id is None,
            "waiting": row.season_id is not None
            and row.season.confirmed_only
            and not row.confirmed,
            # The match night's date (a result entered later still belongs to it).
            "date": row.fixture.date if row.fixture_id else row.finished_at,
            "reason": renamed(row.reason, names[row.game_id]),
            "sides": [
                (names[row.game_id][side.label], side.points_for) for side in sides[row.game_id]
            ],
        }
        for row in latest
    ]
