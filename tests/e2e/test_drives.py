"""A whole card drive on a phone: 8 tables, 6 games, from the door to the printed prize
list, with a late arrival, an early leaver and a tie for first settled by a cut."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from drives.models import Drive
from tests.e2e.conftest import login
from tests.factories import PASSWORD, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/tmp/wt15-shots")


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def start(page, button):
    """Tap "Start game N" (or "Finish: show the prizes") and "Yes" on the page that asks
    first."""
    page.get_by_role("button", name=button).click()
    page.get_by_role("button", name=re.compile(r"^Yes, (start game|finish)")).click()


def test_a_whole_drive_from_the_door_to_the_printed_prize_list(
    page, new_page, live_server, assert_accessible
):
    pub = PubFactory(name="The Harbour Bar")
    organiser = UserFactory(username="harbour")
    pub.organisers.add(organiser)
    league = pub.league
    login(page, live_server, "harbour", PASSWORD)

    page.goto(f"{live_server.url}/{league.slug}/drives/")
    page.get_by_role("link", name="Set up a drive").click()
    page.get_by_label("Seats at a table").select_option("4")
    page.get_by_label("Ties for a prize").select_option(label="Cut the deck")
    page.get_by_label("Name:").fill("Friday 45s")
    page.get_by_label("Date").fill("2026-10-09")
    page.get_by_label("Games:", exact=True).fill("6")
    shot(page, "01-setup")
    assert_accessible(page)
    page.get_by_role("button", name="Set up the drive").click()
    expect(page.get_by_role("heading", name="At the door")).to_be_visible()
    drive = Drive.objects.get()

    # 16 pairs at the door (the 16th as two singles paired by the app).
    for n in range(15):
        page.get_by_label("Name:").fill(f"Player {n}a")
        page.get_by_label("Partner (if they have one)").fill(f"Player {n}b")
        page.get_by_role("button", name="Check in").click()
        expect(page.get_by_role("status")).to_contain_text("checked in")
    for name in ("Solo One", "Solo Two"):
        page.get_by_label("Name:").fill(name)
        page.get_by_role("button", name="Check in").click()
    page.get_by_role("button", name="Pair the 2 singles").click()
    expect(page.get_by_role("button", name="Remove Solo One & Solo Two")).to_be_visible()
    shot(page, "02-door")
    assert_accessible(page)
    page.get_by_role("button", name="Start game 1").click()
    expect(
        page.get_by_role("heading", name="Start game 1 with 16 pairs at 8 tables?")
    ).to_be_visible()
    shot(page, "02b-start-asks")
    assert_accessible(page)
    page.get_by_role("button", name="Yes, start game 1").click()

    wall = new_page()
    for game in range(1, 7):
        expect(page.get_by_role("heading", name=f"Game {game} of 6")).to_be_visible()
        tables = page.locator(".grid-table")
        expect(tables).to_have_count(8)
        for t in range(8):
            table = page.locator(f"#table-{t + 1}")
            table.get_by_role("button").first.click()
            expect(page.locator(f"#table-{t + 1}.done")).to_be_visible()
        if game == 1:
            shot(page, "03-grid")
            assert_accessible(page)
        if game == 2:  # a late pair arrives, and a pair goes home
            page.get_by_role("link", name="Door").click()
            page.get_by_label("Name:").fill("Late Arrival")
            page.get_by_label("Partner (if they have one)").fill("Late Partner")
            page.get_by_role("button", name="Check in").click()
            expect(page.get_by_role("status")).to_contain_text("play from game 3")
            page.get_by_role("button", name="Leaves now Player 0a & Player 0b").click()
            page.get_by_role("button", name="Yes, Player 0a & Player 0b leave now").click()
            expect(page.get_by_text("left after game 2", exact=False).first).to_be_visible()
            page.get_by_role("link", name="Results").click()
        start(page, re.compile(r"Start game|Finish"))
        if game == 3:
            wall.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
            expect(wall.get_by_text("Move now")).to_be_visible()
            expect(wall.get_by_text("Late Arrival & Late Partner")).to_be_visible()
            shot(wall, "04-wall")
            assert_accessible(wall)

    expect(page.get_by_role("heading", name="Prizes: Friday 45s")).to_be_visible()
    expect(page.get_by_text("tied: to settle by cut the deck").first).to_be_visible()
    select = page.get_by_label("Who won the cut for place 1?")
    chosen = select.locator("option").nth(1).inner_text()
    select.select_option(label=chosen)
    page.get_by_role("button", name="Record the cut").click()
    expect(page.get_by_role("status")).to_contain_text(f"{chosen} take place 1")
    shot(page, "05-prizes")
    assert_accessible(page)
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Record the cut")).to_have_count(0)
    shot(page, "06-print")
    pdf = page.request.get(f"{live_server.url}{drive.get_absolute_url()}prizes.pdf")
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    # A player's own line on their phone.
    player = new_page()
    player.goto(f"{live_server.url}{drive.get_absolute_url()}")
    player.get_by_role("link", name="Late Arrival & Late Partner").click()
    expect(player.locator(".my-line")).to_contain_text("You:")
    shot(player, "07-my-line")
    assert_accessible(player)
