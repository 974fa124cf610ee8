"""The table sheet on a phone: a match night played by taps, a scorer link on a second
phone, a double tap, a QR code that scans, and axe's WCAG 2.2 AA rules on every page.
Issue 11: after every save, undo and confirmation the score in view and one line in
words; trick by trick that keeps its taps; refusals in place that save nothing; a sheet
that is never stale."""

import io
import re
import uuid
from urllib.parse import urlsplit

import pytest
import zxingcpp
from django.urls import reverse
from django.utils.crypto import get_random_string
from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from scoring import services
from scoring.models import Confirmation, Deal, Game, ScorerLink
from tests.e2e.conftest import ARTIFACTS, login, swapped
from tests.factories import (
    PASSWORD,
    FixtureFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def night(transactional_db):
    season = SeasonFactory(league__name="Clare League")
    pub = PubFactory(league=season.league, name="The Harbour Bar")
    teams = [
        TeamFactory(season=season, pub=pub, name="Harbour Hearts"),
        TeamFactory(season=season, pub=pub, name="The Robbers"),
    ]
    fixture = FixtureFactory(season=season, pub=pub, teams=teams, games_planned=3)
    organiser = UserFactory(username="harbour")
    pub.organisers.add(organiser)
    return fixture


def tap(page, text, within="[data-split]"):
    page.locator(f"{within} label.tap", has_text=text).first.click()


def save(page):
    with swapped(page, "/deals/"):
        page.get_by_role("button", name="Save deal").first.click()


def test_an_organiser_plays_a_whole_match_night_by_taps(
    night, live_server, page, assert_accessible
):
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    assert_accessible(page)
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Game 1")
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Game 1: Harbour Hearts take 3, then a march. Tap, tap, save.
    tap(page, "3")
    assert "Harbour Hearts 3 – 2 The Robbers" in page.locator("[data-split-rest]").inner_text()
    save(page)
    assert page.locator(".side-score").all_inner_texts() == ["15", "10"]
    assert "Deal 2" in page.locator(".deal-line").inner_text()
    tap(page, "5")
    save(page)
    assert "Harbour Hearts reached 25" in page.locator(".result").inner_text()
    assert page.get_by_role("button", name="Save deal").count() == 0
    assert_accessible(page)

    # Game 2, straight on: The Robbers win trick by trick, stopping at 25.
    page.get_by_role("button", name="Next game: game 2").click()
    page.wait_for_load_state()
    assert "Harbour Hearts 1 – The Robbers 0" in page.locator(".match-line").inner_text()
    page.get_by_text("Trick by trick").click()
    for _ in range(5):
        tap(page, "The Robbers", within="[data-order] [data-trick]:not(:has(:checked))")
    page.wait_for_load_state()
    assert "The Robbers reached 25" in page.locator(".result").inner_text()

    # Game 3: Harbour Hearts again.
    page.get_by_role("button", name="Next game: game 3").click()
    page.wait_for_load_state()
    tap(page, "5")
    save(page)
    assert "Harbour Hearts reached 25" in page.locator(".result").inner_text()
    assert "Harbour Hearts 2 – The Robbers 1" in page.locator(".match-line").inner_text()
    assert "All 3 games of the match are played" in page.content()

    page.get_by_role("link", name="Harbour Hearts 2 – The Robbers 1").click()
    page.wait_for_load_state()
    assert page.locator(".side-score").all_inner_texts() == ["2", "1"]
    assert Game.objects.filter(fixture=night).count() == 3
    # The deal passed to the left across the night: game 1 dealt 0, 1; game 2 by 0; game 3 by 1.
    dealers = list(Deal.objects.order_by("game__number", "number").values_list("dealer", flat=True))
    assert dealers == [0, 1, 0, 1]
    # No script error and nothing the Content-Security-Policy had to block.
    assert [p for p in problems if not p.startswith("Failed to load resource")] == []


def test_a_scorer_link_on_a_second_phone_enters_a_deal(
    night, live_server, new_page, assert_accessible
):
    organiser = new_page()
    login(organiser, live_server, "harbour", PASSWORD)
    organiser.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    organiser.get_by_role("button", name="Start game 1").click()
    organiser.wait_for_load_state()
    organiser.get_by_role("link", name="Scorer links and QR codes").click()
    assert_accessible(organiser)
    organiser.get_by_role("button", name="Make a scorer link").click()
    organiser.wait_for_load_state()
    url = organiser.locator(".link-url .url").inner_text()

    player = new_page()
    player.goto(url)
    player.wait_for_load_state()
    assert "scoring with a scorer link" in player.content()
    tap(player, "2")
    save(player)
    assert player.locator(".side-score").all_inner_texts() == ["10", "15"]

    organiser.goto(f"{live_server.url}/games/{Game.objects.get().pk}/record/")
    organiser.wait_for_load_state()
    assert "through scorer link" in organiser.content()
    assert_accessible(organiser)


def test_a_double_tap_on_save_makes_one_deal(night, live_server, page):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    tap(page, "3")
    page.get_by_role("button", name="Save deal 1").dblclick()
    page.wait_for_timeout(500)
    page.wait_for_load_state()
    page.reload()
    assert Deal.objects.count() == 1
    assert page.locator(".side-score").all_inner_texts() == ["15", "10"]


def test_the_qr_page_shows_a_code_that_scans_to_the_link(
    night, live_server, page, assert_accessible
):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Scorer links and QR codes").click()
    page.get_by_role("button", name="Make a scorer link").click()
    page.wait_for_load_state()
    assert_accessible(page)
    png = page.locator("svg.qr").screenshot()
    [code] = zxingcpp.read_barcodes(
        Image.open(io.BytesIO(png)), formats=zxingcpp.BarcodeFormat.QRCode
    )
    assert code.text == page.locator(".link-url .url").inner_text()
    assert "/games/s/" in code.text
    # "Withdraw this link", under the code a player is scanning, asks first.
    page.get_by_role("button", name="Withdraw this link").click()
    heading = page.get_by_role("heading", name="Withdraw link 1 for the table?")  # the game's 1st
    expect(heading).to_be_visible()
    assert_accessible(page)
    assert ScorerLink.objects.get().is_active
    page.get_by_role("button", name="Yes, withdraw it").click()
    said = page.get_by_text("Link 1 for the table withdrawn: the phone that scanned it")
    expect(said).to_be_visible()
    assert not ScorerLink.objects.get().is_active


def test_without_javascript_a_deal_is_saved_by_post_redirect_get(night, live_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        login(page, live_server, "harbour", PASSWORD)
        page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
        page.get_by_role("button", name="Start game 1").click()
        page.wait_for_load_state()
        tap(page, "4")
        page.get_by_role("button", name="Save deal 1").click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/games/{Game.objects.get().pk}/")
        assert page.locator(".side-score").all_inner_texts() == ["20", "5"]
        # Trick by trick, without the fifth tap saving by itself: one trick, then Save.
        page.get_by_text("Trick by trick").click()
        tap(page, "Harbour Hearts", within="[data-order] [data-trick='1']")
        page.locator("[data-order] button.save").click()
        page.wait_for_load_state()
        assert (
            "Harbour Hearts reached 25 on the first trick" in page.locator(".result").inner_text()
        )
    finally:
        context.close()


def test_a_phone_that_saw_an_older_sheet_is_shown_the_conflict(night, live_server, new_page):
    first, second = new_page(), new_page()
    login(first, live_server, "harbour", PASSWORD)
    first.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    first.get_by_role("button", name="Start game 1").click()
    first.wait_for_load_state()
    login(second, live_server, "harbour", PASSWORD)
    second.goto(first.url)
    second.wait_for_load_state()

    tap(first, "3")
    save(first)
    tap(second, "1")
    save(second)
    conflict = second.locator(".conflict")
    assert "Someone else changed this game" in conflict.inner_text()
    assert "Harbour Hearts 1, The Robbers 4" in conflict.inner_text()
    assert second.locator(".side-score").all_inner_texts() == ["15", "10"]
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]


def test_the_tricks_total_follows_each_digit_typed(night, live_server, page):
    # The "x of 5 tricks" line counts as the digits are typed, not once the box is left.
    start_game(page, live_server, night)
    tap(page, "3")
    save(page)
    page.get_by_role("link", name="Correct deal 1").click()
    page.wait_for_load_state()
    page.locator("#tricks-0").fill("4")
    assert page.locator("[data-total]").inner_text() == "6 of 5 tricks"
    page.locator("#tricks-1").fill("1")
    assert page.locator("[data-total]").inner_text() == "5 of 5 tricks"


def test_the_correction_and_friendly_pages_read_well_on_a_phone(
    night, live_server, page, assert_accessible
):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    tap(page, "3")
    save(page)
    page.get_by_role("link", name="Correct deal 1").click()
    page.wait_for_load_state()
    assert page.locator("[data-total]").inner_text() == "5 of 5 tricks"
    page.get_by_role("button", name="One trick more for Harbour Hearts").click()
    page.get_by_role("button", name="One trick fewer for The Robbers").click()
    assert_accessible(page)
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_load_state()
    assert page.locator(".side-score").all_inner_texts() == ["20", "5"]
    page.goto(f"{live_server.url}/games/pubs/{night.pub.pk}/friendly/")
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Started, then Back to the form still filled in, and Start again: the one game.
    page.get_by_label("Sides, one a line, in seat order").fill("Ann\nBob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    page.go_back()
    page.wait_for_load_state()
    page.get_by_label("Sides, one a line, in seat order").fill("Ann\nBob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    assert "Ann v Bob was started a moment ago" in page.locator(".messages").inner_text()
    assert Game.objects.filter(fixture__isnull=True).count() == 1
    page.goto(f"{live_server.url}/games/pubs/{night.pub.pk}/friendly/")
    page.get_by_role("link", name="Ann v Bob").wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "friendly-in-play.png", full_page=True)
    assert_accessible(page)


def test_a_correction_that_a_later_deal_no_longer_fits_corrects_both_on_a_phone(
    night, live_server, page, assert_accessible
):
    from tests.scoring.conftest import play

    game = services.game_next(fixture=night, number=1, first_dealer=0)
    play(game, 3, 2, dealer=0)
    play(game, 2, 0, trick_winners=[0, 0])  # Harbour Hearts reach 25 on trick 2
    services.game_next(fixture=night, number=2, first_dealer=1)
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/deals/1/correct/")
    page.get_by_role("button", name="One trick fewer for Harbour Hearts").click()
    page.get_by_role("button", name="One trick more for The Robbers").click()
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_load_state()
    expect(page.get_by_role("alert")).to_contain_text("deal 2 no longer fits")
    later = page.locator(".later-deal")
    expect(later.get_by_role("heading")).to_have_text("Deal 2, corrected with it")
    assert page.locator("[data-total]").inner_text() == "5 of 5 tricks"  # deal 1's own
    page.screenshot(path=ARTIFACTS / "correction-with-a-later-deal.png", full_page=True)
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    later.locator("[data-trick='3'] label.tap", has_text="Harbour Hearts").click()
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_load_state()
    assert page.locator(".side-score").all_inner_texts() == ["25", "15"]
    assert "deal 2, with it" in page.locator(".messages").inner_text()


def in_view(page, selector):
    """Whether the element is wholly on the phone's screen, within a moment (htmx scrolls
    once the swapped sheet has settled)."""
    script = """selector => {
        const box = document.querySelector(selector)?.getBoundingClientRect();
        // Within a pixel: the browser scrolls a box's edge to a fraction of one.
        return Boolean(box) && box.top >= -1 && box.bottom <= window.innerHeight + 1;
    }"""
    try:
        page.wait_for_function(script, arg=selector, timeout=2000)
    except PlaywrightTimeout:
        return False
    return True


def log_in_from_the_sheet(page):
    """A save refused as the login ended: its link to log in (in the sheet's box, or on
    top when the sheet reloaded as older than the login), and back as harbour."""
    to_log_in = "Log in again|Go to the login page to save what you entered"
    page.get_by_role("link", name=re.compile(to_log_in)).click()
    page.get_by_label("Username").fill("harbour")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def said(page):
    return page.locator("#sheet-said").inner_text()


def start_game(page, live_server, fixture):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{fixture.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()


def order_tap(page, trick, side):
    page.locator(f"[data-order] [data-trick='{trick}'] label.tap", has_text=side).click()


def test_every_save_says_what_happened_with_the_score_in_view(
    night, live_server, page, assert_accessible
):
    start_game(page, live_server, night)
    tap(page, "3")
    save(page)
    assert said(page) == "Deal 1 saved: Harbour Hearts 15 – The Robbers 10."
    assert in_view(page, "#sheet .scoreboard")
    assert in_view(page, "#sheet-said")
    page.wait_for_function("() => document.activeElement.classList.contains('scoreboard')")
    assert page.locator("#sheet-said").get_attribute("role") == "status"

    # Undo asks for a second tap in place, then says what it did.
    undo = page.locator(".undo button")
    undo.click()
    assert undo.inner_text() == "Tap again to undo deal 1"
    assert Deal.objects.filter(live=True).count() == 1
    with swapped(page, "/undo/"):
        undo.click()
    assert said(page) == "Deal 1 undone: Harbour Hearts 0 – The Robbers 0."
    assert Deal.objects.filter(live=True).count() == 0
    assert in_view(page, "#sheet .scoreboard")

    # The end of a game: who won and why.
    tap(page, "5")
    save(page)
    assert "Harbour Hearts win game 1: Harbour Hearts" in said(page)
    assert_accessible(page)

    # Game 2 to The Robbers, game 3 to Harbour Hearts: the match is said.
    page.get_by_role("button", name="Next game: game 2").click()
    page.wait_for_load_state()
    tap(page, "0")
    save(page)
    assert "The Robbers win game 2" in said(page)
    page.get_by_role("button", name="Next game: game 3").click()
    page.wait_for_load_state()
    tap(page, "5")
    save(page)
    assert "Harbour Hearts win the match 2–1." in said(page)
    assert in_view(page, "#sheet .scoreboard")
    assert Game.objects.filter(fixture=night, winner=0).count() == 2


def test_trick_by_trick_keeps_its_taps_and_saves_only_a_complete_deal(
    night, live_server, page, assert_accessible
):
    start_game(page, live_server, night)
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "Harbour Hearts")
    order_tap(page, 2, "The Robbers")
    total = page.locator("[data-trick-total]")
    assert total.inner_text() == "Harbour Hearts 1 trick, score 5 · The Robbers 1 trick, score 5"
    assert in_view(page, "[data-trick-total]")
    order_tap(page, 4, "Harbour Hearts")
    order_tap(page, 5, "Harbour Hearts")
    page.wait_for_timeout(300)
    assert Deal.objects.count() == 0  # trick 3 is blank: no save

    with page.expect_response(lambda r: "/deals/" in r.url) as answer:
        page.locator("[data-order] button.save").click()
    assert answer.value.status == 422
    box = page.locator("#box-order")
    box.get_by_text("Trick 3 has no winner").wait_for()
    assert "Nothing was saved" in box.inner_text()
    assert in_view(page, "#box-order")
    assert page.locator("[data-order] input[name='trick_4']:checked").count() == 1
    assert page.locator("[data-order] input[name='trick_5']:checked").count() == 1
    assert Deal.objects.count() == 0
    assert_accessible(page)

    # The blank trick tapped: the deal is complete and saves itself, the panel stays open.
    with swapped(page, "/deals/"):
        order_tap(page, 3, "The Robbers")
    assert said(page) == "Deal 1 saved: Harbour Hearts 15 – The Robbers 10."
    assert list(Deal.objects.values_list("trick_winners", flat=True)) == ["01100"]
    assert page.locator("details.by-trick").get_attribute("open") is not None

    # Rule 5: play stops when a side reaches 25; the deal saves on that trick.
    order_tap(page, 1, "Harbour Hearts")
    assert "Harbour Hearts 1 trick, score 20" in total.inner_text()
    with swapped(page, "/deals/"):
        order_tap(page, 2, "Harbour Hearts")
    assert "Harbour Hearts win game 1" in said(page)
    assert Deal.objects.count() == 2


ABOVE_THE_BAR = """selector => {
    const shown = document.querySelector(selector).getBoundingClientRect();
    const bar = document.querySelector("[data-order] .trick-bar").getBoundingClientRect();
    return shown.height > 0 && shown.top >= 0 && shown.bottom <= bar.top;
}"""


def test_forty_five_asks_who_won_the_highest_trump_before_it_saves(
    night, live_server, page, assert_accessible
):
    """The question was preset to "No trump played" and, trick by trick, sat under the
    Save bar after trick 5: a deal saved without looking lost its 5 points."""
    night.season.ruleset_key = "forty-five"
    night.season.save()
    start_game(page, live_server, night)
    tap(page, "3")
    page.get_by_role("button", name="Save deal").first.click()
    box = page.locator("#box-split")
    box.get_by_text("Tap who won the highest trump, or “No trump played”.").wait_for()
    assert "Nothing was saved." in box.inner_text()
    assert Deal.objects.count() == 0
    assert_accessible(page)
    tap(page, "Harbour Hearts", within="[data-split] .bonus")
    save(page)
    assert said(page) == "Deal 1 saved: Harbour Hearts 20 – The Robbers 10."

    # Trick by trick: after trick 5 the question comes into view above the Save bar, and
    # its answer saves the deal.
    page.get_by_text("Trick by trick").click()
    for trick, side in enumerate(["The Robbers", "Harbour Hearts", "The Robbers"] * 2, 1):
        if trick <= 5:
            order_tap(page, trick, side)
    page.wait_for_function(ABOVE_THE_BAR, arg="[data-order] .bonus", timeout=3000)
    assert "Now tap who won the highest trump." in page.locator("[data-trick-total]").inner_text()
    page.wait_for_timeout(300)
    assert Deal.objects.count() == 1
    page.screenshot(path=ARTIFACTS / "forty-five-bonus-asked.png")
    assert_accessible(page)
    # Save tapped without an answer: the box says so, above the Save bar, not under it.
    page.locator("[data-order] button.save").click()
    page.locator("#box-order").get_by_text("Tap who won the highest trump").wait_for()
    page.wait_for_function(ABOVE_THE_BAR, arg="#box-order", timeout=3000)
    assert Deal.objects.count() == 1
    with swapped(page, "/deals/"):
        page.locator("[data-order] .bonus label.tap", has_text="No trump played").click()
    assert said(page) == "Deal 2 saved: Harbour Hearts 30 – The Robbers 25."
    assert [d.bonus_side for d in Deal.objects.order_by("number")] == [0, None]
    # Nothing of the last answer is ticked for the next deal.
    assert page.locator("input[name='bonus_side']:checked").count() == 0


def test_forty_five_taps_back_after_a_login_are_in_view_and_score_the_highest_trump(
    night, live_server, page, assert_accessible
):
    """Found by a walk: after logging in again the deal's taps were back but out of
    sight at the foot of the page, and the running score left out the highest trump's
    5 points."""
    night.season.ruleset_key = "forty-five"
    night.season.save()
    start_game(page, live_server, night)
    page.get_by_text("Trick by trick").click()
    page.context.clear_cookies()
    for trick, side in enumerate(["The Robbers", "Harbour Hearts"] * 2 + ["The Robbers"], 1):
        order_tap(page, trick, side)
    page.wait_for_function(ABOVE_THE_BAR, arg="[data-order] .bonus", timeout=3000)
    page.locator("[data-order] .bonus label.tap", has_text="Harbour Hearts").click()
    # The answer saves, and is refused: in the sheet's box, or, the sheet reloaded as
    # one older than the login (which way depends on the moment), on top.
    log_in_from_the_sheet(page)
    assert said(page) == "Not saved yet: what you entered is back. Tap Save deal 1 to save it."
    page.wait_for_function(ABOVE_THE_BAR, arg="[data-order] .bonus", timeout=3000)
    assert page.locator("[data-trick-total]").inner_text() == (
        "Harbour Hearts 2 tricks, score 15 · The Robbers 3 tricks, score 15"
    )
    assert_accessible(page)
    with swapped(page, "/deals/"):
        page.locator("[data-order] button.save").click()
    assert page.locator(".side-score").all_inner_texts() == ["15", "15"]


def sheet_checked(game):
    """A sheet's check for the other phone's saves (htmx GET of the sheet)."""
    path = reverse("scoring:game-sheet", args=[game.pk])
    return lambda response: (
        response.request.method == "GET"
        and response.url.endswith(path)
        and response.request.headers.get("hx-request") == "true"
    )


def test_the_organisers_sheet_follows_a_deal_saved_through_the_scorer_link(
    night, live_server, new_page, assert_accessible
):
    """Found by a walk: while a player scored through the link, the organiser's sheet
    stayed as it was; their own entry of the same deal was then refused as stale."""
    organiser = new_page()
    start_game(organiser, live_server, night)
    game = Game.objects.get()
    link = ScorerLink.objects.create(game=game)
    organiser.reload()  # a link is out: the sheet now looks for the other phone's saves
    organiser.wait_for_load_state()
    player = new_page()
    player.goto(f"{live_server.url}{link.get_absolute_url()}")
    player.wait_for_load_state()
    look_again = "document.dispatchEvent(new Event('visibilitychange'))"  # back to the tab
    # Nothing changed yet: a bare 304, and the sheet stays as it is.
    with organiser.expect_response(sheet_checked(game)) as checked:
        organiser.evaluate(look_again)
    assert checked.value.status == 304
    assert said(organiser) == ""
    tap(player, "2")
    save(player)
    with organiser.expect_response(sheet_checked(game)) as checked:
        organiser.evaluate(look_again)
    assert checked.value.status == 200
    expect(organiser.locator(".deals")).to_contain_text("Deal 1")
    assert said(organiser) == "Up to date: this game was changed on another phone."
    assert organiser.locator(".side-score").all_inner_texts() == ["10", "15"]
    assert_accessible(organiser)

    # Taps in progress here are not swept away: beside them, the sheet says their save
    # would fail (found by a walk: said at the top, it was off the screen).
    tap(organiser, "4")
    tap(player, "1")
    save(player)
    organiser.evaluate(look_again)
    expect(organiser.locator("#box-split")).to_contain_text(
        "Another phone saved a change to this game, so what you tapped here would not be saved."
    )
    assert in_view(organiser, "#box-split")
    assert said(organiser) == ""  # not "Up to date" over a sheet that is not (a walk)
    assert organiser.locator("[data-split] input[name='first'][value='4']").is_checked()
    assert_accessible(organiser)
    organiser.get_by_role("link", name="See the game as it stands now").click()
    organiser.wait_for_load_state()
    assert organiser.locator(".side-score").all_inner_texts() == ["15", "35"]


def test_a_sheet_follows_the_other_phone_past_a_refusal_and_a_link_withdrawn(
    night, live_server, new_page
):
    """Found by a walk: a refusal box on the sheet stopped its looking, and a change that
    moves no deal (the link withdrawn) never reached the player's phone."""
    organiser = new_page()
    start_game(organiser, live_server, night)
    link = ScorerLink.objects.create(game=Game.objects.get())
    player = new_page()
    player.goto(f"{live_server.url}{link.get_absolute_url()}")
    player.wait_for_load_state()
    player.get_by_role("button", name="Save deal").first.click()  # nothing tapped: a box
    player.locator("#box-split [data-box]").wait_for()
    organiser.reload()
    tap(organiser, "2")
    save(organiser)
    look_again = "document.dispatchEvent(new Event('visibilitychange'))"
    player.evaluate(look_again)
    expect(player.locator(".side-score").first).to_have_text("10")
    services.link_revoke(link=link)
    player.evaluate(look_again)
    expect(player.locator("form.entry")).to_have_count(0)
    assert said(player) == "Up to date."  # the sheet says the link was withdrawn
    assert "Save deal" not in player.locator("#sheet").inner_text()


def test_back_to_the_sheet_proposes_the_next_dealer_not_the_one_tapped_before(
    night, live_server, new_page
):
    """Found by a walk: back on the sheet after the other phone saved a deal, the browser
    put back the dealer ticked before, and the deal was saved dealt by the wrong side."""
    organiser = new_page()
    start_game(organiser, live_server, night)
    link = ScorerLink.objects.create(game=Game.objects.get())
    organiser.reload()
    organiser.wait_for_load_state()
    organiser.get_by_role("link", name="Who entered what").click()
    organiser.wait_for_load_state()
    player = new_page()
    player.goto(f"{live_server.url}{link.get_absolute_url()}")
    player.wait_for_load_state()
    tap(player, "2")
    save(player)  # deal 1, dealt by Harbour Hearts: deal 2 is The Robbers'
    organiser.go_back()
    organiser.wait_for_load_state()
    expect(organiser.locator("#sheet")).to_contain_text("Deal 2")
    checked = organiser.locator("[data-split] input[name='dealer']:checked")
    assert checked.get_attribute("value") == "1"


def test_save_is_on_the_first_screen_for_two_and_three_sides(
    night, live_server, page, assert_accessible
):
    start_game(page, live_server, night)
    assert in_view(page, "button.save")
    third = TeamFactory(season=night.season, pub=night.pub, name="Cronin's Jinkers")
    three = FixtureFactory(
        season=night.season, pub=night.pub, teams=[*night.teams.all(), third], games_planned=1
    )
    page.goto(f"{live_server.url}/games/fixtures/{three.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    assert page.locator(".side-score").count() == 3
    assert in_view(page, "button.save")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)


BROKEN_WORDS = """selector => {
    // Each word of each element's text that the browser has split across two lines, and
    // each element whose text runs past its own box.
    const found = [];
    for (const el of document.querySelectorAll(selector)) {
        if (el.scrollWidth > el.clientWidth + 1) found.push(`${el.textContent.trim()} overflows`);
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (lines.size > 1) found.push(match[0]);
            }
        }
    }
    return found;
}"""


def test_five_players_names_are_whole_on_a_phone(night, live_server, page, assert_accessible):
    # Twenty-Five is often played each for their own: five names on the sheet squeezed
    # into three columns broke "Considine" as "Considin / e" on the dealer's buttons and
    # ran past the edge of its score box.
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/pubs/{night.pub.pk}/friendly/")
    page.get_by_label("Sides").fill(
        "Considine\nMary O'Sullivan\nPádraig Ó Briain\nBríd Ní Mhurchú\nSeánie Fitzgerald"
    )
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    assert page.locator(".side-score").count() == 5
    for selector in ("#sheet .side", "#sheet .tap-side span", "#sheet .stepper label"):
        assert page.evaluate(BROKEN_WORDS, selector) == [], selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=ARTIFACTS / "sheet-five-players.png", full_page=True)
    assert_accessible(page)


def test_the_sheets_header_keeps_the_leagues_name_readable_for_a_secretary(
    night, live_server, page, assert_accessible
):
    # A secretary's header has the most links (Card drives, Tonight, Manage, Log out);
    # on the sheet's one-line header they left no room for the league's name at all.
    league = night.season.league
    league.name = "Clare Twenty-Five League"
    league.save()
    league.secretaries.add(UserFactory(username="una"))
    login(page, live_server, "una", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()

    brand = page.locator(".site-header .brand")
    assert brand.bounding_box()["width"] >= 390 / 3
    # The whole name, on two lines if need be, not "Clare Twenty-Fiv…".
    assert brand.evaluate(
        "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
    ), brand.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
    header = page.locator(".site-header")
    for name in ("Tonight", "Log out"):
        assert (
            header.get_by_role("link", name=name)
            .or_(header.get_by_role("button", name=name))
            .is_visible()
        )
    assert header.bounding_box()["height"] <= 56  # no taller: Save stays in view
    assert in_view(page, "button.save")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)


def test_back_after_a_save_shows_the_current_sheet(night, live_server, page):
    start_game(page, live_server, night)
    tap(page, "3")
    save(page)
    page.get_by_role("link", name="Who entered what").click()
    page.wait_for_load_state()
    page.go_back()
    page.wait_for_load_state()
    assert page.locator(".side-score").all_inner_texts() == ["15", "10"]
    assert "Deal 2" in page.locator(".deal-line").inner_text()
    assert "No deals yet" not in page.locator(".deals").inner_text()
    assert "no-store" in page.evaluate(
        "fetch(location.href).then(r => r.headers.get('cache-control'))"
    )
    assert Deal.objects.count() == 1


def player_with_link(new_page, live_server, game, side=None):
    link = services.link_create(game=game, side=side)
    player = new_page()
    player.goto(f"{live_server.url}{link.get_absolute_url()}")
    player.wait_for_load_state()
    return player, link


def refused_save(page, status=403):
    with page.expect_response(lambda r: "/deals/" in r.url) as answer:
        page.get_by_role("button", name="Save deal").first.click()
    assert answer.value.status == status
    page.locator("[data-box]").wait_for()
    return page.locator("[data-box]")


def test_a_withdrawn_link_says_so_in_place_and_keeps_the_taps(
    night, live_server, new_page, assert_accessible
):
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    player, link = player_with_link(new_page, live_server, game)
    tap(player, "2")
    services.link_revoke(link=link)
    box = refused_save(player)
    assert "withdrawn your scorer link" in box.inner_text()
    assert "Nothing was saved" in box.inner_text()
    assert in_view(player, "[data-box]")
    assert player.locator("input[name='first'][value='2']").is_checked()
    assert "Forbidden" not in player.content()
    assert Deal.objects.count() == 0
    assert_accessible(player)


def test_under_make_run_s_debug_a_refusal_is_said_in_place_too(
    night, live_server, new_page, settings
):
    # `make run` serves with DEBUG on, and django-htmx's debug script then put any 403
    # or 404 answer in place of the whole page: a bare "Forbidden" text, no sheet.
    settings.DEBUG = True
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    player, link = player_with_link(new_page, live_server, game)
    assert player.locator('script[src*="django-htmx.js"]').count() == 1
    tap(player, "2")
    services.link_revoke(link=link)
    box = refused_save(player)
    assert "withdrawn your scorer link" in box.inner_text()
    assert player.locator("#sheet").is_visible()
    assert player.locator("input[name='first'][value='2']").is_checked()


def test_a_game_confirmed_meanwhile_says_so_in_place(night, live_server, new_page):
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    player, _ = player_with_link(new_page, live_server, game, side=1)
    tap(player, "2")
    services.deal_record(game=game, dealer=0, tricks=[5, 0], key=uuid.uuid4(), version=1)
    services.game_confirm(game=game)
    box = refused_save(player)
    assert "This game is confirmed" in box.inner_text()
    assert "Nothing was saved" in box.inner_text()
    assert player.locator("input[name='first'][value='2']").is_checked()
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["50"]


def test_a_game_taken_back_on_another_phone_says_so_where_the_sheet_was(
    night, live_server, new_page, assert_accessible
):
    """The sheet open on a second phone, the game taken back on the first: the next tap on
    Save said nothing at all before (htmx shows no "Not found")."""
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    player, _ = player_with_link(new_page, live_server, game)
    tap(player, "2")
    services.game_remove(game=game, version=game.version)
    with player.expect_response(lambda r: "/deals/" in r.url) as answer:
        player.get_by_role("button", name="Save deal").first.click()
    assert answer.value.status == 404
    gone = player.locator("#sheet [role=alert]")
    gone.wait_for()
    assert "This game is not here any more" in gone.inner_text()
    assert "Nothing was saved." in gone.inner_text()
    assert player.get_by_role("link", name="Go to the league's home page").is_visible()
    # The links under the sheet, to the game's own pages that are gone, go with it.
    assert player.locator("#sheet-links").count() == 0
    assert player.get_by_role("link", name="Who entered what").count() == 0
    assert Deal.objects.count() == 0
    player.screenshot(path=ARTIFACTS / "sheet-game-taken-back.png")
    assert_accessible(player)


def test_an_ended_login_leads_back_to_the_sheet_with_the_deal_still_entered(
    night, live_server, new_page, assert_accessible
):
    page = new_page()
    start_game(page, live_server, night)
    sheet = page.url
    tap(page, "4")
    other = page.context.new_page()  # the same phone: the login ends
    other.goto(sheet)
    other.get_by_role("button", name="Log out").click()
    other.wait_for_load_state()
    other.close()
    box = refused_save(page)
    assert "Your login has ended" in box.inner_text()
    assert "Nothing was saved" in box.inner_text()
    assert page.locator("input[name='first'][value='4']").is_checked()
    assert (
        page.locator("#sheet form[action$='/login/'], #sheet input[name='password']").count() == 0
    )
    assert Deal.objects.count() == 0
    assert_accessible(page)

    box.get_by_role("link", name="Log in again").click()
    page.get_by_label("Username").fill("harbour")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    assert page.url == sheet
    assert page.locator("input[name='first'][value='4']").is_checked()
    assert "Harbour Hearts 4 – 1 The Robbers" in page.locator("[data-split-rest]").inner_text()
    save(page)
    assert page.locator(".side-score").all_inner_texts() == ["20", "5"]
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]


def test_a_sheet_whose_cookies_were_cleared_says_so_and_leads_back_with_the_deal(
    night, live_server, page, assert_accessible
):
    # Every cookie gone (login and token): the sheet reloads saying the login ended,
    # and the header's Log in comes back to the sheet with the taps still there.
    start_game(page, live_server, night)
    sheet = page.url
    # The sheet's copy for no connection is fetched in the background: a late answer
    # would set the cookies again after they were cleared.
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    tap(page, "4")
    page.context.clear_cookies()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 1").click()
    page.wait_for_load_state()
    assert "Your login has ended" in page.locator("main").inner_text()
    assert Deal.objects.count() == 0
    assert_accessible(page)

    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("harbour")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    assert page.url == sheet
    assert page.locator("input[name='first'][value='4']").is_checked()
    save(page)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]


def test_a_sheet_older_than_a_login_in_another_tab_reloads_with_the_deal_still_entered(
    night, live_server, new_page, assert_accessible
):
    page = new_page()
    start_game(page, live_server, night)
    tap(page, "4")
    other = page.context.new_page()  # the same phone: logged out and in again
    other.goto(page.url)
    other.get_by_role("button", name="Log out").click()
    other.wait_for_load_state()
    login(other, live_server, "harbour", PASSWORD)
    other.close()
    with page.expect_navigation():  # refused, and the sheet reloads itself
        page.get_by_role("button", name="Save deal").first.click()
    page.wait_for_load_state()
    assert "Nothing was saved" in page.locator(".messages").inner_text()
    assert page.locator("input[name='first'][value='4']").is_checked()
    assert not Deal.objects.exists()
    assert_accessible(page)
    save(page)
    assert page.locator(".side-score").all_inner_texts() == ["20", "5"]
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]


def test_a_double_tap_on_undo_or_confirm_is_one_tap_that_asks(night, live_server, page):
    """Found by a walk: two taps 250 ms apart (a double tap, or a shaky finger) undid the
    deal at once, past the "Tap again" that was never seen. The second tap of a double
    tap is ignored; the question stands until a tap that follows it."""
    start_game(page, live_server, night)
    tap(page, "5")
    save(page)
    for button, asked in (
        (".confirm button", "Tap again to confirm"),
        (".undo button", "Tap again to undo"),
    ):
        button = page.locator(button)
        button.dblclick()
        assert button.inner_text().startswith(asked)
        page.wait_for_timeout(1500)  # time for a submit that should not happen
        assert button.inner_text().startswith(asked)
    assert Deal.objects.filter(live=True).count() == 1
    assert not Confirmation.objects.exists()


def test_confirm_asks_for_a_second_tap_and_says_what_it_did(
    night, live_server, page, assert_accessible
):
    start_game(page, live_server, night)
    tap(page, "5")
    save(page)
    confirm = page.locator(".confirm button")
    confirm.click()
    assert confirm.inner_text().startswith("Tap again to confirm 25\u00a0–\u2060\u00a00")
    assert not Confirmation.objects.exists()
    assert_accessible(page)
    with swapped(page, "/confirm/"):
        confirm.click()
    assert said(page).startswith("Result confirmed: Harbour Hearts 25 – The Robbers 0.")
    assert page.locator(".confirmed").inner_text() == "Result confirmed."
    assert in_view(page, "#sheet .scoreboard")
    assert Confirmation.objects.count() == 1
    page.get_by_role("link", name="Who entered what").click()
    assert "Entered and confirmed by the same organiser" in page.content()


def test_the_dark_theme_follows_the_phone_and_reads_well(
    night, live_server, page, assert_accessible
):
    page.emulate_media(color_scheme="dark")
    start_game(page, live_server, night)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 21, 18)"
    tap(page, "3")
    save(page)
    assert said(page) == "Deal 1 saved: Harbour Hearts 15 – The Robbers 10."
    page.get_by_text("Trick by trick").click()
    page.locator("[data-order] [data-trick='2'] label.tap").first.click()
    page.locator("[data-order] button.save").click()
    page.locator("#box-order [data-box]").wait_for()
    assert_accessible(page)
    page.goto(f"{live_server.url}{night.season.get_absolute_url()}")
    assert_accessible(page)
    page.get_by_role("link", name="Standings").first.click()
    page.wait_for_load_state()
    assert_accessible(page)
    assert Deal.objects.count() == 1


def enter_counts(page, counts):
    for side, count in enumerate(counts):
        page.locator(f"#tricks-{side}").fill(str(count))
    page.get_by_role("button", name="Save deal").first.click()


def start_three_sides(page, live_server, night):
    """The organiser logged in, game 1 started of a one-game fixture of three teams."""
    third = TeamFactory(season=night.season, pub=night.pub, name="Cronin's Jinkers")
    three = FixtureFactory(
        season=night.season, pub=night.pub, teams=[*night.teams.all(), third], games_planned=1
    )
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{three.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()


def test_deals_entered_offline_survive_a_reload_and_are_sent_once(
    night, live_server, page, assert_accessible
):
    start_three_sides(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    waiting = page.locator("#sheet-waiting")

    page.context.set_offline(True)
    enter_counts(page, [2, 2, 1])
    page.get_by_text("1 deal waiting to send").wait_for()
    enter_counts(page, [1, 2, 2])
    page.get_by_text("2 deals waiting to send").wait_for()  # kept, the form cleared
    enter_counts(page, [2, 1, 2])
    page.get_by_text("3 deals waiting to send").wait_for()
    assert Deal.objects.count() == 0
    page.reload()
    page.get_by_text("3 deals waiting to send").wait_for()
    assert page.get_by_role("button", name="Save deal 4").is_visible()
    assert_accessible(page)

    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    # Said once, on the sheet drawn again with them; gone with the next deal saved.
    expect(waiting).to_have_text(
        "3 deals kept on this phone were sent: they are in the score below."
    )
    assert_accessible(page)
    page.screenshot(path=ARTIFACTS / "kept-deals-sent.png")
    assert list(Deal.objects.order_by("number").values_list("tricks", flat=True)) == [
        "221",
        "122",
        "212",
    ]
    assert page.locator(".side-score").all_inner_texts() == ["25", "25", "25"]


def test_a_forty_five_deal_kept_offline_keeps_who_won_the_highest_trump(night, live_server, page):
    night.season.ruleset_key = "forty-five"
    night.season.save()
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    tap(page, "2")
    page.get_by_role("button", name="Save deal").first.click()
    page.locator("#box-split").get_by_text("Tap who won the highest trump").wait_for()
    tap(page, "The Robbers", within="[data-split] .bonus")
    expect(page.locator("#box-split [data-box]")).to_have_count(0)  # answered: it goes
    page.get_by_role("button", name="Save deal").first.dblclick()  # kept once
    kept = page.locator(".deal-kept")
    kept.wait_for()
    page.wait_for_timeout(300)
    expect(page.locator("#sheet-waiting")).to_contain_text("1 deal waiting to send")
    expect(kept).to_have_count(1)
    assert kept.inner_text() == (
        "Deal 1: Harbour Hearts 2 · The Robbers 3, dealt by Harbour Hearts, "
        "highest trump won by The Robbers: waiting to send"
    )
    assert page.locator("input[name='bonus_side']:checked").count() == 0  # asked again

    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    assert page.locator(".side-score").all_inner_texts() == ["10", "20"]
    assert list(Deal.objects.values_list("bonus_side", flat=True)) == [1]


def test_a_sync_cut_off_half_way_still_makes_each_deal_once(night, live_server, page):
    start_three_sides(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    enter_counts(page, [2, 2, 1])
    page.get_by_text("1 deal waiting to send").wait_for()  # kept, the form cleared
    enter_counts(page, [1, 2, 2])
    page.get_by_text("2 deals waiting to send").wait_for()
    enter_counts(page, [2, 1, 2])
    page.get_by_text("3 deals waiting to send").wait_for()

    posts = []

    def cut_the_second_answer(route):
        posts.append(route.request.url)
        if len(posts) == 2:  # the server saves it, the phone never hears back
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route("**/deals/", cut_the_second_answer)
    page.context.set_offline(False)
    page.get_by_text("2 deals waiting to send").wait_for()
    assert Deal.objects.count() == 2
    with page.expect_navigation():
        page.reload()  # the sheet opened again sends what is still waiting
    page.wait_for_load_state()
    page.locator(".result").wait_for()  # sent, and the page drawn again: the game is won
    assert len(posts) == 4  # the second deal was sent twice
    assert list(Deal.objects.order_by("number").values_list("tricks", flat=True)) == [
        "221",
        "122",
        "212",
    ]
    # The two still on the phone went: the one cut off (saved once) and the last.
    expect(page.locator("#sheet-waiting")).to_have_text(
        "2 deals kept on this phone were sent: they are in the score below."
    )


SENT_ONE = "1 deal kept on this phone was sent: it is in the score below."


def keep_a_deal_offline(page, live_server, night):
    """Game 1 started, then deal 1 (Harbour Hearts 4) entered with no connection."""
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    tap(page, "4")
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_text("1 deal waiting to send").wait_for()


def test_a_deal_kept_offline_is_sent_after_a_login_in_another_tab(night, live_server, page):
    keep_a_deal_offline(page, live_server, night)
    # A login in another tab meanwhile gives the phone's CSRF cookie a new secret: the
    # token the kept deal was entered with is out of date.
    secret = get_random_string(32)
    page.context.add_cookies([{"name": "csrftoken", "value": secret, "url": live_server.url}])
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    expect(page.locator("#sheet-waiting")).to_have_text(SENT_ONE)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]
    assert page.locator(".side-score").all_inner_texts() == ["20", "5"]
    # The next deal saved: the sentence has done its work.
    tap(page, "4")
    save(page)
    expect(page.locator("#sheet-waiting")).to_have_text("")


def test_a_deal_kept_offline_when_the_login_ends_says_so_and_goes_after_logging_in(
    night, live_server, page, assert_accessible
):
    """Found by a walk: the kept deal sat at "1 deal waiting to send…" for good, with no
    reason given and no way to the login page."""
    keep_a_deal_offline(page, live_server, night)
    page.context.clear_cookies()  # the login ends meanwhile
    page.context.set_offline(False)
    waiting = page.locator("#sheet-waiting")
    waiting.get_by_text("Your login has ended").wait_for()
    assert waiting.inner_text().startswith(
        "1 deal waiting to send: your login has ended. It is kept on this phone"
    )
    assert not Deal.objects.exists()
    assert_accessible(page)
    page.screenshot(path=ARTIFACTS / "kept-deal-login-ended.png")
    page.get_by_role("link", name="Log in to send it").click()
    page.get_by_label("Username").fill("harbour")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{night.games.get().get_absolute_url()}")
    # Sent once the page has read it back from the phone's store: the score shows it.
    # (The line is empty for a moment as the page opens, before the store is read.)
    expect(page.locator(".side-score")).to_have_text(["20", "5"])
    expect(page.locator("#sheet-waiting")).to_have_text(SENT_ONE)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["41"]


def test_a_deal_kept_offline_leaves_the_sheet_saying_what_comes_next(
    night, live_server, page, assert_accessible
):
    # With no connection the kept deal is not in the score yet: the sheet says so, and
    # offers the next deal, with the next dealer, on every way of entering it.
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    tap(page, "4")
    page.get_by_role("button", name="Save deal 1").click()
    waiting = page.locator("#sheet-waiting")
    page.get_by_text("1 deal waiting to send").wait_for()
    assert "not yet in the score below" in waiting.inner_text()
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    assert page.locator("[data-split] legend").first.inner_text().startswith("Deal 2:")
    assert page.locator("[data-split-rest]").inner_text() == "The rest go to The Robbers."
    for form in ("[data-split]", "[data-order]"):
        checked = page.locator(f"{form} input[name='dealer']:checked")
        assert checked.get_attribute("value") == "1", form
    assert page.get_by_role("button", name="Save deal 2").first.is_visible()
    assert_accessible(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "sheet-offline-kept.png", full_page=True)


def test_after_a_reload_offline_the_next_deal_is_dealt_left_of_the_kept_ones_dealer(
    night, live_server, page
):
    """Found by a walk: reloaded with deal 1 kept on the phone, the sheet proposed deal
    1's dealer again for deal 2, and deal 2 was sent as dealt by them (and a 25-25
    game goes to the side that did not deal)."""
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    tap(page, "4")
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_text("1 deal waiting to send").wait_for()
    page.reload()
    page.get_by_text("1 deal waiting to send").wait_for()
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    for form in ("[data-split]", "[data-order]"):
        checked = page.locator(f"{form} input[name='dealer']:checked")
        assert checked.get_attribute("value") == "1", form
    tap(page, "2")
    page.get_by_role("button", name="Save deal 2").first.click()
    page.get_by_text("2 deals waiting to send").wait_for()
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    assert list(Deal.objects.order_by("number").values_list("dealer", flat=True)) == [0, 1]


def test_taps_back_after_a_login_say_the_dealer_ticked_over_the_forms(night, live_server, page):
    """Found by a walk: back after logging in, the dealer ticked before was ticked again,
    while the line over the forms named the dealer the page proposed."""
    start_game(page, live_server, night)
    page.locator("[data-split] label.tap", has_text="The Robbers").first.click()  # dealt
    assert page.locator(".deal-line").inner_text() == "Deal 1 · The Robbers to deal"
    tap(page, "4")
    page.context.clear_cookies()
    page.get_by_role("button", name="Save deal 1").click()
    log_in_from_the_sheet(page)
    checked = page.locator("[data-split] input[name='dealer']:checked")
    assert checked.get_attribute("value") == "1"
    assert page.locator(".deal-line").inner_text() == "Deal 1 · The Robbers to deal"


def test_a_deal_kept_offline_is_not_added_on_top_of_another_phones_deal(
    night, live_server, new_page, assert_accessible
):
    # Two phones on one sheet. The first has no connection and keeps a deal; the
    # second, online, enters that deal meanwhile. When the first is back it must not
    # add its deal on top, as a second one: it is told, as a race lost online is.
    first = new_page()
    start_game(first, live_server, night)
    first.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    second = new_page()
    login(second, live_server, "harbour", PASSWORD)
    second.goto(first.url)
    first.context.set_offline(True)
    tap(first, "3")
    first.get_by_role("button", name="Save deal 1").click()
    first.get_by_text("1 deal waiting to send").wait_for()
    tap(second, "3")
    save(second)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]

    first.context.set_offline(False)
    first.get_by_role("heading", name="Not saved").wait_for()
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]
    assert first.locator(".side-score").all_inner_texts() == ["15", "10"]
    assert first.locator("#sheet-waiting").inner_text() == (
        "A deal kept on this phone was refused, and nothing of it was saved: the box below "
        "says why.\nDeal 1, refused: Harbour Hearts 3 · The Robbers 2, dealt by Harbour Hearts."
    )
    assert_accessible(first)


def test_a_deal_kept_offline_after_a_reload_goes_on_after_the_phones_own_deals(
    night, live_server, page
):
    # The copy of the sheet kept for no connection is the one last loaded: older than
    # the deals saved since. A deal kept on it is this phone's next, not a lost race.
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    tap(page, "4")
    save(page)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_load_state()
    tap(page, "1")
    page.get_by_role("button", name="Save deal").first.click()
    page.get_by_text("1 deal waiting to send").wait_for()
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    assert list(Deal.objects.order_by("number").values_list("tricks", flat=True)) == ["41", "14"]


def test_a_kept_deal_refused_after_others_were_sent_shows_the_sheet_as_it_stands(
    night, live_server, page, assert_accessible
):
    # Offline: a deal that wins the game, then one more. Back online the first is saved
    # and the second refused (the game is over): the refusal is shown on the sheet as
    # it stands now, the winner and the score, not on the sheet from before.
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    tap(page, "3")
    save(page)
    page.context.set_offline(True)
    tap(page, "4")
    page.get_by_role("button", name="Save deal 2").click()
    page.get_by_text("1 deal waiting to send").wait_for()
    tap(page, "3")
    page.get_by_role("button", name="Save deal 3").click()
    page.get_by_text("2 deals waiting to send").wait_for()

    page.context.set_offline(False)
    page.locator("#box-sheet [data-box]").wait_for()
    assert Deal.objects.count() == 2
    assert page.locator(".side-score").all_inner_texts() == ["35", "15"]
    assert page.locator(".result").is_visible()
    assert "game is over" in page.locator("#box-sheet").inner_text()
    assert page.locator("#sheet-waiting").inner_text() == (
        "1 deal kept on this phone was sent: it is in the score. The next one was refused, "
        "and nothing of it was saved: the box below says why.\n"
        "Deal 3, refused: Harbour Hearts 3 · The Robbers 2, dealt by Harbour Hearts."
    )
    assert_accessible(page)


def test_undo_with_no_connection_says_so_in_place_and_changes_nothing(night, live_server, page):
    start_three_sides(page, live_server, night)
    enter_counts(page, [2, 2, 1])
    page.get_by_text("Deal 1 saved").wait_for()

    page.context.set_offline(True)
    undo = page.get_by_role("button", name=re.compile("undo", re.I))
    undo.click()
    page.get_by_role("button", name="Tap again to undo deal 1").click()

    page.get_by_text("No connection: nothing was changed.").wait_for()
    assert Deal.objects.filter(live=True).count() == 1
    page.context.set_offline(False)


def test_next_game_and_take_back_with_no_connection_say_so_in_place_and_change_nothing(
    night, live_server, page, assert_accessible
):
    """Found by a walk: the sheet's two buttons that are sent as a page, not in place
    (Take this game back, Next game), gave the browser's own offline page (static/js/
    forms.js now stops every such form with no connection, and says so above it)."""
    start_game(page, live_server, night)
    sheet = page.url
    page.context.set_offline(True)
    page.get_by_role("button", name="Started by mistake? Take this game back").click()
    page.get_by_text("No connection: nothing was sent.").wait_for()
    assert page.url == sheet
    assert_accessible(page)
    page.context.set_offline(False)
    tap(page, "4")
    save(page)
    tap(page, "3")
    save(page)  # 35 – 15: game 1 won

    page.context.set_offline(True)
    page.get_by_role("button", name="Next game: game 2").click()
    page.get_by_text("No connection: nothing was sent.").wait_for()
    assert page.url == sheet
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    page.context.set_offline(False)
    with page.expect_navigation():
        page.get_by_role("button", name="Next game: game 2").click()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Game 2")


# Wi-Fi with no internet behind it: the phone believes it is online, and hears of no
# change when the internet goes or comes back (no "offline" or "online" event).
ONLINE_ALL_THE_SAME = """
Object.defineProperty(Navigator.prototype, "onLine", {get: () => true});
for (const name of ["online", "offline"]) {
    window.addEventListener(name, event => event.stopImmediatePropagation(), true);
}
"""


def test_a_form_sent_on_wifi_with_no_internet_gets_the_no_connection_page(
    night, live_server, page, assert_accessible
):
    """Left open by an earlier walk: a phone on the pub's Wi-Fi with no internet behind
    it believes it is online, so forms.js let Next game go, and the browser showed its
    own offline page, with nothing to say whether the game had started. The service
    worker now answers with the "No connection" page kept with the sheet."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    tap(page, "4")
    save(page)
    tap(page, "3")
    save(page)  # 35 – 15: game 1 won
    sheet = page.url

    page.context.set_offline(True)
    page.get_by_role("button", name="Next game: game 2").click()
    page.get_by_role("heading", name="No connection").wait_for()
    assert "it may not have been done" in page.locator("main").inner_text()
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    assert_accessible(page)

    with page.expect_navigation():
        page.get_by_role("button", name="Go back").click()
    assert page.url == sheet
    page.context.set_offline(False)
    with page.expect_navigation():
        page.get_by_role("button", name="Next game: game 2").click()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Game 2")


def start_game_with_no_internet(page, live_server, night) -> str:
    """The pub's organiser logs in and, on the match's page (what is kept for no
    connection ready), taps Start game 1 with the phone offline; the match's address.
    Left offline, at the page the phone shows for no connection."""
    login(page, live_server, "harbour", PASSWORD)
    play = f"{live_server.url}/games/fixtures/{night.pk}/play/"
    page.goto(play)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    page.get_by_role("button", name="Start game 1").click()
    page.get_by_role("heading", name="No connection").wait_for()
    return play


def test_start_game_on_wifi_with_no_internet_gets_the_no_connection_page_on_a_new_phone(
    night, live_server, page, assert_accessible
):
    """Left open by an earlier session: the "No connection" page was kept only by a phone
    that had opened a table sheet, so the night's first tap, Start game on a phone new
    to the site, gave the browser's own offline page on Wi-Fi with no internet behind
    it, with nothing to say whether the game had started. Every page of someone logged
    in now keeps it."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    play = start_game_with_no_internet(page, live_server, night)
    assert "it may not have been done" in page.locator("main").inner_text()
    assert not Game.objects.exists()
    assert_accessible(page)

    page.context.set_offline(False)  # as the page says: go back once the connection is back
    with page.expect_navigation():
        page.get_by_role("button", name="Go back").click()
    assert page.url == play
    with page.expect_navigation():
        page.get_by_role("button", name="Start game 1").click()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Game 1")


def test_what_is_kept_for_no_connection_is_fetched_once_not_on_every_page(night, live_server, page):
    """Each page of someone logged in keeps the "No connection" page (and a sheet its own
    copy): fetched again on every page, it doubled the site's work for organisers (a
    sheet, the busiest page, drawn twice on each opening). Kept once: a sheet's copy is
    kept current by the service worker and by the sheet itself."""
    fetched = []
    page.on("request", lambda request: fetched.append(urlsplit(request.url).path))
    login(page, live_server, "harbour", PASSWORD)
    page.wait_for_function(OFFLINE_READY)
    play = f"{live_server.url}/games/fixtures/{night.pk}/play/"
    page.goto(play)
    page.wait_for_function(OFFLINE_READY)
    with page.expect_navigation():
        page.get_by_role("button", name="Start game 1").click()
    page.wait_for_function(OFFLINE_READY)
    sheet, opened = urlsplit(page.url).path, len(fetched)
    for _ in range(2):
        page.reload()
        page.wait_for_function(OFFLINE_READY)
    page.goto(play)
    page.wait_for_function(OFFLINE_READY)
    assert fetched.count("/games/no-connection/") == 1
    assert fetched[opened:].count(sheet) == 2  # the two reloads, each once


def test_a_new_service_worker_takes_the_no_connection_page_afresh(night, live_server, page):
    """The "No connection" page is fetched once and kept: a copy kept as an older site
    drew it (before 12-07 it had the Log out button of whoever kept it, and could hold a
    message meant for their next page) would be shown for good. A new service worker
    drops it on taking over, and the next page of someone logged in keeps the page as
    the site draws it now."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    page.goto(f"{live_server.url}/")  # a visitor's page: no worker yet
    page.evaluate(
        """() => caches.open("sheet-shell-v1").then(cache => cache.put(
            "/games/no-connection/",
            new Response("<h1>No connection, as an older site drew it</h1>",
                         {headers: {"Content-Type": "text/html"}})))"""
    )
    start_game_with_no_internet(page, live_server, night)
    shown = page.locator("body").inner_text()
    assert "older site" not in shown and "it may not have been done" in shown
    page.context.set_offline(False)


def test_a_visitor_keeps_nothing_for_no_connection(live_server, page):
    """The service worker is for people who change things (and for table sheets): a
    visitor's other pages are served from the site's cache, and send no form that
    changes anything."""
    page.goto(f"{live_server.url}/")
    page.wait_for_load_state("load")
    assert page.locator("[data-sw]").count() == 0
    assert page.evaluate("() => navigator.serviceWorker.getRegistrations()") == []


def test_the_no_connection_page_offers_go_back_only_with_a_page_to_go_back_to(
    live_server, page, assert_accessible
):
    """A link opened from another app with no connection has no page behind it: a Go
    back button there would do nothing."""
    page.goto(f"{live_server.url}/games/no-connection/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.get_by_role("button", name="Go back")).to_be_hidden()
    assert_accessible(page)


def test_deals_entered_on_wifi_with_no_internet_wait_on_the_phone_and_go_when_it_is_back(
    night, live_server, page, assert_accessible
):
    """Found by trying to break the sheet: on the pub's Wi-Fi with no internet behind
    it, the phone believes it is online, so a deal was sent, the sending failed, and the
    sheet said to tap again later: the next deal could not be entered until then. Deals
    now wait on the phone as with no connection, and go when the site answers again:
    tried every 10 s (no "online" event comes), but not while the next deal's tricks are
    being tapped (the sheet is drawn again once they go), and with the next Save."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)

    page.context.set_offline(True)
    tap(page, "3")
    page.get_by_role("button", name="Save deal 1").first.click()
    waiting = page.locator("#sheet-waiting")
    expect(waiting).to_have_text(
        "1 deal waiting to send: kept on this phone, not yet in the score below. "
        "It goes when the connection is back."
    )
    expect(page.locator(".deal-kept")).to_have_count(1)
    assert page.get_by_role("button", name="Save deal 2").first.is_visible()
    assert not Deal.objects.exists()
    assert_accessible(page)

    page.context.set_offline(False)
    tap(page, "4")  # deal 2 being tapped: the retry waits for its Save
    page.wait_for_timeout(12_000)
    assert not Deal.objects.exists()
    assert page.locator("[data-split] input[name=first][value='4']").is_checked()
    page.get_by_role("button", name="Save deal 2").first.click()  # 35 – 15: won
    expect(waiting).to_have_text(
        "2 deals kept on this phone were sent: they are in the score below.", timeout=20_000
    )
    tricks = Deal.objects.order_by("number").values_list("tricks", flat=True)
    assert list(tricks) == ["32", "41"]
    assert page.locator(".side-score").all_inner_texts() == ["35", "15"]


def test_a_six_hand_deal_being_entered_holds_back_the_deals_kept_on_wifi_with_no_internet(
    night, live_server, page
):
    """As the taps of two sides' deal: a count entered for a table of six is not lost to
    the sheet drawn again once the deals kept go; its Save sends them all."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    start_three_sides(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    enter_counts(page, [2, 2, 1])
    waiting = page.locator("#sheet-waiting")
    expect(waiting).to_contain_text("1 deal waiting to send: kept on this phone")

    page.context.set_offline(False)
    page.locator("#tricks-0").fill("1")
    page.wait_for_timeout(12_000)
    assert not Deal.objects.exists()
    assert page.locator("#tricks-0").input_value() == "1"
    enter_counts(page, [1, 2, 2])
    expect(waiting).to_have_text(
        "2 deals kept on this phone were sent: they are in the score below.", timeout=20_000
    )
    assert list(Deal.objects.order_by("number").values_list("tricks", flat=True)) == ["221", "122"]


@pytest.mark.parametrize("answer", ["lost", "never comes"])
def test_a_deal_whose_answer_is_lost_on_wifi_with_no_internet_is_saved_once(
    night, live_server, page, answer
):
    """The site saved the deal, and its answer was lost on the way back, or never came
    (the sheet gives up after 10 s): kept on the phone under its key, the deal is sent
    again when the site answers, and it is the same deal, not a second."""
    page.context.add_init_script(ONLINE_ALL_THE_SAME)
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    posts, held = [], []

    def lose_the_first_answer(route):
        posts.append(route.request.post_data)
        if len(posts) > 1:
            route.continue_()
            return
        route.fetch()  # saved by the site
        if answer == "lost":
            route.abort()
        else:
            held.append(route)  # no answer at all

    page.route("**/deals/", lose_the_first_answer)
    tap(page, "3")
    page.get_by_role("button", name="Save deal 1").first.click()
    expect(page.locator(".deal-kept")).to_have_count(1, timeout=15_000)
    waiting = page.locator("#sheet-waiting")
    expect(waiting).to_have_text(
        "1 deal kept on this phone was sent: it is in the score below.", timeout=30_000
    )
    assert len(posts) == 2
    key = re.search(r"key=([0-9a-f-]+)", posts[0]).group(1)
    assert key in posts[1]
    assert list(Deal.objects.values_list("number", "tricks")) == [(1, "32")]
    assert page.locator(".side-score").all_inner_texts() == ["15", "10"]
    page.unroute("**/deals/")


def test_any_form_sent_with_no_connection_says_so_above_it_and_sends_nothing(
    night, live_server, page, assert_accessible
):
    """The match's Start game 1, as any form sent as a page: with no connection, the
    browser's own offline page before."""
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    match = page.url
    page.context.set_offline(True)

    page.get_by_role("button", name="Start game 1").click()

    page.get_by_role("alert").filter(has_text="No connection: nothing was sent.").wait_for()
    assert page.url == match
    assert not Game.objects.exists()
    assert_accessible(page)
    page.context.set_offline(False)
    with page.expect_navigation():
        page.get_by_role("button", name="Start game 1").click()
    assert Game.objects.get().number == 1


def test_a_game_started_by_mistake_is_taken_back_and_started_again(
    night, live_server, page, assert_accessible
):
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/games/fixtures/{night.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Started by mistake? Take this game back").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == "Take back game 1?"
    assert_accessible(page)
    page.get_by_role("button", name="Take it back").click()
    page.wait_for_load_state()
    assert "Game 1 taken back" in page.locator(".messages").inner_text()
    assert not Game.objects.filter(fixture=night).exists()
    page.get_by_role("button", name="Start game 1").click()  # the match starts it again
    page.wait_for_load_state()
    assert Game.objects.filter(fixture=night, number=1).count() == 1


def test_offline_trick_by_trick_never_saves_itself_from_a_score_it_cannot_know(
    night, live_server, page
):
    """A deal kept on the phone is not in the score on screen: trick by trick counted on
    from that old score, took it to have reached 25 and kept a two-trick deal by itself."""
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    tap(page, "2")
    save(page)  # 10 – 15
    page.context.set_offline(True)
    tap(page, "2")
    page.get_by_role("button", name="Save deal 2").first.click()
    page.get_by_text("1 deal waiting to send").wait_for()
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "The Robbers")
    order_tap(page, 2, "The Robbers")  # 25 on the old score: it kept the deal here
    total = page.locator("[data-trick-total]")
    assert total.inner_text() == (
        "Harbour Hearts 0 tricks · The Robbers 2 tricks: the score follows once the deal "
        "kept on this phone is sent"
    )
    page.wait_for_timeout(500)
    assert "1 deal waiting to send" in page.locator("#sheet-waiting").inner_text()
    page.screenshot(path=ARTIFACTS / "sheet-offline-trick-by-trick.png")
    assert page.locator("[data-order] input[name='trick_2']:checked").count() == 1
    back_online_and_sent(page)


def test_deals_kept_after_one_refused_are_said_not_sent_and_none_left_waiting(
    night, live_server, page
):
    """Three deals kept; the first wins the game, so the second is refused: the third
    stayed "waiting to send…" for good, sent never, said nowhere."""
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    start_game(page, live_server, night)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    page.context.set_offline(True)
    for deal, first in ((1, "5"), (2, "3"), (3, "2")):
        tap(page, first)
        page.get_by_role("button", name=f"Save deal {deal}").first.click()
        page.get_by_text(f"{deal} deal{'s' if deal > 1 else ''} waiting to send").wait_for()
        # Found by a walk: the kept deal's "3 – 2" went, and the line with it.
        assert page.locator("[data-split-rest]").inner_text() == "The rest go to The Robbers."
    page.context.set_offline(False)
    waiting = page.locator("#sheet-waiting")
    waiting.get_by_text("not sent").wait_for()
    # Found by a walk: it said what was not sent, not that the first deal went in.
    assert waiting.inner_text() == (
        "1 deal kept on this phone was sent: it is in the score. The next one was refused, "
        "and nothing of it was saved: the box below says why. 1 more deal entered after it "
        "was not sent: check the score and enter it again if it is still right.\n"
        "Deal 2, refused: Harbour Hearts 3 · The Robbers 2, dealt by The Robbers.\n"
        "Deal 3, not sent: Harbour Hearts 2 · The Robbers 3, dealt by Harbour Hearts."
    )
    assert "the game is over" in page.locator("#box-sheet").inner_text()
    page.screenshot(path=ARTIFACTS / "sheet-offline-one-refused.png")
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["50"]
    kept = page.evaluate(
        """() => new Promise(done => {
             const open = indexedDB.open("twentyfive-offline", 1);
             open.onsuccess = () => {
               const all = open.result.transaction("deals").objectStore("deals").getAll();
               all.onsuccess = () => done(all.result.length);
             };
           })"""
    )
    assert kept == 0
    assert problems == []
    page.screenshot(path=ARTIFACTS / "sheet-kept-after-a-refusal.png")


def back_online_and_sent(page):
    """The connection back, and the deals kept on the phone sent: waited for, so that
    none is still on its way to the site when the test ends (its tables are emptied
    then, and a deal written meanwhile deadlocked with that)."""
    page.context.set_offline(False)
    expect(page.locator("#sheet-waiting.sent")).to_contain_text("sent", timeout=15_000)


OFFLINE_READY = "() => document.documentElement.dataset.offlineReady === '1'"


def keep_offline(page, first, deal):
    """Tap `first` tricks for Harbour Hearts and keep deal `deal` on the phone."""
    kept = page.locator(".deal-kept").count()
    tap(page, first)
    page.get_by_role("button", name=f"Save deal {deal}").first.click()
    expect(page.locator(".deal-kept")).to_have_count(kept + 1)


def test_undo_offline_takes_back_the_last_deal_kept_on_the_phone(
    night, live_server, page, assert_accessible
):
    """Found by a walk: with deals kept on the phone, Undo asked "Tap again to undo deal 1"
    (the last deal the server has) and then said "No connection": the kept deal, the one
    just entered wrong, could not be taken back."""
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    tap(page, "3")
    save(page)  # deal 1, on the server: 15 – 10
    page.context.set_offline(True)
    keep_offline(page, "4", 2)
    keep_offline(page, "1", 3)
    expect(page.locator(".deal-kept")).to_have_count(2)
    assert page.locator(".deal-line").inner_text() == "Deal 4 · The Robbers to deal"

    undo = page.get_by_role("button", name=re.compile("undo", re.I))
    expect(undo).to_have_text("Undo deal 3, kept on this phone")
    undo.click()
    expect(undo).to_have_text("Tap again to undo deal 3")
    assert_accessible(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "undo-kept-asks.png")
    undo.click()
    expect(page.locator(".deal-kept")).to_have_count(1)
    assert said(page) == (
        "Deal 3 undone: Harbour Hearts 1 · The Robbers 4, dealt by Harbour Hearts. "
        "It was kept on this phone and never sent, so the score has not changed."
    )
    assert page.locator("#sheet-waiting").inner_text().startswith("1 deal waiting to send")
    assert page.locator(".deal-line").inner_text() == "Deal 3 · Harbour Hearts to deal"
    for form in ("[data-split]", "[data-order]"):
        checked = page.locator(f"{form} input[name='dealer']:checked")
        assert checked.get_attribute("value") == "0", form
    assert page.get_by_role("button", name="Save deal 3").first.is_visible()
    expect(undo).to_have_text("Undo deal 2, kept on this phone")
    assert in_view(page, "#sheet-said")
    assert_accessible(page)
    page.screenshot(path=ARTIFACTS / "undo-kept-done.png")

    # The last kept deal taken back too: Undo is the server's again, for deal 1.
    undo.click()
    undo.click()
    expect(page.locator(".deal-kept")).to_have_count(0)
    assert said(page).startswith("Deal 2 undone: Harbour Hearts 4 · The Robbers 1")
    expect(page.locator("#sheet-waiting")).to_have_text("")
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    expect(undo).to_have_text("Undo the last deal")
    undo.click()
    expect(undo).to_have_text("Tap again to undo deal 1")
    page.wait_for_timeout(1100)
    undo.click()
    page.get_by_text("No connection: nothing was changed.").wait_for()

    page.context.set_offline(False)
    page.wait_for_timeout(1000)  # nothing left to send
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]


def test_a_deal_kept_before_any_is_saved_can_be_undone_offline(night, live_server, page):
    """With no deal on the server there was no Undo at all, and "Take this game back"
    is hidden while a deal waits: a deal kept by mistake could not be taken back."""
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    keep_offline(page, "2", 1)
    undo = page.get_by_role("button", name=re.compile("undo", re.I))
    expect(undo).to_have_text("Undo deal 1, kept on this phone")
    undo.click()
    undo.click()
    expect(page.locator(".deal-kept")).to_have_count(0)
    assert said(page).startswith("Deal 1 undone: Harbour Hearts 2 · The Robbers 3")
    expect(undo).to_have_count(0)
    expect(page.locator("[data-no-deals]")).to_be_visible()
    expect(
        page.get_by_role("button", name="Started by mistake? Take this game back")
    ).to_be_visible()
    assert page.locator(".deal-line").inner_text() == "Deal 1 · Harbour Hearts to deal"
    page.context.set_offline(False)
    page.wait_for_timeout(1000)
    assert not Deal.objects.exists()


def test_deals_refused_or_not_sent_are_said_with_their_tricks(
    night, live_server, page, assert_accessible
):
    """Found by a walk: "2 more deals entered after it were not sent: … enter them
    again": which tricks they had was said nowhere, the list of kept deals gone."""
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    for deal, first in ((1, "5"), (2, "3"), (3, "2"), (4, "1")):
        keep_offline(page, first, deal)
    page.context.set_offline(False)
    waiting = page.locator("#sheet-waiting")
    waiting.get_by_text("not sent").first.wait_for()
    assert waiting.inner_text() == (
        "1 deal kept on this phone was sent: it is in the score. The next one was refused, "
        "and nothing of it was saved: the box below says why. 2 more deals entered after "
        "it were not sent: check the score and enter them again if they are still right.\n"
        "Deal 2, refused: Harbour Hearts 3 · The Robbers 2, dealt by The Robbers.\n"
        "Deal 3, not sent: Harbour Hearts 2 · The Robbers 3, dealt by Harbour Hearts.\n"
        "Deal 4, not sent: Harbour Hearts 1 · The Robbers 4, dealt by The Robbers."
    )
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["50"]
    assert_accessible(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "refused-with-tricks.png", full_page=True)


def test_a_deal_kept_offline_clears_the_boxes_of_earlier_taps(night, live_server, page):
    """Found by a walk: "No connection: nothing was changed" (an Undo tapped offline) and a
    Save refused for a missing count stayed on screen after the next deal was kept."""
    start_game(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    tap(page, "3")
    save(page)
    page.context.set_offline(True)
    undo = page.get_by_role("button", name=re.compile("undo", re.I))
    undo.click()
    page.wait_for_timeout(1100)
    undo.click()
    page.get_by_text("No connection: nothing was changed.").wait_for()
    page.get_by_role("button", name="Save deal 2").first.click()  # no count tapped
    page.locator("#box-split").get_by_text("Tap how many tricks").wait_for()

    page.get_by_text("Trick by trick").click()
    for trick in range(1, 4):
        order_tap(page, trick, "The Robbers")  # 25 at trick 3: kept by itself
    page.get_by_text("1 deal waiting to send").wait_for()
    assert page.locator("[data-order] input[name^='trick_']:checked").count() == 0
    expect(page.locator("#sheet [role=alert]")).to_have_count(0)
    assert said(page) == ""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "kept-boxes-cleared.png", full_page=True)
    back_online_and_sent(page)


def test_a_not_saved_box_goes_once_a_later_deal_is_kept(night, live_server, new_page):
    """The "Not saved" of a kept deal that lost a race stayed on the sheet while the next
    deals were kept on the phone, offline again."""
    first = new_page()
    start_game(first, live_server, night)
    first.wait_for_function(OFFLINE_READY)
    second = new_page()
    login(second, live_server, "harbour", PASSWORD)
    second.goto(first.url)
    first.context.set_offline(True)
    keep_offline(first, "3", 1)
    tap(second, "3")
    save(second)
    first.context.set_offline(False)
    first.get_by_role("heading", name="Not saved").wait_for()

    first.context.set_offline(True)
    keep_offline(first, "2", 2)
    expect(first.get_by_role("heading", name="Not saved")).to_have_count(0)
    expect(first.locator("#sheet [role=alert]")).to_have_count(0)
    assert "1 deal waiting to send" in first.locator("#sheet-waiting").inner_text()
    back_online_and_sent(first)


def test_offline_a_deal_the_rules_refuse_for_its_tricks_is_not_kept(night, live_server, page):
    """Found by a walk: with no connection, 3 tricks of 5 (steppers) or one trick tapped
    then Save (trick by trick) were kept, and refused on reconnect with every deal kept
    after them. The tricks are checked before a deal is kept, as the server would."""
    start_three_sides(page, live_server, night)
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    enter_counts(page, [2, 1, 0])
    box = page.locator("#box-count [data-box]")
    box.wait_for()
    assert "The tricks add up to 3, not 5, and no side reaches 25." in box.inner_text()
    assert "Nothing was kept" in box.inner_text()
    assert page.locator(".deal-kept").count() == 0
    assert page.locator("#tricks-0").input_value() == "2"  # the taps stay, to put right

    enter_counts(page, [2, 2, 2])
    expect(box).to_contain_text("The tricks add up to 6, not 5.")
    enter_counts(page, [2, 2, 1])
    expect(page.locator(".deal-kept")).to_have_count(1)

    page.locator("details.by-trick summary").click()
    order_tap(page, 1, "Harbour Hearts")
    page.locator("[data-order] button.save").click()
    order_box = page.locator("#box-order [data-box]")
    expect(order_box).to_contain_text("The tricks add up to 1, not 5")
    assert page.locator(".deal-kept").count() == 1
    page.context.set_offline(False)
    expect(page.locator(".deal-kept")).to_have_count(0)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["221"]
