"""A small league for the table sheet's tests: one fixture's match at a pub, the people
who may and may not score it, and scorer links for it and for a game elsewhere."""

import uuid
from types import SimpleNamespace

import pytest

from scoring.models import Game
from scoring.services import SideSpec, deal_record, game_next, link_create
from tests.factories import FixtureFactory, LeagueFactory, PubFactory, SeasonFactory, UserFactory


def play(game: Game, *tricks, dealer=None, **extra):
    """Record one deal of `game` as a phone would: with the current version and a new key."""
    game.refresh_from_db()
    live = list(game.deals.live().order_by("number"))
    if dealer is None:
        dealer = (live[-1].dealer + 1) % game.sides if live else game.first_dealer
    deal = deal_record(
        game=game,
        dealer=dealer,
        tricks=list(tricks),
        key=uuid.uuid4(),
        version=game.version,
        **extra,
    )
    game.refresh_from_db()
    return deal


def fixture_game(fixture, number=1, first_dealer=0):
    return game_next(fixture=fixture, number=number, first_dealer=first_dealer)


def stopped_at_25_then_game_2(world):
    """Game 1: deal 1 at 15–10, then deal 2 entered trick by trick, stopped when side 0
    reached 25 on its second trick; then the match's game 2 is started."""
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])
    assert world.game.winner == 0
    fixture_game(world.fixture, number=2, first_dealer=1)


@pytest.fixture
def world(db):
    season = SeasonFactory()
    league = season.league
    pub = PubFactory(league=league)
    other_pub = PubFactory(league=league)
    fixture = FixtureFactory(season=season, pub=pub, games_planned=3)
    other_fixture = FixtureFactory(season=season, pub=other_pub)
    secretary, organiser, other_organiser, other_secretary = UserFactory.create_batch(4)
    league.secretaries.add(secretary)
    pub.organisers.add(organiser)
    other_pub.organisers.add(other_organiser)
    LeagueFactory().secretaries.add(other_secretary)
    game = fixture_game(fixture)
    other_game = fixture_game(other_fixture)
    return SimpleNamespace(
        league=league,
        season=season,
        pub=pub,
        fixture=fixture,
        game=game,
        labels=[side.label for side in game.game_sides.all()],
        secretary=secretary,
        organiser=organiser,
        other_organiser=other_organiser,
        other_secretary=other_secretary,
        link=link_create(game=game, side=1, user=organiser),
        other_game=other_game,
        other_link=link_create(game=other_game, side=1, user=other_organiser),
    )


__all__ = ["SideSpec", "fixture_game", "play"]
