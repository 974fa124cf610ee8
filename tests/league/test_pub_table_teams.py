"""The pub table counts the teams that played for each pub (a team that moved pub counts
for each pub it played for); a pub's page lists the teams at the pub now. After a move
the two differ, and both say why: the table's column is "Teams that played", explained
under it on the page, the print view and in the downloads' heading, and the old pub's
page names the team that played there and where it is now. The numbers stay as they
were."""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse

from league import standings
from tests.factories import FixtureFactory, TeamFactory, win_game
from tests.league.test_two_tabs import Tab

pytestmark = pytest.mark.django_db

LABEL = "Teams that played"
EXPLAINED = (
    "Teams that played: each team with a game counted for the pub. A team that moved pub "
    "counts for each pub it played for, so this can differ from the teams at a pub now."
)


@pytest.fixture
def moved(client, world):
    """Harbour Hearts won two games for The Harbour Bar, then moved to Nora Cronin's."""
    hearts = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    jinkers = TeamFactory(season=world.season, pub=world.other_pub, name="Cronin's Jinkers")
    fixture = FixtureFactory(season=world.season, pub=world.pub, teams=[hearts, jinkers])
    for number in (1, 2):
        win_game(season=world.season, winner=hearts, loser=jinkers, fixture=fixture, number=number)
    before = standings.pub_rows(world.season)
    client.force_login(world.secretary)
    tab = Tab(client, reverse("league:team-edit", args=["clare", hearts.pk]))
    assert tab.save(pub=str(world.other_pub.pk)).status_code == 200
    client.logout()
    return before


def table_url(name, *args):
    return reverse(f"league:{name}", args=["clare", "winter", *args])


def test_after_a_move_the_pub_table_says_what_its_teams_column_counts(client, world, moved):
    rows = {row["name"]: row for row in standings.pub_rows(world.season)}
    assert standings.pub_rows(world.season) == moved  # the numbers are as they were
    assert (rows["The Harbour Bar"]["teams"], rows["Nora Cronin's"]["teams"]) == (1, 1)
    # ... while The Harbour Bar has no team now, and Nora Cronin's two:
    assert not world.pub.teams.filter(season=world.season).exists()
    assert world.other_pub.teams.filter(season=world.season).count() == 2

    page = client.get(table_url("standings-pubs"))
    assert page.status_code == 200
    headers = [column.header for column in page.context["table"].columns]
    assert headers == ["Pos", "Pub", LABEL, "Games", "Wins", "Win %"]
    assert EXPLAINED.replace("'", "&#x27;") in page.text

    printed = client.get(table_url("standings-print", "pubs"))
    assert printed.context["sections"][0]["headers"] == headers
    assert EXPLAINED.replace("'", "&#x27;") in printed.text

    csv_file = client.get(table_url("standings-download", "pubs", "csv"))
    lines = list(csv.reader(io.StringIO(csv_file.content.decode("utf-8-sig"))))
    assert lines[0] == [*headers, "Shared"]
    assert {line[1]: line[2] for line in lines[1:]} == {
        "The Harbour Bar": "1",
        "Nora Cronin's": "1",
    }

    xlsx_file = client.get(table_url("standings-download", "pubs", "xlsx"))
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx_file.content)).active
    assert [cell.value for cell in sheet[1]] == [*headers, "Shared"]


def test_the_all_time_pub_table_says_it_too(client, world, moved):
    page = client.get(reverse("league:all-time-pubs", args=["clare"]))
    assert [column.header for column in page.context["table"].columns][2] == LABEL
    assert EXPLAINED.replace("'", "&#x27;") in page.text


def test_the_old_pubs_page_names_the_team_that_played_there_and_where_it_is_now(
    client, world, moved
):
    page = client.get(reverse("league:pub", args=["clare", world.pub.slug]))
    assert page.status_code == 200
    assert [team.name for team in page.context["moved_away"]] == ["Harbour Hearts"]
    text = " ".join(page.text.split())
    assert (
        "Also played for The Harbour Bar earlier in Winter: "
        f'<a href="{reverse("league:team", args=["clare", page.context["moved_away"][0].pk])}">'
        "Harbour Hearts</a>, now at Nora Cronin&#x27;s."
    ) in text
    assert (
        "The games they played here count for The Harbour Bar in the "
        f'<a href="{table_url("standings-pubs")}">pub table</a>.'
    ) in text
    # The pub it is at now lists it with its own teams, and says nothing of a move.
    now = client.get(reverse("league:pub", args=["clare", world.other_pub.slug]))
    assert now.context["moved_away"] == []
    assert "Also played for" not in now.text
