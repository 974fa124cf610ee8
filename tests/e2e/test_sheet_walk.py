"""Found by walking a match night as an older organiser (big thumbs, poor Wi-Fi) on a
390×844 phone: the moments where the sheet left them unsure what had happened."""

import pytest

from scoring.models import Deal
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

LONG = (
    "The Kilrush Harbour Hearts and Anchors Social Club Over Sixties",
    "Cronin's Jinkers of Ennis Parish Hall Wednesday Night Card School",
)


def a_night(names=("Harbour Hearts", "The Robbers")):
    season = SeasonFactory(league__name="Clare League")
    pub = PubFactory(league=season.league, name="The Harbour Bar")
    teams = [TeamFactory(season=season, pub=pub, name=name) for name in names]
    pub.organisers.add(UserFactory(username="harbour"))
    return FixtureFactory(season=season, pub=pub, teams=teams, games_planned=3)


def start_game(page, live_server, fixture):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{fixture.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()


def order_tap(page, trick, nth):
    page.locator(f"[data-order] [data-trick='{trick}'] label.tap").nth(nth).click()


def test_the_upper_save_with_taps_only_in_trick_by_trick_says_where_they_are(
    live_server, page, assert_accessible
):
    """Two "Save deal 1" buttons are on the screen at once; the split's, tapped with the
    tricks entered one by one below, showed the browser's small "Please select one of
    these options." over the 0–5 row. It says in the sheet's own words what to do."""
    start_game(page, live_server, a_night())
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, 0)
    order_tap(page, 2, 1)
    page.locator("[data-split] button.save").click()
    box = page.locator("#box-split [data-box]")
    box.wait_for()
    assert "Your tricks are entered in Trick by trick, below" in box.inner_text()
    assert "Nothing was saved" in box.inner_text()
    assert Deal.objects.count() == 0
    assert_accessible(page)


def test_save_with_nothing_tapped_says_what_to_tap(live_server, page):
    start_game(page, live_server, a_night())
    page.locator("[data-split] button.save").click()
    box = page.locator("#box-split [data-box]")
    box.wait_for()
    assert "Tap how many tricks Harbour Hearts took, 0 to 5." in box.inner_text()
    # A count tapped then: the box goes, and the deal saves.
    page.locator("[data-split] label.tap", has_text="3").click()
    assert page.locator("#box-split [data-box]").count() == 0


def test_with_long_names_the_next_trick_is_not_under_the_save_bar(live_server, page):
    start_game(page, live_server, a_night(LONG))
    page.get_by_text("Trick by trick").click()
    for trick in (1, 2):
        order_tap(page, trick, trick - 1)
        page.wait_for_function(
            """trick => {
                const row = document.querySelector(`[data-order] [data-trick="${trick}"] .tap-row`);
                const bar = document.querySelector("[data-order] .trick-bar");
                const a = row.getBoundingClientRect(), b = bar.getBoundingClientRect();
                return a.top >= 0 && a.bottom <= b.top + 1;
            }""",
            arg=trick + 1,
            timeout=3000,
        )


def test_deals_kept_offline_are_listed_and_the_game_is_not_offered_back(live_server, page):
    """With deals kept on the phone the sheet said "No deals yet." and offered "Take
    this game back": the organiser could not see what they had entered."""
    start_game(page, live_server, a_night())
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    page.locator("[data-split] label.tap", has_text="4").click()
    page.get_by_role("button", name="Save deal 1").first.click()
    page.get_by_text("1 deal waiting to send").wait_for()
    kept = page.locator(".deals .deal-kept")
    assert kept.all_inner_texts() == [
        "Deal 1: Harbour Hearts 4 · The Robbers 1, dealt by Harbour Hearts: waiting to send"
    ]
    assert page.get_by_text("No deals yet.").is_hidden()
    assert page.get_by_role("button", name="Take this game back").is_hidden()
    page.reload()
    page.get_by_text("1 deal waiting to send").wait_for()
    assert page.locator(".deals .deal-kept").count() == 1
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    assert page.locator(".deals .deal-kept").count() == 0
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]


def test_taps_brought_back_after_a_login_say_they_are_not_saved_yet(
    live_server, page, assert_accessible
):
    """After logging in again the taps are back, tapped: the sheet says they still need
    Save, where it looked as if the deal had gone in."""
    fixture = a_night()
    start_game(page, live_server, fixture)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.locator("[data-split] label.tap", has_text="4").click()
    page.context.clear_cookies()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 1").click()
    page.wait_for_load_state()
    assert_accessible(page)
    page.get_by_role("link", name="Go to the login page to save what you entered").click()
    page.get_by_label("Username").fill("harbour")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    assert page.locator("input[name='first'][value='4']").is_checked()
    assert page.locator("#sheet-said").inner_text() == (
        "Not saved yet: what you entered is back. Tap Save deal 1 to save it."
    )
    assert Deal.objects.count() == 0
