"""The demo league's standings on a phone and on paper."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from league.models import Team
from scoring.demo import load_demo
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo()


def open_table(page, live_server):
    page.goto(live_server.url)
    page.get_by_role("main").get_by_role("link", name="Clare Twenty-Five League").click()
    page.get_by_role("link", name="Standings").first.click()
    page.wait_for_load_state()


def test_the_team_table_fits_a_phone_reads_right_and_prints(
    demo, live_server, page, assert_accessible
):
    open_table(page, live_server)
    assert page.get_by_role("heading", level=1).inner_text().endswith("teams")
    table = page.locator("table.standings")
    assert table.locator("tbody tr").count() == 8
    assert "Ranked by league points, then head-to-head" in page.content()
    # The page never scrolls sideways; the table may scroll inside its own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "standings-teams-phone.png", full_page=True)
    assert_accessible(page)

    # On paper: the print view, printed by Chromium with print media, holds the table.
    names = page.locator("table.standings tbody th[scope=row] a").all_inner_texts()
    page.get_by_role("link", name="Print view (A4)").click()
    page.wait_for_load_state()
    assert_accessible(page)
    # Opened on the phone first, the A4 view scrolls its table in a box, not the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert (
        page.locator(".print-url").evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 16
    )
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Clare Twenty-Five League" in text and "Pts" in text
    for name in names:
        assert name in text


def test_sorting_swaps_only_the_table_and_the_other_tables_pass_axe(
    demo, live_server, page, assert_accessible
):
    open_table(page, live_server)
    page.evaluate("window.marker = 'kept'")
    page.locator("table.standings thead").get_by_role("link", name="Team").click()
    page.wait_for_url("**sort=team**")
    page.wait_for_load_state()
    names = page.locator("table.standings tbody th[scope=row] a").all_inner_texts()
    assert names == sorted(names)
    # htmx swapped the table alone: the page (and its script state) stayed.
    assert page.evaluate("window.marker") == "kept"
    # A first tap on a number puts the largest first.
    page.locator("table.standings thead").get_by_role("link", name="Pts").click()
    page.wait_for_url("**sort=-league_points**")
    page.wait_for_load_state()
    points = [
        int(p) for p in page.locator("table.standings tbody td.col-league_points").all_inner_texts()
    ]
    assert points == sorted(points, reverse=True) and points[0] > points[-1]
    assert page.evaluate("window.marker") == "kept"

    page.locator("table.standings tbody th[scope=row] a").first.click()
    page.wait_for_load_state()
    assert page.locator("svg title").first.text_content().endswith("league position by round")
    # The chart's labels are as big on the phone as the page's small print (14 px).
    sizes = page.locator(".chart-tick").evaluate_all(
        "ticks => ticks.map(t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize))"
    )
    assert sizes and min(sizes) >= 14
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=ARTIFACTS / "standings-team-phone.png", full_page=True)
    assert_accessible(page)

    page.go_back()
    page.wait_for_load_state()
    for name in ("Players", "Pubs", "All-time"):
        page.locator(".standings-tabs").get_by_role("link", name=name).click()
        page.wait_for_load_state()
        assert page.locator("table.standings tbody tr").count() > 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert_accessible(page)


def test_a_team_and_a_player_page_name_each_landmark_once(demo, live_server, page, axe):
    # Beyond WCAG, axe's best practices too: a screen reader's list of landmarks names
    # each once (the section around a scrolling table was a second "Against each team").
    team = Team.objects.filter(season__league__slug="clare").order_by("pk").first()
    player = team.players.order_by("pk").first()
    for name, pk in (("standings-team", team.pk), ("standings-player", player.pk)):
        page.goto(live_server.url + reverse(f"league:{name}", args=["clare", pk]))
        page.wait_for_load_state()
        results = axe.run(page)
        assert results.violations_count == 0, results.generate_report()


def test_on_a_laptop_every_column_of_the_team_table_is_in_view(demo, live_server, page):
    # At 1280 px the demo's table (13 columns, tie-break notes under the names) ran past
    # its box: the Pub column read "The H" until the secretary scrolled the table.
    page.set_viewport_size({"width": 1280, "height": 800})
    open_table(page, live_server)
    box = page.locator(".table-wrap").first
    assert box.evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth")
    page.screenshot(path=ARTIFACTS / "standings-teams-laptop.png")


def test_the_live_team_table_printed_from_the_browser_fits_a4(demo, live_server, page):
    # Printed with the browser's Print (not the print view), the table ran past the
    # page: the Pub column was cut to "The" on paper.
    open_table(page, live_server)
    page.set_viewport_size({"width": 680, "height": 960})  # A4's 180 mm between margins
    page.emulate_media(media="print")
    table = page.locator("table.standings").first
    page.pdf(path=ARTIFACTS / "standings-teams-printed.pdf", format="A4")
    assert table.bounding_box()["width"] <= 680
