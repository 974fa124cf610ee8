"""Back after answering "Yes" to a question (postpone this match? start game 2?) shows
a page of the app, drawn as things are now, that says the thing is done. It showed the
browser's "Confirm Form Resubmission", which offers to "repeat any action this page
previously performed": the question had been the answer to a POST."""

import datetime

import pytest
from playwright.sync_api import expect

from drives import services as drive_services
from league.models import Fixture
from tests.e2e.conftest import login
from tests.factories import (
    PASSWORD,
    FixtureFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


def back(page):
    """Back, as a phone's Back button does, waiting for the page it brings."""
    page.go_back(wait_until="load")  # raised net::ERR_CACHE_MISS on a POST's page


def test_back_after_postponing_a_match_says_it_is_postponed(live_server, page, assert_accessible):
    season = SeasonFactory()
    pub = PubFactory(league=season.league)
    season.league.secretaries.add(UserFactory(username="una"))
    home, away = (TeamFactory(season=season, pub=pub, name=n) for n in ("Bees", "Wasps"))
    fixture = FixtureFactory(season=season, pub=pub, teams=[home, away])
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}{fixture.get_absolute_url()}")

    page.get_by_role("button", name="Postpone").click()
    expect(page.get_by_role("heading", name="Postpone Bees v Wasps?")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Postpone it").click()
    expect(page.get_by_text("is postponed.")).to_be_visible()

    back(page)
    expect(page.get_by_text("Bees v Wasps is postponed already")).to_be_visible()
    assert Fixture.objects.get().status == Fixture.Status.POSTPONED
    assert_accessible(page)


def test_back_after_starting_game_2_of_a_drive_starts_nothing(live_server, page, assert_accessible):
    pub = PubFactory()
    pub.organisers.add(UserFactory(username="harbour"))
    drive = drive_services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday Progressive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=3,
        jackpot=None,
    )
    for name, partner in [("Nuala", "Pat"), ("Declan", "Bridie"), ("Seán", "Máire")]:
        drive_services.entry_add(drive=drive, name=name, partner_name=partner)
    drive_services.drive_start(drive=drive)
    drive.refresh_from_db()
    for table in drive_services.tables_waiting(drive):
        drive_services.result_record(drive=drive, game=1, table=table, side=0)
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}grid/")

    page.get_by_role("button", name="Start game 2").click()
    expect(page.get_by_role("heading", name="Start game 2?")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Yes, start game 2").click()
    expect(page.get_by_role("heading", name="Game 2 of 3")).to_be_visible()

    back(page)
    expect(
        page.get_by_text("Game 2 has already started: nothing more was started.")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Game 2 of 3")).to_be_visible()
    drive.refresh_from_db()
    assert drive.game == 2
    assert_accessible(page)


def test_removing_an_organiser_asks_first_and_back_after_yes_says_they_are_removed(
    live_server, page, assert_accessible
):
    # One tap took a pub from its organiser: on a match night, nobody could start a game.
    pub = PubFactory(name="The Harbour Bar", slug="harbour")
    pub.organisers.add(organiser := UserFactory(username="harbour"))
    pub.league.secretaries.add(UserFactory(username="una"))
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/{pub.league.slug}/manage/organisers/")
    page.get_by_role("button", name="Remove harbour from The Harbour Bar").click()
    heading = "Remove harbour as an organiser of The Harbour Bar?"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    assert_accessible(page)
    assert pub.organisers.filter(pk=organiser.pk).exists()
    page.get_by_role("button", name="Yes, remove").click()
    expect(page.get_by_text("harbour no longer organises The Harbour Bar.")).to_be_visible()

    back(page)
    expect(
        page.get_by_text("Already removed: they no longer organise The Harbour Bar.")
    ).to_be_visible()
    assert not pub.organisers.filter(pk=organiser.pk).exists()
