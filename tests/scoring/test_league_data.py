"""A league's data as one file: export, import under a new address, export again gives
the same CSVs and the same standings; a name a spreadsheet would run as a formula is
written escaped and comes back as it was; a bad file is refused with a message and
nothing written; only the league's secretaries may download it, and only a logged-in
person may make a league from one."""

import csv
import hashlib
import io
import json
import zipfile

import pytest
from django.urls import reverse

from bench.generate import build_league
from bench.recount import kept, recount
from league.exports import FORMULA_STARTS
from league.models import Division, League, Player, Pub, Season, SideResult, Team
from scoring.demo import load_demo
from scoring.league_data import (
    MANIFEST,
    MAX_UNCOMPRESSED,
    TABLES,
    LeagueDataError,
    league_export,
    league_import,
)
from scoring.models import Deal, Game, GameEvent, GameSide
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    PlayerFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)
from tests.scoring.conftest import fixture_game, play
from tests.scoring.test_friendlies import friendly  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def _files(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _named_standings(league: League) -> dict:
    """Each season's standings (bench.recount.kept), keyed by names instead of ids."""
    names = {
        "team": dict(Team.objects.filter(season__league=league).values_list("pk", "name")),
        "player": dict(Player.objects.filter(league=league).values_list("pk", "name")),
        "pub": dict(Pub.objects.filter(league=league).values_list("pk", "name")),
    }
    out = {}
    for season in league.seasons.all():
        totals = kept(season)
        assert totals == recount(season)
        out[season.name] = {(kind, _name(names, kind, key)): c for (kind, key), c in totals.items()}
    return out


def _name(names: dict, kind: str, key):
    if kind == "pair":
        return tuple(names["team"][team] for team in key)
    return names[kind][key]


def _round_trip(league: League) -> None:
    first = league_export(league)
    user = UserFactory()
    copy = league_import(first, slug=f"{league.slug}-copy", user=user)
    second = league_export(copy)

    before, after = _files(first), _files(second)
    assert sorted(before) == sorted(after) == sorted([MANIFEST, *(t.file for t in TABLES)])
    for table in TABLES:
        assert before[table.file] == after[table.file], table.file
    assert copy.name == league.name
    assert list(copy.secretaries.all()) == [user]
    assert _named_standings(copy) == _named_standings(league)
    assert _named_standings(league)  # the standings compared are not empty


def test_the_demo_league_goes_out_and_back_unchanged():
    load_demo()
    league = League.objects.get(slug="clare")
    _round_trip(league)
    copy = League.objects.get(slug="clare-copy")
    assert Game.objects.filter(league=copy).count() == Game.objects.filter(league=league).count()
    assert (
        GameEvent.objects.filter(game__league=copy).count()
        == GameEvent.objects.filter(game__league=league).count()
    )


def test_the_s_bench_league_goes_out_and_back_unchanged():
    built = build_league("S", seed=11, rounds=2, path="bulk", slug="bench-s")
    _round_trip(built.league)


def test_a_friendly_and_a_game_scored_through_a_link_go_out_and_back(friendly):  # noqa: F811
    """A friendly has no season: its result rows are written again all the same."""
    world = friendly
    play(world.game, 5, 0, link=world.link)
    _round_trip(world.league)
    copy = League.objects.get(slug=f"{world.league.slug}-copy")
    copy_friendly = copy.games.get(season=None)
    assert SideResult.objects.filter(game_id=copy_friendly.pk).count() == 2
    via_link = Deal.objects.get(game__league=copy, game__fixture__isnull=False, number=1)
    assert via_link.entered_via.game == via_link.game
    assert via_link.entered_via.token != world.link.token


def test_the_export_holds_no_account_email_or_secret():
    load_demo()
    league = League.objects.get(slug="clare")
    text = b"".join(_files(league_export(league)).values()).decode()
    for user in league.secretaries.all():
        assert user.username not in text
        assert not user.email or user.email not in text
    assert "pbkdf2" not in text
    for link in league.games.first().scorer_links.all():
        assert link.token not in text


# Names a spreadsheet would run ---------------------------------------------------------

HYPERLINK = '=HYPERLINK("http://x")'


@pytest.fixture
def formula_league():
    """A league whose names start as formulas do (= + - @ tab), or with an apostrophe,
    and a finished game between its two teams (its record starts with a side's name)."""
    season = SeasonFactory(name="+Winter 2026")
    league = season.league
    pub = PubFactory(league=league, name=HYPERLINK, town="@Ennis")
    division = DivisionFactory(season=season, name="-Premier")
    home = TeamFactory(
        season=season,
        pub=pub,
        division=division,
        name=HYPERLINK,
        players=[
            PlayerFactory(league=league, home_pub=pub, name="@SUM(1)"),
            PlayerFactory(league=league, home_pub=pub, name="-2+3"),
        ],
    )
    away = TeamFactory(
        season=season,
        pub=pub,
        division=division,
        name="'Twas Brillig",
        players=[
            PlayerFactory(league=league, home_pub=pub, name="'Neill"),
            PlayerFactory(league=league, home_pub=pub, name="\t=1+1"),
        ],
    )
    game = fixture_game(FixtureFactory(season=season, pub=pub, teams=[home, away]))
    play(game, 3, 2)
    play(game, 5, 0)
    assert game.status == Game.Status.FINISHED
    return league


def _column(data: bytes, name: str) -> list[str]:
    return [row[name] for row in csv.DictReader(io.StringIO(data.decode(), newline=""))]


def _names(league: League) -> dict[str, list]:
    """Every text the league's people typed, or that was made from it, in the order made."""

    def texts(rows, field):
        return list(rows.order_by("pk").values_list(field, flat=True))

    return {
        "pubs": texts(Pub.objects.filter(league=league), "name"),
        "towns": texts(Pub.objects.filter(league=league), "town"),
        "seasons": texts(Season.objects.filter(league=league), "name"),
        "divisions": texts(Division.objects.filter(season__league=league), "name"),
        "teams": texts(Team.objects.filter(season__league=league), "name"),
        "players": texts(Player.objects.filter(league=league), "name"),
        "sides": texts(GameSide.objects.filter(game__league=league), "label"),
        "events": texts(GameEvent.objects.filter(game__league=league), "text"),
    }


def test_a_name_a_spreadsheet_would_run_is_written_with_a_leading_apostrophe(formula_league):
    """As the standings' CSV does; a name that starts with an apostrophe gets one more,
    so the import can take exactly one off."""
    files = _files(league_export(formula_league))

    assert _column(files["pubs.csv"], "name") == ["'" + HYPERLINK]
    assert _column(files["pubs.csv"], "town") == ["'@Ennis"]
    assert _column(files["seasons.csv"], "name") == ["'+Winter 2026"]
    assert _column(files["divisions.csv"], "name") == ["'-Premier"]
    assert _column(files["teams.csv"], "name") == ["'" + HYPERLINK, "''Twas Brillig"]
    assert _column(files["players.csv"], "name") == ["'@SUM(1)", "'-2+3", "''Neill", "'\t=1+1"]
    assert _column(files["game_sides.csv"], "label") == ["'" + HYPERLINK, "''Twas Brillig"]
    started = _column(files["game_events.csv"], "text")[0]
    assert started == f"'{HYPERLINK} v 'Twas Brillig; {HYPERLINK} deals first"
    # No cell of any table starts as a formula; numbers, dates and references never did.
    for table in TABLES:
        for row in csv.reader(io.StringIO(files[table.file].decode(), newline="")):
            assert not [cell for cell in row if cell.startswith(FORMULA_STARTS)], table.file


def test_names_a_spreadsheet_would_run_go_out_and_back_unchanged(formula_league):
    """Export, import, export: the same CSVs, and every name exactly as it was."""
    names = _names(formula_league)
    assert names["teams"] == [HYPERLINK, "'Twas Brillig"]
    assert names["players"] == ["@SUM(1)", "-2+3", "'Neill", "\t=1+1"]

    _round_trip(formula_league)

    copy = League.objects.get(slug=f"{formula_league.slug}-copy")
    assert _names(copy) == names


def _format_1(files: dict[str, bytes]) -> dict[str, bytes]:
    """The files as format 1 wrote them, for a league whose only escaped names are its
    players': text as it is, no apostrophe added, and no table added since (drives)."""
    players = files["players.csv"].replace(b"''Neill", b"'Neill").replace(b"'=1+1", b"=1+1")
    newer = {table.file for table in TABLES if table.since > 1}
    manifest = json.loads(files[MANIFEST])
    manifest["format_version"] = 1
    manifest["tables"] = [entry for entry in manifest["tables"] if entry["file"] not in newer]
    kept = {name: data for name, data in files.items() if name not in newer}
    return _resigned({**kept, "players.csv": players, MANIFEST: json.dumps(manifest).encode()})


def test_a_file_from_before_text_was_escaped_is_read_as_it_was_written():
    """Format 1 wrote text raw: a name that starts with an apostrophe keeps it."""
    season = SeasonFactory()
    team = TeamFactory(
        season=season,
        players=[
            PlayerFactory(league=season.league, name="'Neill"),
            PlayerFactory(league=season.league, name="=1+1"),
        ],
    )
    files = _format_1(_files(league_export(season.league)))
    assert _column(files["players.csv"], "name") == ["'Neill", "=1+1"]

    copy = league_import(_zip(files), slug="copy", user=UserFactory())

    assert _names(copy)["players"] == ["'Neill", "=1+1"]
    assert _names(copy)["teams"] == [team.name]


# Refusals ----------------------------------------------------------------------------


@pytest.fixture
def exported():
    load_demo()
    return league_export(League.objects.get(slug="clare"))


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def _refused(data: bytes, message: str) -> None:
    leagues = League.objects.count()
    with pytest.raises(LeagueDataError, match=message):
        league_import(data, slug="copy", user=UserFactory())
    assert League.objects.count() == leagues
    assert not League.objects.filter(slug="copy").exists()


def _resigned(files: dict[str, bytes]) -> dict[str, bytes]:
    """The files with a manifest whose checksums fit them (a careful forger)."""
    manifest = json.loads(files[MANIFEST])
    for entry in manifest["tables"]:
        entry["sha256"] = hashlib.sha256(files[entry["file"]]).hexdigest()
    return {**files, MANIFEST: json.dumps(manifest).encode()}


def test_a_file_in_a_format_this_install_does_not_read_is_refused(exported):
    """Said before its files are looked at: a newer format may hold tables unknown here."""
    files = _files(exported)
    manifest = json.loads(files[MANIFEST])
    manifest["format_version"] = 4
    files[MANIFEST] = json.dumps(manifest).encode()
    files["tournaments.csv"] = b"id,name\n"
    _refused(_zip(files), "This file is in format 4; this install reads formats 1, 2 and 3.")


def test_a_format_that_is_not_a_whole_number_is_refused(exported):
    # JSON's true equals 1 in Python: it was read as a format 1 file.
    files = _files(exported)
    manifest = json.loads(files[MANIFEST])
    manifest["format_version"] = True
    files[MANIFEST] = json.dumps(manifest).encode()
    _refused(_zip(files), "This file is in format True; this install reads formats 1, 2 and 3.")


def test_a_changed_csv_is_refused_by_its_checksum(exported):
    files = _files(exported)
    files["deals.csv"] = files["deals.csv"].replace(b",5", b",4", 1)
    _refused(_zip(files), "deals.csv has been changed since it was exported")


def test_a_missing_file_is_refused(exported):
    files = _files(exported)
    del files["players.csv"]
    _refused(_zip(files), "The ZIP has no players.csv")


def test_a_reference_to_a_row_that_does_not_exist_is_refused(exported):
    files = _files(exported)
    lines = files["teams.csv"].decode().splitlines()
    cells = lines[1].split(",")
    cells[3] = "99"  # the team's pub
    lines[1] = ",".join(cells)
    files["teams.csv"] = ("\n".join(lines) + "\n").encode()
    _refused(_zip(_resigned(files)), "teams.csv line 2: pub 99 is not a row of pubs.csv")


def test_a_zip_bomb_is_refused_before_it_is_unpacked(exported):
    files = _files(exported)
    files["game_events.csv"] = b"x" * (MAX_UNCOMPRESSED + 1)
    data = _zip(files)
    assert len(data) < MAX_UNCOMPRESSED // 100
    _refused(data, "unpacks to more than 50 MB")


def test_a_file_that_is_not_a_zip_is_refused():
    _refused(b"name,pub\nThe Robbers,Cronin's\n", "it is not a ZIP file")


def test_a_taken_or_reserved_address_is_refused(exported):
    with pytest.raises(LeagueDataError, match="“clare” is taken by another league"):
        league_import(exported, slug="clare", user=UserFactory())
    with pytest.raises(LeagueDataError, match="“admin” is a page of the site"):
        league_import(exported, slug="admin", user=UserFactory())
    assert League.objects.count() == 1


# Pages -------------------------------------------------------------------------------


@pytest.fixture
def demo(client):
    load_demo()
    return League.objects.get(slug="clare")


def test_the_secretary_downloads_the_league_as_an_attachment(client, demo):
    secretary = demo.secretaries.first()
    client.force_login(secretary)
    manage = client.get(reverse("league:manage", args=["clare"]))
    url = reverse("data:league-export", args=["clare"])
    assert url == "/clare/manage/export.zip"
    assert url in manage.content.decode()

    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="clare-league-data.zip"'
    assert response.content == league_export(demo)


def test_only_the_leagues_secretaries_may_download_it(client, demo):
    url = reverse("data:league-export", args=["clare"])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")

    organiser = Pub.objects.filter(league=demo).first().organisers.first()
    client.force_login(organiser)
    assert client.get(url).status_code == 403

    other = UserFactory()
    League.objects.create(name="Galway", slug="galway").secretaries.add(other)
    client.force_login(other)
    assert client.get(url).status_code == 403
    assert client.get(reverse("data:league-export", args=["nowhere"])).status_code == 404


def test_a_logged_in_person_makes_a_league_from_a_file(client, demo):
    url = reverse("data:league-import")
    assert url == "/account/import-league/"
    assert client.get(url).status_code == 302
    user = UserFactory()
    client.force_login(user)
    assert client.get(url).status_code == 200
    upload = io.BytesIO(league_export(demo))
    upload.name = "clare.zip"

    response = client.post(url, {"file": upload, "slug": "clare-2", "name": ""})

    assert response.status_code == 302
    assert response["Location"] == reverse("league:manage", args=["clare-2"])
    copy = League.objects.get(slug="clare-2")
    assert list(copy.secretaries.all()) == [user]
    assert copy.games.count() == demo.games.count()


def test_a_bad_upload_shows_a_message_and_makes_nothing(client, demo):
    client.force_login(UserFactory())
    upload = io.BytesIO(b"not a zip")
    upload.name = "teams.csv"

    response = client.post(
        reverse("data:league-import"), {"file": upload, "slug": "clare-2", "name": ""}
    )

    assert response.status_code == 200
    assert response.content.decode().count("it is not a ZIP file") == 1  # said once
    assert not League.objects.filter(slug="clare-2").exists()


def test_the_import_refuses_a_post_without_its_csrf_token(demo):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    upload = io.BytesIO(league_export(demo))
    upload.name = "clare.zip"
    response = client.post(reverse("data:league-import"), {"file": upload, "slug": "x"})
    assert response.status_code == 403
    assert not League.objects.filter(slug="x").exists()
