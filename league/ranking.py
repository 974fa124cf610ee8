"""
Ranking: kept totals in, ordered positions out. Plain Python, no database.

- **league points**: wins, losses and shutout wins times the season's points.
- **tie-breaks**: the season's order of keys (`Season.TIEBREAKS`): the first key ranks
  the table, each next key separates only the teams still level. `head_to_head` counts
  the league points a team earned in games against the other teams still level with it.
- **shared position**: teams that no key separates share a position ("=3").
- **note**: why a position was decided the way it was, for the page, in words:
  "level on 12 league points; ahead with 4 league points in the games between them".
  Head-to-head counts only when every team level has met every other; otherwise the
  note says it was not used.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from league.names import unaccented


@dataclass(frozen=True)
class Points:
    """A season's league points."""

    win: int = 2
    loss: int = 0
    shutout: int = 1

    def of(self, *, won: int, lost: int, shutout_wins: int) -> int:
        return won * self.win + lost * self.loss + shutout_wins * self.shutout


# Totals, Pair and Placed are named tuples: as immutable as a frozen dataclass, and made
# four times as fast (a table of hundreds of teams makes one of each per team per page).


class Totals(NamedTuple):
    """A team's, player's or pub's kept counts (from a row, or zeros)."""

    id: int
    name: str = ""
    played: int = 0
    won: int = 0
    lost: int = 0
    shutout_wins: int = 0
    points_for: int = 0
    points_against: int = 0
    marches: int = 0
    fixtures_won: int = 0

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def win_share(self) -> Fraction:
        return Fraction(self.won, self.played) if self.played else Fraction(0)


class Pair(NamedTuple):
    """A team's games against one opponent."""

    won: int = 0
    lost: int = 0
    shutout_wins: int = 0


class Placed(NamedTuple):
    totals: Totals
    position: int
    shared: bool = False
    league_points: int = 0
    note: str = ""
    level_on: tuple[tuple[str, int], ...] = ()
    # (key, value, its place among the teams level before that key, how many they were)
    decided_by: tuple[str, int, int, int] | None = None

    @property
    def position_label(self) -> str:
        return f"={self.position}" if self.shared else str(self.position)


PHRASES = {
    "points": "{} league points",
    "head_to_head": "{} league points in the games between them",
    "difference": "a points difference of {:+d}",
    "points_for": "{} points scored",
    "marches": "{} marches",
}
# The same for a value of 1.
ONE = {
    "points": "1 league point",
    "head_to_head": "1 league point in the games between them",
    "points_for": "1 point scored",
    "marches": "1 march",
}


def _phrase(key: str, value: int) -> str:
    """A key's value in words, for the notes: nothing in brackets to puzzle over."""
    if value == 1 and key in ONE:
        return ONE[key]
    return PHRASES[key].format(value)


def _ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


LABELS = {
    "points": "league points",
    "head_to_head": "head-to-head",
    "difference": "points difference",
    "points_for": "points for",
    "marches": "marches",
}

SKIPPED_H2H = "head-to-head not used: they have not all met"


def _level_text(level_on, skipped: bool) -> str:
    """The start of a note: what the teams are level on."""
    text = "level on " + ", ".join(_phrase(k, v) for k, v in level_on)
    return f"{text} ({SKIPPED_H2H})" if skipped else text


def _note(level_on, decided_by, shared: bool, skipped: bool) -> str:
    if not level_on:
        return ""
    return _decided_note(_level_text(level_on, skipped), decided_by, shared)


def _decided_note(level_text: str, decided_by, shared: bool = False) -> str:
    """A note: what the teams were level on, then what decided it (or that nothing did)."""
    if shared:
        return f"{level_text}; nothing separates them: shared position"
    key, value, place, of = decided_by
    if place == 1:
        return f"{level_text}; ahead with {_phrase(key, value)}"
    if place == of:
        return f"{level_text}; behind with {_phrase(key, value)}"
    return f"{level_text}; {_ordinal(place)} of the {of}, with {_phrase(key, value)}"


def _value(key: str, team: Totals, points: Points) -> int:
    """A team's value for a key of the order other than head-to-head."""
    if key == "points":
        return points.of(won=team.won, lost=team.lost, shutout_wins=team.shutout_wins)
    if key == "difference":
        return team.difference
    return getattr(team, key)


def rank_teams(
    teams: Sequence[Totals],
    *,
    order: Sequence[str],
    points: Points,
    pairs: Mapping[tuple[int, int], Pair] | None = None,
) -> list[Placed]:
    """Rank teams by the keys in `order`, each next key only among teams still level.

    Head-to-head comes from `pairs` (a team's games against one other team), needed
    only for teams level on every key before it. It counts only when every
    team of a level group has met every other; otherwise it is skipped, and the note
    says so.
    """
    pairs = pairs or {}
    league_points = {t.id: _value("points", t, points) for t in teams}

    def h2h_values(group: Sequence[Totals]) -> dict[int, int] | None:
        """Each team's league points in games against the rest of the group, or None
        when some two of them have not met."""
        if any((a.id, b.id) not in pairs for a in group for b in group if a.id != b.id):
            return None
        return {
            team.id: sum(
                points.of(won=p.won, lost=p.lost, shutout_wins=p.shutout_wins)
                for other in group
                if other.id != team.id
                for p in [pairs[team.id, other.id]]
            )
            for team in group
        }

    def values_for(key: str, group: Sequence[Totals]) -> dict[int, int] | None:
        if key == "points":
            return {t.id: league_points[t.id] for t in group}
        if key == "head_to_head":
            return h2h_values(group)
        return {t.id: _value(key, t, points) for t in group}

    placed: list[Placed] = []

    def alone(team: Totals, note: str, level_on: tuple, decided_by) -> None:
        """Place a team no other is level with."""
        position = len(placed) + 1
        placed.append(
            Placed(team, position, False, league_points[team.id], note, level_on, decided_by)
        )

    def place(group, keys, level_on: tuple, decided_by, skipped=False) -> None:
        if len(group) == 1:  # a table of one team
            alone(group[0], _note(level_on, decided_by, False, skipped), level_on, decided_by)
            return
        if not keys:  # nothing separates them: a shared position, in name order
            start = len(placed) + 1
            note = _note(level_on, decided_by, True, skipped)
            for team in sorted(group, key=lambda t: (unaccented(t.name), t.name, t.id)):
                placed.append(Placed(team, start, True, league_points[team.id], note, level_on))
            return
        key, rest = keys[0], keys[1:]
        values = values_for(key, group)
        if values is None:  # head-to-head, and not every team level has met every other
            place(group, rest, level_on, decided_by, skipped=True)
            return
        by_value: dict[int, list[Totals]] = {}
        for team in group:
            by_value.setdefault(values[team.id], []).append(team)
        if len(by_value) == 1:  # all level on this key: the next one decides
            ((value, level),) = by_value.items()
            place(level, rest, level_on + ((key, value),), decided_by, skipped)
            return
        # Split by this key, highest first. A team alone on its value (most teams of a
        # big table) is placed here; its note starts with what the group was level on,
        # then says whether it came first ("ahead"), last ("behind") or where between.
        distinct = sorted(by_value, reverse=True)
        level_text = _level_text(level_on, skipped) if level_on else ""
        above = 0
        for value in distinct:
            subgroup = by_value[value]
            this_key = (key, value, above + 1, len(group))
            above += len(subgroup)
            if len(subgroup) > 1:
                place(subgroup, rest, level_on + ((key, value),), this_key, skipped)
                continue
            note = level_text and _decided_note(level_text, this_key)
            alone(subgroup[0], note, level_on, this_key)

    place(list(teams), list(order), (), None)
    return placed


def rank_by(items: Sequence[Totals], key: Callable[[Totals], tuple]) -> list[Placed]:
    """Order by `key` (highest first); items with equal keys share a position."""
    ordered = sorted(items, key=lambda t: (tuple(-k for k in key(t)), unaccented(t.name)))
    placed: list[Placed] = []
    for index, item in enumerate(ordered):
        if index and key(item) == key(ordered[index - 1]):
            position = placed[-1].position
        else:
            position = index + 1
        placed.append(Placed(totals=item, position=position))
    # Mark every member of a tie as shared, the first one too.
    positions = [p.position for p in placed]
    return [
        Placed(totals=p.totals, position=p.position, shared=positions.count(p.position) > 1)
        for p in placed
    ]


def player_key(t: Totals) -> tuple:
    return (t.win_share, t.won, t.points_for, t.marches)


def rank_players(players: Sequence[Totals], *, min_games: int) -> tuple[list[Placed], list[Totals]]:
    """Players with at least `min_games` ranked by win share, then wins, points for and
    marches; the others, unranked, by games played."""
    ranked = [p for p in players if p.played >= min_games]
    others = sorted(
        (p for p in players if p.played < min_games), key=lambda t: (-t.played, unaccented(t.name))
    )
    return rank_by(ranked, player_key), others


def rank_pubs(pubs: Sequence[Totals]) -> list[Placed]:
    """Pubs by win share, then wins."""
    return rank_by(pubs, lambda t: (t.win_share, t.won))
