"""
Places and prizes from games won. Plain Python.

- Entries are ranked by games won, "1, 2=, 2=, 4": tied entries share the first of their
  places and the places below a tie are counted after it (Nova Scotia 45s: two couples on
  18 take places 1 and 2, the couple on 16 is third).
- A tie that reaches into the prize places is settled by the drive's rule: **split** (the
  tied entries share the prizes of the places they cover), or **cut** / **play-off**
  (the organiser records who took the place; until then the place says "to settle").
- A cut or play-off is shown wherever places are: its winner ranks alone at the place
  it took, the rest of its tie share the next rank ("3", then "4=").
- A **prize place needs a game won**: entries on 0 wins take no place (7 players who
  won nothing do not share places 2 and 3 behind the one who won both games); the places
  left over are not given.
- An entry that **never sat at a table** (checked in too late, or sat out every game it
  was there for) did not play: it ranks after everyone who played, with its place blank,
  and takes no prize.
- A **jackpot** goes to everyone on the threshold or more; the **booby prize** to the
  fewest wins among the entries that played and took no prize place (tied: all of
  them); a **cookie-jar** game is won by everyone who won it.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby


@dataclass
class Place:
    place: int
    label: str  # "1", "2=", "2 and 3 shared"
    entries: list[int]
    wins: int
    settled: bool = True
    tied: list[int] = field(default_factory=list)  # entries the cut or play-off is between
    covers: int = 1  # how many places it takes: a shared place, or a tie not yet settled


NOT_PLAYED = ""  # the rank of an entry that never sat at a table: no place


def ranked(
    wins: Mapping[int, int],
    *,
    took: Mapping[int, int] | None = None,
    played: Collection[int] | None = None,
) -> list[tuple[str, int, int]]:
    """(rank label, entry, wins) best first; ties share "2=" and the next rank skips.
    `took` maps an entry to the place a cut or play-off gave it: it ranks alone there.
    `played`: the entries that sat at a table (None: all); the others come last, ranked
    `NOT_PLAYED`, and take no rank from those who played."""
    took = took or {}
    absent = [] if played is None else sorted(e for e in wins if e not in played)
    order = sorted(
        (e for e in wins if e not in absent),
        key=lambda e: (-wins[e], e not in took, took.get(e, 0), e),
    )
    rows: list[tuple[str, int, int]] = []
    for _, group in groupby(order, key=wins.__getitem__):
        level = list(group)
        decided = [e for e in level if e in took]
        rest = [e for e in level if e not in took]
        for entry in decided:
            rows.append((str(len(rows) + 1), entry, wins[entry]))
        rank = len(rows) + 1
        for entry in rest:
            rows.append((f"{rank}=" if len(rest) > 1 else str(rank), entry, wins[entry]))
    return rows + [(NOT_PLAYED, entry, wins[entry]) for entry in absent]


def prize_places(
    wins: Mapping[int, int], *, places: int, tie_rule: str, tiebreaks: Mapping[int, int]
) -> list[Place]:
    """The prize places. `tiebreaks` maps a place to the entry a cut or play-off gave it.
    Only entries with a game won take a place; places nobody took are left out (see
    `places_given`)."""
    order = sorted((e for e in wins if wins[e] > 0), key=lambda e: (-wins[e], e))
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
            label = f"{place}= shared" if covered == 1 else f"{place} to {last} shared"
            result.append(Place(place, label, level, wins[level[0]], covers=covered))
            place += covered
            continue
        winner = tiebreaks.get(place)
        if winner in level:
            result.append(Place(place, str(place), [winner], wins[winner], tied=level))
        else:
            result.append(
                Place(place, f"{place}=", level, wins[level[0]], False, level, covers=covered)
            )
            place += covered
            continue
        place += 1
    return result


def places_given(places: Sequence[Place]) -> int:
    """How many of the prize places were taken (the rest: too few entries won a game)."""
    return sum(p.covers for p in places)


def jackpot(wins: Mapping[int, int], threshold: int | None) -> list[int]:
    if threshold is None:
        return []
    return sorted(e for e, w in wins.items() if w >= threshold)


@dataclass
class Booby:
    entries: list[int]
    wins: int
    waits_on: int | None = None  # a place to settle among them: its winner is not booby


def booby(
    wins: Mapping[int, int], places: Sequence[Place], *, played: Collection[int] | None = None
) -> Booby | None:
    """The fewest wins among the entries that played (`played`; None: all) and took no
    prize place (None: every entry that played took one). Entries still in a tie for a
    place stay in until the cut or play-off."""
    took = {e for p in places if p.settled for e in p.entries}
    left = {e: w for e, w in wins.items() if e not in took and (played is None or e in played)}
    if not left:
        return None
    fewest = min(left.values())
    entries = sorted(e for e, w in left.items() if w == fewest)
    waits_on = next((p.place for p in places if not p.settled and set(p.tied) & set(entries)), None)
    return Booby(entries, fewest, waits_on)


def cookie_jar(games: Sequence[int], winners_by_game: Mapping[int, Sequence[int]]):
    """[(game, [entries that won it])] for each chosen game."""
    return [(g, sorted(winners_by_game.get(g, []))) for g in sorted(games)]
