"""A league file is held to the same rules as the secretary's forms and the admin: a
season's dates and a match night from 2000 to 2100, a loss worth less than a win,
league points first in the tie-break order, no fixture scheduled with all its games
finished. A file that breaks one is refused with a message naming the file, row and
column, and nothing is made, through the page as well (never a 500)."""

import csv
import datetime
import io

import pytest
from django.urls import reverse

from league.models import League
from scoring.league_data import league_export, league_import
from tests.factories import FixtureFactory, SeasonFactory, UserFactory
from tests.scoring.test_league_data import _files, _refused, _resigned, _zip

pytestmark = pytest.mark.django_db

OUT_OF_RANGE = "Give a date between 1 January 2000 and 31 December 2100."


@pytest.fixture
def exported() -> dict[str, bytes]:
    """A small league's files: one season, one fixture of two teams, nothing played."""
    season = SeasonFactory(
        name="Winter", start_date=datetime.date(2026, 9, 7), tiebreaks=["points"]
    )
    FixtureFactory(season=season)
    return _files(league_export(season.league))


def _edited(files: dict[str, bytes], file: str, **changes) -> bytes:
    """The ZIP with the first row of `file` changed (column → text), checksums made to
    fit (a careful forger, or a spreadsheet saved by hand)."""
    lines = list(csv.reader(io.StringIO(files[file].decode(), newline="")))
    header, row = lines[0], lines[1]
    for column, text in changes.items():
        row[header.index(column)] = text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(lines)
    return _zip(_resigned({**files, file: out.getvalue().encode()}))


def test_the_small_league_goes_out_and_back(exported):
    """The files below differ from it in one cell only."""
    league = league_import(_zip(exported), slug="copy", user=UserFactory())
    assert league.seasons.get().tiebreaks == ["points"]


@pytest.mark.parametrize(("win", "loss"), [("2", "2"), ("1", "3"), ("0", "0")])
def test_a_season_whose_loss_is_worth_as_much_as_a_win_is_refused(exported, win, loss):
    _refused(
        _edited(exported, "seasons.csv", points_win=win, points_loss=loss),
        "seasons.csv row 1, points_loss: A win must be worth more league points than a loss.",
    )


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ('["marches"]', "League points always come first"),
        ('["marches","points"]', "League points always come first"),
        ('["points","points"]', "“points” is in the order twice."),
    ],
)
def test_a_season_without_league_points_first_is_refused(exported, order, message):
    _refused(
        _edited(exported, "seasons.csv", tiebreaks=order),
        f"seasons.csv row 1, tiebreaks: {message}",
    )


@pytest.mark.parametrize(
    ("column", "date"),
    [("start_date", "1900-01-01"), ("end_date", "9999-12-31"), ("end_date", "2101-01-01")],
)
def test_a_season_dated_outside_2000_to_2100_is_refused(exported, column, date):
    _refused(
        _edited(exported, "seasons.csv", **{column: date}),
        f"seasons.csv row 1, {column}: {OUT_OF_RANGE}",
    )


@pytest.mark.parametrize("date", ["1999-12-31", "9999-12-31"])
def test_a_match_night_outside_2000_to_2100_is_refused(exported, date):
    _refused(
        _edited(exported, "fixtures.csv", date=date), f"fixtures.csv row 1, date: {OUT_OF_RANGE}"
    )


def test_a_fixture_scheduled_with_all_its_games_finished_is_refused(exported):
    _refused(
        _edited(
            exported, "fixtures.csv", status="scheduled", games_started="3", games_finished="3"
        ),
        "fixtures.csv row 1, status: All 3 games of this fixture are finished, so it stays played.",
    )


def test_a_match_night_before_its_season_starts_is_still_imported(exported):
    """A season's start may move later than fixtures already made: the export holds them."""
    league = league_import(
        _edited(exported, "fixtures.csv", date="2026-09-01"), slug="copy", user=UserFactory()
    )
    assert league.seasons.get().fixtures.get().date == datetime.date(2026, 9, 1)


def test_the_page_shows_why_a_file_is_refused_and_makes_nothing(client, exported):
    client.force_login(UserFactory())
    upload = io.BytesIO(_edited(exported, "seasons.csv", points_loss="5"))
    upload.name = "league.zip"

    response = client.post(
        reverse("data:league-import"), {"file": upload, "slug": "copy", "name": ""}
    )

    assert response.status_code == 200
    assert "seasons.csv row 1, points_loss: A win must be worth more" in response.text
    assert not League.objects.filter(slug="copy").exists()
