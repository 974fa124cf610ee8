"""The results grid and a table's scorer link on phones: a second phone is told, not
obeyed, when a table's result is already in; the organiser's grid shows the phones'
results by itself; a refused "Start game 2" says which tables, and stops saying it
once they are in; the grid warns that starting the next game closes this one; a tap
from a grid of a game that is over saves nothing and brings the phone to the game in
play; a tap with no connection, or one the connection drops, says so in place; undoing a
cut asks first, naming the cuts that go with it; a place won by a cut says so everywhere."""

import datetime
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from drives import selectors, services
from drives.models import Result, Seat, TableLink, TieBreak
from tests.e2e.conftest import login
from tests.e2e.test_drives import start
from tests.factories import PASSWORD, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/tmp/h4")
NAMES = [
    ("Nuala", "Pat"),
    ("Declan", "Bridie"),
    ("Seán", "Máire"),
    ("Aoife", "Ciarán"),
    ("Colm", "Donncha"),
    ("Eoin", "Gráinne"),
    ("Peig", "Pádraig"),
    ("Liam", "Nóra"),
]


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


@pytest.fixture
def drive():
    pub = PubFactory(name="The Harbour Bar")
    pub.organisers.add(UserFactory(username="harbour"))
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday Progressive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=3,
        jackpot=None,
    )
    for name, partner in NAMES:
        services.entry_add(drive=drive, name=name, partner_name=partner)
    services.drive_start(drive=drive)
    return drive


def play_game(drive):
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=drive.game, table=table, side=0)
    services.game_next(drive=drive)


def pairs_at(drive, table):
    seats = Seat.objects.filter(drive=drive, game=1, table=table).select_related("entry")
    return [str(s.entry) for s in sorted(seats, key=lambda s: s.side)]


def grid_of(page, live_server, drive):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}grid/")
    expect(page.get_by_role("heading", name="Game 1 of 3")).to_be_visible()


def test_a_second_phone_is_told_the_stored_result_and_the_grid_shows_its_change(
    page, new_page, live_server, drive, assert_accessible
):
    first, second = pairs_at(drive, 3)
    phone = new_page()  # the table's own phone, opened before anything is entered
    phone.goto(f"{live_server.url}{TableLink.objects.get(drive=drive, table=3).get_absolute_url()}")
    expect(phone.get_by_role("heading", name="Table 3, game 1: which pair won?")).to_be_visible()

    grid_of(page, live_server, drive)
    page.locator("#table-3").get_by_role("button", name=first).click()
    expect(page.locator("#table-3.done")).to_be_visible()

    phone.get_by_role("button", name=second).click()
    expect(phone.get_by_role("alert")).to_have_text(
        f"Table 3 is already entered: {first} won. Nothing was changed. "
        "If that is wrong, tap the winners again."
    )
    expect(phone.get_by_role("button", name=first)).to_have_attribute("aria-pressed", "true")
    expect(phone.get_by_role("button", name=second)).to_have_attribute("aria-pressed", "false")
    shot(phone, "01-scorer-refused")
    assert_accessible(phone)

    # A deliberate change, from a page that shows what is stored, is a correction.
    phone.get_by_role("button", name=second).click()
    expect(phone.get_by_role("status")).to_contain_text("Table 3, game 1: result entered.")
    expect(phone.get_by_role("button", name=second)).to_have_attribute("aria-pressed", "true")

    # The organiser's grid shows it without a reload (it asks every 10 s).
    expect(page.locator("#table-3").get_by_role("button", name=second)).to_have_attribute(
        "aria-pressed", "true", timeout=15_000
    )
    expect(page.locator("#waiting")).to_have_text("Still to come: tables 1, 2, 4.")
    shot(page, "02-grid-after-phone")
    assert_accessible(page)


def test_a_refused_start_names_the_tables_until_they_are_in_and_the_lock_is_said(
    page, live_server, drive, assert_accessible
):
    grid_of(page, live_server, drive)
    expect(page.get_by_text("Starting game 2 closes game 1's results")).to_be_visible()
    page.locator("#table-3").get_by_role("button").first.click()
    expect(page.locator("#table-3.done")).to_be_visible()
    page.get_by_role("button", name="Start game 2").click()
    waiting = page.locator("#waiting")
    expect(waiting).to_have_text("Game 1: no result yet from tables 1, 2, 4.")
    expect(page.get_by_role("alert")).to_have_count(1)
    shot(page, "03-grid-refused")
    assert_accessible(page)

    page.locator("#table-1").get_by_role("button").first.click()
    expect(waiting).to_have_text("Still to come: tables 2, 4.")
    for table in (2, 4):
        page.locator(f"#table-{table}").get_by_role("button").first.click()
    expect(waiting).to_have_text(re.compile(r"^Every table is in\."))
    expect(page.get_by_text("no result yet")).to_have_count(0)
    shot(page, "04-grid-all-in")
    start(page, "Start game 2")
    expect(page.get_by_role("heading", name="Game 2 of 3")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Game 1's results are closed.")


def test_a_tap_from_a_grid_of_a_game_that_is_over_brings_the_phone_to_the_game_in_play(
    page, new_page, live_server, drive, assert_accessible
):
    # The secretary's phone still showed game 1 after the organiser started game 2: a tap
    # turned one box into game 2's table under "Game 1", and a second tap saved it.
    drive.league.secretaries.add(UserFactory(username="una"))
    secretary = new_page()
    login(secretary, live_server, "una", PASSWORD)
    secretary.goto(f"{live_server.url}{drive.get_absolute_url()}grid/")
    expect(secretary.get_by_role("heading", name="Game 1 of 3")).to_be_visible()
    stale = secretary.locator("#table-1").get_by_role("button").first

    grid_of(page, live_server, drive)
    for table in range(1, 5):
        page.locator(f"#table-{table}").get_by_role("button").first.click()
        expect(page.locator(f"#table-{table}.done")).to_be_visible()
    start(page, "Start game 2")
    expect(page.get_by_role("heading", name="Game 2 of 3")).to_be_visible()

    stale.click()  # within the grid's 10 s: the page still says game 1
    expect(secretary.get_by_role("heading", name="Game 2 of 3")).to_be_visible()
    expect(secretary.locator(".messages")).to_have_text(
        "Game 1 is not the game in play, so nothing was saved: results go to game 2."
    )
    expect(secretary.locator(".grid-table.done")).to_have_count(0)
    expect(secretary.locator('[aria-pressed="true"]')).to_have_count(0)
    assert not Result.objects.filter(drive=drive, game=2).exists()
    shot(secretary, "05-grid-brought-to-game-2")
    assert_accessible(secretary)

    # Now the page shows game 2: a tap there is a deliberate one, and is saved.
    secretary.locator("#table-1").get_by_role("button").first.click()
    expect(secretary.locator("#table-1.done")).to_be_visible()
    assert Result.objects.filter(drive=drive, game=2, table=1).exists()


def test_a_tap_with_no_connection_or_a_dropped_one_says_so_and_is_not_shown_saved(
    page, live_server, drive, assert_accessible
):
    grid_of(page, live_server, drive)
    page.context.set_offline(True)
    table = page.locator("#table-1")
    table.get_by_role("button").first.click()
    expect(table.get_by_role("alert")).to_have_text(
        "No connection: this result was not saved. Tap it again when the connection is back."
    )
    expect(page.locator("#table-1.done")).to_have_count(0)
    expect(table.locator('[aria-pressed="true"]')).to_have_count(0)
    shot(page, "06-grid-no-connection")
    assert_accessible(page)
    page.context.set_offline(False)

    # A request the connection drops on the way says so too.
    page.route("**/tables/2/", lambda route: route.abort("connectionreset"))
    table = page.locator("#table-2")
    table.get_by_role("button").first.click()
    expect(table.get_by_role("alert")).to_contain_text("The connection dropped")
    expect(page.locator("#table-2.done")).to_have_count(0)
    page.unroute("**/tables/2/")

    # With the connection back, the same tap is saved.
    page.locator("#table-1").get_by_role("button").first.click()
    expect(page.locator("#table-1.done")).to_be_visible()
    expect(page.locator("#table-1").get_by_role("alert")).to_have_count(0)
    assert not Result.objects.filter(drive=drive, game=1, table=2).exists()


def test_undoing_a_cut_asks_first_naming_the_cut_that_goes_with_it(
    page, live_server, drive, assert_accessible
):
    # "Undo the cut for place 2" took place 3's cut with it, with no question asked.
    for _ in range(3):
        play_game(drive)
    drive.refresh_from_db()  # four pairs on 3 wins: places 1 to 3 go by three cuts
    for place in (1, 2, 3):
        tie = next(p for p in selectors.drive_prizes(drive)["places"] if p.place == place)
        winner = drive.entries.get(pk=tie.tied[0])
        services.tiebreak_record(drive=drive, place=place, winner=winner, method="cut")
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}prizes/")
    page.get_by_role("button", name="Undo the cut for place 2").click()
    expect(page.get_by_role("heading", name="Undo the cut for place 2?")).to_be_visible()
    going = "The cut for place 3 goes too: it was decided after it"
    expect(page.get_by_text(going)).to_be_visible()
    expect(page.get_by_text("place 1")).to_have_count(0)
    assert TieBreak.objects.filter(drive=drive).count() == 3
    shot(page, "07-undo-asks")
    assert_accessible(page)

    form = page.locator("form:has(input[name=confirm])")
    sent = form.evaluate("f => [...new FormData(f)]")
    page.get_by_role("button", name="Yes, undo the cuts for places 2 and 3").click()
    expect(page.get_by_role("status")).to_have_text(
        "The cut for place 2 is undone, and with it the cut for place 3: record them again."
    )
    assert list(TieBreak.objects.filter(drive=drive).values_list("place", flat=True)) == [1]
    # The same "Yes" sent again (Back and send again): said, and nothing more undone.
    target = f"{live_server.url}{drive.get_absolute_url()}prizes/tie/undo/"
    again = page.request.post(
        target,
        data=urlencode([tuple(field) for field in sent]),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Referer": target},
        max_redirects=0,
    )
    assert again.status == 302
    page.reload()
    expect(page.get_by_role("status")).to_have_text(
        "Already undone: the prize list shows the places as they stand now."
    )
    assert list(TieBreak.objects.filter(drive=drive).values_list("place", flat=True)) == [1]


def test_a_place_won_by_a_cut_reads_the_same_on_the_wall_and_the_entry_s_page(
    page, live_server, drive, assert_accessible
):
    for _ in range(3):
        play_game(drive)
    drive.refresh_from_db()  # four pairs on 3 wins: places 1 to 3 go by three cuts
    for place in (1, 2, 3):
        tie = next(p for p in selectors.drive_prizes(drive)["places"] if p.place == place)
        winner = drive.entries.get(pk=tie.tied[0])
        services.tiebreak_record(drive=drive, place=place, winner=winner, method="cut")
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    places = page.locator(".wall-place")
    expect(places.nth(1)).to_have_text("2 (cut)")
    # "2 (cut)" on one line, not "2" over "(cut)".
    below = places.nth(1).evaluate(
        "el => el.querySelector('.muted').getBoundingClientRect().top"
        " - el.getBoundingClientRect().top"
    )
    assert below < 5
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "08-wall-cut")
    assert_accessible(page)

    page.goto(f"{live_server.url}{drive.get_absolute_url()}")
    expect(page.locator(".drive-winners")).to_contain_text("2 (cut)")
    page.locator(".board").get_by_role("link").nth(1).click()
    expect(page.locator(".my-line")).to_contain_text("You: 3 wins, place 2 (cut).")
    shot(page, "09-entry-cut")
    assert_accessible(page)


def test_start_game_2_and_finish_ask_first_and_no_goes_back_to_the_results(
    page, live_server, drive, assert_accessible
):
    grid_of(page, live_server, drive)
    for table in range(1, 5):
        page.locator(f"#table-{table}").get_by_role("button").first.click()
        expect(page.locator(f"#table-{table}.done")).to_be_visible()
    page.get_by_role("button", name="Start game 2").click()
    expect(page.get_by_role("heading", name="Start game 2?")).to_be_visible()
    expect(
        page.get_by_text("Game 1's results close: nobody can change them after.")
    ).to_be_visible()
    shot(page, "06-next-asks")
    assert_accessible(page)
    page.get_by_role("link", name="No, back to the results").click()
    expect(page.get_by_role("heading", name="Game 1 of 3")).to_be_visible()
    drive.refresh_from_db()
    assert drive.game == 1

    start(page, "Start game 2")
    expect(page.get_by_role("heading", name="Game 2 of 3")).to_be_visible()
    play_game(drive)  # game 3 in play
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=3, table=table, side=0)
    page.reload()
    page.get_by_role("button", name="Finish: show the prizes").click()
    expect(page.get_by_role("heading", name="Finish the drive?")).to_be_visible()
    expect(page.get_by_text("and the prize list is made from them")).to_be_visible()
    assert_accessible(page)
    asked = f"{live_server.url}{drive.get_absolute_url()}next/"
    token = page.locator("form.actions input[name=csrfmiddlewaretoken]").input_value()
    page.get_by_role("button", name="Yes, finish: show the prizes").click()
    expect(page.get_by_role("heading", name="Prizes: Friday Progressive")).to_be_visible()
    # The same "Yes" sent again (Back and send again): said, nothing more done.
    again = page.request.post(
        asked,
        form={"csrfmiddlewaretoken": token, "confirm": "yes", "game": "3"},
        headers={"Referer": asked},
    )
    assert again.ok and "The drive has already finished: here are the prizes." in again.text()


def test_a_table_s_phone_says_when_there_is_no_connection_and_moves_on_by_itself(
    new_page, live_server, drive, assert_accessible
):
    """Found by a walk: with Wi-Fi gone a tap on the table's link gave the browser's own
    offline page, and after each game the page had to be reloaded by hand."""
    phone = new_page()
    phone.clock.install()
    phone.goto(f"{live_server.url}{TableLink.objects.get(drive=drive, table=3).get_absolute_url()}")
    first, _ = pairs_at(drive, 3)
    phone.context.set_offline(True)
    phone.get_by_role("button", name=first).click()
    expect(phone.get_by_role("alert")).to_have_text(
        "No connection: this result was not sent. Tap it again when the connection is back."
    )
    expect(phone.get_by_role("button", name=first)).to_have_attribute("aria-pressed", "false")
    assert not Result.objects.filter(drive=drive, table=3).exists()
    shot(phone, "09-scorer-no-connection")
    assert_accessible(phone)
    phone.context.set_offline(False)
    with phone.expect_navigation():
        phone.get_by_role("button", name=first).click()
    expect(phone.get_by_role("button", name=first)).to_have_attribute("aria-pressed", "true")

    play_game(drive)  # the other tables come in and the organiser starts game 2
    with phone.expect_navigation():
        phone.clock.fast_forward(16_000)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Table 3, game 2: which pair won?")
    assert_accessible(phone)
