"""Rulesets: the games of the Twenty-Five family, and the house rules a league may change.

- **trick-point game** (Twenty-Five, Fifteen, Forty-Five): each trick is worth
  `points_per_trick` to its side, and the first side to reach `target` wins.
- **hand scoring** (Spoil Five): only the winner of a hand scores (3 points, or 5 for all
  five tricks), a hand nobody wins is spoiled, and a pool of units changes hands.
- **house rules**: `target`, `march_bonus` and `march_wins`. A league starts from a preset
  and changes them with `dataclasses.replace(RULESETS["twenty-five"], target=15)`.
"""

from dataclasses import dataclass

from rules.errors import UnsupportedSides


@dataclass(frozen=True)
class Ruleset:
    key: str
    name: str
    target: int
    points_per_trick: int = 5
    # Forty-Five: 5 points to the side that won the trick with the highest trump played.
    highest_trump_bonus: int = 0
    # House rule: extra points for a march (all five tricks).
    march_bonus: int = 0
    # House rule: a march wins the game outright, whatever the score.
    march_wins: bool = False
    # Spoil Five: hand scoring and the pool instead of points per trick.
    hand_scoring: bool = False
    min_sides: int = 2
    max_sides: int = 9

    def __post_init__(self) -> None:
        for field in ("target", "points_per_trick", "highest_trump_bonus", "march_bonus"):
            value = getattr(self, field)
            if not is_whole(value) or value < 0:
                raise ValueError(f"{self.name}: {field} must be a whole number, not {value!r}")
        if self.target < 1:
            raise ValueError(f"{self.name}: the target must be at least 1, not {self.target}")
        if not (is_whole(self.min_sides) and is_whole(self.max_sides)) or not (
            2 <= self.min_sides <= self.max_sides
        ):
            raise ValueError(f"{self.name}: sides must run from 2 up, not {self.sides_text}")

    @property
    def sides_text(self) -> str:
        return f"{self.min_sides} to {self.max_sides}"

    def check_sides(self, sides: int) -> None:
        """Refuse a number of sides this game is not played by (`UnsupportedSides`)."""
        if not is_whole(sides) or not self.min_sides <= sides <= self.max_sides:
            raise UnsupportedSides(
                f"{self.name} is played by {self.sides_text} sides, not {sides!r}."
            )


def is_whole(value: object) -> bool:
    # True and False are ints in Python, but nobody takes True tricks.
    return isinstance(value, int) and not isinstance(value, bool)


# Sides: Twenty-Five is "best for three to nine players" playing alone, or partnerships of
# two or three seated alternately (seeds 001, 004), down to the two partnerships of seed 000;
# Fifteen and Forty-Five are the same table with another target. Spoil Five takes 2 to 10
# individual players (seed 000; 5 cards each for ten players still leaves a card to turn).
RULESETS: dict[str, Ruleset] = {
    ruleset.key: ruleset
    for ruleset in (
        Ruleset(key="twenty-five", name="Twenty-Five", target=25),
        # "For a shorter session, lower the winning target from 25 to 15 points." (seed 000)
        Ruleset(key="fifteen", name="Fifteen", target=15),
        # "raises the target to 45 points and adds a 5-point Game bonus for the highest
        # trump played each deal" (seed 000)
        Ruleset(key="forty-five", name="Forty-Five", target=45, highest_trump_bonus=5),
        # Hand scoring has no points per trick: see rules/spoil_five.py.
        Ruleset(
            key="spoil-five",
            name="Spoil Five",
            target=5,
            points_per_trick=0,
            hand_scoring=True,
            max_sides=10,
        ),
    )
}
