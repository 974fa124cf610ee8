"""Is this deal legal? The checks of rules.md, run in the order of its table of codes.

Each bad deal is refused with the first check it fails, so it gets one clear code. One check
needs a trick order that has itself been checked: a short deal whose trick order shows play
going on after a side reached the target. It runs just after the trick order check and
still says `wrong_trick_total`, because what is wrong is where play stopped.

Messages count deals and sides from 1, as the table does.
"""

from collections.abc import Callable

from rules.errors import InvalidDeal
from rules.records import ORDINALS, Deal
from rules.rulesets import Ruleset, is_whole

TRICKS = 5

Refuse = Callable[[str, str], InvalidDeal]  # (code, text) -> the error for this deal


def check_deal(
    ruleset: Ruleset,
    *,
    sides: int,
    deal: Deal,
    index: int,
    before: tuple[int, ...],
    won: tuple[int, int] | None,
) -> None:
    """Raise `InvalidDeal` if deal `index` cannot follow a game standing at `before`.

    `won` is (winning side, index of the deal that decided it) once the game has a winner.
    """

    def refuse(code: str, text: str) -> InvalidDeal:
        return InvalidDeal(code, index, f"Deal {index + 1}: {text}")

    # Rule 6: once a game has a winner, no further deal may be recorded.
    if won is not None:
        winner, decided_in = won
        raise refuse(
            "game_over",
            f"the game is over: side {winner + 1} won it in deal {decided_in + 1}.",
        )

    if len(deal.tricks) != sides:
        raise refuse(
            "wrong_side_count",
            f"there are {len(deal.tricks)} trick counts for {sides} sides; "
            "give one count per side.",
        )

    for side, count in enumerate(deal.tricks):
        if not is_whole(count) or not 0 <= count <= TRICKS:
            raise refuse(
                "tricks_out_of_range",
                f"side {side + 1} is shown with {count!r} tricks; a side takes 0 to 5.",
            )

    if not _is_side(deal.dealer, sides):
        raise refuse(
            "bad_dealer",
            f"the dealer is shown as {_describe(deal.dealer)}, "
            f"but the sides are numbered 1 to {sides}.",
        )

    played = sum(deal.tricks)
    if played > TRICKS:
        raise refuse("wrong_trick_total", f"the tricks add up to {played}; a deal has 5 tricks.")
    if played < TRICKS:
        problem = _why_play_could_not_stop(ruleset, deal, before)
        if problem:
            raise refuse("wrong_trick_total", f"the tricks add up to {played}, {problem}")

    if deal.trick_winners is not None:
        _check_trick_order(deal, sides, played, refuse)
        if played < TRICKS:
            # The counts say one side reached the target on its own last trick; the order
            # must show that trick as the last one played.
            (reacher,) = _reaching(ruleset, deal, before)
            reached_on = max(n for n, side in enumerate(deal.trick_winners) if side == reacher)
            if reached_on != played - 1:
                raise refuse(
                    "wrong_trick_total",
                    f"side {reacher + 1} reached {ruleset.target} on the "
                    f"{ORDINALS[reached_on]} trick, but the trick order goes on to a "
                    f"{ORDINALS[played - 1]}; play stops the moment a side reaches the target.",
                )

    if deal.bonus_side is not None:
        _check_bonus(ruleset, deal, sides, played, refuse)


def _why_play_could_not_stop(ruleset: Ruleset, deal: Deal, before: tuple[int, ...]) -> str:
    """Rule 5: a deal may stop short only on the trick that took one side to the target."""
    target = ruleset.target
    if ruleset.hand_scoring:
        return f"not 5; in {ruleset.name} every deal is played out to 5 tricks."
    reaching = _reaching(ruleset, deal, before)
    if not reaching:
        return f"not 5, and no side reaches {target}; play stops early only at the target."
    if len(reaching) > 1:
        names = " and ".join(str(side + 1) for side in reaching)
        return (
            f"but they take sides {names} to {target}; "
            "play stops the moment one side reaches the target."
        )
    side = reaching[0]
    if before[side] + ruleset.points_per_trick * (deal.tricks[side] - 1) >= target:
        return (
            f"but side {side + 1} reached {target} before its last trick; "
            "play stops the moment a side reaches the target."
        )
    return ""


def _reaching(ruleset: Ruleset, deal: Deal, before: tuple[int, ...]) -> list[int]:
    """The sides whose tricks in this deal take them to the target."""
    return [
        side
        for side, count in enumerate(deal.tricks)
        if before[side] + ruleset.points_per_trick * count >= ruleset.target
    ]


def _check_trick_order(deal: Deal, sides: int, played: int, refuse: Refuse) -> None:
    for side in deal.trick_winners:
        if not _is_side(side, sides):
            raise refuse(
                "trick_order_mismatch",
                f"the trick order names {_describe(side)}, "
                f"but the sides are numbered 1 to {sides}.",
            )
    if len(deal.trick_winners) != played:
        raise refuse(
            "trick_order_mismatch",
            f"the trick order lists {_tricks(len(deal.trick_winners))}, "
            f"but the counts add up to {played}.",
        )
    for side, count in enumerate(deal.tricks):
        in_order = deal.trick_winners.count(side)
        if in_order != count:
            raise refuse(
                "trick_order_mismatch",
                f"the trick order gives side {side + 1} {_tricks(in_order)}, "
                f"but the counts say {count}.",
            )


def _check_bonus(ruleset: Ruleset, deal: Deal, sides: int, played: int, refuse: Refuse) -> None:
    side = deal.bonus_side
    if not ruleset.highest_trump_bonus:
        raise refuse("bad_bonus", f"{ruleset.name} has no highest-trump bonus.")
    if played < TRICKS:
        raise refuse(
            "bad_bonus",
            "only a deal played out to 5 tricks carries the highest-trump bonus.",
        )
    if not _is_side(side, sides):
        raise refuse(
            "bad_bonus",
            f"the bonus is given to {_describe(side)}, but the sides are numbered 1 to {sides}.",
        )
    if deal.tricks[side] == 0:
        raise refuse(
            "bad_bonus",
            f"side {side + 1} took no trick, so it cannot have won the highest trump.",
        )


def _is_side(value: object, sides: int) -> bool:
    return is_whole(value) and 0 <= value < sides


def _describe(value: object) -> str:
    return f"side {value + 1}" if is_whole(value) else repr(value)


def _tricks(count: int) -> str:
    return "1 trick" if count == 1 else f"{count} tricks"
