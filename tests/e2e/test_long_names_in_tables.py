"""A team's name of 100 letters, with spaces or without, wraps inside its table's cell:
the numbers beside it stay on a phone, on the pub's TV and on the A4 page, and never
break themselves (found by a walk: the name pushed Pts off the phone, broke the TV's
points digit by digit and ran the print past the paper)."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from league import services
from league.models import League, Team
from scoring.demo import load_demo
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

NO_SPACES = "Thegreatestandmostunbeatablecardplayingteamofthewholecountyofclareandbeyondtheshannonestuaryforever"  # noqa: E501
WITH_SPACES = "The Greatest and Most Unbeatable Card Playing Team of the Whole County of Clare and Beyond, For Ever"  # noqa: E501
# A4's 210 mm at 96 px to the inch, less the browser's default margins of about 1 cm.
A4_WIDTH = 718
# How many lines each cell's text takes on the page.
LINES = """cells => cells.map(cell => {
    const tops = new Set();
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
    }
    return tops.size;
})"""


@pytest.fixture
def long_names(transactional_db):
    load_demo()
    for team, name in zip(Team.objects.order_by("pk"), [NO_SPACES, WITH_SPACES], strict=False):
        players = list(team.players.values_list("name", flat=True))
        services.team_update(team=team, name=name, pub=team.pub, player_names=players)
    return League.objects.get().seasons.current()


def test_on_a_phone_the_name_wraps_and_the_points_stay_in_view(
    long_names, live_server, page, assert_accessible
):
    season = long_names
    page.goto(live_server.url + reverse("league:standings-teams", args=["clare", season.slug]))
    page.wait_for_load_state()
    page.screenshot(path=ARTIFACTS / "long-names-standings-390.png", full_page=True)
    region = page.locator(".table-wrap").first
    # The table needs no scrolling of its own: position, team and points are all in view.
    assert region.evaluate("el => el.scrollWidth <= el.clientWidth")
    points = page.locator("td.col-league_points")
    assert points.count() == 8
    assert all(
        box["x"] + box["width"] <= 390
        for box in points.evaluate_all(
            "cells => cells.map(cell => cell.getBoundingClientRect().toJSON())"
        )
    )
    assert page.locator("th[scope=row]").filter(has_text=NO_SPACES).is_visible()
    assert_accessible(page)
    # The team's own page, whose chart is named after the team, stays as wide as the phone.
    team = Team.objects.get(name=NO_SPACES)
    page.goto(live_server.url + reverse("league:standings-team", args=["clare", team.pk]))
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_pub_screen_keeps_its_numbers_whole_and_fits_the_tv(
    long_names, live_server, page, width, height
):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + reverse("screens:pub", args=["clare", "harbour"]))
    page.wait_for_load_state()
    page.screenshot(path=ARTIFACTS / f"long-names-pub-screen-{width}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The whole table is on the screen too (with two names this long, the line saying
    # when it was updated may fall below).
    assert (
        page.locator(".screen-table").evaluate("el => el.getBoundingClientRect().bottom") <= height
    )
    # Pos, P and Pts, and every position and number, on one line each.
    headers = page.locator(".screen-table thead th").evaluate_all(LINES)
    numbers = page.locator(".screen-table tbody td:not(:nth-child(2))").evaluate_all(LINES)
    assert headers == [1, 1, 1, 1]
    assert set(numbers) == {1}


def test_the_table_printed_from_the_browser_and_its_pdf_stay_on_a4(long_names, live_server, page):
    season = long_names
    for name in ("standings-print", "standings-teams"):
        args = (
            ["clare", season.slug, "teams"] if name == "standings-print" else ["clare", season.slug]
        )
        page.goto(live_server.url + reverse(f"league:{name}", args=args))
        page.wait_for_load_state()
        page.emulate_media(media="print")
        page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
        table = page.locator("table").first
        assert table.evaluate("el => el.getBoundingClientRect().right") <= A4_WIDTH, name
        assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH, name
        page.emulate_media(media="screen")
    # The PDF made on the server (WeasyPrint): nothing is drawn past the paper's edge.
    answer = page.request.get(
        live_server.url + reverse("league:standings-pdf", args=["clare", season.slug, "teams"])
    )
    pdf = PdfReader(io.BytesIO(answer.body())).pages[0]
    starts = []
    pdf.extract_text(
        visitor_text=lambda text, cm, tm, *_: (
            starts.append((cm[4] + tm[4] * cm[0], text)) if text.strip() else None
        )
    )
    assert "Pts" in pdf.extract_text()
    past = [text for x, text in starts if x >= float(pdf.mediabox.width)]
    assert not past, past
