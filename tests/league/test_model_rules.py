"""A season's and a fixture's own rules hold for every way in, not only the secretary's
forms: the Django admin refuses what the forms refuse (dates from 2000 to 2100, a loss
worth less than a win, league points first in the tie-break order, a match night not
moved before its season starts, a finished fixture not scheduled again, a closed
season's table rules unchanged), shows why, and saves nothing; the database refuses a
loss worth as much as a win; and the migration puts league points first in the orders
stored before."""

import datetime
import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from league import services, standings
from league.models import Fixture, League, Season
from league.services import LeagueError
from tests.factories import FixtureFactory, SeasonFactory, UserFactory, win_game
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

OUT_OF_RANGE = "Give a date between 1 January 2000 and 31 December 2100."
LOSS = "A win must be worth more league points than a loss."
POINTS_FIRST = "League points always come first: list the tie-breaks after them."
CLOSED = (
    "Winter is finished, so this cannot change. "
    "To change it, reopen the season: set its status to Running."
)


@pytest.fixture
def operator(client):
    """A superuser, logged in: the admin's only users."""
    client.force_login(UserFactory(username="operator", is_staff=True, is_superuser=True))


def _as_it_stands(page) -> dict:
    """What an admin change page posts back when nothing is changed on it."""
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data = {}
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = "on" if value is True else value
    return data


def _admin_post(client, obj, **changes):
    """Open `obj`'s admin change page, change `changes` on it and save."""
    url = reverse(f"admin:league_{obj._meta.model_name}_change", args=[obj.pk])
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, {**_as_it_stands(page), **changes})


def _admin_errors(response) -> list[str]:
    """Every message the admin page shows against the change, beside a field or above."""
    assert response.status_code == 200, response.get("Location")
    form = response.context["adminform"].form
    messages = [m for errors in form.errors.values() for m in errors]
    for message in messages:
        assert message in response.content.decode()
    return messages


# Seasons in the admin ---------------------------------------------------------------------


def test_the_admin_saves_a_season_left_as_it_is(client, world, operator):
    response = _admin_post(client, world.season)
    assert response.status_code == 302


@pytest.mark.parametrize(("win", "loss"), [(2, 2), (1, 5), (0, 0)])
def test_the_admin_refuses_a_loss_worth_as_much_as_a_win(client, world, operator, win, loss):
    before = snapshot()
    response = _admin_post(client, world.season, points_win=win, points_loss=loss)
    assert _admin_errors(response) == [LOSS]
    assert snapshot() == before


UNKNOWN = "Unknown tie-break “{}”. Use: points, head_to_head, difference, points_for, marches."


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ('["marches"]', POINTS_FIRST),
        ('["head_to_head", "points"]', POINTS_FIRST),
        ('["points", "marches", "marches"]', "“marches” is in the order twice."),
        ('["points", "coin toss"]', UNKNOWN.format("coin toss")),
        (
            '{"points": 1}',
            "Give the tie-breaks as a list, from: " + ", ".join(Season.TIEBREAKS) + ".",
        ),
    ],
)
def test_the_admin_refuses_a_tiebreak_order_it_cannot_rank_by(
    client, world, operator, order, message
):
    before = snapshot()
    response = _admin_post(client, world.season, tiebreaks=order)
    assert _admin_errors(response) == [message]
    assert snapshot() == before


def test_the_admin_saves_a_tiebreak_order_with_league_points_first(client, world, operator):
    response = _admin_post(client, world.season, tiebreaks='["points", "marches"]')
    assert response.status_code == 302
    assert Season.objects.get(pk=world.season.pk).tiebreaks == ["points", "marches"]


@pytest.mark.parametrize(
    ("field", "date"),
    [("start_date", "1900-01-01"), ("end_date", "9999-12-31"), ("end_date", "2101-01-01")],
)
def test_the_admin_refuses_a_season_date_outside_2000_to_2100(client, world, operator, field, date):
    before = snapshot()
    response = _admin_post(client, world.season, **{field: date})
    assert OUT_OF_RANGE in _admin_errors(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("points_win", 5), ("tiebreaks", '["points", "marches"]'), ("march_bonus", 10)],
)
def test_the_admin_refuses_a_change_to_a_closed_seasons_table_rules(
    client, world, operator, field, value
):
    services.season_close(season=world.season)
    before = snapshot()
    response = _admin_post(client, Season.objects.get(pk=world.season.pk), **{field: value})
    assert _admin_errors(response) == [CLOSED]
    assert snapshot() == before


def test_the_admin_renames_a_closed_season_and_reopens_one_for_new_points(client, world, operator):
    services.season_close(season=world.season)
    season = Season.objects.get(pk=world.season.pk)
    assert _admin_post(client, season, name="Winter 2026").status_code == 302
    assert _admin_post(client, season, status="running", points_win=3).status_code == 302
    season.refresh_from_db()
    assert (season.name, season.status, season.points_win) == ("Winter 2026", "running", 3)


# Fixtures in the admin --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("1900-01-01", OUT_OF_RANGE),
        ("9999-12-31", OUT_OF_RANGE),
        ("2026-09-06", "Winter starts on 7 September 2026: give a date from then on."),
    ],
)
def test_the_admin_refuses_a_match_night_out_of_range_or_before_its_season(
    client, world, fixture_at_pub, operator, date, message
):
    before = snapshot()
    response = _admin_post(client, fixture_at_pub, date=date)
    assert _admin_errors(response) == [message]
    assert snapshot() == before


def test_the_admin_keeps_a_fixture_left_before_its_season_starts(
    client, world, fixture_at_pub, operator
):
    """Its season's start moved later: the old date stays, only a new one is checked."""
    Fixture.objects.filter(pk=fixture_at_pub.pk).update(date=datetime.date(2026, 9, 1))
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    response = _admin_post(client, fixture, status="postponed")
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture.pk).status == "postponed"


def _finish_every_game(world, fixture) -> Fixture:
    home, away = (ft.team for ft in fixture.fixture_teams.all())
    for number in range(1, fixture.games_planned + 1):
        win_game(season=world.season, winner=home, loser=away, fixture=fixture, number=number)
    fixture = Fixture.objects.get(pk=fixture.pk)
    assert (fixture.status, fixture.games_finished) == ("played", fixture.games_planned)
    return fixture


def test_the_admin_refuses_to_schedule_again_a_fixture_whose_games_are_all_finished(
    client, world, fixture_at_pub, operator
):
    fixture = _finish_every_game(world, fixture_at_pub)
    before = snapshot()
    response = _admin_post(client, fixture, status="scheduled")
    assert _admin_errors(response) == [
        "All 3 games of this fixture are finished, so it stays played. "
        "To play more games, raise the games planned."
    ]
    assert snapshot() == before
    response = _admin_post(client, fixture, status="scheduled", games_planned=5)
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture.pk).status == "scheduled"


# The services and the database ------------------------------------------------------------


def test_the_season_service_refuses_league_points_after_a_tiebreak(world):
    before = snapshot()
    with pytest.raises(LeagueError, match=POINTS_FIRST):
        services.season_update(season=world.season, tiebreaks=["marches"])
    with pytest.raises(LeagueError, match=LOSS):
        services.season_update(season=world.season, points_win=1, points_loss=1)
    assert snapshot() == before


def test_the_database_refuses_a_loss_worth_as_much_as_a_win(world):
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=world.season.pk).update(points_loss=2, points_win=2)
    assert Season.objects.get(pk=world.season.pk).points_loss == 0


# The migration ------------------------------------------------------------------------------


def _migration():
    return importlib.import_module("league.migrations.0010_season_rules")


def test_the_migration_puts_league_points_first_in_the_orders_stored_before():
    marches = SeasonFactory(tiebreaks=["marches", "points", "marches", "coin"])
    head_to_head = SeasonFactory(tiebreaks=["head_to_head"])
    default = SeasonFactory(tiebreaks=[])
    fine = SeasonFactory(tiebreaks=["points", "difference"])
    versions = dict(League.objects.values_list("pk", "content_version"))

    _migration().points_first(apps, None)

    orders = {s.pk: s.tiebreaks for s in Season.objects.all()}
    assert orders == {
        marches.pk: ["points", "marches"],
        head_to_head.pk: ["points", "head_to_head"],
        default.pk: [],
        fine.pk: ["points", "difference"],
    }
    # The changed seasons' pages are drawn again; the others' are left alone.
    after = dict(League.objects.values_list("pk", "content_version"))
    moved = {pk for pk in after if after[pk] != versions[pk]}
    assert moved == {marches.league_id, head_to_head.league_id}


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="drops a constraint inside the test's transaction"
)
def test_the_migration_names_a_season_whose_loss_is_worth_as_much_as_a_win():
    """No value can be chosen for the secretary: the migration stops and says which."""
    # As before the migration: without the constraint (the test's rollback puts it back).
    [constraint] = [c for c in Season._meta.constraints if c.name == "season_loss_below_win"]
    with connection.schema_editor() as editor:
        editor.remove_constraint(Season, constraint)
    SeasonFactory(name="Spring", league__name="Clare League", points_win=1, points_loss=1)
    SeasonFactory(name="Winter", league__name="Kerry League")

    with pytest.raises(RuntimeError, match="Spring of Clare League: a win 1, a loss 1") as error:
        _migration().check_loss_below_win(apps, None)
    assert "Winter" not in str(error.value)


def test_a_fixture_set_back_to_scheduled_in_the_admin_is_no_longer_counted_as_won(
    operator, client, world
):
    # Its teams' kept rows follow the fixture's status (a fixture counts as won once it
    # is played), as they do after the secretary's own edit.
    season = world.season
    fixture = FixtureFactory(season=season, pub=world.pub, games_planned=1)
    home, away = [ft.team for ft in fixture.fixture_teams.all()]
    win_game(season=season, winner=home, loser=away, fixture=fixture)
    assert standings.fixtures_won(season) == {home.pk: 1}
    response = _admin_post(client, fixture, games_planned="3", status="scheduled")
    assert response.status_code == 302
    row = next(r for r in standings.team_rows(season) if r["id"] == home.pk)
    assert row["fixtures_won"] == 0
