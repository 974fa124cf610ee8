"""The presets, the house rules a league may change, and who deals next."""

import dataclasses

import pytest

from rules import RULESETS, Deal, Ruleset, counting_order, dealer_for_deal, next_dealer


def test_the_four_presets_of_rules_md():
    presets = {
        key: (r.name, r.target, r.points_per_trick, r.highest_trump_bonus, r.hand_scoring)
        for key, r in RULESETS.items()
    }
    assert presets == {
        "twenty-five": ("Twenty-Five", 25, 5, 0, False),
        "fifteen": ("Fifteen", 15, 5, 0, False),
        "forty-five": ("Forty-Five", 45, 5, 5, False),
        "spoil-five": ("Spoil Five", 5, 0, 0, True),
    }
    assert all(r.march_bonus == 0 and not r.march_wins for r in RULESETS.values())


def test_twenty_five_is_played_by_2_to_9_sides_and_spoil_five_by_2_to_10():
    sides = {key: (r.min_sides, r.max_sides) for key, r in RULESETS.items()}
    assert sides == {
        "twenty-five": (2, 9),
        "fifteen": (2, 9),
        "forty-five": (2, 9),
        "spoil-five": (2, 10),
    }


def test_a_house_rule_variant_is_made_with_dataclasses_replace_and_leaves_the_preset_alone():
    preset = RULESETS["twenty-five"]
    house = dataclasses.replace(preset, target=15, march_bonus=10, march_wins=True)
    assert (house.key, house.target, house.march_bonus, house.march_wins) == (
        "twenty-five",
        15,
        10,
        True,
    )
    assert (preset.target, preset.march_bonus, preset.march_wins) == (25, 0, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset.target = 30


@pytest.mark.parametrize(
    "change",
    [{"target": 0}, {"target": -5}, {"march_bonus": -10}, {"target": 2.5}, {"target": True}],
    ids=["target 0", "target -5", "march bonus -10", "target 2.5", "target True"],
)
def test_a_house_rule_that_makes_no_sense_is_refused(change):
    with pytest.raises(ValueError, match="Twenty-Five"):
        dataclasses.replace(RULESETS["twenty-five"], **change)


def test_check_sides_accepts_every_supported_number():
    for ruleset in RULESETS.values():
        for sides in range(ruleset.min_sides, ruleset.max_sides + 1):
            ruleset.check_sides(sides)


def test_a_deal_keeps_lists_as_tuples_and_is_not_checked_when_built():
    deal = Deal(dealer=7, tricks=[9, 9], trick_winners=[0, 1])
    assert (deal.tricks, deal.trick_winners, deal.bonus_side) == ((9, 9), (0, 1), None)
    assert Deal(0, (2, 3)) == Deal(0, [2, 3])
    with pytest.raises(dataclasses.FrozenInstanceError):
        deal.dealer = 0


def test_the_deal_passes_to_the_left_which_is_the_next_side():
    assert [next_dealer(dealer, 3) for dealer in range(3)] == [1, 2, 0]
    assert next_dealer(1, 2) == 0


def test_the_dealer_of_each_deal_follows_from_the_first_dealer():
    assert [dealer_for_deal(2, index, 4) for index in range(6)] == [2, 3, 0, 1, 2, 3]


def test_tricks_are_counted_from_the_dealers_left_round_to_the_dealer():
    assert counting_order(0, 2) == (1, 0)
    assert counting_order(2, 5) == (3, 4, 0, 1, 2)


def test_a_ruleset_is_a_plain_frozen_dataclass():
    assert dataclasses.is_dataclass(Ruleset)
    assert Ruleset(key="x", name="X", target=30).points_per_trick == 5
