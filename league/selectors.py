"""Reads reused by the league's pages, each a fixed number of queries."""

from django.core.paginator import Paginator
from django.db.models import Prefetch, Q

from league.models import Fixture, FixtureTeam, Player, SideResult, Team
from league.names import as_named_now, renamed


def fixtures_with_teams(queryset):
    """Fixtures with their pub and teams in seat order, in two queries."""
    return queryset.select_related("pub", "season__league").prefetch_related(
        Prefetch("fixture_teams", queryset=FixtureTeam.objects.select_related("team"))
    )


def teams_with_players(queryset):
    """Teams with their pub, division, season and players, in two queries."""
    return queryset.select_related("pub", "division", "season__league").prefetch_related(
        Prefetch("players", queryset=Player.objects.select_related("league"))
    )


def season_fixtures(season):
    return fixtures_with_teams(Fixture.objects.for_season(season)).order_by("date", "pk")


def season_teams(season):
    return teams_with_players(Team.objects.filter(season=season))


def with_results(fixtures):
    """The fixtures with a result or a game started: what a new round-robin must not
    run over."""
    return fixtures.filter(Q(games_started__gt=0) | Q(status=Fixture.Status.PLAYED))


def usual_games(season) -> int:
    """The games a fixture plans, as the season's last fixture made has it (5 before any)."""
    last = season.fixtures.order_by("-pk").values_list("games_planned", flat=True).first()
    return last or 5


def also_playing(fixture) -> list[tuple[Team, Fixture]]:
    """Each of the fixture's teams that plays another fixture of the season on the same
    night, with that fixture (a catch-up night, or a mistake)."""
    teams = {ft.team_id: ft.team for ft in fixture.fixture_teams.select_related("team")}
    others = Fixture.objects.filter(
        season=fixture.season_id, date=fixture.date, fixture_teams__team__in=list(teams)
    ).exclude(pk=fixture.pk)
    return [
        (teams[ft.team_id], other)
        for other in fixtures_with_teams(others.distinct().order_by("pk"))
        for ft in other.fixture_teams.all()
        if ft.team_id in teams
    ]


WAITING_SHOWN = 20


def games_to_confirm(season, *, pubs=None) -> tuple[int, list[tuple[Fixture, list[SideResult]]]]:
    """Where `season` counts only confirmed games: its finished games not confirmed yet
    (played at `pubs`, when given), oldest first. How many, and the first WAITING_SHOWN
    by fixture (with its pub and teams), each game as its winning side's result row (3
    queries; none where every game counts)."""
    if season is None or not season.confirmed_only:
        return 0, []
    rows = SideResult.objects.filter(season=season, confirmed=False, won=True)
    if pubs is not None:
        rows = rows.filter(fixture__pub__in=pubs)
    shown = rows.select_related("fixture__pub").prefetch_related(
        Prefetch("fixture__fixture_teams", queryset=FixtureTeam.objects.select_related("team"))
    )
    by_fixture: dict[int, tuple[Fixture, list[SideResult]]] = {}
    for row in shown.order_by("finished_at", "game_id")[:WAITING_SHOWN]:
        by_fixture.setdefault(row.fixture_id, (row.fixture, []))[1].append(row)
    return rows.count(), list(by_fixture.values())


def fixture_games(fixture) -> list[dict]:
    """A fixture's finished games from its result rows, each with its sides' scores, its
    winner, the winner's team, why it won, and whether the table counts it yet (not
    before it is confirmed, where the season counts only confirmed games), in game
    order (1 query). Each side is named by its team's name now (`names.as_named_now`),
    as the match's result above them is."""
    by_game: dict[int, list] = {}
    rows = SideResult.objects.filter(fixture=fixture).select_related("team")
    for row in rows.order_by("game_number", "side"):
        by_game.setdefault(row.game_id, []).append(row)
    games = []
    for game_id, sides in by_game.items():
        names = as_named_now(sides)
        game = {
            "id": game_id,
            "number": sides[0].game_number,
            "sides": [(names[row.label], row.points_for) for row in sides],
            "winner": "",
            "counted": sides[0].confirmed or not fixture.season.confirmed_only,
        }
        for row in sides:
            if row.won:
                game.update(
                    winner=names[row.label],
                    winning_team=row.team_id,
                    reason=renamed(row.reason, names),
                )
        games.append(game)
    return games


def fixture_result(fixture, games: list[dict]) -> str:
    """The match in words, from its finished `games` (`fixture_games`): the games each
    team has won so far, then, once the fixture is played, who won the match by how many
    games ("Harbour Hearts won the match 2–1"), or that it was level. "" before a game
    is finished."""
    if not games:
        return ""
    teams = [seat.team for seat in fixture.fixture_teams.all()]
    won = {team.pk: 0 for team in teams}
    for game in games:
        if game.get("winning_team") in won:
            won[game["winning_team"]] += 1
    if fixture.status != Fixture.Status.PLAYED:
        return "Games won so far: " + " – ".join(f"{t.name} {won[t.pk]}" for t in teams) + "."
    ranked = sorted(teams, key=lambda team: -won[team.pk])
    score = "–".join(str(won[team.pk]) for team in ranked)
    if len(ranked) > 1 and won[ranked[0].pk] == won[ranked[1].pk]:
        return f"The match was level, {score}."
    return f"{ranked[0].name} won the match {score}."


PAGE_SIZE = 50


def paged(request, queryset):
    """One page of a list that grows with the league (`?page=`, 50 rows; a page past the
    end or not a number gives the nearest page), so a page costs the same however long
    the list is."""
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))
