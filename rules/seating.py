"""Seat order: who deals next, and in which order a deal's tricks are counted.

Sides sit alternately round the table, so seat order is side 0, 1, 2, … and back to 0.
"The first dealer is chosen randomly and passes to the left for each new deal" (seed 004):
the player on the dealer's left belongs to the next side.
"""


def next_dealer(dealer: int, sides: int) -> int:
    """The side that deals after `dealer`."""
    return (dealer + 1) % sides


def dealer_for_deal(first_dealer: int, deal_index: int, sides: int) -> int:
    """The side that deals deal `deal_index` (0-based) when `first_dealer` dealt the first."""
    return (first_dealer + deal_index) % sides


def counting_order(dealer: int, sides: int) -> tuple[int, ...]:
    """The sides from the dealer's left round to the dealer, who is counted last.

    "If both sides could reach 25 in the same deal, the non-dealing side's tricks are
    conventionally counted first." (seed 000)
    """
    return tuple((dealer + step) % sides for step in range(1, sides + 1))
