"""Services that change the league's records. Keyword-only, each in one transaction."""

import datetime

from django.db import transaction

from league.models import Fixture, FixtureTeam, Season, Team


class LeagueError(Exception):
    """A change the league's rules refuse, with a message for the person asking."""


def round_robin(teams: list, *, double: bool = False) -> list[list[tuple]]:
    """Rounds of pairings by the circle method: every team meets every other once
    (twice with `double`, home and away swapped). With an odd count one team sits
    out each round (a bye)."""
    slots = list(teams) + ([None] if len(teams) % 2 else [])
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            home, away = slots[i], slots[n - 1 - i]
            if home is not None and away is not None:
                # Alternate who is at home so no team is always away.
                pairs.append((home, away) if (r + i) % 2 == 0 else (away, home))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        rounds += [[(away, home) for home, away in pairs] for pairs in rounds]
    return rounds


def fixtures_generate(
    *,
    season: Season,
    start: datetime.date,
    double: bool = False,
    games_planned: int = 5,
    teams: list[Team] | None = None,
) -> list[Fixture]:
    """Build a season's round-robin: one fixture a team a week from `start`, at the
    home team's pub. Refuses to run over fixtures that already have results."""
    with transaction.atomic():
        existing = Fixture.objects.for_season(season).select_for_update()
        if existing.filter(games__isnull=False).exists() or existing.played().exists():
            raise LeagueError(
                "This season already has results. Fixtures cannot be generated again over them."
            )
        teams = list(teams if teams is not None else season.teams.order_by("pk"))
        if len(teams) < 2:
            raise LeagueError("A round-robin needs at least two teams.")
        existing.delete()
        fixtures = []
        for number, pairs in enumerate(round_robin(teams, double=double), start=1):
            date = start + datetime.timedelta(weeks=number - 1)
            for home, away in pairs:
                fixture = Fixture.objects.create(
                    season=season,
                    pub=home.pub,
                    date=date,
                    round=number,
                    games_planned=games_planned,
                )
                FixtureTeam.objects.bulk_create(
                    [
                        FixtureTeam(fixture=fixture, team=home, seat=0),
                        FixtureTeam(fixture=fixture, team=away, seat=1),
                    ]
                )
                fixtures.append(fixture)
        return fixtures
