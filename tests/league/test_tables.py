"""The standings tables' body, drawn a column at a time (`StandingsTable.body`), is the
HTML tables2's own rows give, cell for cell, as the table's template drew them before."""

import re

import django_tables2 as tables
import pytest
from django.template import Context, Template
from django.test import RequestFactory

from league.tables import AllTimeTeamTable, PlayerTable, PubTable, TeamTable

# The table body as the template drew it with tables2's rows: the reference.
TABLES2_BODY = Template(
    "{% for row in table.paginated_rows %}<tr {{ row.attrs.as_html }}>"
    "{% for column, cell in row.items %}{% if forloop.counter == 2 %}"
    '<th scope="row" {{ column.attrs.td.as_html }}>{{ cell }}</th>{% else %}'
    "<td {{ column.attrs.td.as_html }}>{{ cell }}</td>{% endif %}{% endfor %}</tr>"
    "{% endfor %}"
)


def tables2_body(table) -> str:
    return re.sub(r">\s+<", "><", TABLES2_BODY.render(Context({"table": table})))


def team(n, **overrides) -> dict:
    row = {
        "id": n,
        "name": f"Team {n}",
        "url": f"/clare/teams/{n}/standings/",
        "position": n,
        "position_label": str(n),
        "note": "",
        "pub": "The Harbour Bar",
        "division": "",
        "played": 12,
        "won": 7,
        "lost": 5,
        "league_points": 15,
        "points_for": 12345,
        "points_against": 300,
        "difference": 12045,
        "marches": 0,
        "shutout_wins": 1,
        "fixtures_won": 3,
        "win_percent": 58,
        "seasons": 2,
        "teams": 4,
    }
    return {**row, **overrides}


ROWS = [
    team(1, note="level on 15 league points; ahead on head-to-head", position_label="=1"),
    team(2, name='<b>Jack & "Jill"</b>', difference=-40, division="North"),
    team(3, pub="", points_for=0, marches=None),
    team(4, name="Nora's", division="South", note="<script>"),
]


class LinkedPubTable(PubTable):
    """A column linked by tables2 (`linkify`), as a table may have one day."""

    teams = tables.Column("Teams", linkify=lambda record: record["url"])


@pytest.mark.parametrize(
    "table",
    [
        TeamTable(ROWS, order_by="position"),
        TeamTable(ROWS, order_by="-difference", exclude=("division",)),
        PlayerTable(ROWS, order_by="name"),
        PubTable(ROWS, order_by="position"),
        LinkedPubTable(ROWS, order_by="position"),
        AllTimeTeamTable(ROWS, order_by="-points_for"),
        TeamTable([], order_by="position"),
    ],
    ids=["teams", "teams-sorted", "players", "pubs", "linked", "all-time", "empty"],
)
def test_the_body_is_the_html_tables2s_rows_give(table):
    assert "".join(table.body()) == tables2_body(table)


def test_numbers_keep_the_thousands_separator_when_it_is_used(settings):
    settings.USE_THOUSAND_SEPARATOR = True
    table = TeamTable(ROWS, order_by="position")

    body = "".join(table.body())

    assert "12,345" in body
    assert body == tables2_body(table)


def test_a_table_with_no_rows_says_so():
    html = TeamTable([]).as_html(RequestFactory().get("/"))

    assert "No games counted yet." in html
    assert "<tbody>" in html and "<tr" in html.split("<tbody>")[1]


def test_a_header_sorts_names_as_a_reader_does():
    # Python's own order put "Áine" and "de Búrca" after "Zoe".
    names = ["Zoe Walsh", "de Búrca", "Brian Ó Sé", "Áine Casey"]
    rows = [team(n, name=name, pub=name) for n, name in enumerate(names, start=1)]
    reader = ["Áine Casey", "Brian Ó Sé", "de Búrca", "Zoe Walsh"]
    assert [row.record["name"] for row in TeamTable(rows, order_by="team").rows] == reader
    assert [row.record["name"] for row in TeamTable(rows, order_by="-team").rows] == reader[::-1]
    assert [row.record["pub"] for row in TeamTable(rows, order_by="pub").rows] == reader
    assert [row.record["name"] for row in PlayerTable(rows, order_by="player").rows] == reader


def test_a_blank_comes_last_whichever_way_a_column_is_sorted():
    rows = [team(1, marches=2), team(2, marches=None), team(3, marches=5)]
    assert [r.record["id"] for r in TeamTable(rows, order_by="marches").rows] == [1, 3, 2]
    assert [r.record["id"] for r in TeamTable(rows, order_by="-marches").rows] == [3, 1, 2]
