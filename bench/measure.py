"""In-process measurements on PostgreSQL: the floor, the standings read path, a full
recompute, and the query counts of the public pages."""

import statistics
import time
import uuid

from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import standings
from league.models import Fixture, Player, Pub, Team, TeamStanding
from league.ranking import rank_teams
from scoring.models import Game

# The floor: the standings of a season worked out straight from its deals, in one
# hand-written aggregate. Whatever the app does to show a table must beat replaying
# the deals; this is the cheapest way to replay them.
FLOOR_SQL = """
SELECT gs.team_id,
       count(DISTINCT g.id) AS played,
       count(DISTINCT g.id) FILTER (WHERE g.winner = gs.index) AS won,
       count(DISTINCT g.id) FILTER (WHERE g.winner = gs.index AND g.shutout) AS shutout_wins,
       5 * sum(substr(d.tricks, gs.index + 1, 1)::int) AS points_for,
       5 * sum(5 - substr(d.tricks, gs.index + 1, 1)::int) AS points_against,
       count(*) FILTER (WHERE substr(d.tricks, gs.index + 1, 1) = '5') AS marches
  FROM scoring_deal d
  JOIN scoring_game g ON g.id = d.game_id
  JOIN scoring_gameside gs ON gs.game_id = g.id
 WHERE g.season_id = %s AND g.status = 'finished' AND d.live
 GROUP BY gs.team_id
"""


def floor(season) -> list:
    with connection.cursor() as cursor:
        cursor.execute(FLOOR_SQL, [season.pk])
        return cursor.fetchall()


def read_path(season) -> list:
    """What the season's team table page reads and ranks (league.standings.team_rows)."""
    return standings.team_rows(season)


def read_path_parts(season) -> dict:
    """The read path's three parts, each on its own, to show where its time goes: its two
    statements, and the ranking in plain Python on totals and head-to-head rows read
    once here. What is left of the read path is building the totals and the table's
    rows."""
    groups, _ = standings.division_totals(standings.kept_team_rows(season))
    order, points = standings.tiebreak_keys(season), standings.season_points(season)
    pairs = standings.head_to_head(season)

    def ranking():
        return [rank_teams(t, order=order, points=points, pairs=pairs) for t in groups.values()]

    return {
        "team_rows_statement": lambda: standings.kept_team_rows(season),
        "head_to_head_statement": lambda: standings.head_to_head(season),
        "ranking": ranking,
    }


def recompute_function():
    """(name, function(season)) of the app's full recount of a season's kept rows: the
    team table's fast path (`TeamStanding`) written again from the result rows, as
    every change to what counts does (the player and pub tables keep nothing)."""

    def recompute(season):
        with transaction.atomic():
            standings.standings_derive(season_id=season.pk)

    return "league.standings.standings_derive (the season's kept team rows)", recompute


def repair_function():
    """(name, function(season)) of writing a season's result rows again from its games,
    each scored by the rules in Python: a repair (`manage.py rebuild_standings`), for
    scale, not a target."""
    from scoring.services import season_results_rebuild

    return "scoring.services.season_results_rebuild", lambda season: season_results_rebuild(
        season=season
    )


def timed(function, *args) -> float:
    started = time.perf_counter()
    function(*args)
    return time.perf_counter() - started


def interleaved(items: dict, repeats: int, *, warm: bool = True) -> dict:
    """Median seconds of each callable, run in turn `repeats` times (after one warm-up)."""
    for function in items.values() if warm else ():
        function()
    samples = {name: [] for name in items}
    for _ in range(repeats):
        for name, function in items.items():
            samples[name].append(timed(function))
    return {name: statistics.median(values) for name, values in samples.items()}


def each_after(first, items: dict, repeats: int) -> tuple[float, dict]:
    """Median seconds of `first` and of each callable, each run straight after `first`
    (`repeats` times, after one warm-up), so that every one of them starts from the same
    state: the read path after the floor, as a page drawn after other work."""
    first()
    for function in items.values():
        function()
    before, samples = [], {name: [] for name in items}
    for _ in range(repeats):
        for name, function in items.items():
            before.append(timed(first))
            samples[name].append(timed(function))
    return statistics.median(before), {
        name: statistics.median(values) for name, values in samples.items()
    }


def public_pages(league) -> dict[str, str]:
    """Every public page of a league, at one object of each kind."""
    season = league.seasons.current()
    pub = Pub.objects.filter(league=league).order_by("pk").first()
    player = Player.objects.filter(league=league).order_by("pk").first()
    team = Team.objects.filter(season=season).order_by("pk").first()
    fixture = Fixture.objects.filter(season=season).order_by("pk").first()
    game = Game.objects.filter(season=season).order_by("pk").first()
    ls, ss = league.slug, season.slug
    pages = {
        "home": reverse("league:home"),
        "league": reverse("league:league", args=[ls]),
        "season": reverse("league:season", args=[ls, ss]),
        "pub": reverse("league:pub", args=[ls, pub.slug]),
        "player": reverse("league:player", args=[ls, player.pk]),
        "team": reverse("league:team", args=[ls, team.pk]),
        "fixture": reverse("league:fixture", args=[ls, fixture.pk]),
        "game sheet": reverse("scoring:game-sheet", args=[game.pk]),
        "game record": reverse("scoring:game-record", args=[game.pk]),
    }
    optional = {
        "standings teams": ("league:standings-teams", [ls, ss]),
        "standings players": ("league:standings-players", [ls, ss]),
        "standings pubs": ("league:standings-pubs", [ls, ss]),
        "standings teams csv": ("league:standings-download", [ls, ss, "teams", "csv"]),
        "standings players xlsx": ("league:standings-download", [ls, ss, "players", "xlsx"]),
        "standings teams print": ("league:standings-print", [ls, ss, "teams"]),
        "all-time players": ("league:all-time-players", [ls]),
        "all-time pubs": ("league:all-time-pubs", [ls]),
        "team standings": ("league:standings-team", [ls, team.pk]),
        "player standings": ("league:standings-player", [ls, player.pk]),
    }
    for label, (name, args) in optional.items():
        try:
            pages[label] = reverse(name, args=args)
        except Exception:  # a page another issue has not added (yet)
            continue
    return pages


def kept_rows_only(season) -> list:
    """Just the season's kept team rows, unranked: the least a table page can read."""
    return list(TeamStanding.objects.filter(season=season).values_list())


# Statements that open and close transactions and savepoints: not counted in a deal
# POST's queries, as its target of 8 counts. Run in a test, the view's BEGIN and COMMIT
# are a SAVEPOINT and a RELEASE inside the test's transaction; none of them reads or
# writes a row.
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def deal_post_queries(game, user) -> tuple[int, int]:
    """(status, queries) of one deal POST by a logged-in secretary, in process, the
    statements of TRANSACTION_CONTROL aside."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    url = reverse("scoring:deal-record", args=[game.pk])
    data = {"key": str(uuid.uuid4()), "version": game.version, "mode": "split"}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {**data, "dealer": game.first_dealer, "first": 2})
    counted = [q for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)]
    return response.status_code, len(counted)


def query_counts(league) -> dict[str, tuple[int, int]]:
    """{page: (status, number of queries)} for an anonymous visitor."""
    client = Client(raise_request_exception=False)
    out = {}
    for label, url in public_pages(league).items():
        client.get(url)  # warm caches that are meant to be warm (sessions, content types)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        out[label] = (response.status_code, len(queries))
    return out
