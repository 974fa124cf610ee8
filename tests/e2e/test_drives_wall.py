"""The drive's wall screen: "Move now: find your table", read on a phone and on the TV
across the room. Every entry's next table is on the screen: on a phone without scrolling
sideways, on a TV without scrolling at all (a TV has no one to scroll it)."""

import datetime

import pytest
from playwright.sync_api import expect

from drives import services
from tests.e2e.conftest import ARTIFACTS
from tests.factories import PubFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Seán Ó Sé", "Máire Ní Bhriain", "Róisín O'Neill", "Pádraig Considine"]


@pytest.fixture
def drive(transactional_db):
    """A progressive night of 24 pairs (12 tables) in its second game."""
    pub = PubFactory()
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday Progressive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
    )
    for n in range(24):
        services.entry_add(
            drive=drive, name=f"{NAMES[n % 4]} {n}", partner_name=f"{NAMES[(n + 1) % 4]} {n}"
        )
    services.drive_start(drive=drive)
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=drive.game, table=table, side=0)
    services.game_next(drive=drive)
    return drive


def tables_in_view(page, width, height):
    """How many entries' next tables are wholly on the screen."""
    return page.evaluate(
        """([width, height]) => [...document.querySelectorAll('.wall-table')].filter(el => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.left >= 0 && box.right <= width
                && box.top >= 0 && box.bottom <= height;
        }).length""",
        [width, height],
    )


def test_on_a_tv_every_entry_and_its_table_is_on_the_screen(
    drive, live_server, page, assert_accessible
):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    page.wait_for_load_state()
    page.screenshot(path=ARTIFACTS / "drive-wall-tv.png")
    assert tables_in_view(page, 1920, 1080) == 24
    assert_accessible(page)


def test_on_a_phone_each_entrys_table_is_in_the_screens_width(
    drive, live_server, page, assert_accessible
):
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    page.wait_for_load_state()
    page.screenshot(path=ARTIFACTS / "drive-wall-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = page.locator(".wall-table").evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().right)"
    )
    assert len(boxes) == 24 and max(boxes) <= 390
    assert_accessible(page)


def test_the_leaderboard_on_a_phone_shows_each_table_without_scrolling(
    drive, live_server, page, assert_accessible
):
    # Its Table column read "Tabl" at the box's edge: the table scrolled inside its box.
    page.goto(f"{live_server.url}{drive.get_absolute_url()}")
    page.wait_for_load_state()
    box = page.locator(".table-wrap").first
    assert box.evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth")
    assert_accessible(page)


def test_the_wall_says_in_words_who_left_who_plays_next_game_and_who_waits_for_a_partner(
    drive, live_server, page, assert_accessible
):
    # It showed a bare "–" for both, from across the hall.
    leaver = drive.entries.first()
    services.entry_leave(drive=drive, entry=leaver)
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=drive.game, table=table, side=0)
    services.game_next(drive=drive)  # game 3: the leaver has no seat
    services.entry_add(
        drive=drive, name="Nóirín Late-Arrival", partner_name="Caoimhín Ó Súilleabháin"
    )
    services.entry_add(drive=drive, name="Mick Alone")  # no partner yet
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    expect(page.locator(".wall-singles")).to_have_text(
        "Waiting for a partner: Mick Alone. Ask at the door."
    )
    late = page.locator(".wall-list li", has_text="Nóirín Late-Arrival")
    expect(late.locator(".wall-table")).to_have_text("Plays from game 4")
    gone = page.locator(".wall-list li", has_text=str(leaver))
    expect(gone.locator(".wall-table")).to_have_text("Left")
    expect(page.get_by_text("–")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    right = late.locator(".wall-table").evaluate("el => el.getBoundingClientRect().right")
    assert right <= 390
    page.screenshot(path=ARTIFACTS / "drive-wall-phone-left-and-late.png", full_page=True)
    assert_accessible(page)
