"""Spoil Five: hand scoring, spoiled hands and the pool.

Individual players (sides of one), every hand played out to five tricks.

- **hand won**: a player took 3 or 4 tricks (3 points), or all five, a march (5 points,
  plus any `march_bonus`). Only one player can take 3 of 5 tricks, so a hand has at most
  one scorer and two players never cross the target together.
- **spoiled hand**: nobody took 3 tricks; nobody scores and the pool carries over.
- **pool**: "Each player antes one unit into a central pot before any cards are dealt"
  (seed 003); the winner of a hand takes the whole pool, and a march also "collect[s] an
  additional payment of one unit from each other player". A player's **units** are what
  they have won minus what they have paid in, so the units and the pool always sum to 0.
"""

from operator import add

from rules.checks import TRICKS
from rules.records import Deal, DealResult, Pool, Reason, Win
from rules.rulesets import Ruleset

# "award 3 points for winning a hand, 5 points for taking all five tricks, and 0 for a
# spoiled hand. The player who first reaches or exceeds 5 points wins the game." (seed 003)
TRICKS_TO_WIN = 3
HAND_POINTS = 3
MARCH_POINTS = 5


def score_hand(
    ruleset: Ruleset, deal: Deal, before: tuple[int, ...], pool: Pool
) -> tuple[DealResult, Win | None]:
    """Score one checked hand of Spoil Five standing at `before`, with `pool` before it."""
    players = len(before)
    points = [0] * players
    units_won = [-1] * players  # everyone antes one unit
    size = pool.size + players
    hand_winner = next(
        (player for player, count in enumerate(deal.tricks) if count >= TRICKS_TO_WIN), None
    )
    march = hand_winner is not None and deal.tricks[hand_winner] == TRICKS
    if hand_winner is not None:
        points[hand_winner] = (MARCH_POINTS + ruleset.march_bonus) if march else HAND_POINTS
        units_won[hand_winner] += size
        size = 0
    if march:
        for player in range(players):
            if player != hand_winner:
                units_won[player] -= 1
                units_won[hand_winner] += 1

    totals = tuple(map(add, before, points))
    pool_after = Pool(size=size, units=tuple(map(add, pool.units, units_won)))
    why = None
    if march and ruleset.march_wins:
        why = Reason("march", hand_winner, ruleset.target)
    elif hand_winner is not None and totals[hand_winner] >= ruleset.target:
        why = Reason("reached", hand_winner, ruleset.target)
    win = None
    if why:
        # Only the hand winner scored, so the others' totals are what they had when it won.
        shutout = all(total == 0 for player, total in enumerate(totals) if player != hand_winner)
        win = Win(side=hand_winner, why=why, shutout=shutout)

    result = DealResult(
        points=tuple(points),
        totals=totals,
        winner=win.side if win else None,
        spoiled=hand_winner is None,
        units_won=tuple(units_won),
        pool=pool_after,
    )
    return result, win
