"""Setting up a drive and the door, on a phone: the kind of night fills the form in and
what the form shows is saved; a single without a partner stops the start in plain words,
and one who comes later is named when the next game starts and when pairing leaves them;
Remove and Leaves now ask first and a pair can come back; a double tap checks in once;
every checkbox is a 48 px target."""

import datetime
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from drives import services
from drives.models import Drive, Entry, Seat
from tests.e2e.conftest import login
from tests.e2e.test_drives import start
from tests.factories import PASSWORD, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/tmp/h3")


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def organiser_at(pub, page, live_server):
    user = UserFactory()
    pub.organisers.add(user)
    login(page, live_server, user.username, PASSWORD)


def assert_big_enough(locator):
    box = locator.bounding_box()
    assert box["width"] >= 48 and box["height"] >= 48, box


def test_a_kind_of_night_fills_the_form_in_and_what_it_shows_is_saved(
    page, live_server, assert_accessible
):
    pub = PubFactory(name="Confey GAA")
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/new/")
    page.get_by_label("Kind of night").select_option(label="Tables of six, three pairs")
    page.get_by_role("button", name="Fill in the settings").click()
    expect(page.get_by_text("Filled in for “Tables of six, three pairs”")).to_be_visible()
    expect(page.get_by_label("Seats at a table")).to_have_value("6")
    expect(page.get_by_label("Games:", exact=True)).to_have_value("20")
    expect(page.get_by_label("Jackpot at wins")).to_have_value("14")
    # The organiser changes some of it: that is what is saved.
    page.get_by_label("Name:").fill("Monday sixes")
    page.get_by_label("Date").fill("2026-10-05")
    page.get_by_label("Games:", exact=True).fill("8")
    page.get_by_label("Jackpot at wins").fill("6")
    page.get_by_label("Ties for a prize").select_option(label="Split the prize")
    booby = page.locator("label.check", has_text="Booby prize")
    assert_big_enough(booby)
    booby.get_by_text("Booby prize").click()
    expect(page.get_by_label("Booby prize for the fewest wins")).to_be_checked()
    shot(page, "01-setup-filled")
    assert_accessible(page)
    page.get_by_role("button", name="Set up the drive").click()
    expect(page.get_by_role("heading", name="At the door")).to_be_visible()
    drive = Drive.objects.get()
    assert (drive.table_size, drive.games, drive.jackpot, drive.tie_rule, drive.booby) == (
        6,
        8,
        6,
        "split",
        True,
    )
    settings = page.locator(".drive-settings")
    for words in (
        "tables of 6 (three pairs)",
        "8 games",
        "jackpot at 6 wins",
        "Ties for a prize: split the prize",
    ):
        expect(settings).to_contain_text(words)
    shot(page, "02-door-settings")
    assert_accessible(page)


def test_the_date_box_shows_today_and_the_drive_is_set_up_without_typing_it(
    page, live_server, assert_accessible
):
    # The box held 04/12/2026, which a date box cannot read: it showed mm/dd/yyyy, and
    # "Set up the drive" got the browser's "Please fill out this field".
    pub = PubFactory(name="Confey GAA")
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/new/?preset=progressive")
    today = timezone.localdate()
    expect(page.get_by_label("Date")).to_have_value(today.isoformat())
    assert_accessible(page)
    page.get_by_role("button", name="Set up the drive").click()
    expect(page.get_by_role("heading", name="At the door")).to_be_visible()
    assert Drive.objects.get().date == today


def test_the_door_asks_before_dropping_anyone_and_checks_in_once(
    page, live_server, assert_accessible
):
    pub = PubFactory(name="The Harbour Bar")
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday 25",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=2,
        jackpot=None,
        entry_fee=5,
    )
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/{drive.pk}/door/")
    paid = page.locator("label.check", has_text="Paid €5.00")
    assert_big_enough(paid)
    for first, second in (("Nuala", "Declan"), ("Aoife", "Ciarán")):
        page.get_by_label("Name:").fill(first)
        page.get_by_label("Partner (if they have one)").fill(second)
        paid.get_by_text("Paid").click()
        page.get_by_role("button", name="Check in").click()
        expect(page.get_by_role("status")).to_contain_text(f"{first} & {second} checked in.")
    page.get_by_label("Name:").fill("Mick")
    page.get_by_role("button", name="Check in").click()
    expect(page.get_by_role("status")).to_contain_text("Mick needs a partner")

    # A single with no partner stops the start, named, and nothing starts.
    page.get_by_role("button", name="Start game 1").click()
    expect(page.get_by_role("status")).to_contain_text("Mick has no partner yet")
    expect(page.get_by_role("heading", name="At the door")).to_be_visible()
    shot(page, "03-door-single-refused")

    # Remove asks first, in the right words.
    page.get_by_role("button", name="Remove Mick").click()
    expect(page.get_by_role("heading", name="Remove Mick?")).to_be_visible()
    shot(page, "04-remove-asks")
    assert_accessible(page)
    page.get_by_role("button", name="Yes, remove Mick").click()
    expect(page.get_by_role("status")).to_contain_text("Mick removed.")

    # A double tap on Check in: the first tap's POST reaches the server, the page shows
    # the answer to the second. One entry, and a success message.
    page.get_by_label("Name:").fill("Double")
    page.get_by_label("Partner (if they have one)").fill("Tap")
    door = page.url
    token = page.locator("form.stack input[name=csrfmiddlewaretoken]").input_value()
    first_tap = page.request.post(
        door,
        form={"csrfmiddlewaretoken": token, "name": "Double", "partner_name": "Tap"},
        headers={"Referer": door},
        max_redirects=0,
    )
    assert first_tap.status == 302
    page.get_by_role("button", name="Check in").click()
    expect(page.get_by_role("status")).to_have_text("Double & Tap checked in.")
    expect(page.get_by_text("already checked in")).to_have_count(0)
    expect(page.get_by_label("Name:")).to_have_value("")
    assert Entry.objects.filter(drive=drive, name="Double").count() == 1

    # Paid after check-in, from the entry's line.
    page.get_by_role("button", name="Mark paid Double & Tap").click()
    expect(page.get_by_role("status")).to_contain_text("Double & Tap paid €5.00.")
    expect(page.get_by_role("button", name="Mark not paid Double & Tap")).to_be_visible()
    assert_big_enough(page.get_by_role("button", name="Mark not paid Double & Tap"))

    start(page, "Start game 1")
    expect(page.get_by_role("heading", name="Game 1 of 2")).to_be_visible()

    # Leaves now asks first; a mis-tap is undone by Back again.
    page.get_by_role("link", name="Door").click()
    page.get_by_role("button", name="Leaves now Nuala & Declan").click()
    expect(page.get_by_role("heading", name="Does Nuala & Declan leave now?")).to_be_visible()
    page.get_by_role("button", name="Yes, Nuala & Declan leave now").click()
    expect(page.get_by_role("status")).to_contain_text("left after game 1; their wins stand")
    shot(page, "05-door-left")
    page.get_by_role("button", name="Back again Nuala & Declan").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Nuala & Declan are back: they play from game 2."
    )
    expect(page.get_by_role("button", name="Leaves now Nuala & Declan")).to_be_visible()
    settings = page.locator(".drive-settings summary")  # folded away once playing
    assert_big_enough(settings)
    settings.click()
    expect(page.locator(".drive-settings")).to_contain_text("2 games")
    shot(page, "06-door-back")
    assert_accessible(page)


def test_the_door_offers_only_what_can_be_done(page, live_server, assert_accessible):
    pub = PubFactory()
    solo = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Solo night",
        date=datetime.date(2026, 10, 9),
        format="individual",
        table_size=4,
        games=1,
        places=1,
    )
    for name in ("Ann", "Bea", "Cat", "Dot", "Eve"):
        services.entry_add(drive=solo, name=name)
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/{solo.pk}/door/")
    expect(page.get_by_role("button", name="Start game 1")).to_be_visible()
    expect(page.get_by_role("button", name="Pair the 5 singles")).to_have_count(0)
    expect(page.get_by_text("needs a partner")).to_have_count(0)
    shot(page, "07-solo-door")

    services.drive_start(drive=solo)
    solo.refresh_from_db()
    services.result_record(drive=solo, game=1, table=1, side=0)
    services.game_next(drive=solo)
    page.reload()
    expect(page.get_by_text("This drive has finished: nobody more to check in.")).to_be_visible()
    expect(page.get_by_role("button", name="Check in")).to_have_count(0)
    expect(page.get_by_role("button", name="Remove Ann")).to_have_count(0)
    shot(page, "08-finished-door")
    assert_accessible(page)


def test_a_single_who_comes_late_is_named_when_the_next_game_starts_and_when_pairing(
    page, live_server, assert_accessible
):
    # Game 2 started with no word of Mick, checked in alone during game 1; pairing three
    # singles said "1 pair made." and nothing of the third.
    pub = PubFactory()
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday Progressive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=4,
        jackpot=None,
    )
    for n in range(4):
        services.entry_add(drive=drive, name=f"Pair {n}", partner_name=f"Partner {n}")
    services.drive_start(drive=drive)
    organiser_at(pub, page, live_server)
    door = f"{live_server.url}{drive.get_absolute_url()}door/"
    page.goto(door)
    page.get_by_label("Name:").fill("Mick")
    page.get_by_role("button", name="Check in").click()
    expect(page.get_by_role("status")).to_contain_text("Mick needs a partner")

    page.get_by_role("link", name="Results").click()
    for table in (1, 2):
        page.locator(f"#table-{table}").get_by_role("button").first.click()
        expect(page.locator(f"#table-{table}.done")).to_be_visible()
    start(page, "Start game 2")
    expect(page.get_by_role("heading", name="Game 2 of 4")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(
        "Mick is waiting for a partner and sits out until paired"
    )
    expect(
        page.get_by_text("Waiting for a partner, not playing until paired: Mick.")
    ).to_be_visible()
    shot(page, "09-grid-single-waiting")
    assert_accessible(page)

    page.get_by_role("link", name="Find a partner at the door").click()
    for name in ("Ann", "Bea"):
        page.get_by_label("Name:").fill(name)
        page.get_by_role("button", name="Check in").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} needs a partner")
    page.get_by_role("button", name="Pair the 3 singles").click()
    expect(page.get_by_role("status")).to_have_text(
        "1 pair made: Mick & Ann. Bea is still waiting for a partner: check in someone "
        "to partner them and tap “Pair the singles”."
    )
    shot(page, "10-door-paired-one-left")
    assert_accessible(page)


def test_start_game_1_asks_first_and_names_a_pair_typed_but_not_checked_in(
    page, live_server, assert_accessible
):
    # A tester typed a third pair's names, tapped "Start game 1" (just under "Check in")
    # by mistake, and the drive started at once without them.
    pub = PubFactory()
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday 25",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
        games=2,
        jackpot=None,
    )
    for n in range(2):
        services.entry_add(drive=drive, name=f"Pair {n}", partner_name=f"Partner {n}")
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}door/")
    page.get_by_label("Name:").fill("Liam")
    page.get_by_label("Partner (if they have one)").fill("Nóra")
    page.get_by_role("button", name="Start game 1").click()
    expect(
        page.get_by_role("heading", name="Start game 1 with 2 pairs at 1 table?")
    ).to_be_visible()
    expect(page.get_by_role("alert")).to_have_text(
        "“Liam & Nóra” is typed at the door but not checked in: they would not play "
        "game 1. Go back and tap “Check in” first."
    )
    expect(
        page.get_by_text(
            "Nobody can check in for game 1 after this; late arrivals play from game 2."
        )
    ).to_be_visible()
    assert_big_enough(page.get_by_role("button", name="Yes, start game 1"))
    assert_big_enough(page.get_by_role("link", name="No, back to the door"))
    shot(page, "11-start-asks")
    assert_accessible(page)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.OPEN

    # No: back at the door, the typed names still in their boxes.
    page.get_by_role("link", name="No, back to the door").click()
    expect(page.get_by_role("heading", name="At the door")).to_be_visible()
    expect(page.get_by_label("Name:")).to_have_value("Liam")
    expect(page.get_by_label("Partner (if they have one)")).to_have_value("Nóra")
    page.get_by_role("button", name="Check in").click()
    expect(page.get_by_role("status")).to_contain_text("Liam & Nóra checked in.")

    page.get_by_role("button", name="Start game 1").click()
    expect(
        page.get_by_role("heading", name="Start game 1 with 3 pairs at 1 table?")
    ).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_text("sit out game 1")).to_be_visible()
    asked = page.url
    token = page.locator("form.actions input[name=csrfmiddlewaretoken]").input_value()
    page.get_by_role("button", name="Yes, start game 1").click()
    expect(page.get_by_role("heading", name="Game 1 of 2")).to_be_visible()
    # A second "Yes" (Back and send again) starts nothing more, and says so.
    again = page.request.post(
        asked, form={"csrfmiddlewaretoken": token, "confirm": "yes"}, headers={"Referer": asked}
    )
    assert again.ok and "Game 1 has already started: nothing more was started." in again.text()
    drive.refresh_from_db()
    assert drive.game == 1


def test_a_name_typed_wrong_is_put_right_after_game_1_and_keeps_the_wins(
    page, live_server, assert_accessible
):
    """Found by a walk: once game 1 had started, a typo at the door ("Nuala Kelihe")
    could only be fixed by "Leaves now" and a new entry, which lost the wins."""
    pub = PubFactory()
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Confey night",
        date=timezone.localdate(),
        preset="progressive",
        games=3,
        jackpot=None,
    )
    services.entry_add(drive=drive, name="Nuala Kelihe", partner_name="Áine Griffin")
    services.entry_add(drive=drive, name="Tomás Hehir", partner_name="Peig Talty")
    services.drive_start(drive=drive)
    drive.refresh_from_db()
    # Nuala's pair wins game 1, wherever the draw seated it.
    seat = Seat.objects.get(drive=drive, game=1, entry__name="Nuala Kelihe")
    services.result_record(drive=drive, game=1, table=seat.table, side=seat.side)
    organiser_at(pub, page, live_server)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/{drive.pk}/door/")
    page.get_by_role("link", name="Correct name of Nuala Kelihe & Áine Griffin").click()
    page.wait_for_load_state()
    shot(page, "09-correct-name")
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("Name").fill("Tomás Hehir")  # someone else's: refused, kept as typed
    page.get_by_role("button", name="Save the name").click()
    page.wait_for_load_state()
    expect(page.locator("#error-summary")).to_contain_text(
        "“Tomás Hehir” is checked in already (Tomás Hehir & Peig Talty)."
    )
    assert_accessible(page)
    page.get_by_label("Name").fill("Nuala Kelly")
    page.get_by_role("button", name="Save the name").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_have_text("Name put right: Nuala Kelly & Áine Griffin.")
    shot(page, "10-name-put-right")
    entry = Entry.objects.get(name="Nuala Kelly")
    assert entry.seats.filter(won=True).count() == 1
