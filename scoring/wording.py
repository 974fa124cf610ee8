"""The rules name sides by number from 1 ("Side 2 reached 25"); the sheet names them by
their labels ("The Robbers reached 25"). This is the one place that translates."""

import re
from collections.abc import Sequence

_TWO_SIDES = re.compile(r"\b[Ss]ides (\d+) and (\d+)\b")
_ONE_SIDE = re.compile(r"\b[Ss]ide (\d+)\b")


def link_whose(side: int | None, labels: Sequence[str]) -> str:
    """Whose a scorer link is: its side's label, or "the table" for a link of no side."""
    return "the table" if side is None else labels[side]


def with_side_names(text: str, labels: Sequence[str]) -> str:
    """`text` from `rules` with each "side N" replaced by that side's label."""

    def name(number: str, fallback: str) -> str:
        index = int(number) - 1
        return labels[index] if 0 <= index < len(labels) else fallback

    text = _TWO_SIDES.sub(
        lambda m: f"{name(m[1], 'side ' + m[1])} and {name(m[2], 'side ' + m[2])}", text
    )
    return _ONE_SIDE.sub(lambda m: name(m[1], m[0]), text)
