"""Outside the sheet on a phone (issue 11): results with their score, a match in play
said so, organisers landing on Tonight, tap targets of 48×48 CSS px, no text under
16px, and a team table that fits without sideways scrolling."""

import io
import re

import pytest

from league.models import Fixture, Team
from scoring.demo import load_demo
from scoring.models import Game
from tests.e2e.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main a, main button, main summary, header a, header button')]
  .filter(el => el.offsetParent !== null && !el.closest('.skip-link'))
  .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.width < 48 || r.height < 48))
  .map(([text, r]) => `${text} ${Math.round(r.width)}×${Math.round(r.height)}`)"""

SMALL_TEXT = """() => [...document.querySelectorAll('body *')]
  .filter(el => el.offsetParent !== null && !el.closest('svg'))
  .filter(el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .filter(el => parseFloat(getComputedStyle(el).fontSize) < 16)
  .map(el => `${el.textContent.trim().slice(0, 30)} ${getComputedStyle(el).fontSize}`)"""


@pytest.fixture
def demo(transactional_db):
    load_demo()


def test_results_show_their_score_and_a_match_in_play_says_so(demo, live_server, page):
    page.goto(f"{live_server.url}/clare/")  # the league's home (the site's lists leagues)
    page.wait_for_load_state()
    latest = page.locator("section[aria-labelledby='latest-heading'] .fixture-meta")
    assert re.search(r"Played, games won \d–\d", latest.first.inner_text())
    assert page.evaluate(SMALL_TARGETS) == []
    assert page.evaluate(SMALL_TEXT) == []

    playing = Fixture.objects.get(games_started__gt=0, status=Fixture.Status.SCHEDULED)
    organiser = playing.pub.organisers.first()
    login(page, live_server, organiser.username, "demo-organiser-25")
    assert page.url.endswith(f"/{playing.season.league.slug}/tonight/")
    row = page.locator(".fixture", has=page.locator(f"a[href='{playing.get_absolute_url()}']"))
    assert "In play" in row.inner_text()
    assert page.evaluate(SMALL_TARGETS) == []


def test_the_team_table_fits_a_phone_with_every_target_large(
    demo, live_server, page, assert_accessible
):
    page.goto(f"{live_server.url}/clare/")
    page.get_by_role("link", name="Standings").first.click()
    page.wait_for_load_state()
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    headers = page.locator("table.standings thead th:visible").all_inner_texts()
    assert [h.strip() for h in headers] == ["Pos", "Team", "Pts"]
    assert page.evaluate(SMALL_TARGETS) == []
    assert page.evaluate(SMALL_TEXT) == []
    assert_accessible(page)


def test_a_postponed_fixture_gets_its_new_date_in_one_step(
    demo, live_server, page, assert_accessible
):
    fixture = Fixture.objects.filter(status=Fixture.Status.POSTPONED).first()
    login(page, live_server, "secretary", "demo-secretary-25")
    page.goto(f"{live_server.url}{fixture.get_absolute_url()}")
    page.get_by_role("link", name="Set a new date").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text().startswith("A new date for")
    assert_accessible(page)
    page.get_by_label("New date").fill("2027-01-14")
    page.get_by_role("button", name="Set the new date").click()
    page.wait_for_load_state()
    said = page.locator(".messages").inner_text()
    assert "is now on Thursday 14 January 2027" in said
    assert f"That night is after {fixture.season.name} ends on" in said  # told, and saved
    assert "Scheduled" in page.get_by_role("main").inner_text()
    assert page.get_by_role("link", name="Play").is_visible()
    assert_accessible(page)
    fixture.refresh_from_db()
    assert (str(fixture.date), fixture.status) == ("2027-01-14", "scheduled")


def test_the_seasons_list_has_targets_a_thumb_can_hit(demo, live_server, page, assert_accessible):
    # Each season's "Team table" was a text link 21 px high.
    page.goto(f"{live_server.url}/clare/seasons/")
    page.wait_for_load_state()
    assert page.evaluate(SMALL_TARGETS) == []
    assert_accessible(page)


def test_postpone_asks_first_and_keep_it_leaves_the_match_on(
    demo, live_server, page, assert_accessible
):
    fixture = Fixture.objects.filter(status=Fixture.Status.SCHEDULED, games_started=0).first()
    login(page, live_server, "secretary", "demo-secretary-25")
    page.goto(f"{live_server.url}{fixture.get_absolute_url()}")
    page.get_by_role("button", name="Postpone").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == f"Postpone {fixture}?"
    assert_accessible(page)
    page.get_by_role("link", name="Keep it on").click()
    page.wait_for_load_state()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    page.get_by_role("button", name="Postpone").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Postpone it").click()
    page.wait_for_load_state()
    assert "is postponed" in page.locator(".message").inner_text()
    assert page.get_by_role("link", name="Set a new date").is_visible()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.POSTPONED


@pytest.mark.parametrize(
    ("tab", "columns"),
    [
        ("Players", ["Pos", "Player", "Games", "Win %"]),
        ("Pubs", ["Pos", "Pub", "Games", "Win %"]),
        ("All-time", ["Pos", "Team", "Games", "Win %"]),
    ],
)
def test_the_other_tables_show_on_a_phone_what_they_are_ranked_by(
    demo, live_server, page, assert_accessible, tab, columns
):
    # The players' table showed Pos, Player and Home pub (cut at the edge): Games, Wins
    # and Win %, what it is ranked by, were a sideways swipe away inside the table.
    page.goto(f"{live_server.url}/clare/")
    page.get_by_role("link", name="Standings").first.click()
    page.get_by_role("navigation", name="Standings tables").get_by_role("link", name=tab).click()
    page.wait_for_load_state()
    headers = page.locator("table.standings thead th:visible").all_inner_texts()
    assert [h.replace("▲", "").replace("▼", "").strip() for h in headers] == columns
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert_accessible(page)


@pytest.mark.parametrize(
    "path",
    [
        "/clare/seasons/winter-2026/standings/teams/",
        "/login/",
        "/clare/pubs/harbour/screen/",
        "/clare/seasons/winter-2026/standings/teams/print/",
    ],
)
def test_with_large_text_a_phone_page_never_scrolls_sideways(demo, live_server, browser, path):
    # A phone set to large text (here the page's type at 225%, as the page's own CSS
    # cannot stop): the pub filter, the site's name, the pub screen's table and the
    # print view's QR code each pushed the page wider than the screen.
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{live_server.url}{path}")
    page.wait_for_load_state()
    page.add_style_tag(content=":root { font-size: 225% !important; }")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_at_200_percent_zoom_headings_and_the_correction_page_fit(demo, live_server, browser):
    # Zoomed to 200% a 390 px phone is 195 CSS px wide: a team's name as the heading
    # ("The Reneguers") ran past the edge, and the correction page's + buttons sat
    # beyond it (a crawl of every page found them).
    context = browser.new_context(viewport={"width": 195, "height": 422})
    page = context.new_page()
    team = Team.objects.get(name="The Reneguers")
    fixture = Fixture.objects.filter(fixture_teams__team=team).order_by("pk").first()
    game = Game.objects.filter(fixture__isnull=False, deals__isnull=False).order_by("pk").first()
    login(page, live_server, "secretary", "demo-secretary-25")
    for path in (
        team.get_absolute_url(),
        fixture.get_absolute_url(),
        f"/games/{game.pk}/deals/1/correct/",
    ):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.scrollWidth") <= 195, path
    context.close()


def test_a_table_wider_than_the_screen_shows_which_side_it_scrolls_to(demo, live_server, browser):
    # At 200% zoom (195 CSS px) the team table is wider than the phone and scrolls in its
    # box; nothing showed that more of it lay beyond the edge. A shadow now shows at the
    # side there is more to see, and none where the table ends. Measured with the text
    # and lines made transparent, so that only the box's own shading is in the picture.
    context = browser.new_context(viewport={"width": 195, "height": 422}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/clare/seasons/winter-2026/standings/teams/")
    page.wait_for_load_state()
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth + 40")  # it does scroll
    page.add_style_tag(
        content="th, td, th *, td * { color: transparent !important; "
        "border-color: transparent !important; }"
    )

    def edges() -> tuple[float, float]:
        """The mean brightness of 4 px inside the box's left and right edges (past its
        border and rounded corners; 255: white)."""
        from PIL import Image, ImageStat

        shot = Image.open(io.BytesIO(wrap.screenshot())).convert("L")
        width, height = shot.size
        left = ImageStat.Stat(shot.crop((3, 12, 7, height - 12))).mean[0]
        right = ImageStat.Stat(shot.crop((width - 7, 12, width - 3, height - 12))).mean[0]
        return left, right

    left, right = edges()
    assert left > 250 and right < 240, (left, right)  # at the start: more to the right
    wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    left, right = edges()
    assert left < 240 and right > 250, (left, right)  # at the end: more to the left
    context.close()
