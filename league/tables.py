"""Sortable standings tables (django-tables2). Rows are plain dicts from `league.standings`.

Each table sorts by its position first; a header link re-sorts it (a plain link that
htmx turns into a swap of the table alone). `value_*` methods give the exports plain
text where the page shows links.
"""

import django_tables2 as tables
from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django_tables2.data import TableListData
from django_tables2.utils import Accessor, OrderBy, signature

from league.names import unaccented

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
# A body cell, and the second of a row: its row's header.
CELL = {False: "<td {}>{}</td>", True: '<th scope="row" {}>{}</th>'}


class Number(tables.Column):
    """A number (games, points, wins, a share): right-aligned, and the first tap on its
    header puts the largest first, as a reader looking for the most expects."""

    largest_first = True

    def __init__(self, verbose_name, **kwargs):
        super().__init__(verbose_name, attrs=NUM, **kwargs)


class ReadersOrder(TableListData):
    """A table's rows re-sorted by a header as a reader sorts them: a name with its
    letter whatever its fada or capital ("Áine" among the A's, "de Búrca" among the
    D's), where Python's own order put both after "Zoe"; numbers as numbers."""

    def order_by(self, aliases):
        keys = []
        for alias in aliases:  # each column's own keys, reversed for "-alias", as tables2
            column = self.table.columns[OrderBy(alias).bare]
            same = alias[0] == column.order_by_alias[0]
            keys += column.order_by if same else column.order_by.opposite
        for key in reversed(keys):  # the last key first: each sort keeps the order of ties
            accessor = Accessor(key.bare)
            down = key.is_descending
            self.data.sort(
                key=lambda row: _readers_key(accessor.resolve(row, quiet=True), down),
                reverse=down,
            )


def _readers_key(value, descending: bool):
    """Numbers, then names; a blank last whichever way the column is sorted."""
    if value is None:
        return (-1 if descending else 2, 0)
    if isinstance(value, str):
        return (1, unaccented(value))
    return (0, value)


class StandingsTable(tables.Table):
    position = tables.Column("Pos", attrs=NUM)

    def __init__(self, data, **kwargs):
        super().__init__(ReadersOrder(data), **kwargs)

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

    def body(self):
        """The body's rows as HTML, each cell as tables2's own rows draw it (its column's
        `td` attributes; the second cell a row header), with each column's work done once
        rather than once per cell: tables2 works out a column's attributes and the
        arguments of its `render_*` method again for every cell, which took 120 ms for
        the 2,600 cells of 200 teams. No attribute here depends on the cell's value
        (tests/league/test_tables.py holds the two equal)."""
        columns = [(column, *_drawing(column)) for column in self.columns]
        for row in self.paginated_rows:
            cells = "".join(
                CELL[number == 1].format(attrs, _text(_cell(row, column, wanted)))
                for number, (column, attrs, wanted) in enumerate(columns)
            )
            yield mark_safe(f"<tr {row.attrs.as_html()}>{cells}</tr>")


# What `_drawing` gives for a column that shows its value as it is: no render method of
# its own (most columns, the numbers), and no link.
AS_IT_IS = "as it is"


def _drawing(column) -> tuple:
    """A column's `td` attributes as HTML, and the arguments its render method takes
    (None: any; `AS_IT_IS`: none called), worked out once for the whole table."""
    attrs = column.attrs["td"].as_html()
    if getattr(column.render, "__func__", None) is tables.Column.render and not column.link:
        return attrs, AS_IT_IS
    args, catch_all = signature(column.render)
    return attrs, None if catch_all else args


def _text(content) -> str:
    """A cell's content as the template's `{{ cell }}` prints it: localized, escaped.
    Whole numbers, most of a table, as they are where no thousands separator is used:
    what `localize` makes of them then, for a tenth of its cost."""
    if type(content) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(content)
    return conditional_escape(localize(content))


def _cell(row, column, wanted):
    """A cell's content, as `BoundRow.get_cell` gives it for a row that is a dict: its
    value by the column's key, the column's default for an empty one, else what the
    column's render method makes of it (called as tables2 calls it, with the arguments
    it takes, and nothing when it wants one tables2 has not got)."""
    value = row.record.get(column.accessor)
    if value in column.column.empty_values:
        return column.default
    if wanted is AS_IT_IS:  # what the base column's render gives, without the call
        return value
    given = {
        "value": value,
        "record": row.record,
        "column": column.column,
        "bound_column": column,
        "bound_row": row,
        "table": row.table,
    }
    if wanted is None:
        content = column.render(**given)
    elif any(arg not in given for arg in wanted):
        return None
    else:
        content = column.render(**{arg: given[arg] for arg in wanted})
    return column.link(content, **given) if column.link else content


class TeamTable(StandingsTable):
    team = tables.Column("Team", accessor="name")
    pub = tables.Column("Pub")
    division = tables.Column("Division")
    played = Number("P")
    won = Number("W")
    lost = Number("L")
    league_points = Number("Pts")
    points_for = Number("For")
    points_against = Number("Against")
    difference = Number("Diff")
    marches = Number("Marches")
    shutout_wins = Number("Shutouts")
    fixtures_won = Number("Fixtures won")
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
    played = Number("Games")
    won = Number("Wins")
    win_percent = Number("Win %")
    points_for = Number("Points for")
    marches = Number("Marches")

    class Meta(StandingsTable.Meta):
        pass

    def render_player(self, record):
        return format_html('<a href="{}">{}</a>', record["url"], record["name"])

    def value_player(self, value):
        return value


class PubTable(StandingsTable):
    # What its teams column counts, said with the table on its page and print view: not
    # the teams at a pub now, which the pub's page lists (`standings.pub_rows`).
    KEY = (
        "Teams that played: each team with a game counted for the pub. A team that moved "
        "pub counts for each pub it played for, so this can differ from the teams at a pub now."
    )

    pub = tables.Column("Pub", accessor="name")
    teams = Number("Teams that played")
    played = Number("Games")
    won = Number("Wins")
    win_percent = Number("Win %")

    class Meta(StandingsTable.Meta):
        pass

    def render_pub(self, record):
        return format_html('<a href="{}">{}</a>', record["url"], record["name"])

    def value_pub(self, value):
        return value


class AllTimeTeamTable(StandingsTable):
    """Partnerships across seasons, named by their latest team name."""

    team = tables.Column("Team", accessor="name")
    played = Number("Games")
    won = Number("Wins")
    win_percent = Number("Win %")
    seasons = Number("Seasons")
    points_for = Number("Points for")
    marches = Number("Marches")

    class Meta(StandingsTable.Meta):
        pass
