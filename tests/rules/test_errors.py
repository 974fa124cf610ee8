"""Bad deals: every code of rules.md, the order the checks run in, and the words shown."""

import dataclasses
from dataclasses import dataclass

import pytest

from rules import CODES, RULESETS, Deal, InvalidDeal, Ruleset, UnsupportedSides, score_game

TWENTY_FIVE = RULESETS["twenty-five"]
FORTY_FIVE = RULESETS["forty-five"]


@dataclass(frozen=True)
class Bad:
    deals: list[Deal]
    code: str
    deal_index: int
    message: str | None = None
    sides: int = 2
    ruleset: Ruleset = TWENTY_FIVE


BAD_DEALS = {
    # game_over (rule 6)
    "a deal after the game was won is refused: the game is over": Bad(
        deals=[Deal(0, (5, 0)), Deal(1, (2, 3))],
        code="game_over",
        deal_index=1,
        message="Deal 2: the game is over: side 1 won it in deal 1.",
    ),
    "a deal after a short last deal is refused: the game is over": Bad(
        deals=[Deal(0, (2, 3)), Deal(1, (3, 0)), Deal(0, (2, 3))],
        code="game_over",
        deal_index=2,
        message="Deal 3: the game is over: side 1 won it in deal 2.",
    ),
    "a march that wins outright ends the game too": Bad(
        ruleset=dataclasses.replace(FORTY_FIVE, march_wins=True),
        deals=[Deal(0, (0, 5)), Deal(1, (2, 3))],
        code="game_over",
        deal_index=1,
    ),
    # wrong_side_count
    "three trick counts for two sides are refused": Bad(
        deals=[Deal(0, (2, 3, 0))],
        code="wrong_side_count",
        deal_index=0,
        message="Deal 1: there are 3 trick counts for 2 sides; give one count per side.",
    ),
    "one trick count for two sides is refused": Bad(
        deals=[Deal(0, (5,))],
        code="wrong_side_count",
        deal_index=0,
    ),
    # tricks_out_of_range
    "a side with six tricks is refused": Bad(
        deals=[Deal(0, (2, 3)), Deal(1, (0, 6))],
        code="tricks_out_of_range",
        deal_index=1,
        message="Deal 2: side 2 is shown with 6 tricks; a side takes 0 to 5.",
    ),
    "a side with minus one trick is refused": Bad(
        deals=[Deal(0, (-1, 5))],
        code="tricks_out_of_range",
        deal_index=0,
        message="Deal 1: side 1 is shown with -1 tricks; a side takes 0 to 5.",
    ),
    "half a trick is refused": Bad(
        deals=[Deal(0, (2.5, 2.5))],
        code="tricks_out_of_range",
        deal_index=0,
    ),
    "True is not a number of tricks": Bad(
        deals=[Deal(0, (True, 4))],
        code="tricks_out_of_range",
        deal_index=0,
    ),
    "a trick count written as text is refused": Bad(
        deals=[Deal(0, ("2", "3"))],
        code="tricks_out_of_range",
        deal_index=0,
    ),
    # bad_dealer
    "a dealer past the last side is refused": Bad(
        deals=[Deal(2, (2, 3))],
        code="bad_dealer",
        deal_index=0,
        message="Deal 1: the dealer is shown as side 3, but the sides are numbered 1 to 2.",
    ),
    "a negative dealer is refused": Bad(deals=[Deal(-1, (2, 3))], code="bad_dealer", deal_index=0),
    "no dealer is refused": Bad(deals=[Deal(None, (2, 3))], code="bad_dealer", deal_index=0),
    "True is not a dealer": Bad(deals=[Deal(True, (2, 3))], code="bad_dealer", deal_index=0),
    # wrong_trick_total (rules 1 and 5)
    "tricks adding up to six are refused": Bad(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (2, 3)), Deal(1, (3, 2)), Deal(0, (2, 3)), Deal(1, (3, 3))],
        code="wrong_trick_total",
        deal_index=3,
        message="Deal 4: the tricks add up to 6; a deal has 5 tricks.",
    ),
    "a short deal where nobody reaches the target is refused": Bad(
        deals=[Deal(0, (1, 2))],
        code="wrong_trick_total",
        deal_index=0,
        message="Deal 1: the tricks add up to 3, not 5, and no side reaches 25; "
        "play stops early only at the target.",
    ),
    "a deal with no tricks at all is refused": Bad(
        deals=[Deal(0, (0, 0))],
        code="wrong_trick_total",
        deal_index=0,
    ),
    "a short deal that takes two sides to the target is refused": Bad(
        sides=3,
        deals=[Deal(0, (4, 0, 1)), Deal(1, (0, 4, 1)), Deal(2, (1, 1, 0))],
        code="wrong_trick_total",
        deal_index=2,
        message="Deal 3: the tricks add up to 2, but they take sides 1 and 2 to 25; "
        "play stops the moment one side reaches the target.",
    ),
    "a short deal where the winner went on past the target is refused": Bad(
        deals=[Deal(0, (4, 1)), Deal(1, (2, 0))],
        code="wrong_trick_total",
        deal_index=1,
        message="Deal 2: the tricks add up to 2, but side 1 reached 25 before its last "
        "trick; play stops the moment a side reaches the target.",
    ),
    "a short deal whose trick order goes on after the target is refused": Bad(
        deals=[Deal(0, (4, 1)), Deal(1, (1, 1), trick_winners=(0, 1))],
        code="wrong_trick_total",
        deal_index=1,
        message="Deal 2: side 1 reached 25 on the first trick, but the trick order goes on "
        "to a second; play stops the moment a side reaches the target.",
    ),
    "a short deal before the last is refused": Bad(
        deals=[Deal(0, (2, 2)), Deal(1, (3, 2))],
        code="wrong_trick_total",
        deal_index=0,
    ),
    # trick_order_mismatch (rule 4)
    "a trick order naming a third side in a two-sided game is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(0, 0, 2, 1, 1))],
        code="trick_order_mismatch",
        deal_index=0,
        message="Deal 1: the trick order names side 3, but the sides are numbered 1 to 2.",
    ),
    "a trick order naming side minus one is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(0, 0, -1, 1, 1))],
        code="trick_order_mismatch",
        deal_index=0,
    ),
    "a trick order with a name instead of a side is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(0, 0, "x", 1, 1))],
        code="trick_order_mismatch",
        deal_index=0,
    ),
    "a trick order one trick short is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(0, 0, 1, 1))],
        code="trick_order_mismatch",
        deal_index=0,
        message="Deal 1: the trick order lists 4 tricks, but the counts add up to 5.",
    ),
    "a trick order that disagrees with the counts is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(0, 0, 0, 1, 1))],
        code="trick_order_mismatch",
        deal_index=0,
        message="Deal 1: the trick order gives side 1 3 tricks, but the counts say 2.",
    ),
    "an empty trick order for a full deal is refused": Bad(
        deals=[Deal(0, (2, 3), trick_winners=())],
        code="trick_order_mismatch",
        deal_index=0,
    ),
    # bad_bonus
    "Twenty-Five has no highest-trump bonus": Bad(
        deals=[Deal(0, (2, 3), bonus_side=1)],
        code="bad_bonus",
        deal_index=0,
        message="Deal 1: Twenty-Five has no highest-trump bonus.",
    ),
    "Forty-Five: the bonus cannot go to a side that won no trick": Bad(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (5, 0), bonus_side=1)],
        code="bad_bonus",
        deal_index=0,
        message="Deal 1: side 2 took no trick, so it cannot have won the highest trump.",
    ),
    "Forty-Five: the bonus cannot go to a side that is not at the table": Bad(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (2, 3), bonus_side=2)],
        code="bad_bonus",
        deal_index=0,
        message="Deal 1: the bonus is given to side 3, but the sides are numbered 1 to 2.",
    ),
    "Forty-Five: a short deal carries no bonus": Bad(
        ruleset=FORTY_FIVE,
        deals=[Deal(0, (4, 1)), Deal(1, (4, 1)), Deal(0, (1, 0), bonus_side=0)],
        code="bad_bonus",
        deal_index=2,
        message="Deal 3: only a deal played out to 5 tricks carries the highest-trump bonus.",
    ),
}

# A deal with several faults gets the code of the first check in the table.
FIRST_CHECK_WINS = {
    "game over comes before everything else": Bad(
        deals=[Deal(0, (5, 0)), Deal(7, (9, 9, 9), trick_winners=(5,), bonus_side=4)],
        code="game_over",
        deal_index=1,
    ),
    "the side count comes before the tricks in range": Bad(
        deals=[Deal(7, (9, 9, 9), trick_winners=(5,), bonus_side=4)],
        code="wrong_side_count",
        deal_index=0,
    ),
    "the tricks in range come before the dealer": Bad(
        deals=[Deal(7, (6, 0), trick_winners=(5,), bonus_side=4)],
        code="tricks_out_of_range",
        deal_index=0,
    ),
    "the dealer comes before the trick total": Bad(
        deals=[Deal(7, (3, 3), trick_winners=(5,), bonus_side=4)],
        code="bad_dealer",
        deal_index=0,
    ),
    "the trick total comes before the trick order": Bad(
        deals=[Deal(0, (3, 3), trick_winners=(5,), bonus_side=4)],
        code="wrong_trick_total",
        deal_index=0,
    ),
    "an impossible short deal is a trick total fault before any trick order fault": Bad(
        deals=[Deal(0, (1, 2), trick_winners=(5,), bonus_side=4)],
        code="wrong_trick_total",
        deal_index=0,
    ),
    "the trick order comes before the bonus": Bad(
        deals=[Deal(0, (2, 3), trick_winners=(5,), bonus_side=4)],
        code="trick_order_mismatch",
        deal_index=0,
    ),
    "a short deal whose order goes on past the target is a trick total fault before the bonus": Bad(
        ruleset=FORTY_FIVE,
        deals=[
            Deal(0, (4, 1)),
            Deal(1, (4, 1)),
            Deal(0, (1, 1), trick_winners=(0, 1), bonus_side=0),
        ],
        code="wrong_trick_total",
        deal_index=2,
    ),
    "the first bad deal of a sheet is the one refused": Bad(
        deals=[Deal(0, (2, 3)), Deal(1, (3, 3)), Deal(5, (1,))],
        code="wrong_trick_total",
        deal_index=1,
    ),
}


@pytest.mark.parametrize("bad", BAD_DEALS.values(), ids=BAD_DEALS.keys())
def test_a_bad_deal_is_refused_with_its_code_and_a_clear_message(bad):
    with pytest.raises(InvalidDeal) as refused:
        score_game(bad.ruleset, sides=bad.sides, deals=bad.deals)
    assert (refused.value.code, refused.value.deal_index) == (bad.code, bad.deal_index)
    assert str(refused.value).startswith(f"Deal {bad.deal_index + 1}: ")
    if bad.message is not None:
        assert str(refused.value) == bad.message


@pytest.mark.parametrize("bad", FIRST_CHECK_WINS.values(), ids=FIRST_CHECK_WINS.keys())
def test_the_checks_run_in_the_order_of_the_table(bad):
    with pytest.raises(InvalidDeal) as refused:
        score_game(bad.ruleset, sides=bad.sides, deals=bad.deals)
    assert (refused.value.code, refused.value.deal_index) == (bad.code, bad.deal_index)


def test_every_code_of_rules_md_is_covered_in_the_order_of_its_table():
    assert CODES == (
        "game_over",
        "wrong_side_count",
        "tricks_out_of_range",
        "bad_dealer",
        "wrong_trick_total",
        "trick_order_mismatch",
        "bad_bonus",
    )
    assert {bad.code for bad in BAD_DEALS.values()} == set(CODES)


def test_an_invalid_deal_is_a_value_error_carrying_its_message():
    error = InvalidDeal("bad_dealer", 3, "Deal 4: the dealer is shown as side 9.")
    assert isinstance(error, ValueError)
    assert error.message == str(error) == "Deal 4: the dealer is shown as side 9."
    with pytest.raises(ValueError, match="unknown deal error code"):
        InvalidDeal("no_such_code", 0, "")


@pytest.mark.parametrize(
    ("ruleset", "sides"),
    [
        (TWENTY_FIVE, 1),
        (TWENTY_FIVE, 10),
        (RULESETS["fifteen"], 0),
        (FORTY_FIVE, 10),
        (RULESETS["spoil-five"], 11),
        (TWENTY_FIVE, True),
        (TWENTY_FIVE, "2"),
    ],
    ids=[
        "Twenty-Five refuses one side",
        "Twenty-Five refuses ten sides",
        "Fifteen refuses no sides",
        "Forty-Five refuses ten sides",
        "Spoil Five refuses eleven players",
        "True is not a number of sides",
        "a number of sides written as text is refused",
    ],
)
def test_a_ruleset_refuses_a_number_of_sides_it_does_not_support(ruleset, sides):
    with pytest.raises(UnsupportedSides) as refused:
        score_game(ruleset, sides=sides, deals=[])
    assert refused.value.code == "unsupported_sides"
    assert isinstance(refused.value, ValueError)


def test_the_number_of_sides_is_refused_before_any_deal_is_looked_at():
    def deals():
        raise AssertionError("the deals were read")
        yield  # pragma: no cover

    with pytest.raises(
        UnsupportedSides, match=r"^Twenty-Five is played by 2 to 9 sides, not 10\.$"
    ):
        score_game(TWENTY_FIVE, sides=10, deals=deals())
