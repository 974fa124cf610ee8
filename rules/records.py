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
- `Win` (inside `rules/` only): how the deal that decided the game decided it.
"""

from dataclasses import dataclass


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


@dataclass(frozen=True)
class Win:
    side: int
    reason: str
    shutout: bool
