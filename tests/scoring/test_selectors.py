"""A fixture's match as the sheet, the match page and the pub screen show it."""

import pytest

from scoring.selectors import match_for
from scoring.services import game_next
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db


def test_the_match_counts_each_game_for_the_team_that_won_it(world):
    home, away = (seat.team.name for seat in world.fixture.fixture_teams.order_by("seat"))
    play(world.game, 5, 0)  # home 25 – 0
    match = match_for(world.fixture)
    assert match.score_text == f"{home} 1 – {away} 0"
    assert match.result_text == ""
    assert (match.in_play, match.next_number) == (None, 2)

    second = game_next(fixture=world.fixture, number=2, first_dealer=1)
    play(second, 2, 3)  # in play: counts for nobody yet
    match = match_for(world.fixture)
    assert match.score_text == f"{home} 1 – {away} 0"
    assert (match.in_play, match.next_number) == (second, None)

    play(second, 0, 5)  # away 10 – 40
    third = game_next(fixture=world.fixture, number=3, first_dealer=0)
    play(third, 1, 4)
    play(third, 0, 5)  # away again
    match = match_for(world.fixture)
    assert match.score_text == f"{home} 1 – {away} 2"
    assert match.result_text == f"{away} win the match 2–1"
    assert [game.number for game in match.games] == [1, 2, 3]
