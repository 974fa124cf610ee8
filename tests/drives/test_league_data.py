"""A league's card drives travel in its data file (scoring/league_data.py): export,
import, export gives the same drive CSVs, and every drive's leaderboard, prizes and
players' records read the same; table links come back with new secrets, a result keeps
the time it was entered. A file from before drives were exported (format 1 or 2) is
still read; a bad drive row is refused, naming the file, and nothing is written."""

import csv
import datetime
import io
import json

import pytest
from django.apps import apps

from drives import selectors, services
from drives.demo import drives_demo_load
from drives.models import Drive, Entry, Result, Seat, TableLink, TieBreak
from league.models import League, Player
from scoring.demo import load_demo
from scoring.league_data import MANIFEST, TABLES, league_export, league_import
from tests.factories import UserFactory
from tests.scoring.test_league_data import _files, _refused, _resigned, _round_trip, _zip

pytestmark = pytest.mark.django_db

DRIVE_FILES = [
    "drives.csv",
    "drive_entries.csv",
    "drive_seats.csv",
    "drive_results.csv",
    "drive_tiebreaks.csv",
    "drive_table_links.csv",
]
ENTERED = datetime.datetime(2026, 3, 2, 21, 15, tzinfo=datetime.UTC)


@pytest.fixture
def league() -> League:
    """The demo league with the demo's four drives, and a finished drive of the league's
    own players (its first pair wins every game) whose results were entered in March."""
    load_demo()
    league = League.objects.get(slug="clare")
    drives_demo_load(league=league, today=datetime.date(2026, 3, 2))
    players = list(league.players.order_by("pk")[:4])
    drive = services.drive_create(
        league=league,
        pub=league.pubs.order_by("pk").last(),
        name="=Players' drive",
        date=datetime.date(2026, 3, 2),
        preset="progressive",
        games=2,
        places=2,
        jackpot=2,
        booby=True,
        entry_fee=5,
    )
    first = services.entry_add(drive=drive, name=players[0].name, partner_name=players[1].name)
    services.entry_add(drive=drive, name=players[2].name, partner_name=players[3].name)
    services.drive_start(drive=drive)
    for game in (1, 2):
        seat = Seat.objects.get(drive=drive, game=game, entry=first)
        services.result_record(drive=drive, game=game, table=seat.table, side=seat.side)
        services.game_next(drive=drive)
    Result.objects.filter(drive__league=league).update(entered_at=ENTERED)
    assert first.player == players[0] and first.partner == players[1]
    return league


def _drives_read(league: League) -> dict:
    """What each drive's pages show (leaderboard, prizes) and each player's drive record,
    by names, so two leagues' can be compared."""
    out = {}
    for drive in Drive.objects.filter(league=league).order_by("pk"):
        prizes = selectors.drive_prizes(drive)
        booby = prizes["booby"]
        out[drive.name] = {
            "leaderboard": [
                (row["rank"], str(row["entry"]), row["wins"], row["decided"])
                for row in selectors.leaderboard(drive)
            ],
            "places": [
                (p.place, p.label, [str(n) for n in p.names], p.wins, p.settled, p.decided)
                for p in prizes["places"]
            ],
            "jackpot": [str(e) for e in prizes["jackpot"]],
            "booby": booby and ([str(n) for n in booby.names], booby.wins),
            "cookie_jar": [(g, [str(e) for e in won]) for g, won in prizes["cookie_jar"]],
            "next_tables": sorted(
                (str(Entry.objects.get(pk=e)), t) for e, t in selectors.next_tables(drive).items()
            ),
            "status": (drive.status, drive.game, str(drive.entry_fee)),
        }
    for player in Player.objects.filter(league=league).order_by("pk"):
        out[player.name] = selectors.player_drive_record(player)
    return out


def test_a_league_s_card_drives_go_out_and_back_unchanged(league):
    """The drive CSVs are byte-identical after export, import, export (_round_trip), and
    every drive reads the same in the copy."""
    files = _files(league_export(league))
    for name in DRIVE_FILES:
        assert name in files, name
    assert len(_rows(files["drive_tiebreaks.csv"])) == 1  # the demo's cut
    read = _drives_read(league)
    assert read[league.players.order_by("pk").first().name]["won"] == 1

    _round_trip(league)

    copy = League.objects.get(slug="clare-copy")
    assert _drives_read(copy) == read
    assert Drive.objects.filter(league=copy).count() == 5
    assert TieBreak.objects.filter(drive__league=copy).count() == 1
    entered = Result.objects.filter(drive__league=copy).values_list("entered_at", flat=True)
    assert set(entered) == {ENTERED}


def test_table_links_come_back_with_new_secrets(league):
    """The file holds each link's table, never its token: the copy's links are new."""
    text = b"".join(_files(league_export(league)).values()).decode()
    tokens = set(TableLink.objects.filter(drive__league=league).values_list("token", flat=True))
    assert tokens and not [token for token in tokens if token in text]

    copy = league_import(league_export(league), slug="copy", user=UserFactory())

    def tables(lg):
        return list(
            TableLink.objects.filter(drive__league=lg)
            .order_by("drive__pk", "table")
            .values_list("drive__name", "table")
        )

    assert tables(copy) == tables(league)
    copied = set(TableLink.objects.filter(drive__league=copy).values_list("token", flat=True))
    assert len(copied) == len(tokens) and not copied & tokens


def test_drives_gives_its_tables_to_the_file_through_its_app_config():
    """scoring never imports drives: it reads the tables drives names, after its own."""
    config = apps.get_app_config("drives")
    assert config.league_data_tables == "drives.league_data.TABLES"
    assert [table.file for table in TABLES[-len(DRIVE_FILES) :]] == DRIVE_FILES


def _rows(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode(), newline="")))


def _older(files: dict[str, bytes], version: int) -> dict[str, bytes]:
    """The files as format `version` (1 or 2) wrote them: no drive files."""
    manifest = json.loads(files[MANIFEST])
    manifest["format_version"] = version
    manifest["tables"] = [t for t in manifest["tables"] if t["file"] not in DRIVE_FILES]
    kept = {name: data for name, data in files.items() if name not in DRIVE_FILES}
    return {**kept, MANIFEST: json.dumps(manifest).encode()}


@pytest.mark.parametrize("version", [1, 2])
def test_a_file_from_before_drives_were_exported_is_still_read(league, version):
    """Its league comes back whole, with no drives."""
    files = _older(_files(league_export(league)), version)

    copy = league_import(_zip(files), slug="copy", user=UserFactory())

    assert copy.games.count() == league.games.count()
    assert copy.players.count() == league.players.count()
    assert not Drive.objects.filter(league=copy).exists()


def test_a_file_in_format_3_without_a_drive_file_is_refused(league):
    files = _files(league_export(league))
    del files["drive_seats.csv"]
    _refused(_zip(files), "The ZIP has no drive_seats.csv: it is not a whole league's data.")


def _edited(files: dict[str, bytes], file: str, **changes) -> bytes:
    """The ZIP with the first row of `file` changed (column → text), checksums made to fit."""
    lines = list(csv.reader(io.StringIO(files[file].decode(), newline="")))
    for column, text in changes.items():
        lines[1][lines[0].index(column)] = text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(lines)
    return _zip(_resigned({**files, file: out.getvalue().encode()}))


def _refused_with_no_drive_written(data: bytes, message: str) -> None:
    drives, entries = Drive.objects.count(), Entry.objects.count()
    _refused(data, message)
    assert (Drive.objects.count(), Entry.objects.count()) == (drives, entries)


def test_a_drive_entry_of_a_player_not_in_the_file_is_refused(league):
    _refused_with_no_drive_written(
        _edited(_files(league_export(league)), "drive_entries.csv", player="999"),
        "drive_entries.csv line 2: player 999 is not a row of players.csv.",
    )


def test_a_seat_of_an_entry_not_in_the_file_is_refused(league):
    _refused_with_no_drive_written(
        _edited(_files(league_export(league)), "drive_seats.csv", entry="999"),
        "drive_seats.csv line 2: entry 999 is not a row of drive_entries.csv.",
    )


def test_a_drive_row_against_its_model_s_rules_is_refused(league):
    _refused_with_no_drive_written(
        _edited(_files(league_export(league)), "drives.csv", format="doubles"),
        "drives.csv row 1, format: Value 'doubles' is not a valid choice.",
    )


def test_a_drive_the_set_up_form_would_refuse_is_refused_in_its_words(league):
    _refused_with_no_drive_written(
        _edited(_files(league_export(league)), "drives.csv", table_size="9"),
        r"drives.csv row 1: With partners, tables seat 4 \(two pairs\) or 6 \(three pairs\).",
    )


def test_a_drive_row_the_database_refuses_writes_nothing(league):
    """A game in play beyond the drive's games breaks a rule the database holds: found
    once the league's other tables are written, and the league is not made either."""
    _refused_with_no_drive_written(
        _edited(_files(league_export(league)), "drives.csv", game="99"),
        "The file's data breaks a rule of the league's records and was not imported",
    )


def test_a_drive_result_keeps_the_time_it_was_entered(league):
    results = _rows(_files(league_export(league))["drive_results.csv"])
    assert {row["entered_at"] for row in results} == {"2026-03-02T21:15:00+00:00"}
