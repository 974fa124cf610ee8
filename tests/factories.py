"""One factory per model. `.build()` when no row is needed."""

import datetime
import uuid

import factory
from django.contrib.auth import get_user_model

from league import models as league_models
from scoring import models as scoring_models

PASSWORD = "correct-horse-25"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class PubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.Pub

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Pub {n}")
    slug = factory.Sequence(lambda n: f"pub-{n}")
    town = "Ennis"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    slug = factory.Sequence(lambda n: f"season-{n}")
    start_date = datetime.date(2026, 9, 1)
    status = league_models.Season.Status.RUNNING


class DivisionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.Division

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Division {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.Player

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory):
    """A team of two new players from the season's league."""

    class Meta:
        model = league_models.Team
        skip_postgeneration_save = True

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    pub = factory.SubFactory(PubFactory, league=factory.SelfAttribute("..season.league"))

    @factory.post_generation
    def players(obj, create, extracted, **kwargs):
        if not create:
            return
        players = (
            extracted
            if extracted is not None
            else [PlayerFactory(league=obj.season.league, home_pub=obj.pub) for _ in range(2)]
        )
        for player in players:
            league_models.TeamMember.objects.create(team=obj, player=player)


class TeamMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.TeamMember

    team = factory.SubFactory(TeamFactory, players=[])
    player = factory.SubFactory(PlayerFactory, league=factory.SelfAttribute("..team.season.league"))


class FixtureFactory(factory.django.DjangoModelFactory):
    """A fixture between two new teams of the season, at the home team's pub."""

    class Meta:
        model = league_models.Fixture
        skip_postgeneration_save = True

    season = factory.SubFactory(SeasonFactory)
    pub = factory.SubFactory(PubFactory, league=factory.SelfAttribute("..season.league"))
    date = datetime.date(2026, 10, 1)
    games_planned = 3

    @factory.post_generation
    def teams(obj, create, extracted, **kwargs):
        if not create:
            return
        teams = (
            extracted
            if extracted is not None
            else [TeamFactory(season=obj.season, pub=obj.pub) for _ in range(2)]
        )
        for seat, team in enumerate(teams):
            league_models.FixtureTeam.objects.create(fixture=obj, team=team, seat=seat)


class FixtureTeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = league_models.FixtureTeam

    fixture = factory.SubFactory(FixtureFactory, teams=[])
    team = factory.SubFactory(TeamFactory, season=factory.SelfAttribute("..fixture.season"))
    seat = 0


class GameFactory(factory.django.DjangoModelFactory):
    """A game with no sides; use `scoring.services.game_start` for a playable one."""

    class Meta:
        model = scoring_models.Game

    season = factory.SubFactory(SeasonFactory)
    league = factory.SelfAttribute("season.league")
    sides = 2
    ruleset_key = "twenty-five"
    target = 25
    scores = factory.LazyAttribute(lambda game: [0] * game.sides)


class GameSideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scoring_models.GameSide

    game = factory.SubFactory(GameFactory)
    index = factory.Sequence(lambda n: n)
    label = factory.Sequence(lambda n: f"Side {n}")


class DealFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scoring_models.Deal

    game = factory.SubFactory(GameFactory)
    number = factory.Sequence(lambda n: n + 1)
    dealer = 0
    tricks = "23"
    key = factory.LazyFunction(uuid.uuid4)


class ScorerLinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scoring_models.ScorerLink

    game = factory.SubFactory(GameFactory)


class ConfirmationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scoring_models.Confirmation

    game = factory.SubFactory(GameFactory)


class GameEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scoring_models.GameEvent

    game = factory.SubFactory(GameFactory)
    kind = scoring_models.GameEvent.Kind.STARTED


# Standings (issue 6): play whole games through the services the table sheet uses.


def play_game(*, season, teams, deals, fixture=None, number=1):
    """Start a game between `teams` (in seat order) and record `deals`, each a tuple of
    tricks per side, the deal passing to the left. Returns the game as stored."""
    from scoring.services import SideSpec, deal_record, game_start

    game = game_start(
        season=season,
        fixture=fixture,
        pub=None if fixture else teams[0].pub,
        number=number,
        sides=[SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in teams],
    )
    dealer = 0
    for tricks in deals:
        deal_record(game=game, dealer=dealer, tricks=tricks, key=uuid.uuid4(), version=game.version)
        game.refresh_from_db()
        dealer = (dealer + 1) % len(teams)
    return game


def win_game(*, season, winner, loser, shutout=False, fixture=None, number=1):
    """A game `winner` wins 35–15 (or 25–0 with a march, for a shutout)."""
    deals = [(5, 0)] if shutout else [(4, 1), (3, 2)]
    return play_game(
        season=season, teams=[winner, loser], deals=deals, fixture=fixture, number=number
    )
