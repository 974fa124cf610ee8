"""
A seeded league of a given size, played to the end of its season.

Sizes (teams, weekly rounds, games per match): every team plays 38 matches of seven
games, so the number of deals grows with the number of teams:

    S   20 teams     380 fixtures    2,660 games    ~5,100 deals
    M   200 teams  3,800 fixtures   26,600 games   ~51,000 deals
    L   1,000 teams 19,000 fixtures 133,000 games ~255,000 deals

The deals themselves are drawn from a seeded random generator and checked by `rules`
before anything is written, so both ways of writing them store the same league:

- `path="service"` plays every game through `scoring.services.game_start` and
  `deal_record`, one transaction per deal, exactly as the table sheet does;
- `path="bulk"` writes the same rows with `bulk_create`, working out the games' totals
  with `rules.score_game`, and the result rows through `league.results.results_rebuild`.
  tests/reliability/test_bench_smoke.py checks at size S that the two store identical rows.

The set-up (league, pubs, players, teams, fixtures) is written with bulk_create for both.
"""

import datetime
import random
import uuid
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

import rules
from league import results
from league.models import (
    Fixture,
    FixtureTeam,
    League,
    Player,
    Pub,
    Season,
    Team,
    TeamMember,
)
from scoring.models import Deal, Game, GameEvent, GameSide
from scoring.services import SideSpec, deal_record, describe_deal, game_start

SIZES = {"S": 20, "M": 200, "L": 1000}
ROUNDS = 38
GAMES_PER_FIXTURE = 7
TEAMS_PER_PUB = 4
RULESET = rules.RULESETS["twenty-five"]


@dataclass
class Built:
    league: League
    season: Season
    teams: int = 0
    fixtures: int = 0
    games: int = 0
    deals: int = 0
    seconds: dict = field(default_factory=dict)


def schedule(n: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Circle-method pairings of n teams (n even), repeated until `rounds` rounds,
    home and away swapped each time round."""
    order = list(range(n))
    result = []
    for r in range(rounds):
        cycle, step = divmod(r, n - 1)
        turned = order[:1] + order[1:][-step:] + order[1:][:-step] if step else list(order)
        pairs = [(turned[i], turned[n - 1 - i]) for i in range(n // 2)]
        if (cycle + r) % 2:
            pairs = [(b, a) for a, b in pairs]
        result.append(pairs)
    return result


def play(rng: random.Random, first_dealer: int, sides: int = 2) -> tuple[list, object]:
    """Random deals, checked by the rules, until the game is won (as scoring/demo.py)."""
    deals: list[rules.Deal] = []
    dealer = first_dealer
    while True:
        if rng.random() < 0.3:
            winners = tuple(rng.randrange(sides) for _ in range(5))
            tricks = tuple(winners.count(side) for side in range(sides))
        else:
            winners = None
            first = rng.choices(range(6), weights=[1, 4, 8, 8, 4, 1])[0]
            tricks = (first, 5 - first)
        deals.append(rules.Deal(dealer=dealer, tricks=tricks, trick_winners=winners))
        result = rules.score_game(RULESET, sides=sides, deals=deals)
        if result.finished:
            return deals, result
        dealer = rules.next_dealer(dealer, sides)


def _setup(size: str, seed: int, slug: str, rounds: int) -> tuple[Built, list, list, dict]:
    n = SIZES[size]
    now = timezone.now()
    league = League.objects.create(name=f"Bench {size} {slug}", slug=slug)
    pubs = Pub.objects.bulk_create(
        [
            Pub(league=league, name=f"Pub {i:04d}", slug=f"pub-{i:04d}", town="Ennis")
            for i in range(n // TEAMS_PER_PUB)
        ]
    )
    start = datetime.date(2026, 9, 1)
    season = Season.objects.create(
        league=league,
        name=f"Season {size}",
        slug="season",
        start_date=start,
        status=Season.Status.RUNNING,
        ruleset_key=RULESET.key,
    )
    players = Player.objects.bulk_create(
        [
            Player(league=league, name=f"Player {i:05d}", home_pub=pubs[(i // 2) // TEAMS_PER_PUB])
            for i in range(2 * n)
        ]
    )
    teams = Team.objects.bulk_create(
        [Team(season=season, name=f"Team {i:04d}", pub=pubs[i // TEAMS_PER_PUB]) for i in range(n)]
    )
    TeamMember.objects.bulk_create(
        [
            TeamMember(team=team, player=players[2 * i + k], season=season)
            for i, team in enumerate(teams)
            for k in range(2)
        ]
    )
    members = {team.pk: [players[2 * i], players[2 * i + 1]] for i, team in enumerate(teams)}
    fixtures, seats = [], []
    for r, pairs in enumerate(schedule(n, rounds)):
        for home, away in pairs:
            fixtures.append(
                Fixture(
                    season=season,
                    pub=teams[home].pub,
                    date=start + datetime.timedelta(weeks=r),
                    round=r + 1,
                    games_planned=GAMES_PER_FIXTURE,
                )
            )
            seats.append((teams[home], teams[away]))
    Fixture.objects.bulk_create(fixtures)
    FixtureTeam.objects.bulk_create(
        [
            FixtureTeam(fixture=fixture, team=team, seat=seat)
            for fixture, pair in zip(fixtures, seats, strict=True)
            for seat, team in enumerate(pair)
        ]
    )
    built = Built(league=league, season=season, teams=n, fixtures=len(fixtures))
    built.seconds["setup"] = (timezone.now() - now).total_seconds()
    # The games of every fixture, drawn once: (fixture, sides, number, first dealer, deals, result)
    rng = random.Random(seed)
    plan = []
    for fixture, pair in zip(fixtures, seats, strict=True):
        dealer = 0
        for number in range(1, GAMES_PER_FIXTURE + 1):
            deals, result = play(rng, dealer)
            plan.append((fixture, pair, number, dealer, deals, result))
            dealer = rules.next_dealer(deals[-1].dealer, 2)
    return built, plan, pubs, members


def build_league(
    size: str = "S", *, seed: int = 25, path: str = "bulk", slug: str = "", rounds: int = ROUNDS
) -> Built:
    """Build a played season of `size` in a new league; see the module docstring.
    Fewer `rounds` give the first weeks of the same season (the smoke test's slice)."""
    slug = slug or f"bench-{size.lower()}-{path}"
    started = timezone.now()
    with transaction.atomic():
        built, plan, _pubs, members = _setup(size, seed, slug, rounds)
    if path == "service":
        _write_service(built, plan, members)
    elif path == "bulk":
        with transaction.atomic():
            _write_bulk(built, plan, members)
    else:
        raise ValueError(f"path must be 'service' or 'bulk', not {path!r}")
    built.games = len(plan)
    built.deals = sum(len(p[4]) for p in plan)
    built.seconds["total"] = (timezone.now() - started).total_seconds()
    return built


def _write_service(built: Built, plan, members) -> None:
    for fixture, pair, number, first_dealer, deals, _result in plan:
        game = game_start(
            season=built.season,
            fixture=fixture,
            number=number,
            first_dealer=first_dealer,
            sides=[SideSpec(label=t.name, team=t, players=members[t.pk]) for t in pair],
        )
        version = game.version
        for deal in deals:
            deal_record(
                game=game,
                dealer=deal.dealer,
                tricks=deal.tricks,
                trick_winners=deal.trick_winners,
                key=uuid.uuid4(),
                version=version,
            )
            version += 1


def _write_bulk(built: Built, plan, members) -> None:
    """The same rows as `_write_service`, written a table at a time."""
    now = timezone.now()
    season = built.season
    games = []
    for fixture, pair, number, first_dealer, deals, result in plan:
        labels = [t.name for t in pair]
        games.append(
            Game(
                league=built.league,
                season=season,
                fixture=fixture,
                pub=fixture.pub,
                number=number,
                sides=2,
                first_dealer=first_dealer,
                ruleset_key=RULESET.key,
                target=RULESET.target,
                march_bonus=RULESET.march_bonus,
                march_wins=RULESET.march_wins,
                status=Game.Status.FINISHED,
                scores=list(result.scores),
                winner=result.winner,
                reason=result.why.text(labels),
                shutout=result.shutout,
                version=1 + len(deals),
                finished_at=now,
            )
        )
    Game.objects.bulk_create(games, batch_size=2000)
    sides = [
        GameSide(game=game, index=i, team=team, label=team.name, pub_id=team.pub_id)
        for game, p in zip(games, plan, strict=True)
        for i, team in enumerate(p[1])
    ]
    GameSide.objects.bulk_create(sides, batch_size=5000)
    Through = GameSide.players.through
    Through.objects.bulk_create(
        [Through(gameside=side, player=p) for side in sides for p in members[side.team_id]],
        batch_size=5000,
    )
    deal_rows, events = [], []
    for game, (_f, pair, _n, first_dealer, deals, _r) in zip(games, plan, strict=True):
        labels = [t.name for t in pair]
        events.append(
            GameEvent(
                game=game,
                kind=GameEvent.Kind.STARTED,
                text=f"{' v '.join(labels)}; {labels[first_dealer]} deals first",
            )
        )
        for number, deal in enumerate(deals, start=1):
            row = Deal(
                game=game,
                number=number,
                version=1,
                dealer=deal.dealer,
                tricks="".join(str(t) for t in deal.tricks),
                trick_winners="".join(str(w) for w in deal.trick_winners or ()),
                bonus_side=deal.bonus_side,
                key=uuid.uuid4(),
            )
            deal_rows.append(row)
            events.append(
                GameEvent(
                    game=game,
                    kind=GameEvent.Kind.DEAL,
                    deal=row,
                    text=f"Deal {number}: {describe_deal(game, deal, labels)}",
                )
            )
    Deal.objects.bulk_create(deal_rows, batch_size=5000)
    for event in events:
        event.deal_id = event.deal.pk if event.deal is not None else None
    GameEvent.objects.bulk_create(events, batch_size=5000)
    Fixture.objects.filter(season=season).update(
        status=Fixture.Status.PLAYED,
        games_started=GAMES_PER_FIXTURE,
        games_finished=GAMES_PER_FIXTURE,
    )
    results.results_rebuild(season_id=season.pk, summaries=game_summaries(games, plan, members))


def game_summaries(games, plan, members) -> list[results.GameSummary]:
    """What scoring.outcome.game_summary makes of each game, without reading it back."""
    summaries = []
    for game, (fixture, pair, number, _d, _deals, result) in zip(games, plan, strict=True):
        total = sum(result.scores)
        summaries.append(
            results.GameSummary(
                game_id=game.pk,
                league_id=game.league_id,
                season_id=game.season_id,
                fixture_id=fixture.pk,
                number=number,
                confirmed=False,
                finished_at=game.finished_at,
                reason=result.why.text([team.name for team in pair]),
                sides=tuple(
                    results.SideSummary(
                        side=i,
                        label=team.name,
                        team_id=team.pk,
                        pub_id=team.pub_id,
                        player_ids=tuple(sorted(p.pk for p in members[team.pk])),
                        points_for=result.scores[i],
                        points_against=total - result.scores[i],
                        won=result.winner == i,
                        shutout=result.shutout and result.winner == i,
                        marches=result.marches[i],
                    )
                    for i, team in enumerate(pair)
                ),
            )
        )
    return summaries
