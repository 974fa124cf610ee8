"""A stranger on a phone signs up, starts a league of two pubs and a season, imports its
teams from a spreadsheet, generates the fixtures, and invites an organiser by email; the
organiser, on a second phone, opens the link from the email, signs up, joins, plays a
game, and it shows in the standings. Every page passes axe and fits the phone's width."""

import os
import re
from email import message_from_bytes
from pathlib import Path

import pytest
from django.utils import timezone

from league.models import Fixture, League, Team
from scoring.models import Game
from tests.e2e.conftest import swapped

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("LEAGUE_SHOTS")  # a folder to keep screenshots in, when set

TEAMS_CSV = """team,pub,player 1,player 2
Harbour Hearts,The Harbour Bar,Seán Ó Briain,Máire Ní Shé
The Reneguers,The Harbour Bar,Pádraig Keane,Bríd Moloney
Cronin's Jinkers,Nora Cronin's,Mícheál Lynch,Siobhán McMahon
Ace of Hearts,Nora Cronin's,Donncha Clancy,Áine Griffin
"""


@pytest.fixture
def outbox(settings, tmp_path):
    """Email goes to files, as in production without SMTP: the test reads them."""
    folder = tmp_path / "outbox"
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(folder)},
        }
    }
    return folder


def check(page, assert_accessible, name):
    page.wait_for_load_state()
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / f"start-{name}.png", full_page=True)
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, name


def link_in_outbox(outbox: Path) -> str:
    (mail_file,) = list(outbox.iterdir())
    messages = mail_file.read_bytes().split(b"-" * 79)
    body = message_from_bytes(messages[0].strip()).get_payload(decode=True).decode()
    return re.search(r"https?://\S+/join/\S+/", body).group(0)


def test_a_stranger_starts_a_league_and_an_invited_organiser_plays_a_game(
    transactional_db, live_server, new_page, assert_accessible, outbox, tmp_path
):
    today = timezone.localdate()
    page = new_page()
    page.goto(f"{live_server.url}/")
    check(page, assert_accessible, "1-home")
    page.get_by_role("link", name="Start a league").click()

    # Sign up.
    check(page, assert_accessible, "2-signup")
    page.get_by_label("Email address").fill("una@example.ie")
    page.get_by_label("Password:", exact=True).fill("pint-of-plain-25")
    page.get_by_label("Password again").fill("pint-of-plain-25")
    page.get_by_role("button", name="Sign up").click()

    # The league: two pubs and a first season from a preset with a house rule.
    check(page, assert_accessible, "3-league-new")
    page.get_by_label("League name").fill("Clare League")
    page.get_by_label("Address").fill("clare")
    page.get_by_label("Pubs").fill("The Harbour Bar, Kilrush\nNora Cronin's, Ennis")
    page.get_by_label("First season").fill("Winter 2026")
    page.get_by_label("First match night").fill(today.isoformat())
    page.get_by_label("Rules preset").select_option(label="Twenty-Five")
    page.get_by_label("Extra points for a march").fill("10")
    page.get_by_role("button", name="Create the league").click()
    page.wait_for_load_state()
    assert page.get_by_text("Clare League is ready.").is_visible()
    check(page, assert_accessible, "4-first-steps")
    league = League.objects.get(slug="clare")
    assert league.pubs.count() == 2 and league.seasons.count() == 1

    # Teams from a CSV file: preview, then save.
    page.get_by_role("link", name="Import teams").click()
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(TEAMS_CSV, encoding="utf-8")
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(csv_file)
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Save all teams").click()
    page.wait_for_load_state()
    assert page.get_by_text("4 teams imported.").is_visible()
    assert Team.objects.count() == 4

    # Back to the first steps: generate the fixtures from tonight, then print them.
    page.goto(f"{live_server.url}/clare/manage/first-run/")
    page.get_by_role("link", name="Generate fixtures").click()
    page.get_by_label("First match night").fill(today.isoformat())
    page.get_by_label("Games a fixture").fill("1")
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_load_state()
    assert page.get_by_text("6 fixtures made.").is_visible()
    page.goto(f"{live_server.url}/clare/manage/first-run/")
    page.get_by_role("link", name="Print the fixture list").click()
    check(page, assert_accessible, "5-fixtures-print")
    assert page.get_by_role("heading", name="Round 1").is_visible()

    # Invite an organiser for both pubs, by email.
    page.goto(f"{live_server.url}/clare/manage/")
    page.get_by_role("link", name="Organisers").click()
    check(page, assert_accessible, "6-roles")
    page.get_by_role("link", name="Invite an organiser or a secretary").click()
    check(page, assert_accessible, "7-invite")
    page.get_by_label("Organiser of the pubs ticked below").check()
    page.get_by_label("The Harbour Bar").check()
    page.get_by_label("Nora Cronin's").check()
    page.get_by_label("Their email address (optional)").fill("ciaran@example.ie")
    page.get_by_role("button", name="Make the invitation").click()
    page.wait_for_load_state()
    assert page.get_by_text("The invitation is on its way to ciaran@example.ie.").is_visible()
    assert page.get_by_role("img", name="QR code of the invitation link").is_visible()
    check(page, assert_accessible, "8-invite-made")

    # The organiser's phone: the link from the email, sign up, accept.
    link = link_in_outbox(outbox)
    phone = new_page()
    phone.goto(link)
    check(phone, assert_accessible, "9-invite-open")
    assert phone.get_by_text("organise Nora Cronin's, The Harbour Bar").is_visible()
    phone.get_by_role("link", name="Sign up").click()
    phone.get_by_label("Email address").fill("ciaran@example.ie")
    phone.get_by_label("Password:", exact=True).fill("a-good-hand-25")
    phone.get_by_label("Password again").fill("a-good-hand-25")
    phone.get_by_role("button", name="Sign up").click()
    phone.wait_for_load_state()
    phone.get_by_role("button", name="Accept the invitation").click()
    phone.wait_for_load_state()
    assert phone.get_by_text("You now organise").is_visible()
    check(phone, assert_accessible, "10-tonight")

    # Tonight: play the first fixture's one game, two deals of 3–2.
    fixture = Fixture.objects.filter(date=today).order_by("pk").first()
    home, away = [ft.team.name for ft in fixture.fixture_teams.all()]
    phone.get_by_role("link", name=f"Play {fixture}").click()
    phone.get_by_role("button", name="Start game 1").click()
    phone.wait_for_load_state()
    check(phone, assert_accessible, "11-sheet")
    for tricks in ("3", "3"):
        phone.locator("[data-split] label.tap", has_text=tricks).first.click()
        with swapped(phone, "/deals/"):
            phone.get_by_role("button", name="Save deal").first.click()
    assert f"{home} reached 25" in phone.locator(".result").inner_text()
    assert Game.objects.get().is_finished

    # The standings show it, to anyone.
    reader = new_page()
    reader.goto(f"{live_server.url}/clare/")
    reader.get_by_role("link", name="Standings").first.click()
    reader.wait_for_load_state()
    check(reader, assert_accessible, "12-standings")
    first_row = reader.locator("table.standings tbody tr").first.inner_text()
    assert home in first_row
