"""A league's stored rows with ids replaced by names, so two leagues built two ways can be
compared row for row (timestamps and idempotency keys left out: they differ by nature)."""

from collections import Counter

from league.models import Fixture, SideResult
from scoring.models import Deal, Game, GameEvent, GameSide


def _fixture_names(season) -> dict[int, tuple]:
    names = {}
    for fixture in Fixture.objects.filter(season=season).prefetch_related("fixture_teams__team"):
        teams = tuple(ft.team.name for ft in fixture.fixture_teams.all())
        names[fixture.pk] = (fixture.round, fixture.status, *teams)
    return names


def standings_snapshot(season) -> dict[str, list]:
    """The result rows of a season, by name, sorted."""
    fixtures = _fixture_names(season)
    results = SideResult.objects.filter(season=season)
    numbers = dict(results.values_list("pk", "game_number"))
    return {
        "results": sorted(
            (fixtures.get(f, ()), *rest)
            for f, *rest in results.values_list(
                "fixture_id",
                "game_number",
                "side",
                "label",
                "team__name",
                "pub__name",
                "points_for",
                "points_against",
                "won",
                "shutout",
                "marches",
                "confirmed",
            )
        ),
        "result_players": sorted(
            (fixtures.get(f, ()), numbers[r], side, name)
            for r, f, side, name in SideResult.players.through.objects.filter(
                sideresult__season=season
            ).values_list(
                "sideresult_id", "sideresult__fixture_id", "sideresult__side", "player__name"
            )
        ),
    }


def league_snapshot(season) -> dict[str, list]:
    """Every row a played season leaves behind: games, sides, deals, events, standings."""
    fixtures = _fixture_names(season)
    games = Game.objects.filter(season=season)
    game_names = {
        pk: (fixtures.get(f), number)
        for pk, f, number in games.values_list("pk", "fixture_id", "number")
    }
    snap = {
        "fixtures": sorted(fixtures.values()),
        "games": sorted(
            (game_names[pk], *rest)
            for pk, *rest in games.values_list(
                "pk",
                "pub__name",
                "sides",
                "first_dealer",
                "ruleset_key",
                "target",
                "march_bonus",
                "march_wins",
                "status",
                "scores",
                "winner",
                "reason",
                "shutout",
                "version",
            )
        ),
        "sides": sorted(
            (game_names[g], *rest)
            for g, *rest in GameSide.objects.filter(game__season=season).values_list(
                "game_id", "index", "team__name", "label"
            )
        ),
        "side_players": sorted(
            (game_names[g], i, name)
            for g, i, name in GameSide.players.through.objects.filter(
                gameside__game__season=season
            ).values_list("gameside__game_id", "gameside__index", "player__name")
        ),
        "deals": sorted(
            (game_names[g], *rest)
            for g, *rest in Deal.objects.filter(game__season=season).values_list(
                "game_id",
                "number",
                "version",
                "live",
                "dealer",
                "tricks",
                "trick_winners",
                "bonus_side",
                "entered_by",
                "entered_via",
            )
        ),
        "events": sorted(
            (game_names[g], *rest)
            for g, *rest in GameEvent.objects.filter(game__season=season).values_list(
                "game_id", "kind", "user", "link", "deal__number", "text"
            )
        ),
    }
    snap.update({f"standings_{k}": v for k, v in standings_snapshot(season).items()})
    return snap


def differences(a: dict, b: dict, limit: int = 3) -> list[str]:
    """Readable differences between two snapshots; empty when identical."""
    out = []
    for name in sorted(set(a) | set(b)):
        left, right = a.get(name, []), b.get(name, [])
        if left != right:
            lc, rc = Counter(map(repr, left)), Counter(map(repr, right))
            only_left = list((lc - rc).elements())[:limit]
            only_right = list((rc - lc).elements())[:limit]
            out.append(f"{name}: {len(left)} v {len(right)} rows; {only_left} v {only_right}")
    return out
