"""
Places and prizes from games won. Plain Python.

- Entries are ranked by games won, "1, 2=, 2=, 4": tied entries share the first of their
  places and the places below a tie are counted after it (Nova Scotia 45s: two couples on
  18 take places 1 and 2, the couple on 16 is third).
- A tie that reaches into the prize places is settled by the drive's rule: **split** (the
  tied entries share the prizes of the places they cover), or **cut** / **play-off**
  (the organiser records who took the place; until then the place says "to settle").
- A **jackpot** goes to everyone on the threshold or more; the **booby prize** to the
  fewest wins (tied: all of them); a **cookie-jar** game is won by everyone who won it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass
class Place:
    place: int
    label: str  # "1", "2=", "2 and 3 shared"
    entries: list[int]
    wins: int
    settled: bool = True
    tied: list[int] = field(default_factory=list)  # entries the cut or play-off is between


def ranked(wins: Mapping[int, int]) -> list[tuple[str, int, int]]:
    """(rank label, entry, wins) best first; ties share "2=" and the next rank skips."""
    order = sorted(wins, key=lambda e: (-wins[e], e))
    rows, rank = [], 0
    for i, entry in enumerate(order):
        if i == 0 or wins[entry] != wins[order[i - 1]]:
            rank = i + 1
        level = sum(1 for e in order if wins[e] == wins[entry])
        rows.append((f"{rank}=" if level > 1 else str(rank), entry, wins[entry]))
    return rows


def prize_places(
    wins: Mapping[int, int], *, places: int, tie_rule: str, tiebreaks: Mapping[int, int]
) -> list[Place]:
    """The prize places. `tiebreaks` maps a place to the entry a cut or play-off gave it."""
    order = sorted(wins, key=lambda e: (-wins[e], e))
    result: list[Place] = []
    place = 1
    while place <= places and place <= len(order):
        level = [e for e in order if wins[e] == wins[order[place - 1]]]
        level = [e for e in level if e not in {x for p in result for x in p.entries}]
        if len(level) == 1:
            result.append(Place(place, str(place), level, wins[level[0]]))
            place += 1
            continue
        covered = min(len(level), places - place + 1)
        if tie_rule == "split":
            last = place + covered - 1
            label = f"{place}" if covered == 1 else f"{place} to {last} shared"
            result.append(Place(place, label, level, wins[level[0]]))
            place += covered
            continue
        winner = tiebreaks.get(place)
        if winner in level:
            result.append(Place(place, str(place), [winner], wins[winner], tied=level))
        else:
            result.append(Place(place, f"{place}=", level, wins[level[0]], False, level))
            place += covered
            continue
        place += 1
    return result


def jackpot(wins: Mapping[int, int], threshold: int | None) -> list[int]:
    if threshold is None:
        return []
    return sorted(e for e, w in wins.items() if w >= threshold)


def booby(wins: Mapping[int, int]) -> list[int]:
    if not wins:
        return []
    fewest = min(wins.values())
    return sorted(e for e, w in wins.items() if w == fewest)


def cookie_jar(games: Sequence[int], winners_by_game: Mapping[int, Sequence[int]]):
    """[(game, [entries that won it])] for each chosen game."""
    return [(g, sorted(winners_by_game.get(g, []))) for g in sorted(games)]
