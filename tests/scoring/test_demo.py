"""The demo league loads once, obeys the rules and has something true on every page."""

import io

import pytest
from django.core.management import call_command

import rules
from league.models import Fixture, League, Player, Pub, Team
from scoring.demo import load_demo
from scoring.models import Deal, Game


@pytest.mark.django_db
def test_loading_the_demo_twice_changes_nothing():
    assert load_demo() is True
    counts = [m.objects.count() for m in (League, Pub, Team, Player, Fixture, Game, Deal)]
    assert load_demo() is False
    call_command("load_demo", stdout=io.StringIO())
    assert [m.objects.count() for m in (League, Pub, Team, Player, Fixture, Game, Deal)] == counts


@pytest.mark.django_db
def test_the_demo_has_three_pubs_eight_pairs_and_half_its_round_robin_played():
    load_demo()
    league = League.objects.get()
    assert league.pubs.count() == 3
    season = league.seasons.get()
    assert season.teams.count() == 8
    assert all(team.players.count() == 2 for team in season.teams.all())
    assert Player.objects.count() == 16
    fixtures = Fixture.objects.for_season(season)
    assert fixtures.count() == 28  # every pair once
    assert fixtures.played().count() == 14
    assert Game.objects.in_play().count() == 1


@pytest.mark.django_db
def test_every_demo_game_is_what_the_rules_say_of_its_deals():
    load_demo()
    for game in Game.objects.prefetch_related("deals"):
        deals = [d.as_rules_deal() for d in game.deals.all() if d.live]
        result = rules.score_game(game.ruleset, sides=game.sides, deals=deals)
        assert list(result.scores) == game.scores
        assert result.winner == game.winner
    assert Game.objects.finished().count() == 14 * 3
