"""
A league's data as one file: `league_export` writes every season, division, pub,
player, team, fixture, game, side, deal (with its old versions), scorer link,
confirmation and the games' record (events), then the tables other apps add (card
drives: league/data_tables.py), as a ZIP of CSVs plus `manifest.json`;
`league_import` makes a new league from such a file, on this install or another.

The words:

- **Row numbers.** Every CSV's first column, `id`, numbers its rows 1, 2, 3… in the
  order they were made (database order), and a reference to another table is that
  table's row number, never a database key. The same league exported from two
  databases gives byte-identical CSVs, so export → import → export is identical.
- **People are not exported.** No accounts, names of accounts, emails or passwords
  leave the install. Where a row says who did something (`entered_by`,
  `confirmed_by`, an event's `user`, a link's `created_by`) the CSV says `account`
  (a person who was logged in) or nothing; on import those rows are attributed to the
  importing person, the new league's secretary. Through a scorer link is kept as the
  link's row number. Scorer links get new secret tokens, deals new idempotency keys,
  and invitations, organisers and secretaries are not carried over.
- **Result rows** (the standings' `SideResult`) are not exported: the import scores
  every finished game again from its live deals (`season_results_rebuild`), which
  proves the data.
- **Escaped text.** A secretary opens these CSVs in a spreadsheet, which would run a
  text cell that looks like a formula (`league.exports.FORMULA_STARTS`: "CSV
  injection"). So a text column's value that starts with one of those, or with an
  apostrophe, is written with one more apostrophe in front, and the import takes
  exactly one off a text value that starts with one: `=SUM(1)` is written `'=SUM(1)`,
  `'Neill` is written `''Neill`, and both come back as they were. Only text columns:
  numbers, dates, references and ids never start so. Format 1 wrote text as it was,
  so a format 1 file is read without taking anything off.
- **Formats.** 2 escaped text; 3 added card drives. A file is read with the tables its
  format held (a table's `since`), so a format 1 or 2 file is read without drives.
"""

import csv
import datetime
import decimal
import hashlib
import io
import json
import tomllib
import uuid
import zipfile
from pathlib import Path

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, models, transaction

import rules
from league import results
from league.data_tables import (
    BOOL,
    DATE,
    DECIMAL,
    INT,
    JSON,
    PERSON,
    TEXT,
    TIME,
    C,
    Column,
    R,
    Table,
    app_tables,
)
from league.exports import FORMULA_STARTS
from league.models import (
    Division,
    Fixture,
    FixtureTeam,
    League,
    Player,
    Pub,
    Season,
    Team,
    TeamMember,
)
from scoring.models import Confirmation, Deal, Game, GameEvent, GameSide, ScorerLink, new_token
from scoring.outcome import record_results
from scoring.services import game_result, season_results_rebuild

FORMAT = "twenty-five-league"
# 3: card drives; 2: text cells escaped (see above). Older files are still read.
FORMAT_VERSION = 3
FORMAT_VERSIONS_READ = (1, 2, 3)
MANIFEST = "manifest.json"
# A file bigger than this, unpacked, is refused before anything is read into memory.
MAX_UNCOMPRESSED = 50 * 1024 * 1024
ACCOUNT = "account"
ESCAPED_STARTS = (*FORMULA_STARTS, "'")


def _app_version() -> str:
    try:
        with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as file:
            return tomllib.load(file)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


class LeagueDataError(Exception):
    """A league file that cannot be imported; the message says why, in plain words."""


# In the order they are written: a table refers only to tables above it.
TABLES = (
    Table("pubs", Pub, (C("name"), C("slug"), C("town")), lambda lg: lg.pubs, league=True),
    Table(
        "seasons",
        Season,
        (
            C("name"),
            C("slug"),
            C("start_date", DATE),
            C("end_date", DATE, null=True),
            C("status"),
            C("ruleset_key"),
            C("target", INT, null=True),
            C("march_bonus", INT),
            C("march_wins", BOOL),
            C("points_win", INT),
            C("points_loss", INT),
            C("points_shutout", INT),
            C("tiebreaks", JSON),
            C("min_games", INT),
            C("confirmed_only", BOOL),
        ),
        lambda lg: lg.seasons,
        league=True,
        checked=True,
    ),
    Table(
        "divisions",
        Division,
        (R("season", "seasons"), C("name")),
        lambda lg: Division.objects.filter(season__league=lg),
    ),
    Table(
        "players",
        Player,
        (C("name"), R("home_pub", "pubs", null=True)),
        lambda lg: lg.players,
        league=True,
    ),
    Table(
        "teams",
        Team,
        (
            R("season", "seasons"),
            C("name"),
            R("pub", "pubs"),
            R("division", "divisions", null=True),
        ),
        lambda lg: Team.objects.filter(season__league=lg),
    ),
    Table(
        "team_members",
        TeamMember,
        (R("team", "teams"), R("player", "players")),
        lambda lg: TeamMember.objects.filter(team__season__league=lg),
    ),
    Table(
        "fixtures",
        Fixture,
        (
            R("season", "seasons"),
            R("pub", "pubs"),
            C("date", DATE),
            C("round", INT),
            C("games_planned", INT),
            C("status"),
            C("games_started", INT),
            C("games_finished", INT),
        ),
        lambda lg: Fixture.objects.filter(season__league=lg),
        checked=True,
    ),
    Table(
        "fixture_teams",
        FixtureTeam,
        (R("fixture", "fixtures"), R("team", "teams"), C("seat", INT)),
        lambda lg: FixtureTeam.objects.filter(fixture__season__league=lg),
    ),
    Table(
        "games",
        Game,
        (
            R("season", "seasons", null=True),
            R("fixture", "fixtures", null=True),
            R("pub", "pubs", null=True),
            C("number", INT),
            C("sides", INT),
            C("first_dealer", INT),
            C("ruleset_key"),
            C("target", INT),
            C("march_bonus", INT),
            C("march_wins", BOOL),
            C("status"),
            C("scores", JSON),
            C("winner", INT, null=True),
            C("reason"),
            C("shutout", BOOL),
            C("version", INT),
            C("created_at", TIME),
            C("finished_at", TIME, null=True),
        ),
        lambda lg: lg.games,
        league=True,
        stamped=("created_at",),
    ),
    Table(
        "game_sides",
        GameSide,
        (
            R("game", "games"),
            C("index", INT),
            R("team", "teams", null=True),
            C("label"),
            R("pub", "pubs", null=True),
        ),
        lambda lg: GameSide.objects.filter(game__league=lg),
    ),
    Table(
        "game_side_players",
        GameSide.players.through,
        (R("gameside", "game_sides"), R("player", "players")),
        lambda lg: GameSide.players.through.objects.filter(gameside__game__league=lg),
    ),
    Table(
        "scorer_links",
        ScorerLink,
        (
            R("game", "games"),
            C("side", INT, null=True),
            C("created_by", PERSON),
            C("created_at", TIME),
            C("revoked_at", TIME, null=True),
        ),
        lambda lg: ScorerLink.objects.filter(game__league=lg),
        fill=lambda: {"token": new_token()},
        stamped=("created_at",),
    ),
    Table(
        "deals",
        Deal,
        (
            R("game", "games"),
            C("number", INT),
            C("version", INT),
            C("live", BOOL),
            C("dealer", INT),
            C("tricks"),
            C("trick_winners"),
            C("bonus_side", INT, null=True),
            C("entered_by", PERSON),
            R("entered_via", "scorer_links", null=True),
            C("created_at", TIME),
        ),
        lambda lg: Deal.objects.filter(game__league=lg),
        fill=lambda: {"key": uuid.uuid4()},
        stamped=("created_at",),
    ),
    Table(
        "confirmations",
        Confirmation,
        (
            R("game", "games"),
            C("confirmed_by", PERSON),
            R("confirmed_via", "scorer_links", null=True),
            C("created_at", TIME),
        ),
        lambda lg: Confirmation.objects.filter(game__league=lg),
        stamped=("created_at",),
    ),
    Table(
        "game_events",
        GameEvent,
        (
            R("game", "games"),
            C("kind"),
            C("user", PERSON),
            R("link", "scorer_links", null=True),
            R("deal", "deals", null=True),
            C("text"),
            C("created_at", TIME),
        ),
        lambda lg: GameEvent.objects.filter(game__league=lg),
        stamped=("created_at",),
    ),
    # Read when this module is first imported, once the apps are loaded.
    *app_tables(),
)


# Export ------------------------------------------------------------------------------


def _text(value, column: Column) -> str:
    if value is None:
        return ""
    if column.kind == BOOL:
        return "1" if value else "0"
    if column.kind == TIME:
        return value.astimezone(datetime.UTC).isoformat()
    if column.kind == DATE:
        return value.isoformat()
    if column.kind == JSON:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if column.kind == TEXT and value.startswith(ESCAPED_STARTS):
        return "'" + value
    return str(value)


def _csv(header: list[str], rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def league_export(league: League) -> bytes:
    """The league's data as a ZIP of one CSV per table and a manifest (see above)."""
    numbers: dict[str, dict[int, int]] = {}
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    for table in TABLES:
        numbers[table.name] = {}
        rows = []
        for number, obj in enumerate(table.rows(league).order_by("pk"), start=1):
            numbers[table.name][obj.pk] = number
            row = [str(number)]
            for column in table.columns:
                if column.ref:
                    key = getattr(obj, f"{column.name}_id")
                    row.append("" if key is None else str(numbers[column.ref][key]))
                elif column.kind == PERSON:
                    row.append(ACCOUNT if getattr(obj, f"{column.name}_id") else "")
                else:
                    row.append(_text(getattr(obj, column.name), column))
            rows.append(row)
        if table.name == "game_side_players":
            # A many-to-many row's order is its side's, then its player's.
            rows.sort(key=lambda row: (int(row[1]), int(row[2])))
            rows = [[str(n), *row[1:]] for n, row in enumerate(rows, start=1)]
        files[table.file] = _csv(table.header, rows)
        counts[table.file] = len(rows)

    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": _app_version(),
        "league": {"name": league.name, "slug": league.slug},
        "people": "Not exported: 'account' marks a row done by a logged-in person.",
        "tables": [
            {
                "file": table.file,
                "rows": counts[table.file],
                "sha256": hashlib.sha256(files[table.file]).hexdigest(),
            }
            for table in TABLES
        ],
    }
    files[MANIFEST] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in [MANIFEST, *(table.file for table in TABLES)]:
            # A fixed date, so the same data makes the same ZIP.
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return out.getvalue()


# Import ------------------------------------------------------------------------------


def _unpack(zip_bytes: bytes) -> dict[str, bytes]:
    """The ZIP's files, refusing a file that is not one, is too big unpacked, or has no
    manifest. Which tables it must hold is its format's (see `_manifest`)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(zip_bytes))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise LeagueDataError("This file is not a league's data: it is not a ZIP file.") from error
    names = [info.filename for info in infos]
    if len(names) != len(set(names)):
        raise LeagueDataError("The ZIP holds the same file twice.")
    if MANIFEST not in names:
        raise LeagueDataError(f"The ZIP has no {MANIFEST}: it is not a whole league's data.")
    too_big = f"The ZIP unpacks to more than {MAX_UNCOMPRESSED // 1024 // 1024} MB: too big."
    if sum(info.file_size for info in infos) > MAX_UNCOMPRESSED:
        raise LeagueDataError(too_big)
    files, left = {}, MAX_UNCOMPRESSED
    try:
        for info in infos:
            # Read no more than is left of the allowance: a header can lie about sizes.
            with archive.open(info) as member:
                data = member.read(left + 1)
            left -= len(data)
            if left < 0:
                raise LeagueDataError(too_big)
            files[info.filename] = data
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as error:
        raise LeagueDataError("The ZIP file is damaged and cannot be read.") from error
    return files


def _manifest(files: dict[str, bytes]) -> tuple[dict, tuple[Table, ...]]:
    """The manifest, and the tables of its format, refusing a format this install does
    not read (checked first, so a newer file is told so), a file missing or extra for its
    format, and a table changed since it was exported."""
    try:
        manifest = json.loads(files[MANIFEST].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LeagueDataError("manifest.json cannot be read.") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise LeagueDataError("manifest.json does not describe a league's data.")
    version = manifest.get("format_version")
    if type(version) is not int or version not in FORMAT_VERSIONS_READ:
        *earlier, last = map(str, FORMAT_VERSIONS_READ)
        raise LeagueDataError(
            f"This file is in format {version!r}; "
            f"this install reads formats {', '.join(earlier)} and {last}."
        )
    tables = tuple(table for table in TABLES if table.since <= version)
    expected = {MANIFEST, *(table.file for table in tables)}
    unknown = sorted(set(files) - expected)
    if unknown:
        raise LeagueDataError(f"The ZIP holds a file that is not a league's data: {unknown[0]}.")
    missing = sorted(expected - set(files))
    if missing:
        raise LeagueDataError(f"The ZIP has no {missing[0]}: it is not a whole league's data.")
    listed = {t.get("file"): t for t in manifest.get("tables", []) if isinstance(t, dict)}
    for table in tables:
        entry = listed.get(table.file)
        if entry is None:
            raise LeagueDataError(f"manifest.json does not list {table.file}.")
        if hashlib.sha256(files[table.file]).hexdigest() != entry.get("sha256"):
            raise LeagueDataError(
                f"{table.file} has been changed since it was exported (its checksum differs)."
            )
    return manifest, tables


class _Bad(Exception):
    pass


def _value(text: str, column: Column, *, escaped: bool):
    if column.kind == TEXT and escaped and text.startswith("'"):
        return text[1:]
    if text == "":
        if column.null:
            return None
        if column.kind in (TEXT, PERSON):
            return ""
        raise _Bad(f"{column.name} is empty")
    try:
        if column.kind == INT:
            value = int(text)
            if value < 0:
                raise ValueError
            return value
        if column.kind == BOOL:
            return {"1": True, "0": False}[text]
        if column.kind == DATE:
            return datetime.date.fromisoformat(text)
        if column.kind == TIME:
            value = datetime.datetime.fromisoformat(text)
            if value.tzinfo is None:
                raise ValueError
            return value
        if column.kind == JSON:
            return json.loads(text)
        if column.kind == DECIMAL:
            value = decimal.Decimal(text)
            if not value.is_finite() or value < 0:
                raise ValueError
            return value
        if column.kind == PERSON and text != ACCOUNT:
            raise ValueError
    except (ValueError, KeyError, json.JSONDecodeError, decimal.InvalidOperation) as error:
        raise _Bad(f"{column.name} “{text[:40]}” cannot be read") from error
    return text


def _read(table: Table, data: bytes, sizes: dict[str, int], *, escaped: bool) -> list[dict]:
    """The table's rows as {column: value}, every reference checked against `sizes`
    (the row counts of the tables above it); `escaped` text loses its added apostrophe."""
    try:
        lines = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error) as error:
        raise LeagueDataError(f"{table.file} is not a UTF-8 CSV file.") from error
    if not lines or lines[0] != table.header:
        raise LeagueDataError(f"{table.file} does not have the columns {', '.join(table.header)}.")
    rows = []
    for line_no, line in enumerate(lines[1:], start=2):
        where = f"{table.file} line {line_no}"
        if len(line) != len(table.header):
            raise LeagueDataError(f"{where} has {len(line)} values, not {len(table.header)}.")
        if line[0] != str(line_no - 1):
            raise LeagueDataError(f"{where}: its id should be {line_no - 1}.")
        row = {}
        for column, text in zip(table.columns, line[1:], strict=True):
            try:
                value = _value(text, column, escaped=escaped)
            except _Bad as error:
                raise LeagueDataError(f"{where}: {error}.") from error
            if column.ref and value is not None and not 1 <= value <= sizes[column.ref]:
                raise LeagueDataError(
                    f"{where}: {column.name} {value} is not a row of {column.ref}.csv."
                )
            row[column.name] = value
        rows.append(row)
    return rows


def _check(in_file: tuple[Table, ...], tables: dict[str, list[dict]]) -> None:
    """What the database would refuse less clearly, or not at all: the rules presets,
    the scores and statuses, then each row of a `checked` table against its model's
    own rules and each row of a table with a `check` against that."""
    for number, season in enumerate(tables["seasons"], start=1):
        where = f"seasons.csv row {number}"
        if season["ruleset_key"] not in rules.RULESETS:
            raise LeagueDataError(f"{where}: unknown rules preset “{season['ruleset_key']}”.")
        if season["status"] not in Season.Status.values:
            raise LeagueDataError(f"{where}: unknown status “{season['status']}”.")
    for number, game in enumerate(tables["games"], start=1):
        where = f"games.csv row {number}"
        if game["ruleset_key"] not in rules.RULESETS:
            raise LeagueDataError(f"{where}: unknown rules preset “{game['ruleset_key']}”.")
        scores = game["scores"]
        if not isinstance(scores, list) or not all(type(s) is int for s in scores):
            raise LeagueDataError(f"{where}: the scores cannot be read.")
    for number, fixture in enumerate(tables["fixtures"], start=1):
        where = f"fixtures.csv row {number}"
        if fixture["status"] not in Fixture.Status.values:
            raise LeagueDataError(f"{where}: unknown status.")
    for table in in_file:
        for number, row in enumerate(tables[table.name], start=1):
            where = f"{table.file} row {number}"
            if table.checked:
                _check_row(table, row, where=where)
            problem = table.check(row) if table.check else None
            if problem:
                raise LeagueDataError(f"{where}: {problem}")


def _check_row(table: Table, row: dict, *, where: str) -> None:
    """The row against its model's own rules (league/models.py: dates from 2000 to 2100,
    a loss worth less than a win, league points first, a played fixture not scheduled;
    a drive's choices and lengths), as the admin checks them. Only the file's own values
    are checked: the rows it refers to are not made yet (so a match night before its
    season's start, which a season whose start moved later may hold, is not checked),
    and uniqueness is the database's."""
    fields = {column.name: row[column.name] for column in table.columns if not column.ref}
    others = [field.name for field in table.model._meta.fields if field.name not in fields]
    try:
        table.model(**fields).full_clean(
            exclude=others, validate_unique=False, validate_constraints=False
        )
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        column = "" if field == NON_FIELD_ERRORS else f", {field}"
        raise LeagueDataError(f"{where}{column}: {messages[0]}") from error


def _check_slug(slug: str) -> str:
    slug = slug.strip().lower()
    try:
        validate_slug(slug)
    except ValidationError as error:
        raise LeagueDataError(
            "The address may hold only letters, numbers, hyphens and underscores."
        ) from error
    if not slug or len(slug) > 50:
        raise LeagueDataError("Give the league an address of 1 to 50 characters.")
    if slug in League.RESERVED_SLUGS:
        raise LeagueDataError(f"“{slug}” is a page of the site; choose another.")
    if League.objects.filter(slug=slug).exists():
        raise LeagueDataError(f"The address “{slug}” is taken by another league; choose another.")
    return slug


def league_import(zip_bytes: bytes, *, slug: str, name: str | None = None, user) -> League:
    """A new league at `slug` from a file `league_export` wrote, run by `user`. Every
    file is checked before anything is written; then all of it is written, or nothing."""
    files = _unpack(zip_bytes)
    manifest, in_file = _manifest(files)
    tables: dict[str, list[dict]] = {}
    sizes: dict[str, int] = {}
    counts = {t["file"]: t.get("rows") for t in manifest["tables"] if isinstance(t, dict)}
    escaped = manifest["format_version"] >= 2
    for table in in_file:
        tables[table.name] = _read(table, files[table.file], sizes, escaped=escaped)
        sizes[table.name] = len(tables[table.name])
        if counts.get(table.file) != sizes[table.name]:
            raise LeagueDataError(f"{table.file} does not have the rows manifest.json lists.")
    _check(in_file, tables)
    slug = _check_slug(slug)
    name = (name or "").strip() or str(manifest.get("league", {}).get("name", "")).strip()
    if not name or len(name) > League._meta.get_field("name").max_length:
        raise LeagueDataError("Give the league a name of 1 to 100 characters.")

    try:
        with transaction.atomic():
            league = League.objects.create(name=name, slug=slug)
            league.secretaries.add(user)
            _write(league, in_file, tables, user)
    except DatabaseError as error:
        raise LeagueDataError(
            "The file's data breaks a rule of the league's records and was not imported "
            f"({str(error).splitlines()[0][:200]})."
        ) from error
    return league


def _write(league: League, in_file: tuple[Table, ...], tables: dict[str, list[dict]], user) -> None:
    person = user if user is not None and user.is_authenticated else None
    made: dict[str, list] = {}
    for table in in_file:
        objs = []
        for row in tables[table.name]:
            fields = {}
            for column in table.columns:
                value = row[column.name]
                if column.ref:
                    target = made[column.ref][value - 1] if value is not None else None
                    fields[f"{column.name}_id"] = target.pk if target is not None else None
                elif column.kind == PERSON:
                    fields[column.name] = person if value == ACCOUNT else None
                else:
                    fields[column.name] = value
            if table.name == "team_members":
                # The member's season is its team's (held twice so one player has one team).
                fields["season_id"] = made["teams"][row["team"] - 1].season_id
            objs.append(_new(table, league, fields))
        made[table.name] = table.model.objects.bulk_create(objs, batch_size=2000)
        if table.stamped and objs:
            # `auto_now` and `auto_now_add` set these to now on insert: put back the file's.
            for obj, row in zip(made[table.name], tables[table.name], strict=True):
                for field in table.stamped:
                    setattr(obj, field, row[field])
            table.model.objects.bulk_update(made[table.name], table.stamped, batch_size=2000)

    for season in league.seasons.all():
        season_results_rebuild(season=season)
    for game in league.games.finished().filter(season__isnull=True):
        record_results(game, game_result(game))
    results.content_changed(league_id=league.pk)


def _new(table: Table, league: League, fields: dict) -> models.Model:
    """One row of `table`, with what the file does not hold."""
    if table.league:
        fields["league"] = league
    if table.fill:
        fields.update(table.fill())
    return table.model(**fields)
