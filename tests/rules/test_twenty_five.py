"""The trick-point games, case by case: deals in, scores, winner, reason and shutout out.

Sides are 0-based indexes in the deals and 1-based in the case names and reasons, as the
table counts them: side index 0 is "side 1".
"""

import dataclasses
from dataclasses import dataclass

import pytest

from rules import RULESETS, Deal, Ruleset, score_game

TWENTY_FIVE = RULESETS["twenty-five"]
FORTY_FIVE = RULESETS["forty-five"]


@dataclass(frozen=True)
class Case:
    deals: list[Deal]
    scores: tuple[int, ...]
    winner: int | None
    reason: str = ""
    shutout: bool = False
    sides: int = 2
    ruleset: Ruleset = TWENTY_FIVE


CASES = {
    # Rules 1 and 2: five points a trick, running totals.
    "each trick is worth 5 points and the totals run on from deal to deal": Case(
        deals=[Deal(0, (2, 3)), Deal(1, (1, 4))],
        scores=(15, 35),
        winner=1,
        reason="Side 2 reached 25",
    ),
    "a game nobody has reached 25 in goes on, with no winner and no reason": Case(
        deals=[Deal(0, (2, 3))],
        scores=(10, 15),
        winner=None,
    ),
    "an empty sheet is a game not yet started": Case(deals=[], scores=(0, 0), winner=None),
    "lists are as good as tuples for tricks and trick order": Case(
        deals=[Deal(0, [2, 3]), Deal(1, [1, 4], trick_winners=[1, 1, 0, 1, 1])],
        scores=(15, 35),
        winner=1,
        reason="Side 2 reached 25 on the second trick",
    ),
    # Rule 3: the non-dealer counted first.
    "both sides reach 25 in one deal: side 2 wins when side 1 dealt": Case(
        deals=[Deal(1, (3, 2)), Deal(0, (2, 3))],
        scores=(25, 25),
        winner=1,
        reason="Side 2 reached 25 first (non-dealers counted first)",
    ),
    "both sides reach 25 in one deal: side 1 wins when side 2 dealt": Case(
        deals=[Deal(0, (3, 2)), Deal(1, (2, 3))],
        scores=(25, 25),
        winner=0,
        reason="Side 1 reached 25 first (non-dealers counted first)",
    ),
    "three partnerships: side 1, counted first, wins with one trick though side 3 took four "
    "and ends higher": Case(
        sides=3,
        deals=[Deal(0, (4, 0, 1)), Deal(1, (0, 4, 1)), Deal(2, (1, 0, 4))],
        scores=(25, 20, 30),
        winner=0,
        reason="Side 1 reached 25 first (non-dealers counted first)",
    ),
    "five individuals: side 2, on the dealer's left, beats side 1 with three tricks": Case(
        sides=5,
        deals=[
            Deal(2, (4, 0, 0, 1, 0)),
            Deal(3, (0, 4, 0, 1, 0)),
            Deal(4, (0, 0, 4, 1, 0)),
            Deal(0, (3, 1, 1, 0, 0)),
        ],
        scores=(35, 25, 25, 15, 0),
        winner=1,
        reason="Side 2 reached 25 first (non-dealers counted first)",
    ),
    "five individuals: with the dealer not among them, the first counted from the dealer's "
    "left wins": Case(
        sides=5,
        deals=[
            Deal(2, (4, 0, 0, 1, 0)),
            Deal(3, (0, 4, 0, 1, 0)),
            Deal(4, (0, 0, 4, 1, 0)),
            Deal(0, (0, 1, 4, 0, 0)),
        ],
        scores=(20, 25, 40, 15, 0),
        winner=1,
        reason="Side 2 reached 25 first (counted from the dealer's left)",
    ),
    "five individuals: the counting order runs on past the last seat to side 1": Case(
        sides=5,
        deals=[
            Deal(4, (4, 0, 0, 1, 0)),
            Deal(0, (0, 4, 0, 1, 0)),
            Deal(1, (0, 0, 4, 1, 0)),
            Deal(2, (1, 4, 0, 0, 0)),
        ],
        scores=(25, 40, 20, 15, 0),
        winner=0,
        reason="Side 1 reached 25 first (counted from the dealer's left)",
    ),
    "nine individuals play to 25 as two sides do": Case(
        sides=9,
        deals=[Deal(8, (5, 0, 0, 0, 0, 0, 0, 0, 0))],
        scores=(25, 0, 0, 0, 0, 0, 0, 0, 0),
        winner=0,
        reason="Side 1 reached 25",
        shutout=True,
    ),
    # Rule 4: trick order beats the convention.
    "trick order beats the convention: the dealer wins when it reached 25 first": Case(
        deals=[Deal(1, (3, 2)), Deal(0, (2, 3), trick_winners=(0, 0, 1, 1, 1))],
        scores=(25, 25),
        winner=0,
        reason="Side 1 reached 25 on the second trick",
    ),
    "trick order with three partnerships: the side that got there first, trick by trick": Case(
        sides=3,
        deals=[
            Deal(0, (4, 0, 1)),
            Deal(1, (0, 4, 1)),
            Deal(2, (1, 2, 2), trick_winners=(2, 2, 1, 0, 1)),
        ],
        scores=(25, 30, 20),
        winner=1,
        reason="Side 2 reached 25 on the third trick",
    ),
    # Rule 5: play may stop at the target.
    "play may stop the moment a side reaches 25: three tricks of a last deal": Case(
        deals=[Deal(0, (2, 3)), Deal(1, (3, 0))],
        scores=(25, 15),
        winner=0,
        reason="Side 1 reached 25 on the third trick",
    ),
    "a short last deal may hold the other side's tricks played before the target": Case(
        deals=[Deal(0, (2, 3)), Deal(1, (3, 1))],
        scores=(25, 20),
        winner=0,
        reason="Side 1 reached 25 on the fourth trick",
    ),
    "a short last deal with its trick order ends on the winner's trick": Case(
        deals=[Deal(0, (2, 3)), Deal(1, (3, 1), trick_winners=(1, 0, 0, 0))],
        scores=(25, 20),
        winner=0,
        reason="Side 1 reached 25 on the fourth trick",
    ),
    "a deal played out in full after 25 was reached counts every trick": Case(
        deals=[Deal(1, (3, 2)), Deal(0, (4, 1), trick_winners=(0, 0, 1, 0, 0))],
        scores=(35, 15),
        winner=0,
        reason="Side 1 reached 25 on the second trick",
    ),
    # Forty-Five's highest-trump bonus.
    "Forty-Five: the side that won the highest trump scores 5 more": Case(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (3, 2), bonus_side=1)],
        scores=(15, 15),
        winner=None,
    ),
    "Forty-Five: a deal may carry no bonus when no trump was played": Case(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (3, 2))],
        scores=(15, 10),
        winner=None,
    ),
    "Forty-Five: a side carried to 45 by its bonus wins, counted with the others": Case(
        ruleset=FORTY_FIVE,
        deals=[
            Deal(1, (4, 1), bonus_side=0),
            Deal(0, (1, 4), bonus_side=0),
            Deal(1, (1, 4), bonus_side=0),
        ],
        scores=(45, 45),
        winner=0,
        reason="Side 1 reached 45 first (non-dealers counted first)",
    ),
    "Forty-Five: the bonus comes after the fifth trick, so reaching 45 by tricks wins": Case(
        ruleset=FORTY_FIVE,
        deals=[
            Deal(1, (4, 1), bonus_side=0),
            Deal(0, (1, 4), bonus_side=0),
            Deal(1, (1, 4), trick_winners=(0, 1, 1, 1, 1), bonus_side=0),
        ],
        scores=(45, 45),
        winner=1,
        reason="Side 2 reached 45 on the fifth trick",
    ),
    "Forty-Five: with trick order known, a side short of 45 on tricks wins by its bonus": Case(
        ruleset=FORTY_FIVE,
        sides=3,
        deals=[
            Deal(0, (5, 0, 0), bonus_side=0),
            Deal(1, (1, 2, 2), bonus_side=1),
            Deal(2, (1, 2, 2), trick_winners=(1, 2, 0, 1, 2), bonus_side=0),
        ],
        scores=(45, 25, 20),
        winner=0,
        reason="Side 1 reached 45",
    ),
    # House rules: march bonus and march wins.
    "march bonus (house rule): all five tricks score the bonus on top": Case(
        ruleset=dataclasses.replace(FORTY_FIVE, march_bonus=10),
        deals=[Deal(0, (0, 5))],
        scores=(0, 35),
        winner=None,
    ),
    "march bonus (house rule): four tricks are no march": Case(
        ruleset=dataclasses.replace(FORTY_FIVE, march_bonus=10),
        deals=[Deal(0, (4, 1))],
        scores=(20, 5),
        winner=None,
    ),
    "march bonus (house rule): the bonus can carry a side to the target": Case(
        ruleset=dataclasses.replace(FORTY_FIVE, march_bonus=10),
        deals=[Deal(0, (2, 3)), Deal(1, (5, 0), trick_winners=(0, 0, 0, 0, 0))],
        scores=(45, 15),
        winner=0,
        reason="Side 1 reached 45",
    ),
    "march wins (house rule): all five tricks win the game outright, below the target": Case(
        ruleset=dataclasses.replace(FORTY_FIVE, march_wins=True),
        deals=[Deal(0, (2, 3)), Deal(1, (5, 0))],
        scores=(35, 15),
        winner=0,
        reason="Side 1 made a march: all five tricks",
    ),
    "without march wins, a march below the target is only 25 points": Case(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (2, 3)), Deal(1, (5, 0))],
        scores=(35, 15),
        winner=None,
    ),
    "a house-rule target of 15 is reached in one deal": Case(
        ruleset=dataclasses.replace(TWENTY_FIVE, target=15),
        deals=[Deal(0, (3, 2))],
        scores=(15, 10),
        winner=0,
        reason="Side 1 reached 15",
    ),
    # Rule 7: shutout.
    "shutout: a march in the first deal wins 25 to nothing": Case(
        deals=[Deal(0, (5, 0))],
        scores=(25, 0),
        winner=0,
        reason="Side 1 reached 25",
        shutout=True,
    ),
    "no shutout once the losers have scored": Case(
        deals=[Deal(0, (4, 1)), Deal(1, (2, 3))],
        scores=(30, 20),
        winner=0,
        reason="Side 1 reached 25",
    ),
    "shutout: the losers' tricks in the deciding deal came after the winner was counted": Case(
        ruleset=dataclasses.replace(TWENTY_FIVE, target=30),
        deals=[Deal(0, (5, 0)), Deal(1, (1, 4))],
        scores=(30, 20),
        winner=0,
        reason="Side 1 reached 30",
        shutout=True,
    ),
    "no shutout when the losers were counted first and scored": Case(
        ruleset=dataclasses.replace(TWENTY_FIVE, target=30),
        deals=[Deal(1, (5, 0)), Deal(0, (1, 4))],
        scores=(30, 20),
        winner=0,
        reason="Side 1 reached 30",
    ),
    "shutout: by trick order the winner reached the target before the losers' first trick": Case(
        ruleset=dataclasses.replace(TWENTY_FIVE, target=30),
        deals=[Deal(1, (5, 0)), Deal(0, (1, 4), trick_winners=(0, 1, 1, 1, 1))],
        scores=(30, 20),
        winner=0,
        reason="Side 1 reached 30 on the first trick",
        shutout=True,
    ),
    "no shutout by trick order when a loser won a trick before the winner reached 30": Case(
        ruleset=dataclasses.replace(TWENTY_FIVE, target=30),
        deals=[Deal(0, (5, 0)), Deal(1, (1, 4), trick_winners=(1, 0, 1, 1, 1))],
        scores=(30, 20),
        winner=0,
        reason="Side 1 reached 30 on the second trick",
    ),
    "shutout: march wins before the others have scored": Case(
        ruleset=dataclasses.replace(FORTY_FIVE, march_wins=True),
        deals=[Deal(0, (5, 0))],
        scores=(25, 0),
        winner=0,
        reason="Side 1 made a march: all five tricks",
        shutout=True,
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_rule_book(case):
    result = score_game(case.ruleset, sides=case.sides, deals=case.deals)
    assert (result.scores, result.winner, result.reason, result.shutout) == (
        case.scores,
        case.winner,
        case.reason,
        case.shutout,
    )
    assert result.finished is (case.winner is not None)
    assert len(result.deals) == len(case.deals)


def test_the_result_carries_each_deals_points_and_running_totals():
    result = score_game(TWENTY_FIVE, sides=2, deals=[Deal(0, (2, 3)), Deal(1, (1, 4))])
    assert [(d.points, d.totals, d.winner) for d in result.deals] == [
        ((10, 15), (10, 15), None),
        ((5, 20), (15, 35), 1),
    ]
    assert result.pool is None
    assert not any(d.spoiled or d.pool or d.units_won for d in result.deals)


def test_the_forty_five_bonus_shows_in_the_deals_points():
    result = score_game(FORTY_FIVE, sides=2, deals=[Deal(0, (3, 2), bonus_side=1)])
    assert result.deals[0].points == (15, 15)


def test_two_sides_playing_full_deals_to_25_are_done_by_the_second_deal():
    for first in range(6):
        deals = [Deal(0, (first, 5 - first))]
        if score_game(TWENTY_FIVE, sides=2, deals=deals).finished:
            continue  # a march
        for second in range(6):
            both = [*deals, Deal(1, (second, 5 - second))]
            assert score_game(TWENTY_FIVE, sides=2, deals=both).finished
