"""
Import a season's teams and players from a spreadsheet (CSV, or XLSX read by openpyxl).

The columns, in any order, headings on the first line:

    team, pub, player 1, player 2[, player 3][, division]

- **pub** must already be in the league (matched by name, any case).
- **players** are matched by name within the league, or created with the team's pub as
  their home pub.
- **division** is optional; when given it must be one of the season's divisions.

An import runs in two steps: `read_table` + `check_rows` give a preview with every bad
row listed by its line number; `league.services.teams_import` saves every row or none.
A **line** is the line of the file (or the row of the sheet): the headings are line 1.
Reading stops one row past the limit (MAX_ROWS), so a long file costs no more than that.
"""

import csv
import io
import itertools
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

import openpyxl
from django.core import signing

from league.models import Division, Pub, Season
from league.names import key, loose, unaccented
from league.services import (
    LeagueError,
    _sentence,
    _taken_players,
    players_by_name,
    team_problems,
)

MAX_BYTES = 1_000_000
MAX_ROWS = 500
# A sheet of 500 teams is about 100 KB once unpacked; a zip that unpacks to much more
# is refused before it is read (a small file can hold a vast sheet).
MAX_UNPACKED_BYTES = 10_000_000
# A sheet read in streaming mode pads every row to its widest one: read only so far.
MAX_COLUMNS = 50
REQUIRED = ["team", "pub", "player 1", "player 2"]
OPTIONAL = ["player 3", "division"]
EXAMPLE_CSV = """team,pub,player 1,player 2,division
Harbour Hearts,The Harbour Bar,Seán Ó Briain,Máire Ní Shé,
Cronin's Jinkers,Nora Cronin's,Mícheál Lynch,Siobhán McMahon,
"""
NOT_A_TABLE = (
    "This file is not a table this page can read. Save the spreadsheet as CSV or XLSX, "
    "with the headings team, pub, player 1, player 2 on the first line."
)
SIGNING_SALT = "league.imports.teams"


@dataclass(frozen=True)
class TeamRow:
    """One good row: names as typed, the pub and division as found."""

    line: int
    team: str
    pub: Pub
    players: tuple[str, ...]
    division: Division | None


def _heading(value) -> str:
    text = " ".join(str(value or "").replace("_", " ").split()).casefold()
    # "player1" and "Player 1" both mean "player 1".
    if text.startswith("player") and text[6:].strip().isdigit():
        text = f"player {text[6:].strip()}"
    return text


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _xlsx_lines(content: bytes) -> Iterator[list]:
    """The rows of the first sheet, read one at a time (openpyxl's streaming mode)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except zipfile.BadZipFile as error:
        raise LeagueError(NOT_A_TABLE) from error
    if unpacked > MAX_UNPACKED_BYTES:
        raise LeagueError("The file is too big once unpacked: save it again with only the teams.")
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        for values in book.active.iter_rows(max_col=MAX_COLUMNS, values_only=True):
            yield list(values)
    finally:
        book.close()


def _csv_lines(content: bytes) -> Iterator[list]:
    if b"\x00" in content:
        raise LeagueError(NOT_A_TABLE)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older Excel saves CSV in Windows-1252 ("Seán" still reads right).
        text = content.decode("cp1252")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    # An empty line reads as an empty row, so later line numbers stay right.
    yield from csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def _lines(name: str, content: bytes) -> list[list]:
    """The headings and at most MAX_ROWS + 1 rows under them: reading stops there."""
    if content[:4] == b"PK\x03\x04" or name.lower().endswith(".xlsx"):
        lines = _xlsx_lines(content)
    else:
        lines = _csv_lines(content)
    try:
        return list(itertools.islice(lines, MAX_ROWS + 2))
    finally:
        lines.close()


def read_table(name: str, content: bytes) -> list[dict]:
    """The rows of an uploaded file as plain dicts (line, team, pub, players, division).
    Raises LeagueError when the file is not a table or lacks a column."""
    if not content:
        raise LeagueError("The file is empty.")
    if len(content) > MAX_BYTES:
        raise LeagueError("The file is too big: at most 1 MB.")
    try:
        lines = _lines(name, content)
    except LeagueError:
        raise
    except Exception as error:  # openpyxl and csv raise many kinds on a bad file.
        raise LeagueError(NOT_A_TABLE) from error
    if len(lines) > MAX_ROWS + 1:
        raise LeagueError(f"At most {MAX_ROWS} teams in one file.")
    headings = [_heading(h) for h in (lines[0] if lines else [])]
    while headings and not headings[-1]:
        headings.pop()
    missing = [column for column in REQUIRED if column not in headings]
    if missing:
        if not any(headings):
            raise LeagueError(NOT_A_TABLE)
        raise LeagueError(
            "The first line needs the headings team, pub, player 1, player 2 "
            f"(missing: {', '.join(missing)})."
        )
    unknown = [h for h in headings if h and h not in REQUIRED + OPTIONAL]
    if unknown:
        raise LeagueError(
            f"Unknown column “{unknown[0]}”. The columns are team, pub, player 1, player 2, "
            "and optionally player 3 and division."
        )
    index = {h: i for i, h in enumerate(headings) if h}
    rows = []
    for number, values in enumerate(lines[1:], start=2):
        if any(_cell(value) for value in values[len(headings) :]):
            # A cell right of the last heading: the columns do not line up.
            raise LeagueError(NOT_A_TABLE)
        cells = {h: _cell(values[i]) if i < len(values) else "" for h, i in index.items()}
        if not any(cells.values()):
            continue
        rows.append(
            {
                "line": number,
                "team": cells["team"],
                "pub": cells["pub"],
                "players": [cells[c] for c in ("player 1", "player 2", "player 3") if cells.get(c)],
                "division": cells.get("division", ""),
            }
        )
    if not rows:
        raise LeagueError("The file has headings but no teams under them.")
    return rows


def check_rows(season: Season, rows: list[dict]) -> tuple[list[TeamRow], list[str]]:
    """Check every row against the league and against the other rows, in a fixed number
    of queries. Returns the good rows and one message per bad row, with its line."""
    pubs = {key(p.name): p for p in Pub.objects.filter(league_id=season.league_id)}
    divisions = {key(d.name): d for d in Division.objects.filter(season=season)}
    players = players_by_name(season.league, [n for row in rows for n in row["players"]])
    taken_players = _taken_players(season)
    taken_teams = {key(n) for n in season.teams.values_list("name", flat=True)}
    team_lines: dict[str, int] = {}
    player_lines: dict[str, tuple[str, int]] = {}
    good, errors = [], []
    for row in rows:
        line, team = row["line"], row["team"]
        problems = team_problems(
            season=season,
            name=team,
            player_names=row["players"],
            players=players,
            taken_players=taken_players,
        )
        pub = _find_pub(pubs, row["pub"])
        if not row["pub"]:
            problems.append("no pub given")
        elif pub is None:
            problems.append(f"there is no pub called “{row['pub']}” in this league; add it first")
        division = divisions.get(key(row["division"])) if row["division"] else None
        if row["division"] and division is None:
            problems.append(f"there is no division called “{row['division']}” in this season")
        if team and key(team) in taken_teams:
            problems.append(f"there is already a team called “{team}” this season")
        elif team and key(team) in team_lines:
            problems.append(f"the team “{team}” is also on line {team_lines[key(team)]}")
        team_lines.setdefault(key(team), line)
        problems += _players_on_other_lines(row["players"], line, player_lines, players)
        if problems:
            errors.append(f"Line {line}: {_sentence(problems)}")
        else:
            good.append(
                TeamRow(
                    line=line,
                    team=team,
                    pub=pub,
                    players=tuple(row["players"]),
                    division=division,
                )
            )
    return good, errors


def _find_pub(pubs: dict[str, Pub], typed: str) -> Pub | None:
    """The pub `typed` names: by its name in any case, else the one pub whose name is
    the same but for accents, apostrophes and spaces (a phone turns ' into ’; a sheet
    leaves it out). Pubs are the league's own short list, so only a match to one is
    taken; two alike are left for the secretary to tell apart."""
    if pub := pubs.get(key(typed)):
        return pub
    alike = [p for p in pubs.values() if loose(p.name) == loose(typed)]
    return alike[0] if len(alike) == 1 and loose(typed) else None


def _players_on_other_lines(
    names: list[str], line: int, player_lines: dict[str, tuple[str, int]], players: dict
) -> list[str]:
    """A player named on an earlier line too. Names are compared without their accents:
    "Sean O Briain" under "Seán Ó Briain" is the same man typed twice, and saving both
    would split his games between two lines of the player table. `player_lines` maps
    each unaccented name to the first spelling seen and its line; it is filled here."""
    problems = []
    for name in names:
        spelt, earlier = player_lines.setdefault(unaccented(name), (name, line))
        if earlier == line:
            continue
        if key(spelt) == key(name):
            problems.append(f"{name} is also on line {earlier}")
        elif not _in_league_alike(name, players):  # else team_problems says it already
            problems.append(
                f"“{name}” is spelt “{spelt}” on line {earlier}: write one person's "
                "name the same way each time, fadas and all (or add a town to tell two "
                f"people apart: “{name} (Ennis)”)"
            )
    return problems


def _in_league_alike(name: str, players: dict) -> bool:
    """Whether a league player's name is `name` but for its accents."""
    return any(unaccented(p.name) == unaccented(name) for p in players.values())


def sign_rows(season: Season, rows: list[dict]) -> str:
    """The rows, signed, to carry from the preview to the confirm button unchanged."""
    return signing.dumps({"season": season.pk, "rows": rows}, salt=SIGNING_SALT, compress=True)


def unsign_rows(season: Season, token: str) -> list[dict]:
    try:
        data = signing.loads(token, salt=SIGNING_SALT, max_age=60 * 60)
    except signing.SignatureExpired as error:
        raise LeagueError("The preview is more than an hour old. Upload the file again.") from error
    except signing.BadSignature as error:
        raise LeagueError("The preview was changed or is broken. Upload the file again.") from error
    if data.get("season") != season.pk:
        raise LeagueError("That preview was for another season. Upload the file again.")
    return data["rows"]
