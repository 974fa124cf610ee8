"""
Ranking: kept totals in, ordered positions out. Plain Python, no database.

- **league points**: wins, losses and shutout wins times the season's points.
- **tie-breaks**: the season's order of keys (`Season.TIEBREAKS`): the first key ranks
  the table, each next key separates only the teams still level. `head_to_head` counts
  the league points a team earned in games against the other teams still level with it.
- **shared position**: teams that no key separates share a position ("=3").
- **note**: why a position was decided the way it was, for the page:
  "level on 12 points; ahead on head-to-head (4)".
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Points:
    """A season's league points."""

    win: int = 2
    loss: int = 0
    shutout: int = 1

    def of(self, *, won: int, lost: int, shutout_wins: int) -> int:
        return won * self.win + lost * self.loss + shutout_wins * self.shutout


@dataclass(frozen=True)
class Totals:
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


@dataclass(frozen=True)
class Pair:
    """A team's games against one opponent."""

    won: int = 0
    lost: int = 0
    shutout_wins: int = 0


@dataclass(frozen=True)
class Placed:
    totals: Totals
    position: int
    shared: bool = False
    league_points: int = 0
    note: str = ""
    level_on: tuple[tuple[str, int], ...] = field(default=())
    decided_by: tuple[str, int, str] | None = None  # (key, value, "ahead" | "behind")

    @property
    def position_label(self) -> str:
        return f"={self.position}" if self.shared else str(self.position)


def _level_phrase(key: str, value: int) -> str:
    return {
        "points": f"{value} points",
        "head_to_head": f"head-to-head ({value})",
        "difference": f"points difference ({value:+d})",
        "points_for": f"points for ({value})",
        "marches": f"marches ({value})",
    }[key]


LABELS = {
    "points": "league points",
    "head_to_head": "head-to-head",
    "difference": "points difference",
    "points_for": "points for",
    "marches": "marches",
}


def _note(level_on, decided_by, shared: bool) -> str:
    if not level_on:
        return ""
    text = "level on " + ", ".join(_level_phrase(k, v) for k, v in level_on)
    if shared:
        return f"{text}; nothing separates them: shared position"
    key, value, side = decided_by
    phrase = f"league points ({value})" if key == "points" else _level_phrase(key, value)
    return f"{text}; {side} on {phrase}"


def rank_teams(
    teams: Sequence[Totals],
    *,
    order: Sequence[str],
    points: Points,
    pairs: Mapping[tuple[int, int], Pair] | None = None,
) -> list[Placed]:
    """Rank teams by the keys in `order`, each next key only among teams still level."""
    pairs = pairs or {}
    league_points = {
        t.id: points.of(won=t.won, lost=t.lost, shutout_wins=t.shutout_wins) for t in teams
    }

    def value(key: str, team: Totals, group: Sequence[Totals]) -> int:
        if key == "points":
            return league_points[team.id]
        if key == "head_to_head":
            total = 0
            for other in group:
                pair = pairs.get((team.id, other.id))
                if other.id != team.id and pair is not None:
                    total += points.of(won=pair.won, lost=pair.lost, shutout_wins=pair.shutout_wins)
            return total
        if key == "difference":
            return team.difference
        return getattr(team, key)

    placed: list[Placed] = []

    def place(group: list[Totals], keys: Sequence[str], level_on: tuple, decided_by) -> None:
        if len(group) == 1 or not keys:
            shared = len(group) > 1
            start = len(placed) + 1
            for team in sorted(group, key=lambda t: t.name):
                placed.append(
                    Placed(
                        totals=team,
                        position=start,
                        shared=shared,
                        league_points=league_points[team.id],
                        note=_note(level_on, decided_by, shared),
                        level_on=level_on,
                        decided_by=None if shared else decided_by,
                    )
                )
            return
        key, rest = keys[0], keys[1:]
        values = {team.id: value(key, team, group) for team in group}
        distinct = sorted(set(values.values()), reverse=True)
        for rank, v in enumerate(distinct):
            subgroup = [team for team in group if values[team.id] == v]
            if len(distinct) == 1:
                place(subgroup, rest, level_on + ((key, v),), decided_by)
                continue
            side = "behind" if rank == len(distinct) - 1 else "ahead"
            if len(subgroup) == 1:
                place(subgroup, (), level_on, (key, v, side))
            else:
                place(subgroup, rest, level_on + ((key, v),), (key, v, side))

    place(list(teams), list(order), (), None)
    return placed


def rank_by(items: Sequence[Totals], key: Callable[[Totals], tuple]) -> list[Placed]:
    """Order by `key` (highest first); items with equal keys share a position."""
    ordered = sorted(items, key=lambda t: (tuple(-k for k in key(t)), t.name))
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
    others = sorted((p for p in players if p.played < min_games), key=lambda t: (-t.played, t.name))
    return rank_by(ranked, player_key), others


def rank_pubs(pubs: Sequence[Totals]) -> list[Placed]:
    """Pubs by win share, then wins."""
    return rank_by(pubs, lambda t: (t.win_share, t.won))
