"""Sortable standings tables (django-tables2). Rows are plain dicts from `league.standings`.

Each table sorts by its position first; a header link re-sorts it (a plain link that
htmx turns into a swap of the table alone). `value_*` methods give the exports plain
text where the page shows links.
"""

import django_tables2 as tables
from django.utils.html import format_html

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class StandingsTable(tables.Table):
    position = tables.Column("Pos", attrs=NUM)

    class Meta:
        template_name = "league/standings_table.html"
        orderable = True
        attrs = {"class": "standings"}
        empty_text = "No games counted yet."

    def get_column_class_names(self, classes_set, bound_column):
        # Each cell names its column ("col-team"), so a phone can show only some.
        classes = super().get_column_class_names(classes_set, bound_column)
        return {*classes, f"col-{bound_column.name}"}

    def render_position(self, record):
        return record["position_label"]

    def value_position(self, record):
        return record["position_label"]


class TeamTable(StandingsTable):
    team = tables.Column("Team", accessor="name")
    pub = tables.Column("Pub")
    division = tables.Column("Division")
    played = tables.Column("P", attrs=NUM)
    won = tables.Column("W", attrs=NUM)
    lost = tables.Column("L", attrs=NUM)
    league_points = tables.Column("Pts", attrs=NUM)
    points_for = tables.Column("For", attrs=NUM)
    points_against = tables.Column("Against", attrs=NUM)
    difference = tables.Column("Diff", attrs=NUM)
    marches = tables.Column("Marches", attrs=NUM)
    shutout_wins = tables.Column("Shutouts", attrs=NUM)
    fixtures_won = tables.Column("Fixtures won", attrs=NUM)
    note = tables.Column("Tie-break", orderable=False, visible=False)

    class Meta(StandingsTable.Meta):
        # The columns a phone shows first: position, team, games and league points.
        sequence = (
            "position",
            "team",
            "league_points",
            "played",
            "won",
            "lost",
            "difference",
            "points_for",
            "points_against",
            "marches",
            "shutout_wins",
            "fixtures_won",
            "pub",
            "division",
            "note",
        )

    def render_team(self, record):
        link = format_html('<a href="{}">{}</a>', record["url"], record["name"])
        if record["note"]:
            return format_html('{}<span class="tiebreak-note">{}</span>', link, record["note"])
        return link

    def value_team(self, value):
        return value

    def render_difference(self, value):
        return f"{value:+d}"

    def value_difference(self, value):
        return value


class PlayerTable(StandingsTable):
    player = tables.Column("Player", accessor="name")
    pub = tables.Column("Home pub")
    played = tables.Column("Games", attrs=NUM)
    won = tables.Column("Wins", attrs=NUM)
    win_percent = tables.Column("Win %", attrs=NUM)
    points_for = tables.Column("Points for", attrs=NUM)
    marches = tables.Column("Marches", attrs=NUM)

    class Meta(StandingsTable.Meta):
        pass

    def render_player(self, record):
        return format_html('<a href="{}">{}</a>', record["url"], record["name"])

    def value_player(self, value):
        return value


class PubTable(StandingsTable):
    pub = tables.Column("Pub", accessor="name")
    teams = tables.Column("Teams", attrs=NUM)
    played = tables.Column("Games", attrs=NUM)
    won = tables.Column("Wins", attrs=NUM)
    win_percent = tables.Column("Win %", attrs=NUM)

    class Meta(StandingsTable.Meta):
        pass

    def render_pub(self, record):
        return format_html('<a href="{}">{}</a>', record["url"], record["name"])

    def value_pub(self, value):
        return value


class AllTimeTeamTable(StandingsTable):
    """Partnerships across seasons, named by their latest team name."""

    team = tables.Column("Team", accessor="name")
    played = tables.Column("Games", attrs=NUM)
    won = tables.Column("Wins", attrs=NUM)
    win_percent = tables.Column("Win %", attrs=NUM)
    seasons = tables.Column("Seasons", attrs=NUM)
    points_for = tables.Column("Points for", attrs=NUM)
    marches = tables.Column("Marches", attrs=NUM)

    class Meta(StandingsTable.Meta):
        pass
