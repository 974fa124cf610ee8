"""
Small line charts drawn on the server as SVG, with a text equivalent.

A `Chart` holds what `templates/league/standings_chart.html` draws: the lines as
SVG point lists in a fixed 320×180 box, the axis ticks, a title and a description
for screen readers, and the same numbers as a table. Lines are told apart by dash
pattern and marker as well as by colour, so they still read in black and white.
"""

import math
from collections import defaultdict
from dataclasses import dataclass, field

from league.ranking import Points, Totals, rank_teams

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28
# The axis labels' size in the box's units, as `.chart-tick` in site.css sets it: about
# 15.7 px where the chart fills a 390 px phone, 14.4 px on a 360 px one. Labels are
# spaced so that none overlap.
TICK_FONT = 14


@dataclass(frozen=True)
class Line:
    label: str
    points: str  # "x,y x,y …" for <polyline>
    dots: tuple[tuple[float, float], ...]
    css: str
    end: tuple[float, float]


@dataclass(frozen=True)
class Tick:
    label: str
    x: float
    y: float


@dataclass(frozen=True)
class Chart:
    title: str
    desc: str
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    x_label: str
    y_label: str
    headers: tuple[str, ...]
    rows: tuple[tuple, ...]
    width: int = WIDTH
    height: int = HEIGHT
    plot: dict = field(
        default_factory=lambda: {
            "left": LEFT,
            "right": WIDTH - RIGHT,
            "top": TOP,
            "bottom": HEIGHT - BOTTOM,
        }
    )


def _scale(value, low, high, out_low, out_high) -> float:
    if high == low:
        return round((out_low + out_high) / 2, 1)
    return round(out_low + (value - low) * (out_high - out_low) / (high - low), 1)


def _x(index: int, count: int) -> float:
    return _scale(index, 0, max(count - 1, 1), LEFT, WIDTH - RIGHT)


def _labelled(count: int) -> list[int]:
    """Which of `count` evenly spaced points along the x axis get a label: every one, or
    every few where they would stand closer than two labels' height, the last always."""
    if count < 2:
        return list(range(count))
    gap = (WIDTH - RIGHT - LEFT) / (count - 1)
    step = max(1, math.ceil(2 * TICK_FONT / gap))
    return sorted(range(count - 1, -1, -step))


def _line(label: str, css: str, xs: list[float], ys: list[float]) -> Line:
    dots = tuple(zip(xs, ys, strict=True))
    return Line(
        label=label,
        points=" ".join(f"{x},{y}" for x, y in dots),
        dots=dots,
        css=css,
        end=dots[-1] if dots else (LEFT, HEIGHT - BOTTOM),
    )


def running_score(*, labels: list[str], totals: list[tuple[int, ...]], target: int) -> Chart:
    """A game's score after each deal, one line per side, from 0 before the first deal.

    `totals` is the running total after each deal (as `rules.GameResult.deals[i].totals`).
    """
    steps = [tuple(0 for _ in labels), *totals]
    top = max([target, *(max(t) for t in steps)])
    xs = [_x(i, len(steps)) for i in range(len(steps))]
    # The top of the scale is labelled only where it stands clear of the target's label.
    clear_top = [top] if (top - target) * (HEIGHT - BOTTOM - TOP) >= TICK_FONT * top else []
    lines = tuple(
        _line(
            label,
            f"series-{index % 4}",
            xs,
            [_scale(step[index], 0, top, HEIGHT - BOTTOM, TOP) for step in steps],
        )
        for index, label in enumerate(labels)
    )
    final = ", ".join(f"{label} {steps[-1][i]}" for i, label in enumerate(labels))
    return Chart(
        title="Running score",
        desc=f"The score after each of {len(totals)} deals, to {target}. Final: {final}.",
        lines=lines,
        x_ticks=tuple(
            Tick(str(i), xs[i], HEIGHT - BOTTOM + 18)
            for i in _labelled(len(xs))
            if i or len(xs) < 2
        ),
        y_ticks=tuple(
            Tick(str(v), LEFT - 6, _scale(v, 0, top, HEIGHT - BOTTOM, TOP))
            for v in sorted({0, target, *clear_top})
        ),
        x_label="Deal",
        y_label="Points",
        headers=("Deal", *labels),
        rows=tuple((i, *t) for i, t in enumerate(totals, start=1)),
    )


def positions_by_round(
    *, teams: list[Totals], fixture_rows: list[dict], order: list[str], points: Points
) -> dict[int, dict[int, int]]:
    """Each team's league position after each round: {round: {team id: position}}.

    Ranked by the season's order without head-to-head (its pair rows are season
    totals), so an early round can differ from the final table where head-to-head
    decided a tie; the team's page puts the table's own position after the last round.
    """
    by_round = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for row in fixture_rows:
        for name in ("won", "lost", "shutout_wins", "points_for", "points_against", "marches"):
            by_round[row["round"]][row["team_id"]][name] += row[name]
    running = {t.id: defaultdict(int) for t in teams}
    names = {t.id: t.name for t in teams}
    keys = [k for k in order if k != "head_to_head"]
    result = {}
    for rnd in sorted(by_round):
        for team_id, counts in by_round[rnd].items():
            if team_id in running:
                for name, value in counts.items():
                    running[team_id][name] += value
        placed = rank_teams(
            [Totals(id=i, name=names[i], **counts) for i, counts in running.items()],
            order=keys,
            points=points,
        )
        result[rnd] = {p.totals.id: p.position for p in placed}
    return result


def position_chart(*, team_name: str, positions: list[tuple[int, int]], teams: int) -> Chart:
    """A team's position after each round: 1 at the top."""
    xs = [_x(i, len(positions)) for i in range(len(positions))]
    ys = [_scale(pos, 1, max(teams, 2), TOP, HEIGHT - BOTTOM) for _, pos in positions]
    line = _line(team_name, "series-0", xs, ys)
    latest = f" Now {positions[-1][1]} of {teams}." if positions else ""
    return Chart(
        title=f"{team_name}: league position by round",
        desc=f"Position in the table of {teams} teams after each round played.{latest}",
        lines=(line,) if positions else (),
        x_ticks=tuple(
            Tick(str(positions[i][0]), xs[i], HEIGHT - BOTTOM + 18)
            for i in _labelled(len(positions))
        ),
        y_ticks=tuple(
            Tick(str(v), LEFT - 6, _scale(v, 1, max(teams, 2), TOP, HEIGHT - BOTTOM))
            for v in (range(1, teams + 1) if teams <= 10 else sorted({1, teams}))
        ),
        x_label="Round",
        y_label="Position",
        headers=("Round", "Position"),
        rows=tuple(positions),
    )
