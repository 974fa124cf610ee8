"""A season's standings counted again from the stored games, in five queries.

A reference for the checks (the smoke test, the backup and move tests): it reads the
games, sides, players and live deals as stored and turns each counted game into the
same `GameOutcome` that scoring/outcome.py makes, then adds up `outcome_rows`.
"""

from collections import Counter, defaultdict

from league.standings import COUNT_FIELDS, ROW_MODELS, GameOutcome, SideOutcome, outcome_rows
from scoring.models import Confirmation, Deal, Game, GameSide


def recount(season) -> dict:
    """{(row model name, key): counts} for every row a full recount gives."""
    games = list(
        Game.objects.filter(season=season, status=Game.Status.FINISHED).values(
            "pk", "fixture_id", "fixture__round", "pub_id", "scores", "winner", "shutout"
        )
    )
    ids = [g["pk"] for g in games]
    confirmed = set(Confirmation.objects.filter(game_id__in=ids).values_list("game_id", flat=True))
    sides = defaultdict(list)
    for side in GameSide.objects.filter(game_id__in=ids).values(
        "pk", "game_id", "index", "team_id", "team__pub_id"
    ):
        sides[side["game_id"]].append(side)
    players = defaultdict(list)
    through = GameSide.players.through.objects.filter(gameside__game_id__in=ids)
    for side_id, player_id in through.values_list("gameside_id", "player_id"):
        players[side_id].append(player_id)
    marches = Counter()
    for game_id, tricks in Deal.objects.filter(game_id__in=ids, live=True).values_list(
        "game_id", "tricks"
    ):
        for index, count in enumerate(tricks):
            if count == "5":
                marches[(game_id, index)] += 1
    totals: dict = {}
    for game in games:
        if season.confirmed_only and game["pk"] not in confirmed:
            continue
        total = sum(game["scores"])
        outcome = GameOutcome(
            season_id=season.pk,
            fixture_id=game["fixture_id"],
            round=game["fixture__round"],
            confirmed=game["pk"] in confirmed,
            sides=tuple(
                SideOutcome(
                    team_id=side["team_id"],
                    pub_id=side["team__pub_id"] if side["team_id"] else game["pub_id"],
                    player_ids=tuple(sorted(players[side["pk"]])),
                    points_for=game["scores"][side["index"]],
                    points_against=total - game["scores"][side["index"]],
                    won=game["winner"] == side["index"],
                    marches=marches[(game["pk"], side["index"])],
                    shutout_win=game["shutout"] and game["winner"] == side["index"],
                )
                for side in sorted(sides[game["pk"]], key=lambda s: s["index"])
            ),
        )
        for (model, key), counts in outcome_rows(outcome).items():
            lookup = tuple((name, value) for name, value in key if name != "round")
            totals.setdefault((model.__name__, lookup), Counter()).update(counts)
    return {key: _nonzero(counts) for key, counts in totals.items()}


def kept(season) -> dict:
    """The kept rows of a season in the shape `recount` returns (rows of all zeros left out)."""
    out = {}
    for model in ROW_MODELS:
        keys = sorted(f.attname for f in model._meta.concrete_fields if f.is_relation)
        for row in model.objects.filter(season=season).values(*keys, *COUNT_FIELDS):
            counts = _nonzero(Counter({name: row[name] for name in COUNT_FIELDS}))
            if counts:
                out[(model.__name__, tuple((name, row[name]) for name in keys))] = counts
    return out


def _nonzero(counts: Counter) -> Counter:
    return Counter({name: value for name, value in counts.items() if value})
