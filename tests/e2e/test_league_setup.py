"""A secretary on a phone sets up a season of 3 pubs and 8 teams from a spreadsheet,
generates its fixtures and gives a pub to an organiser, who then sees tonight's
fixtures at their pub. Every page passes axe and fits the phone's width."""

import datetime
import os
from pathlib import Path

import pytest
from django.utils import timezone

from league.models import Fixture, Pub, Team
from tests.e2e.conftest import login
from tests.factories import (
    PASSWORD,
    FixtureFactory,
    LeagueFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("LEAGUE_SHOTS")  # a folder to keep screenshots in, when set

TEAMS_CSV = """team,pub,player 1,player 2
Harbour Hearts,The Harbour Bar,Seán Ó Briain,Máire Ní Shé
The Reneguers,The Harbour Bar,Pádraig Keane,Bríd Moloney
Five Fingers,The Harbour Bar,Tomás Hehir,Nóra Considine
Cronin's Jinkers,Nora Cronin's,Mícheál Lynch,Siobhán McMahon
Ace of Hearts,Nora Cronin's,Donncha Clancy,Áine Griffin
The Robbers,Nora Cronin's,Eoin Casey,Caitríona Daly
Thatch Trumps,The Thatch,Colm Hogan,Gráinne Murphy
Knaves of Clubs,The Thatch,Liam Halloran,Peig Talty
"""


@pytest.fixture
def league(transactional_db):
    league = LeagueFactory(name="Clare Twenty-Five League", slug="clare")
    for name, slug, town in [
        ("The Harbour Bar", "harbour", "Kilrush"),
        ("Nora Cronin's", "cronins", "Ennis"),
        ("The Thatch", "thatch", "Sixmilebridge"),
    ]:
        PubFactory(league=league, name=name, slug=slug, town=town)
    league.secretaries.add(UserFactory(username="una"))
    return league


def check(page, assert_accessible, name):
    page.wait_for_load_state()
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / f"{name}.png", full_page=True)
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, name


def test_a_secretary_sets_up_a_season_from_a_spreadsheet_and_hands_out_a_pub(
    league, live_server, new_page, assert_accessible, tmp_path
):
    today = timezone.localdate()
    page = new_page()
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/clare/")
    page.get_by_role("link", name="Manage").click()
    check(page, assert_accessible, "1-manage")

    # A season from the Twenty-Five preset.
    page.get_by_role("link", name="New season").click()
    check(page, assert_accessible, "2-season-new")
    page.get_by_label("Name").fill("Winter 2026")
    page.get_by_label("Start date").fill(today.isoformat())
    page.get_by_label("Rules preset").select_option(label="Twenty-Five")
    page.get_by_label("Extra points for a march").fill("10")
    page.get_by_role("button", name="Create season").click()
    page.wait_for_load_state()
    assert page.get_by_text("Winter 2026 created.").is_visible()
    check(page, assert_accessible, "3-season-manage-empty")

    # Eight teams from a CSV file: first the preview, then save.
    page.get_by_role("link", name="Import teams").click()
    check(page, assert_accessible, "4-import")
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(TEAMS_CSV, encoding="utf-8")
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(csv_file)
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Check the 8 teams").is_visible()
    assert not Team.objects.exists()
    check(page, assert_accessible, "5-import-preview")
    page.get_by_role("button", name="Save all teams").click()
    page.wait_for_load_state()
    assert page.get_by_text("8 teams imported.").is_visible()
    assert Team.objects.count() == 8

    # The round-robin from tonight.
    page.get_by_role("link", name="Generate fixtures").click()
    check(page, assert_accessible, "6-generate")
    page.get_by_label("First match night").fill(today.isoformat())
    page.get_by_label("Games a fixture").fill("3")
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_load_state()
    assert page.get_by_text("28 fixtures made.").is_visible()
    check(page, assert_accessible, "7-season-manage")

    # The pub with a match tonight goes to a new organiser.
    pub = Fixture.objects.filter(date=today).order_by("pk").first().pub
    page.get_by_role("link", name="Manage").click()
    page.get_by_role("link", name="Organisers").click()
    check(page, assert_accessible, "8-organisers")
    page.get_by_role("combobox", name="Pub").select_option(label=pub.name)
    page.get_by_label("Username").fill("tonight-organiser")
    page.get_by_label("Initial password (only for a new user)").fill("pint-of-plain-25")
    page.get_by_role("button", name="Give the pub").click()
    page.wait_for_load_state()
    assert page.get_by_text(f"tonight-organiser now organises {pub.name}.").is_visible()
    check(page, assert_accessible, "9-organisers-given")
    assert list(Pub.objects.get(pk=pub.pk).organisers.values_list("username", flat=True)) == [
        "tonight-organiser"
    ]

    # The organiser, on their own phone, sees tonight's fixtures ready to play.
    phone = new_page()
    login(phone, live_server, "tonight-organiser", "pint-of-plain-25")
    phone.goto(f"{live_server.url}/clare/")
    phone.get_by_role("link", name="Tonight").click()
    phone.wait_for_load_state()
    assert phone.get_by_role("heading", level=1).inner_text() == f"Tonight at {pub.name}"
    tonight = Fixture.objects.filter(date=today, pub=pub).count()
    assert phone.get_by_role("link", name="Play").count() == tonight >= 1
    assert phone.get_by_role("link", name="Manage").count() == 0
    check(phone, assert_accessible, "10-tonight")

    # They can put a fixture of their pub back a week, and correct a team.
    phone.get_by_role("link", name="Edit").first.click()
    check(phone, assert_accessible, "11-fixture-edit")
    phone.get_by_label("Date").fill((today + datetime.timedelta(weeks=1)).isoformat())
    phone.get_by_role("button", name="Save fixture").click()
    phone.wait_for_load_state()
    assert phone.get_by_text("Fixture saved.").is_visible()
    phone.goto(f"{live_server.url}/clare/tonight/")
    phone.get_by_role("region", name="Teams and players").get_by_role("link").first.click()
    phone.get_by_role("link", name="Edit team").click()
    check(phone, assert_accessible, "12-team-edit")
    phone.get_by_label("Player 2").fill("A New Partner")
    phone.get_by_role("button", name="Save team").click()
    phone.wait_for_load_state()
    assert phone.get_by_role("link", name="A New Partner").is_visible()

    # And choose a password of their own.
    phone.goto(f"{live_server.url}/clare/tonight/")
    phone.get_by_role("link", name="Change your password").click()
    check(phone, assert_accessible, "13-password")


def test_a_bad_file_is_explained_line_by_line_and_nothing_is_saved(
    league, live_server, page, assert_accessible, tmp_path
):
    login(page, live_server, "una", PASSWORD)
    from league.models import Season

    Season.objects.create(
        league=league, name="Winter", slug="winter", start_date=datetime.date(2026, 9, 1)
    )
    page.goto(f"{live_server.url}/clare/manage/seasons/winter/import/")
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "team,pub,player 1,player 2\nA,The Harbour Bar,X,X\nB,The Moon,Y,Z\n", encoding="utf-8"
    )
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(bad)
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state()
    alert = page.get_by_role("alert")
    assert "Line 2: The same player “X” is named twice." in alert.inner_text()
    assert "Line 3: There is no pub called “The Moon”" in alert.inner_text()
    assert page.get_by_role("button", name="Save all teams").count() == 0
    check(page, assert_accessible, "14-import-errors")
    assert not Team.objects.exists()


def test_a_page_someone_may_not_open_says_why_and_leads_back(
    league, live_server, page, assert_accessible
):
    organiser = UserFactory(username="pat")
    Pub.objects.get(slug="harbour").organisers.add(organiser)
    login(page, live_server, "pat", PASSWORD)
    answer = page.goto(f"{live_server.url}/clare/manage/")
    assert answer.status == 403
    assert page.get_by_role("heading", name="Not allowed").is_visible()
    assert "Only the league's secretaries may do this." in page.inner_text("main")
    check(page, assert_accessible, "15-not-allowed")
    page.get_by_role("link", name="Go to the league's page").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/clare/"


def test_a_mistake_at_the_foot_of_a_long_form_is_said_where_the_page_opens(
    league, live_server, page, assert_accessible
):
    # The season form is four fieldsets long: a mistake in its third one was a red line
    # far below the Save button, under a page that opened looking as it did before.
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/clare/manage/seasons/new/")
    page.get_by_label("Name").fill("Spring 2027")
    page.get_by_label("Start date").fill("2027-03-01")
    page.get_by_label("League points for a loss").fill("2")  # as much as a win
    page.get_by_role("button", name="Create season").click()
    check(page, assert_accessible, "season-form-mistake")

    box = page.locator("#error-summary")
    assert box.is_visible() and box.bounding_box()["y"] < 844  # on the first screen
    assert page.evaluate("document.activeElement.id") == "error-summary"
    assert "Nothing was saved" in box.inner_text()
    assert box.get_by_role("link").first.bounding_box()["height"] >= 48  # to tap
    box.get_by_role("link", name="League points for a loss").click()
    field = page.get_by_label("League points for a loss")
    field.wait_for()
    assert -1 < field.bounding_box()["y"] < 844  # the link leads to the field
    assert page.locator("label[for=id_points_loss]").bounding_box()["y"] >= 0  # and its label


def test_a_secretary_puts_a_pub_right_and_takes_off_a_fixture_and_a_team_entered_by_mistake(
    league, live_server, page, assert_accessible
):
    season = SeasonFactory(league=league, name="Winter", slug="winter")
    pub = Pub.objects.get(slug="harbour")
    teams = [TeamFactory(season=season, pub=pub, name=n) for n in ("Hearts", "Trumps")]
    FixtureFactory(season=season, pub=pub, teams=teams, date=datetime.date(2027, 1, 14))
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/clare/manage/")
    page.get_by_role("link", name="Edit The Harbour Bar").click()
    check(page, assert_accessible, "pub-edit")
    page.get_by_label("Name").fill("The Harbour Inn")
    page.get_by_role("button", name="Save pub").click()
    page.wait_for_load_state()
    assert "The Harbour Inn saved." in page.locator(".messages").inner_text()

    # The same match added again is refused at the top of the form.
    page.goto(f"{live_server.url}/clare/manage/seasons/winter/fixtures/new/")
    page.get_by_label("Date").fill("2027-01-14")
    page.get_by_label("Home team").select_option(label="Trumps")
    page.get_by_label("Away team").select_option(label="Hearts")
    page.get_by_label("Games planned").fill("3")
    page.get_by_role("button", name="Add fixture").click()
    check(page, assert_accessible, "fixture-twice")
    assert (
        "Hearts v Trumps is already on Thursday 14 January 2027"
        in page.locator("#error-summary").inner_text()
    )

    fixture = Fixture.objects.get(season=season)
    page.goto(f"{live_server.url}/clare/fixtures/{fixture.pk}/edit/")
    page.get_by_role("button", name="Remove this fixture").click()
    check(page, assert_accessible, "fixture-remove")
    page.get_by_role("button", name="Remove it").click()
    page.wait_for_load_state()
    assert "Hearts v Trumps on 14 January removed." in page.locator(".messages").inner_text()
    assert not Fixture.objects.filter(season=season).exists()

    page.goto(f"{live_server.url}/clare/teams/{teams[0].pk}/edit/")
    page.get_by_role("button", name="Remove this team").click()
    check(page, assert_accessible, "team-remove")
    page.get_by_role("button", name="Remove Hearts").click()
    page.wait_for_load_state()
    assert "Hearts removed from Winter." in page.locator(".messages").inner_text()
    assert list(Team.objects.filter(season=season).values_list("name", flat=True)) == ["Trumps"]


def test_two_tabs_of_the_season_keep_both_changes_and_name_a_clash(
    league, live_server, page, assert_accessible
):
    """The second of two tabs silently put back what the first saved (a win worth 3
    back to 2). Now it keeps it and says so; where both changed the same box, nothing is
    saved and the box says what the other tab saved."""
    SeasonFactory(league=league, name="Winter", slug="winter")
    login(page, live_server, "una", PASSWORD)
    url = f"{live_server.url}/clare/manage/seasons/winter/edit/"
    page.goto(url)
    other = page.context.new_page()
    other.goto(url)
    page.get_by_label("League points for a win").fill("3")
    page.get_by_role("button", name="Save season").click()
    page.wait_for_load_state()
    other.get_by_label("League points for a win").fill("4")
    other.get_by_label("Name").fill("Winter League")
    other.get_by_role("button", name="Save season").click()
    check(other, assert_accessible, "two-tabs-clash")
    assert "Nothing was saved" in other.locator("#error-summary").inner_text()
    assert other.get_by_text(
        "Someone else saved “3” here while you had this page open."
    ).first.is_visible()
    assert other.get_by_label("Name").input_value() == "Winter League"  # what was typed stays
    other.get_by_role("button", name="Save season").click()  # yours, knowingly
    other.wait_for_load_state()
    assert "Winter League saved." in other.locator(".messages").inner_text()

    # Different boxes: both kept, and the second tab is told.
    page.goto(url)
    other.goto(url)
    page.get_by_label("Only confirmed games count").check()
    page.get_by_role("button", name="Save season").click()
    page.wait_for_load_state()
    other.get_by_label("Minimum games for the player table").fill("3")
    other.get_by_role("button", name="Save season").click()
    check(other, assert_accessible, "two-tabs-kept")
    assert other.locator(".messages").inner_text() == (
        "Winter League saved. Someone else saved a change while you had the page open, and "
        "it is kept: “Only confirmed games count”."
    )
    season = league.seasons.get()
    assert (season.points_win, season.confirmed_only, season.min_games) == (4, True, 3)


def test_a_season_saved_after_the_login_ended_comes_back_typed_in_after_logging_in(
    league, live_server, page, assert_accessible
):
    """Found by a walk: a form sent once the login had ended (it lasts two weeks, or a
    logout in another tab) led to the login page, and then to the form empty again."""
    SeasonFactory(league=league, name="Winter", slug="winter")
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/clare/manage/seasons/winter/edit/")
    page.context.clear_cookies(name="sessionid")  # the login ends; the page stays open
    page.get_by_label("Name").fill("Winter League")
    page.get_by_label("League points for a win").fill("3")
    page.get_by_role("button", name="Save season").click()
    check(page, assert_accessible, "login-ended-form-sent")
    assert "what you sent comes back" in page.locator(".messages").inner_text()
    page.get_by_label("Username").fill("una")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    check(page, assert_accessible, "login-ended-form-back")
    assert "What you sent is back below" in page.locator(".messages").inner_text()
    assert page.get_by_label("Name").input_value() == "Winter League"
    assert page.get_by_label("League points for a win").input_value() == "3"
    assert league.seasons.get().name == "Winter"
    page.get_by_role("button", name="Save season").click()
    page.wait_for_load_state()
    assert "Winter League saved." in page.locator(".messages").inner_text()
    season = league.seasons.get()
    assert (season.name, season.points_win) == ("Winter League", 3)


def test_a_double_tap_on_a_save_button_saves_once_and_says_so_once(
    league, live_server, page, assert_accessible, tmp_path
):
    """Found by a walk: a double tap on Add team, Save all teams, Add division or Add
    fixture saved once, then drew the second tap's answer: "Nothing was saved", the name
    already taken by the first. The second tap of a form on its way is not sent."""
    season = SeasonFactory(league=league, name="Winter", slug="winter")
    login(page, live_server, "una", PASSWORD)
    manage = f"{live_server.url}/clare/manage/seasons/winter"

    def double_tap(button, said):
        # Two taps 50 ms apart: the first is on its way when the second comes.
        page.get_by_role("button", name=button).evaluate(
            "button => { button.click(); setTimeout(() => button.click(), 50); }"
        )
        page.get_by_text(said).wait_for()
        page.wait_for_load_state()
        assert "Nothing was saved" not in page.inner_text("main"), button
        assert page.locator("#error-summary").count() == 0, button

    # The season's form has a field named "target", which hid the form's own target.
    page.goto(f"{live_server.url}/clare/manage/seasons/new/")
    page.get_by_label("Name").fill("Spring 2027")
    page.get_by_label("Start date").fill("2027-03-01")
    double_tap("Create season", "Spring 2027 created.")
    assert league.seasons.filter(name="Spring 2027").count() == 1

    page.goto(f"{manage}/teams/new/")
    page.get_by_label("Name").fill("Hearts")
    page.get_by_label("Pub").select_option(label="The Harbour Bar")
    page.get_by_label("Player 1").fill("Ann Hehir")
    page.get_by_label("Player 2").fill("Jim Hehir")
    double_tap("Add team", "Hearts entered.")

    page.goto(f"{manage}/import/")
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(TEAMS_CSV.replace("Harbour Hearts", "Kilrush Hearts"), encoding="utf-8")
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(csv_file)
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state()
    double_tap("Save all teams", "8 teams imported.")
    assert Team.objects.filter(season=season).count() == 9

    page.goto(f"{manage}/divisions/")
    page.get_by_label("New division").fill("Division One")
    double_tap("Add division", "“Division One” added.")
    assert season.divisions.count() == 1

    page.goto(f"{manage}/fixtures/new/")
    page.get_by_label("Date").fill("2027-01-14")
    page.get_by_label("Home team").select_option(label="Hearts")
    page.get_by_label("Away team").select_option(label="The Robbers")
    page.get_by_label("Games planned").fill("3")
    double_tap("Add fixture", "Hearts v The Robbers on 14 January added.")
    assert Fixture.objects.filter(season=season).count() == 1
    check(page, assert_accessible, "double-tap-fixture")

    # Back to a page a form was sent from: its button is sent again, once.
    page.go_back()
    page.wait_for_load_state()
    page.get_by_role("button", name="Add fixture").click()
    page.wait_for_load_state()
    assert "is already on" in page.locator("#error-summary").inner_text()
