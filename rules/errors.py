"""The two ways a score sheet can be refused.

- `InvalidDeal`: one recorded deal breaks a rule. It carries a `code` (one of `CODES`, in
  the order the checks run), the `deal_index` (0-based, into the deals given) and a message
  a person at the table understands. Messages number deals and sides from 1, as the table
  does: `deal_index=3` is "Deal 4", side index 0 is "side 1".
- `UnsupportedSides`: the ruleset is not played by that many sides. It is raised before any
  deal is looked at, so it is not a deal error and has no deal index.

Both are `ValueError`s: a rule broken by the user, to be shown as a form error.
"""

# The codes of rules.md, in the order the checks run: each bad deal gets the first that fits.
CODES = (
    "game_over",
    "wrong_side_count",
    "tricks_out_of_range",
    "bad_dealer",
    "wrong_trick_total",
    "trick_order_mismatch",
    "bad_bonus",
)


class InvalidDeal(ValueError):
    """A recorded deal breaks a rule; `str(error)` is the sentence to show."""

    def __init__(self, code: str, deal_index: int, message: str) -> None:
        if code not in CODES:
            raise ValueError(f"unknown deal error code {code!r}")
        super().__init__(message)
        self.code = code
        self.deal_index = deal_index
        self.message = message

    def __repr__(self) -> str:
        return f"InvalidDeal({self.code!r}, {self.deal_index}, {self.message!r})"


class UnsupportedSides(ValueError):
    """The ruleset is not played by this number of sides."""

    code = "unsupported_sides"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
