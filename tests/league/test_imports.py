"""Importing teams and players from CSV and XLSX: a preview, every bad row by its line
number, and nothing saved until every row is good."""

import pytest
import tablib
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.imports import check_rows, read_table, sign_rows
from league.models import Player, Team
from league.services import ImportRefused, LeagueError, teams_import
from tests.factories import DivisionFactory, PlayerFactory, TeamFactory
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

HEADERS = ["team", "pub", "player 1", "player 2"]
GOOD = [
    ["Harbour Hearts", "The Harbour Bar", "Seán Ó Briain", "Máire Ní Shé"],
    ["Cronin's Jinkers", "nora cronin's", "Mícheál Lynch", "Siobhán McMahon"],
]


def table(rows, headers=HEADERS) -> tablib.Dataset:
    return tablib.Dataset(*rows, headers=headers)


def csv_bytes(rows, headers=HEADERS) -> bytes:
    return table(rows, headers).export("csv").encode()


def xlsx_bytes(rows, headers=HEADERS) -> bytes:
    return table(rows, headers).export("xlsx")


@pytest.mark.parametrize(("name", "make"), [("teams.csv", csv_bytes), ("teams.xlsx", xlsx_bytes)])
def test_a_good_file_reads_into_rows_with_line_numbers(world, name, make):
    rows = read_table(name, make(GOOD))
    assert [r["line"] for r in rows] == [2, 3]
    assert rows[0]["players"] == ["Seán Ó Briain", "Máire Ní Shé"]
    good, errors = check_rows(world.season, rows)
    assert errors == []
    assert [r.pub for r in good] == [world.pub, world.other_pub]


@pytest.mark.parametrize(("name", "make"), [("teams.csv", csv_bytes), ("teams.xlsx", xlsx_bytes)])
def test_an_import_saves_every_team_and_player(world, name, make):
    known = PlayerFactory(league=world.league, name="Seán Ó Briain")
    teams = teams_import(season=world.season, rows=read_table(name, make(GOOD)))
    assert [t.name for t in teams] == ["Harbour Hearts", "Cronin's Jinkers"]
    assert known in teams[0].players.all()
    assert Player.objects.filter(league=world.league).count() == 4
    assert Player.objects.get(name="Mícheál Lynch").home_pub == world.other_pub


def test_headings_in_any_order_and_case_with_player_3_and_division(world):
    DivisionFactory(season=world.season, name="North")
    headers = ["Division", "Player1", "Player 2", "PLAYER 3", "Pub", "Team"]
    rows = read_table(
        "t.csv", csv_bytes([["north", "A", "B", "C", "The Harbour Bar", "Six"]], headers)
    )
    good, errors = check_rows(world.season, rows)
    assert errors == []
    assert good[0].players == ("A", "B", "C")
    assert good[0].division.name == "North"


def test_blank_lines_are_skipped_but_still_counted(world):
    content = b"team,pub,player 1,player 2\n\nA,The Harbour Bar,X,\n"
    rows = read_table("t.csv", content)
    _, errors = check_rows(world.season, rows)
    assert errors == ["Line 3: A team needs 2 players (or 3 for six-hand)."]


def test_semicolons_and_windows_1252_are_read(world):
    content = "team;pub;player 1;player 2\nT;The Harbour Bar;Seán;Bríd\n".encode("cp1252")
    rows = read_table("t.csv", content)
    assert rows[0]["players"] == ["Seán", "Bríd"]


@pytest.mark.parametrize(("name", "make"), [("teams.csv", csv_bytes), ("teams.xlsx", xlsx_bytes)])
def test_every_bad_row_is_listed_with_its_line_and_nothing_is_saved(world, name, make):
    busy = PlayerFactory(league=world.league, name="Busy Bee")
    TeamFactory(season=world.season, pub=world.pub, name="Old Team", players=[busy])
    rows = [
        GOOD[0],
        ["Lonely", "The Harbour Bar", "Only One", ""],
        ["Twins", "The Harbour Bar", "Same", "same"],
        ["Old Team", "The Harbour Bar", "New A", "New B"],
        ["Harbour Hearts", "The Harbour Bar", "New C", "New D"],
        ["Nowhere", "The Moon", "New E", "New F"],
        ["Poachers", "The Harbour Bar", "Busy Bee", "New G"],
        ["Copycats", "The Harbour Bar", "Seán Ó Briain", "New H"],
        ["", "The Harbour Bar", "New I", "New J"],
        ["NoPub", "", "New K", "New L"],
    ]
    before = snapshot()
    good, errors = check_rows(world.season, read_table(name, make(rows)))
    assert errors == [
        "Line 3: A team needs 2 players (or 3 for six-hand).",
        "Line 4: The same player “Same” is named twice.",
        "Line 5: There is already a team called “Old Team” this season.",
        "Line 6: The team “Harbour Hearts” is also on line 2.",
        "Line 7: There is no pub called “The Moon” in this league; add it first.",
        "Line 8: Busy Bee already plays for Old Team this season.",
        "Line 9: Seán Ó Briain is also on line 2.",
        "Line 10: The team has no name.",
        "Line 11: No pub given.",
    ]
    assert [r.line for r in good] == [2]
    with pytest.raises(ImportRefused) as refused:
        teams_import(season=world.season, rows=read_table(name, make(rows)))
    assert len(refused.value.errors) == 9
    assert snapshot() == before


def test_an_unknown_division_is_a_row_error(world):
    rows = read_table(
        "t.csv", csv_bytes([["T", "The Harbour Bar", "A", "B", "West"]], [*HEADERS, "division"])
    )
    _, errors = check_rows(world.season, rows)
    assert errors == ["Line 2: There is no division called “West” in this season."]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "This file is not a table"),
        ("fake.xlsx", b"PK\x03\x04 not really a zip", "This file is not a table"),
        ("empty.csv", b"", "The file is empty."),
        ("words.csv", b"just some words\nand more", "The first line needs the headings"),
        ("heads.csv", b"team,pub,player 1,player 2\n", "no teams under them"),
        ("extra.csv", b"team,pub,player 1,player 2,age\nT,P,A,B,3\n", "Unknown column “age”"),
        ("ragged.csv", b"team,pub,player 1,player 2\nT,P,A,B,X,Y\n", "This file is not a table"),
    ],
)
def test_a_file_that_is_not_a_table_of_teams_gets_a_clear_message(world, name, content, message):
    with pytest.raises(LeagueError, match=message):
        read_table(name, content)


def test_rows_that_went_bad_after_the_preview_are_refused_at_confirm(world):
    rows = read_table("t.csv", csv_bytes(GOOD))
    TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    before = snapshot()
    with pytest.raises(ImportRefused) as refused:
        teams_import(season=world.season, rows=rows)
    assert refused.value.errors == [
        "Line 2: There is already a team called “Harbour Hearts” this season."
    ]
    assert snapshot() == before


def _upload(client, world, name, content):
    url = reverse("league:manage-teams-import", args=["clare", "winter"])
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def test_the_import_page_previews_then_saves_on_confirm(client, world):
    client.force_login(world.secretary)
    response = _upload(client, world, "teams.xlsx", xlsx_bytes(GOOD))
    assert response.status_code == 200
    assert b"Check the 2 teams" in response.content
    assert not Team.objects.exists()
    token = response.context["confirm"].initial["rows"]
    url = reverse("league:manage-teams-import", args=["clare", "winter"])
    response = client.post(url, {"rows": token})
    assert response.status_code == 302
    assert Team.objects.filter(season=world.season).count() == 2


def test_one_team_imported_is_said_in_the_singular(client, world):
    client.force_login(world.secretary)
    response = _upload(client, world, "teams.csv", csv_bytes(GOOD[:1]))
    token = response.context["confirm"].initial["rows"]
    url = reverse("league:manage-teams-import", args=["clare", "winter"])
    response = client.post(url, {"rows": token}, follow=True)
    assert "1 team imported." in response.text


def test_the_import_page_lists_bad_rows_and_offers_no_confirm(client, world):
    client.force_login(world.secretary)
    response = _upload(client, world, "t.csv", csv_bytes([GOOD[0], ["X", "The Moon", "A", "B"]]))
    assert response.status_code == 200
    assert "Line 3: There is no pub called “The Moon”" in response.content.decode()
    assert "confirm" not in response.context
    assert not Team.objects.exists()


def test_a_tampered_preview_is_refused_and_nothing_saved(client, world):
    client.force_login(world.secretary)
    token = sign_rows(world.season, read_table("t.csv", csv_bytes(GOOD)))
    url = reverse("league:manage-teams-import", args=["clare", "winter"])
    response = client.post(url, {"rows": token[:-3] + "abc"})
    assert response.status_code == 200
    assert "The preview was changed or is broken" in response.content.decode()
    assert not Team.objects.exists()


def test_a_picture_uploaded_as_teams_gets_a_message_not_an_error(client, world):
    client.force_login(world.secretary)
    response = _upload(client, world, "me.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    assert response.status_code == 200
    assert "This file is not a table" in response.content.decode()


def test_the_example_csv_downloads_and_reads_back(client, world):
    client.force_login(world.secretary)
    response = client.get(reverse("league:manage-import-example", args=["clare"]))
    assert response["Content-Disposition"] == 'attachment; filename="teams-example.csv"'
    rows = read_table("example.csv", response.content)
    assert len(rows) == 2


def test_names_too_long_for_the_database_are_row_errors(world):
    rows = read_table("t.csv", csv_bytes([["T" * 101, "The Harbour Bar", "A" * 120, "B"]]))
    _, errors = check_rows(world.season, rows)
    assert errors == [
        "Line 2: The team's name is longer than 100 letters; "
        f"the name “{'A' * 20}…” is longer than 100 letters."
    ]


def _big_xlsx(rows: int) -> bytes:
    import io

    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(HEADERS)
    for n in range(rows):
        sheet.append([f"Team {n}", "The Harbour Bar", f"A{n}", f"B{n}"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_a_long_xlsx_is_refused_after_reading_at_most_the_limit_plus_one_row(world, monkeypatch):
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    from league.imports import MAX_ROWS

    content = _big_xlsx(5000)
    assert len(content) < 1_000_000
    read = []
    cells_by_row = ReadOnlyWorksheet._cells_by_row

    def counting(self, *args, **kwargs):
        for row in cells_by_row(self, *args, **kwargs):
            read.append(row)
            yield row

    monkeypatch.setattr(ReadOnlyWorksheet, "_cells_by_row", counting)
    with pytest.raises(LeagueError, match=f"At most {MAX_ROWS} teams in one file"):
        read_table("teams.xlsx", content)
    headings = 1
    assert 0 < len(read) - headings <= MAX_ROWS + 1


def test_an_xlsx_that_unpacks_too_big_is_refused_before_it_is_read(world):
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b" " * 30_000_000)
    assert len(buffer.getvalue()) < 1_000_000
    with pytest.raises(LeagueError, match="too big once unpacked"):
        read_table("bomb.xlsx", buffer.getvalue())


def test_a_long_csv_is_refused_at_the_limit_without_reading_the_rest(world):
    """Line 600 holds a field longer than Python's csv module accepts: reading it would
    fail as "not a table"; a reader that stops at the limit never sees it."""
    from league.imports import MAX_ROWS

    lines = [",".join(HEADERS)] + [f"T{n},The Harbour Bar,A{n},B{n}" for n in range(600)]
    lines[600] = "T,P," + "x" * 200_000 + ",B"
    content = "\n".join(lines).encode()
    assert len(content) < 1_000_000
    with pytest.raises(LeagueError, match=f"At most {MAX_ROWS} teams in one file"):
        read_table("teams.csv", content)
