"""
A league's card drives in its data file (scoring/league_data.py, which finds these
tables through `DrivesConfig.league_data_tables`, so drives and scoring never import
each other). They refer to the league's pubs and players, and to one another.

- **Since format 3.** A file written before holds no drive files, and is read without.
- **Table links** keep their table, never their token: the import makes new secrets,
  as it does for scorer links. The file keeps them because they are made when a game
  is seated (`services.table_links`), not when the links page is opened: a drive in
  play moved without them would have no links until its next game.
- **A result's time** (`entered_at`) is set on every save: the import puts back the file's.
- **A drive's settings** are held to the set-up form's rules (`services.check_settings`),
  so a drive the organiser could not have set up is refused in the same words.
"""

from drives.models import Drive, Entry, Result, Seat, TableLink, TieBreak
from drives.services import DriveError, check_settings
from league.data_tables import BOOL, DATE, DECIMAL, INT, JSON, TIME, C, R, Table
from league.tokens import typeable_token

SINCE = 3


def _drive_problem(row: dict) -> str | None:
    games = row["cookie_jar"]
    if not isinstance(games, list) or not all(type(game) is int for game in games):
        return "the cookie-jar games cannot be read."
    try:
        check_settings(row)
    except DriveError as error:
        return str(error)
    return None


def _new_link() -> dict:
    return {"token": typeable_token()}  # as services.table_links makes them


TABLES = (
    Table(
        "drives",
        Drive,
        (
            R("pub", "pubs"),
            C("name"),
            C("date", DATE),
            C("format"),
            C("table_size", INT),
            C("games", INT),
            C("movement"),
            C("seed", INT),
            C("places", INT),
            C("jackpot", INT, null=True),
            C("booby", BOOL),
            C("cookie_jar", JSON),
            C("tie_rule"),
            C("entry_fee", DECIMAL, null=True),
            C("status"),
            C("game", INT),
        ),
        lambda lg: Drive.objects.filter(league=lg),
        league=True,
        checked=True,
        check=_drive_problem,
        since=SINCE,
    ),
    Table(
        "drive_entries",
        Entry,
        (
            R("drive", "drives"),
            C("name"),
            C("partner_name"),
            R("player", "players", null=True),
            R("partner", "players", null=True),
            C("paid", BOOL),
            C("joined_game", INT),
            C("left_after_game", INT, null=True),
        ),
        lambda lg: Entry.objects.filter(drive__league=lg),
        checked=True,
        since=SINCE,
    ),
    Table(
        "drive_seats",
        Seat,
        (
            R("drive", "drives"),
            C("game", INT),
            R("entry", "drive_entries"),
            C("table", INT, null=True),
            C("side", INT),
            C("won", BOOL),
        ),
        lambda lg: Seat.objects.filter(drive__league=lg),
        checked=True,
        since=SINCE,
    ),
    Table(
        "drive_results",
        Result,
        (
            R("drive", "drives"),
            C("game", INT),
            C("table", INT),
            C("side", INT),
            C("entered_at", TIME),
        ),
        lambda lg: Result.objects.filter(drive__league=lg),
        stamped=("entered_at",),
        checked=True,
        since=SINCE,
    ),
    Table(
        "drive_tiebreaks",
        TieBreak,
        (R("drive", "drives"), C("place", INT), R("winner", "drive_entries"), C("method")),
        lambda lg: TieBreak.objects.filter(drive__league=lg),
        checked=True,
        since=SINCE,
    ),
    Table(
        "drive_table_links",
        TableLink,
        (R("drive", "drives"), C("table", INT)),
        lambda lg: TableLink.objects.filter(drive__league=lg),
        fill=_new_link,
        checked=True,
        since=SINCE,
    ),
)
