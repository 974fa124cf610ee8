"""The rules of Twenty-Five and its family: is a deal legal, what is the score, who won, why.

Plain Python, no Django: the web apps call it, and so can anyone else. The reading of the
rules it follows is `shared/spec/rules.md`; the rule texts it comes from are `shared/seeds/`.

- **side**: a player, or a partnership seated alternately, as a 0-based index in seat
  order. Messages and reasons count from 1, as the table does: index 0 is "Side 1".
- **deal**: one hand of five tricks, recorded as a `Deal`.
- **ruleset**: a game of the family and its house rules (`RULESETS`, `Ruleset`).

    from rules import RULESETS, Deal, score_game

    result = score_game(RULESETS["twenty-five"], sides=2, deals=[
        Deal(dealer=0, tricks=(2, 3)),
        Deal(dealer=1, tricks=(1, 4)),
    ])
    result.scores, result.winner, result.reason  # (15, 35), 1, "Side 2 reached 25"

Read in this order: `rulesets`, `records`, `seating`, `checks`, `scoring`, `spoil_five`.
"""

from rules.errors import CODES, InvalidDeal, UnsupportedSides
from rules.records import Deal, DealResult, GameResult, Pool, Reason
from rules.rulesets import RULESETS, Ruleset
from rules.scoring import score_game
from rules.seating import counting_order, dealer_for_deal, next_dealer

__all__ = [
    "CODES",
    "RULESETS",
    "Deal",
    "DealResult",
    "GameResult",
    "InvalidDeal",
    "Pool",
    "Reason",
    "Ruleset",
    "UnsupportedSides",
    "counting_order",
    "dealer_for_deal",
    "next_dealer",
    "score_game",
]
