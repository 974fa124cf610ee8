"""What goes into `score_game` and what comes out: frozen dataclasses, nothing else.

- `Deal`: one hand of five tricks as the table records it. `tricks` holds one count per
  side; `trick_winners`, when known, the side that won each trick in the order played;
  `bonus_side` the side given the highest-trump bonus (Forty-Five). Sides and dealers are
  0-based indexes in seat order. A `Deal` is not checked when built: `score_game` checks it,
  so that a bad one is refused with its place in the game (`InvalidDeal.deal_index`).
- `DealResult`: what one deal did: each side's `points`, the running `totals` after it, and
  the `winner` on the deal that decided the game.
- `GameResult`: the whole sheet: `scores`, `winner`, `finished`, `shutout`, and `reason`,
  the words that say why the game was won.
- `Pool` (Spoil Five): the `size` of the pool, and each player's net `units` (won minus
  paid in) since the first hand.
- `Reason`: why the game was won, as a code with its values (`code`, `side`, `target`,
  `trick`), so a caller can put the sides' own names in: `reason.text(["Ayes", "Bees"])`.
- `Win` (inside `rules/` only): how the deal that decided the game decided it.
"""

from collections.abc import Sequence
from dataclasses import dataclass

ORDINALS = ("first", "second", "third", "fourth", "fifth")


@dataclass(frozen=True)
class Reason:
    """Why a game was won. The codes:

    - `reached`: the only side to reach the target.
    - `first_non_dealer`: several reached it; the dealer's side is counted last (rule 3).
    - `first_from_left`: several reached it, counted from the dealer's left (rule 3).
    - `on_trick`: the trick order shows it reached the target on trick `trick` (1 to 5).
    - `march`: all five tricks win outright (house rule).
    """

    code: str
    side: int
    target: int
    trick: int | None = None

    def text(self, labels: Sequence[str] | None = None) -> str:
        """The reason in the table's words, with the sides named by `labels` (by default
        "Side 1", "Side 2", … counting from 1)."""
        name = labels[self.side] if labels else f"Side {self.side + 1}"
        reached = f"{name} reached {self.target}"
        if self.code == "first_non_dealer":
            return f"{reached} first (non-dealers counted first)"
        if self.code == "first_from_left":
            return f"{reached} first (counted from the dealer's left)"
        if self.code == "on_trick":
            return f"{reached} on the {ORDINALS[self.trick - 1]} trick"
        if self.code == "march":
            return f"{name} made a march: all five tricks"
        return reached


@dataclass(frozen=True)
class Deal:
    dealer: int
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...] | None = None
    bonus_side: int | None = None

    def __post_init__(self) -> None:
        # Lists are welcome (from a form or JSON); store tuples so a Deal stays frozen.
        object.__setattr__(self, "tricks", tuple(self.tricks))
        if self.trick_winners is not None:
            object.__setattr__(self, "trick_winners", tuple(self.trick_winners))


@dataclass(frozen=True)
class Pool:
    size: int
    units: tuple[int, ...]


@dataclass(frozen=True)
class DealResult:
    points: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int | None = None
    # Spoil Five only: nobody took three tricks, so nobody scored and the pool carried over.
    spoiled: bool = False
    # Spoil Five only: each player's net units from this hand, and the pool after it.
    units_won: tuple[int, ...] | None = None
    pool: Pool | None = None


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]
    winner: int | None
    finished: bool
    deals: tuple[DealResult, ...]
    shutout: bool
    reason: str = ""
    pool: Pool | None = None
    # Why the game was won, as a code with its values (None while it goes on), and how
    # many marches (all five tricks in a deal) each side made.
    why: Reason | None = None
    marches: tuple[int, ...] = ()


@dataclass(frozen=True)
class Win:
    side: int
    why: Reason
    shutout: bool
