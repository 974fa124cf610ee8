"""Spoil Five: hands won and spoiled, first to 5, and the pool of units."""

import dataclasses

import pytest

from rules import RULESETS, Deal, InvalidDeal, Pool, score_game

SPOIL_FIVE = RULESETS["spoil-five"]


def play(*deals, players=3, ruleset=SPOIL_FIVE):
    return score_game(ruleset, sides=players, deals=deals)


def test_three_tricks_win_the_hand_and_score_3_points():
    result = play(Deal(0, (3, 1, 1)))
    assert result.deals[0].points == (3, 0, 0)
    assert (result.scores, result.winner, result.finished) == ((3, 0, 0), None, False)
    assert not result.deals[0].spoiled


def test_four_tricks_still_score_3_points():
    assert play(Deal(0, (1, 4, 0))).scores == (0, 3, 0)


def test_all_five_tricks_score_5_points_and_win_the_game_at_once():
    result = play(Deal(0, (0, 5, 0)))
    assert (result.scores, result.winner, result.reason) == ((0, 5, 0), 1, "Side 2 reached 5")
    assert result.shutout


def test_nobody_with_three_tricks_spoils_the_hand_and_nobody_scores():
    result = play(Deal(0, (2, 2, 1)))
    assert result.deals[0].spoiled
    assert result.deals[0].points == (0, 0, 0)
    assert result.pool == Pool(size=3, units=(-1, -1, -1))


def test_two_hands_won_reach_5_and_the_first_to_5_wins():
    result = play(Deal(0, (3, 1, 1)), Deal(1, (2, 0, 3)), Deal(2, (3, 2, 0)))
    assert (result.scores, result.winner, result.finished) == ((6, 0, 3), 0, True)
    assert result.reason == "Side 1 reached 5"
    assert [d.winner for d in result.deals] == [None, None, 0]


def test_a_shutout_when_nobody_else_won_a_hand_before_the_winner():
    result = play(Deal(0, (2, 2, 1)), Deal(1, (3, 1, 1)), Deal(2, (4, 1, 0)))
    assert (result.scores, result.shutout) == ((6, 0, 0), True)


def test_no_shutout_once_another_player_has_won_a_hand():
    result = play(Deal(0, (3, 1, 1)), Deal(1, (1, 3, 1)), Deal(2, (3, 1, 1)))
    assert (result.scores, result.winner, result.shutout) == ((6, 3, 0), 0, False)


def test_two_players_never_spoil_a_hand():
    result = play(Deal(0, (2, 3)), Deal(1, (3, 2)), players=2)
    assert [d.spoiled for d in result.deals] == [False, False]
    assert result.scores == (3, 3)


def test_ten_players_may_sit_down():
    result = play(Deal(9, (1, 1, 1, 1, 1, 0, 0, 0, 0, 0)), players=10)
    assert result.deals[0].spoiled
    assert result.pool.size == 10


# The pool: one unit in from each player before each hand; the hand winner takes it all; a
# march takes one unit more from each other player.
POOLS = {
    "a won hand: the winner takes the three units just put in": (
        [Deal(0, (3, 1, 1))],
        [(2, -1, -1)],
        Pool(size=0, units=(2, -1, -1)),
    ),
    "a spoiled hand: the pool carries over to the next": (
        [Deal(0, (2, 2, 1))],
        [(-1, -1, -1)],
        Pool(size=3, units=(-1, -1, -1)),
    ),
    "the winner after a spoiled hand takes both hands' units": (
        [Deal(0, (2, 2, 1)), Deal(1, (3, 1, 1))],
        [(-1, -1, -1), (5, -1, -1)],
        Pool(size=0, units=(4, -2, -2)),
    ),
    "a march takes the pool and one unit from each other player": (
        [Deal(0, (0, 5, 0))],
        [(-2, 4, -2)],
        Pool(size=0, units=(-2, 4, -2)),
    ),
    "two spoiled hands in a row, then a march": (
        [Deal(0, (2, 2, 1)), Deal(1, (1, 2, 2)), Deal(2, (0, 0, 5))],
        [(-1, -1, -1), (-1, -1, -1), (-2, -2, 10)],
        Pool(size=0, units=(-4, -4, 8)),
    ),
}


@pytest.mark.parametrize(("deals", "units_won", "pool"), POOLS.values(), ids=POOLS.keys())
def test_the_pool(deals, units_won, pool):
    result = play(*deals)
    assert [d.units_won for d in result.deals] == units_won
    assert result.deals[-1].pool == result.pool == pool
    assert sum(pool.units) + pool.size == 0


def test_every_hand_is_played_out_to_five_tricks():
    with pytest.raises(InvalidDeal) as refused:
        play(Deal(0, (2, 2, 1)), Deal(1, (3, 0, 0)))
    assert (refused.value.code, refused.value.deal_index) == ("wrong_trick_total", 1)
    assert str(refused.value) == (
        "Deal 2: the tricks add up to 3, not 5; in Spoil Five every deal is played out to 5 tricks."
    )


def test_spoil_five_has_no_highest_trump_bonus():
    with pytest.raises(InvalidDeal) as refused:
        play(Deal(0, (3, 1, 1), bonus_side=0))
    assert refused.value.code == "bad_bonus"
    assert str(refused.value) == "Deal 1: Spoil Five has no highest-trump bonus."


def test_a_trick_order_is_checked_against_the_counts_and_changes_nothing():
    ordered = play(Deal(0, (3, 1, 1), trick_winners=(1, 0, 0, 2, 0)))
    assert ordered == play(Deal(0, (3, 1, 1)))
    with pytest.raises(InvalidDeal) as refused:
        play(Deal(0, (3, 1, 1), trick_winners=(1, 1, 0, 2, 0)))
    assert refused.value.code == "trick_order_mismatch"


def test_nothing_is_recorded_after_the_winning_hand():
    with pytest.raises(InvalidDeal) as refused:
        play(Deal(0, (5, 0, 0)), Deal(1, (2, 2, 1)))
    assert (refused.value.code, refused.value.deal_index) == ("game_over", 1)


def test_march_wins_house_rule_with_a_higher_target():
    ruleset = dataclasses.replace(SPOIL_FIVE, target=10, march_wins=True)
    result = play(Deal(0, (3, 1, 1)), Deal(1, (0, 5, 0)), ruleset=ruleset)
    assert (result.scores, result.winner) == ((3, 5, 0), 1)
    assert result.reason == "Side 2 made a march: all five tricks"


def test_march_bonus_house_rule_adds_to_the_5_points():
    ruleset = dataclasses.replace(SPOIL_FIVE, target=10, march_bonus=5)
    result = play(Deal(0, (0, 5, 0)), ruleset=ruleset)
    assert (result.scores, result.winner, result.reason) == ((0, 10, 0), 1, "Side 2 reached 10")
