"""Properties over random valid games, made trick by trick as a table would play them."""

import dataclasses
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RULESETS, Deal, InvalidDeal, Ruleset, score_game

PROPERTY = settings(max_examples=200, deadline=None)


@dataclass(frozen=True)
class Game:
    ruleset: Ruleset
    sides: int
    deals: list[Deal]


def trick_rulesets(bonuses: bool = True) -> st.SearchStrategy[Ruleset]:
    """The trick-point presets, with house rules; targets stay multiples of 5."""
    keys = ["twenty-five", "fifteen", "forty-five"] if bonuses else ["twenty-five", "fifteen"]
    return st.builds(
        dataclasses.replace,
        st.sampled_from([RULESETS[key] for key in keys]),
        target=st.sampled_from(range(5, 65, 5)),
        march_bonus=st.sampled_from([0, 5, 10]) if bonuses else st.just(0),
        march_wins=st.booleans() if bonuses else st.just(False),
    )


@st.composite
def trick_games(draw, rulesets=None, order=None, short=True) -> Game:
    """A valid finished game: deals until a side reaches the target (or marches, when that
    wins), the last one perhaps stopped at the trick that reached it.

    `order`: True gives every deal its trick order, None lets Hypothesis choose per deal.
    """
    ruleset = draw(rulesets if rulesets is not None else trick_rulesets())
    sides = draw(st.integers(ruleset.min_sides, ruleset.max_sides))
    per_trick, target = ruleset.points_per_trick, ruleset.target
    totals = [0] * sides
    dealer = draw(st.integers(0, sides - 1))
    deals = []
    while True:
        winners = draw(st.lists(st.integers(0, sides - 1), min_size=5, max_size=5))
        running, reached_on = list(totals), None
        for number, side in enumerate(winners, 1):
            running[side] += per_trick
            if running[side] >= target:
                reached_on = number
                break
        if short and reached_on and reached_on < 5 and draw(st.booleans()):
            winners = winners[:reached_on]
        tricks = tuple(winners.count(side) for side in range(sides))
        bonus_side = None
        if ruleset.highest_trump_bonus and len(winners) == 5:
            bonus_side = draw(st.sampled_from([None, *sorted(set(winners))]))
        give_order = order if order is not None else draw(st.booleans())
        deals.append(Deal(dealer, tricks, tuple(winners) if give_order else None, bonus_side))

        march = 5 in tricks
        for side, count in enumerate(tricks):
            totals[side] += per_trick * count + (ruleset.march_bonus if count == 5 else 0)
        if bonus_side is not None:
            totals[bonus_side] += ruleset.highest_trump_bonus
        if max(totals) >= target or (march and ruleset.march_wins):
            return Game(ruleset, sides, deals)
        dealer = (dealer + 1) % sides


@st.composite
def spoil_five_games(draw) -> Game:
    """Up to 30 hands of Spoil Five, stopping at the winner."""
    ruleset = RULESETS["spoil-five"]
    players = draw(st.integers(2, 10))
    totals = [0] * players
    deals = []
    for index in range(draw(st.integers(1, 30))):
        winners = draw(st.lists(st.integers(0, players - 1), min_size=5, max_size=5))
        tricks = tuple(winners.count(player) for player in range(players))
        deals.append(Deal(index % players, tricks))
        for player, count in enumerate(tricks):
            totals[player] += 5 if count == 5 else 3 if count >= 3 else 0
        if max(totals) >= ruleset.target:
            break
    return Game(ruleset, players, deals)


def any_deals(sides: int) -> st.SearchStrategy[Deal]:
    """Deals good and bad: counts and sides a little out of range, orders of any length."""
    side = st.integers(-1, sides)
    return st.builds(
        Deal,
        dealer=side,
        tricks=st.lists(st.integers(-1, 6), min_size=sides - 1, max_size=sides + 1),
        trick_winners=st.none() | st.lists(side, max_size=6),
        bonus_side=st.none() | side,
    )


def score(game: Game):
    return score_game(game.ruleset, sides=game.sides, deals=game.deals)


@PROPERTY
@given(st.one_of(trick_games(), spoil_five_games()))
def test_the_scores_always_equal_the_sum_of_the_points_of_every_deal(game):
    result = score(game)
    sums = [sum(points) for points in zip(*(d.points for d in result.deals), strict=True)]
    assert list(result.scores) == (sums or [0] * game.sides)
    running = [0] * game.sides
    for deal in result.deals:
        running = [total + points for total, points in zip(running, deal.points, strict=True)]
        assert list(deal.totals) == running


@PROPERTY
@given(st.one_of(trick_games(), spoil_five_games()), st.data())
def test_there_is_at_most_one_winner_and_nothing_is_accepted_after_it(game, data):
    result = score(game)
    decided = [index for index, deal in enumerate(result.deals) if deal.winner is not None]
    assert len(decided) <= 1
    assert result.finished is (result.winner is not None) is bool(decided)
    assert result.finished is bool(result.reason)
    if not result.finished:
        return
    assert decided == [len(game.deals) - 1]
    assert result.deals[-1].winner == result.winner
    # No earlier deal had decided it.
    assert not score_game(game.ruleset, sides=game.sides, deals=game.deals[:-1]).finished
    # And no deal at all, good or bad, is taken after it.
    extra = data.draw(any_deals(game.sides))
    try:
        score_game(game.ruleset, sides=game.sides, deals=[*game.deals, extra])
    except InvalidDeal as refused:
        assert (refused.code, refused.deal_index) == ("game_over", len(game.deals))
    else:
        raise AssertionError("a deal was accepted after the game was won")


@PROPERTY
@given(trick_games(trick_rulesets(bonuses=False), order=True))
def test_with_every_trick_order_known_the_winner_is_the_first_to_reach_the_target(game):
    totals = [0] * game.sides
    first = None
    for deal in game.deals:
        for side in deal.trick_winners:
            totals[side] += game.ruleset.points_per_trick
            if first is None and totals[side] >= game.ruleset.target:
                first = side
    result = score(game)
    assert first is not None
    assert result.winner == first


@PROPERTY
@given(trick_games(short=False))
def test_full_deals_end_a_game_by_deal_target_minus_5_times_sides_over_25_plus_1(game):
    bound = (game.ruleset.target - 5) * game.sides // 25 + 1
    assert len(game.deals) <= bound
    assert score(game).finished


@PROPERTY
@given(spoil_five_games())
def test_spoil_five_units_are_never_made_or_lost_and_a_hand_has_at_most_one_scorer(game):
    result = score(game)
    size = 0
    for deal in result.deals:
        # Units only move between the players and the pool.
        assert sum(deal.units_won) == size - deal.pool.size
        assert sum(deal.pool.units) + deal.pool.size == 0
        size = deal.pool.size
        assert len([points for points in deal.points if points]) == (0 if deal.spoiled else 1)
    assert result.pool == result.deals[-1].pool
