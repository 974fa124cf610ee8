"""The SVG charts: a game's running score and a team's position round by round."""

from django.template.loader import render_to_string

import rules
from league.charts import position_chart, positions_by_round, running_score
from league.ranking import Points, Totals


def test_a_running_score_chart_has_a_line_per_side_and_the_numbers_as_a_table():
    result = rules.score_game(
        rules.RULESETS["twenty-five"],
        sides=2,
        deals=[rules.Deal(dealer=0, tricks=(2, 3)), rules.Deal(dealer=1, tricks=(4, 1))],
    )
    chart = running_score(
        labels=["Aces", "Bowers"], totals=[d.totals for d in result.deals], target=25
    )
    assert [line.label for line in chart.lines] == ["Aces", "Bowers"]
    assert chart.rows == ((1, 10, 15), (2, 30, 20))
    assert "Final: Aces 30, Bowers 20" in chart.desc
    html = render_to_string("league/standings_game_chart.html", {"score_chart": chart})
    assert html.count("<polyline") == 2
    assert '<title id="score-chart-title">Running score</title>' in html
    assert '<th scope="col">Deal</th>' in html and '<td class="num">30</td>' in html
    assert "style=" not in html
    # Every point sits inside the drawing.
    for line in chart.lines:
        for x, y in line.dots:
            assert 0 <= x <= chart.width and 0 <= y <= chart.height


def test_the_game_chart_include_draws_nothing_without_a_chart():
    assert "<svg" not in render_to_string("league/standings_game_chart.html", {})


def test_positions_by_round_follow_the_running_totals():
    teams = [Totals(id=1, name="A"), Totals(id=2, name="B")]
    rows = [
        {"round": 1, "team_id": 1, "won": 1, "lost": 0, "shutout_wins": 0, "points_for": 30,
         "points_against": 20, "marches": 0},
        {"round": 1, "team_id": 2, "won": 0, "lost": 1, "shutout_wins": 0, "points_for": 20,
         "points_against": 30, "marches": 0},
        {"round": 2, "team_id": 2, "won": 2, "lost": 0, "shutout_wins": 0, "points_for": 60,
         "points_against": 30, "marches": 0},
        {"round": 2, "team_id": 1, "won": 0, "lost": 2, "shutout_wins": 0, "points_for": 30,
         "points_against": 60, "marches": 0},
    ]  # fmt: skip
    by_round = positions_by_round(
        teams=teams, fixture_rows=rows, order=["points", "head_to_head"], points=Points()
    )
    assert by_round == {1: {1: 1, 2: 2}, 2: {2: 1, 1: 2}}
    chart = position_chart(team_name="A", positions=[(1, 1), (2, 2)], teams=2)
    assert chart.rows == ((1, 1), (2, 2))
    assert chart.lines[0].dots[0][1] < chart.lines[0].dots[1][1]  # first place drawn higher
    assert "Now 2 of 2" in chart.desc


def _apart(ticks, axis: str) -> float:
    places = sorted(getattr(tick, axis) for tick in ticks)
    return min((b - a for a, b in zip(places, places[1:], strict=False)), default=999)


def test_a_long_season_labels_every_few_rounds_far_enough_apart_to_read():
    """Older eyes: the labels are TICK_FONT high (at least 14 px on a 360 px phone), so a
    22-round season labels every few rounds, the last always, none overlapping."""
    from league.charts import TICK_FONT

    positions = [(rnd, 1 + rnd % 8) for rnd in range(1, 23)]
    chart = position_chart(team_name="Aces", positions=positions, teams=8)
    assert chart.x_ticks[-1].label == "22"
    assert _apart(chart.x_ticks, "x") >= 2 * TICK_FONT
    assert _apart(chart.y_ticks, "y") >= TICK_FONT
    assert TICK_FONT >= 14
    few = position_chart(team_name="Aces", positions=positions[:5], teams=8)
    assert [tick.label for tick in few.x_ticks] == ["1", "2", "3", "4", "5"]


def test_a_running_score_just_past_the_target_keeps_its_labels_apart():
    from league.charts import TICK_FONT

    totals = [(5 * i, 5 * i - 5) for i in range(1, 13)]  # ends 60–55, target 55
    chart = running_score(labels=["Aces", "Bowers"], totals=totals, target=55)
    assert "55" in [tick.label for tick in chart.y_ticks]
    assert _apart(chart.y_ticks, "y") >= TICK_FONT
    assert _apart(chart.x_ticks, "x") >= 2 * TICK_FONT
    assert chart.x_ticks[-1].label == "12"
