"""A small world for the league's tests: one league with two pubs, each with its own
organiser, a secretary, and a second league with a secretary of its own."""

import datetime
from dataclasses import dataclass

import pytest

from league.models import League, Pub, Season
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)


@dataclass
class World:
    league: League
    pub: Pub
    other_pub: Pub
    season: Season
    secretary: object
    organiser: object
    other_organiser: object
    other_secretary: object
    other_league: League


@pytest.fixture
def world(db):
    league = LeagueFactory(slug="clare", name="Clare League")
    pub = PubFactory(league=league, name="The Harbour Bar", slug="harbour")
    other_pub = PubFactory(league=league, name="Nora Cronin's", slug="cronins")
    season = SeasonFactory(
        league=league, name="Winter", slug="winter", start_date=datetime.date(2026, 9, 7)
    )
    secretary = UserFactory(username="secretary")
    league.secretaries.add(secretary)
    organiser = UserFactory(username="harbour")
    pub.organisers.add(organiser)
    other_organiser = UserFactory(username="cronins")
    other_pub.organisers.add(other_organiser)
    other_league = LeagueFactory(slug="kerry", name="Kerry League")
    other_secretary = UserFactory(username="kerry-secretary")
    other_league.secretaries.add(other_secretary)
    return World(
        league=league,
        pub=pub,
        other_pub=other_pub,
        season=season,
        secretary=secretary,
        organiser=organiser,
        other_organiser=other_organiser,
        other_secretary=other_secretary,
        other_league=other_league,
    )


@pytest.fixture
def fixture_at_pub(world):
    """A scheduled fixture at the organiser's pub between two teams of that pub."""
    home = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    away = TeamFactory(season=world.season, pub=world.other_pub, name="Cronin's Jinkers")
    return FixtureFactory(season=world.season, pub=world.pub, teams=[home, away])


def snapshot():
    """Every league row, to compare before and after a refused change."""
    from django.contrib.auth import get_user_model

    from league import models

    rows = {}
    for model in (
        models.League,
        models.Pub,
        models.Season,
        models.Division,
        models.Player,
        models.Team,
        models.TeamMember,
        models.Fixture,
        models.FixtureTeam,
    ):
        rows[model.__name__] = sorted(
            (tuple(sorted(row.items())) for row in model.objects.values()), key=repr
        )
    rows["organisers"] = sorted(Pub.organisers.through.objects.values_list("pub_id", "user_id"))
    rows["secretaries"] = sorted(
        League.secretaries.through.objects.values_list("league_id", "user_id")
    )
    rows["invites"] = sorted(
        (tuple(sorted(row.items())) for row in models.Invite.objects.values()), key=repr
    )
    rows["users"] = sorted(get_user_model().objects.values_list("username", flat=True))
    return rows
