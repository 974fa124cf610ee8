"""`score_game`: the score sheet of one game, and who won it and why.

Trick-point games (Twenty-Five, Fifteen, Forty-Five) are scored here; Spoil Five's hand
scoring is in `rules/spoil_five.py`. Every deal is checked (`rules/checks.py`) before it is
scored, so a sheet is either scored in full or refused at its first bad deal.

- **counting order**: the sides from the dealer's left round to the dealer (rule 3).
- **reason**: why the game was won, in the table's words, naming sides from 1:
  "Side 2 reached 25 first (non-dealers counted first)", "Side 1 reached 25 on the fourth
  trick", "Side 1 made a march: all five tricks", or plain "Side 1 reached 25".
- **shutout**: the winner reached the target while every other side still had 0 points.
"""

from collections.abc import Iterable
from operator import add

from rules.checks import TRICKS, check_deal
from rules.records import Deal, DealResult, GameResult, Pool, Reason, Win
from rules.rulesets import Ruleset
from rules.seating import counting_order
from rules.spoil_five import score_hand


def score_game(ruleset: Ruleset, *, sides: int, deals: Iterable[Deal]) -> GameResult:
    """Score `deals` in the order played; raise `InvalidDeal` at the first bad one.

    A number of sides the ruleset does not support is refused (`UnsupportedSides`) before
    any deal is looked at.
    """
    ruleset.check_sides(sides)
    totals = (0,) * sides
    pool = Pool(size=0, units=(0,) * sides) if ruleset.hand_scoring else None
    results: list[DealResult] = []
    win: Win | None = None
    won: tuple[int, int] | None = None
    deals_seen: list[Deal] = []
    for index, deal in enumerate(deals):
        deals_seen.append(deal)
        check_deal(ruleset, sides=sides, deal=deal, index=index, before=totals, won=won)
        if ruleset.hand_scoring:
            result, win = score_hand(ruleset, deal, totals, pool)
            pool = result.pool
        else:
            result, win = score_trick_deal(ruleset, deal, totals)
        results.append(result)
        totals = result.totals
        if win is not None:
            won = (win.side, index)
    marches = [0] * sides
    for deal in deals_seen:
        for side, count in enumerate(deal.tricks):
            marches[side] += count == TRICKS
    return GameResult(
        scores=totals,
        winner=win.side if win else None,
        finished=win is not None,
        deals=tuple(results),
        shutout=win.shutout if win else False,
        reason=win.why.text() if win else "",
        pool=pool,
        why=win.why if win else None,
        marches=tuple(marches),
    )


def score_trick_deal(
    ruleset: Ruleset, deal: Deal, before: tuple[int, ...]
) -> tuple[DealResult, Win | None]:
    """Score one checked deal of a trick-point game standing at `before`."""
    points = [ruleset.points_per_trick * count for count in deal.tricks]
    marcher = next((side for side, count in enumerate(deal.tricks) if count == TRICKS), None)
    if marcher is not None:
        points[marcher] += ruleset.march_bonus
    if deal.bonus_side is not None:
        points[deal.bonus_side] += ruleset.highest_trump_bonus
    totals = tuple(map(add, before, points))
    win = _decide(ruleset, deal, before, totals, marcher)
    result = DealResult(points=tuple(points), totals=totals, winner=win.side if win else None)
    return result, win


def _decide(
    ruleset: Ruleset,
    deal: Deal,
    before: tuple[int, ...],
    totals: tuple[int, ...],
    marcher: int | None,
) -> Win | None:
    target = ruleset.target

    if marcher is not None and ruleset.march_wins:
        # House rule: all five tricks win outright. Nobody else took a trick this deal.
        return _win(Reason("march", marcher, target), totals)

    # Rule 4: trick order, when known, beats the convention.
    if deal.trick_winners is not None:
        running = list(before)
        for number, side in enumerate(deal.trick_winners):
            running[side] += ruleset.points_per_trick
            if running[side] >= target:
                return _win(Reason("on_trick", side, target, trick=number + 1), running)

    # Rule 5, counts only: play stopped on the trick that took one side to the target, and
    # that trick was the last one played (checks.py made sure only one side got there).
    played = sum(deal.tricks)
    if played < TRICKS:
        side = next(side for side, total in enumerate(totals) if total >= target)
        return _win(Reason("on_trick", side, target, trick=played), totals)

    # Rule 3: the convention. Bonuses (highest trump, march) are scored at the end of the
    # deal, after the fifth trick, so a side that reaches the target only with its bonus is
    # decided here even when the trick order is known.
    order = counting_order(deal.dealer, len(totals))
    reached = [side for side in order if totals[side] >= target]
    if not reached:
        return None
    side = reached[0]
    if len(reached) == 1:
        why = Reason("reached", side, target)
    elif deal.dealer in reached:
        why = Reason("first_non_dealer", side, target)
    else:
        why = Reason("first_from_left", side, target)
    # The scores as they stood when `side` was counted: every trick was in if the order is
    # known, and every side counted before it, and itself, has its whole deal.
    at_target = list(before)
    if deal.trick_winners is not None:
        at_target = [
            b + ruleset.points_per_trick * c for b, c in zip(before, deal.tricks, strict=True)
        ]
    for counted in order[: order.index(side) + 1]:
        at_target[counted] = totals[counted]
    return _win(why, at_target)


def _win(why: Reason, at_target: Iterable[int]) -> Win:
    # Shutout (rule 7; "if a player or team wins the 25 points before another team or player
    # scores, they are awarded double stakes", seed 004): read at the moment the winner
    # reached the target, as the trick order or the counting order has it. Points the others
    # take later in a deal played out in full do not undo it.
    shutout = all(total == 0 for other, total in enumerate(at_target) if other != why.side)
    return Win(side=why.side, why=why, shutout=shutout)
