"""A season's standings counted again from the raw deals, and the app's own tables in the
same shape, so the two can be compared.

`recount` is a reference for the checks (the standings tests, the smoke test, the backup
and move tests) and owes nothing to the app's result code (`scoring/outcome.py`,
`league/results.py`, `league/standings.py`): it reads the games, their sides and
players and their live deals as stored, scores each finished game again with the rules,
and adds up what each team, player and pub earned in the games that count (a season's,
confirmed where the season asks for it).

`kept` reads the same totals from the app's standings: the kept team rows (the team
table's fast path), the kept head-to-head rows, and the player and pub tables
(aggregates of the result rows).
"""

from collections import Counter, defaultdict

import rules
from league import standings
from league.models import SideResult, TeamPairStanding, TeamStanding
from scoring.models import Confirmation, Deal, Game, GameSide

Totals = dict[tuple[str, int | tuple[int, int]], Counter]


def recount(season) -> Totals:
    """{("team" | "player" | "pub", id): counts} for every team, player and pub with a
    counted game, and {("pair", (team id, other team id)): counts} for every two teams
    that met in one, from the stored deals."""
    games = {
        g.pk: g
        for g in Game.objects.filter(season=season, status=Game.Status.FINISHED).only(
            "pk", "sides", "ruleset_key", "target", "march_bonus", "march_wins"
        )
    }
    confirmed = set(
        Confirmation.objects.filter(game_id__in=games).values_list("game_id", flat=True)
    )
    deals = defaultdict(list)
    for deal in Deal.objects.filter(game_id__in=games, live=True).order_by("number"):
        deals[deal.game_id].append(
            rules.Deal(
                dealer=deal.dealer,
                tricks=[int(c) for c in deal.tricks],
                trick_winners=[int(c) for c in deal.trick_winners] or None,
                bonus_side=deal.bonus_side,
            )
        )
    players = defaultdict(list)
    through = GameSide.players.through.objects.filter(gameside__game_id__in=games)
    for side_id, player_id in through.values_list("gameside_id", "player_id"):
        players[side_id].append(player_id)
    sides = defaultdict(list)
    rows = GameSide.objects.filter(game_id__in=games)
    for side in rows.values("pk", "game_id", "index", "team_id", "pub_id"):
        sides[side["game_id"]].append(side)

    totals: Totals = defaultdict(Counter)
    for game_id, game in games.items():
        if season.confirmed_only and game_id not in confirmed:
            continue
        result = rules.score_game(game.ruleset, sides=game.sides, deals=deals[game_id])
        if not result.finished:
            continue
        everything = sum(result.scores)
        for side in sides[game_id]:
            i = side["index"]
            won = result.winner == i
            counts = Counter(
                played=1,
                won=int(won),
                lost=int(not won),
                shutout_wins=int(won and result.shutout),
                points_for=result.scores[i],
                points_against=everything - result.scores[i],
                marches=sum(1 for deal in deals[game_id] if deal.tricks[i] == 5),
            )
            if side["team_id"] is not None:
                totals["team", side["team_id"]].update(counts)
            if side["pub_id"] is not None:
                totals["pub", side["pub_id"]].update(counts)
            for player_id in players[side["pk"]]:
                totals["player", player_id].update(counts)
        teams = [(side["team_id"], side["index"]) for side in sides[game_id] if side["team_id"]]
        for team_id, i in teams:
            won = result.winner == i
            for other_id, _ in teams:
                if other_id != team_id:
                    totals["pair", (team_id, other_id)].update(
                        won=int(won), lost=int(not won), shutout_wins=int(won and result.shutout)
                    )
    return {key: _nonzero(counts) for key, counts in totals.items()}


def kept(season) -> Totals:
    """The same totals as the app's standings give them (all of the season's tables)."""
    out: Totals = {}

    def add(kind, key, row):
        if not row["played"]:
            return  # a kept row of a team with no counted game: nothing to compare
        out[kind, key] = _nonzero(
            Counter(
                played=row["played"],
                won=row["won"],
                lost=row["played"] - row["won"],
                shutout_wins=row["shutout_wins"],
                points_for=row["points_for"] or 0,
                points_against=row["points_against"] or 0,
                marches=row["marches"] or 0,
            )
        )

    kept_rows = TeamStanding.objects.filter(season=season).values(
        "team_id", *(name for name in standings.COUNT_FIELDS if name != "lost")
    )
    for row in kept_rows:  # the team table's fast path: the kept team rows
        add("team", row["team_id"], row)
    pairs = TeamPairStanding.objects.filter(season=season)
    for team, other, won, lost, shutout_wins in pairs.values_list(
        "team_id", "opponent_id", "won", "lost", "shutout_wins"
    ):  # head-to-head: the kept pair rows
        out["pair", (team, other)] = _nonzero(
            Counter(won=won, lost=lost, shutout_wins=shutout_wins)
        )
    counted = SideResult.objects.counted().filter(season=season)
    for row in standings.pub_counts(counted):
        add("pub", row["pub_id"], row)
    for row in standings.player_counts(counted):
        add("player", row["player_id"], row)
    return out


def _nonzero(counts: Counter) -> Counter:
    return Counter({name: value for name, value in counts.items() if value})
