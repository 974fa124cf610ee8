"""
The demo league: one league, three pubs, a running season of eight teams of two, a
full round-robin, half of it played deal by deal through `deal_record` (the path the
table sheet uses), the first round's results confirmed, and one game in progress tonight
with a scorer link for the away side. Seeded: the games are the same
every time; the dates are placed around the day it is loaded, so "tonight" has a match.
"""

import datetime
import random
import uuid

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import rules
from league.models import Fixture, League, Player, Pub, Season, Team, TeamMember
from league.services import fixtures_generate
from scoring.models import Game
from scoring.services import SideSpec, deal_record, game_confirm, game_start, link_create

LOGINS = {
    "secretary": "demo-secretary-25",
    "harbour": "demo-organiser-25",
    "cronins": "demo-organiser-25",
    "thatch": "demo-organiser-25",
}

PUBS = [
    ("harbour", "The Harbour Bar", "Kilrush"),
    ("cronins", "Nora Cronin's", "Ennis"),
    ("thatch", "The Thatch", "Sixmilebridge"),
]

TEAMS = [
    ("Harbour Hearts", "harbour", "Seán Ó Briain", "Máire Ní Shé"),
    ("The Reneguers", "harbour", "Pádraig Keane", "Bríd Moloney"),
    ("Five Fingers", "harbour", "Tomás Hehir", "Nóra Considine"),
    ("Cronin's Jinkers", "cronins", "Mícheál Lynch", "Siobhán McMahon"),
    ("Ace of Hearts", "cronins", "Donncha Clancy", "Áine Griffin"),
    ("The Robbers", "cronins", "Eoin Casey", "Caitríona Daly"),
    ("Thatch Trumps", "thatch", "Colm Hogan", "Gráinne Murphy"),
    ("Knaves of Clubs", "thatch", "Liam Halloran", "Peig Talty"),
]

GAMES_PER_FIXTURE = 3


def demo_exists() -> bool:
    return League.objects.filter(slug="clare").exists()


def play_game(game, rng: random.Random) -> int:
    """Play random deals through deal_record until the game is won; returns who deals next."""
    dealer = game.first_dealer
    while game.winner is None:
        if rng.random() < 0.3:
            winners = [rng.randrange(game.sides) for _ in range(5)]
            tricks = [winners.count(side) for side in range(game.sides)]
        else:
            winners = None
            first = rng.choices(range(6), weights=[1, 4, 8, 8, 4, 1])[0]
            tricks = [first, 5 - first]
        deal_record(
            game=game,
            dealer=dealer,
            tricks=tricks,
            trick_winners=winners,
            key=uuid.uuid4(),
            version=game.version,
        )
        game.refresh_from_db()
        dealer = rules.next_dealer(dealer, game.sides)
    return dealer


def load_demo() -> bool:
    """Load the demo league unless it is already there. Returns True if it loaded."""
    if demo_exists():
        return False
    rng = random.Random(25)
    today = timezone.localdate()
    User = get_user_model()
    with transaction.atomic():
        league = League.objects.create(name="Clare Twenty-Five League", slug="clare")
        secretary = User.objects.create_user(
            "secretary", password=LOGINS["secretary"], first_name="Úna", last_name="Moloney"
        )
        league.secretaries.add(secretary)
        pubs = {}
        for key, name, town in PUBS:
            pubs[key] = Pub.objects.create(
                league=league, name=name, slug=key.replace("_", "-"), town=town
            )
            organiser = User.objects.create_user(key, password=LOGINS[key])
            pubs[key].organisers.add(organiser)

        # Round 5 is tonight: rounds 1–4 are in the past.
        start = today - datetime.timedelta(weeks=4)
        season = Season.objects.create(
            league=league,
            name=f"Winter {start.year}",
            slug=f"winter-{start.year}",
            start_date=start,
            end_date=start + datetime.timedelta(weeks=7),
            status=Season.Status.RUNNING,
            ruleset_key="twenty-five",
        )
        teams = []
        for team_name, pub_key, *names in TEAMS:
            team = Team.objects.create(season=season, name=team_name, pub=pubs[pub_key])
            for name in names:
                player = Player.objects.create(league=league, name=name, home_pub=pubs[pub_key])
                TeamMember.objects.create(team=team, player=player)
            teams.append(team)

        fixtures = fixtures_generate(
            season=season, start=start, games_planned=GAMES_PER_FIXTURE, teams=teams
        )
        half = len(fixtures) // 2
        dealer = 0
        for fixture in fixtures[:half]:
            sides = [ft.team for ft in fixture.fixture_teams.all()]
            for number in range(1, GAMES_PER_FIXTURE + 1):
                game = game_start(
                    season=season,
                    fixture=fixture,
                    number=number,
                    first_dealer=dealer,
                    sides=[
                        SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in sides
                    ],
                )
                # The deal keeps passing to the left from one game to the next.
                dealer = play_game(game, rng)
            fixture.status = Fixture.Status.PLAYED
            fixture.save(update_fields=["status"])
        # Fixtures from past rounds that were not played were put off.
        Fixture.objects.filter(pk__in=[f.pk for f in fixtures[half:]], date__lt=today).update(
            status=Fixture.Status.POSTPONED
        )
        tonight = next(f for f in fixtures[half:] if f.date == today)
        sides = [ft.team for ft in tonight.fixture_teams.all()]
        game = game_start(
            season=season,
            fixture=tonight,
            number=1,
            first_dealer=0,
            sides=[SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in sides],
        )
        deal_record(game=game, dealer=0, tricks=[2, 3], key=uuid.uuid4(), version=game.version)
        # Tonight's away side scores on its own phone through a scorer link.
        link_create(game=game, side=1, user=tonight.pub.organisers.first())
        # The first round's results were confirmed by the organisers of the pubs.
        for played in Game.objects.filter(fixture__round=1).select_related("pub"):
            game_confirm(game=played, user=played.pub.organisers.first())
    return True
