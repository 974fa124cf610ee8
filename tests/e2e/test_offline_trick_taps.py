"""Trick by trick with no connection: the tricks tapped so far of the deal in progress
survive a reload (or the phone's browser killing and reloading the tab), and go once
the deal is kept or sent, on Undo, and when they no longer fit the sheet (the game
moved on on another phone, another game's sheet)."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Deal, Game
from tests.e2e.conftest import ARTIFACTS, login
from tests.e2e.test_sheet import OFFLINE_READY, keep_offline, said
from tests.e2e.test_sheet_walk import a_night, start_game
from tests.factories import PASSWORD, FixtureFactory, TeamFactory

pytestmark = pytest.mark.django_db(transaction=True)

TAPPED = """() => Object.fromEntries(Array.from(
    document.querySelectorAll("[data-order] input[name^='trick_']:checked"),
    input => [input.name, input.value]))"""


def order_tap(page, trick, side):
    page.locator(f"[data-order] [data-trick='{trick}'] label.tap", has_text=side).click()


def tapped(page):
    """The tricks ticked in trick by trick: {"trick_1": "0", ...} (the side's index)."""
    return page.evaluate(TAPPED)


def tricks_back(page, count):
    """Wait for `count` tricks ticked in trick by trick (put back once the deals kept on
    the phone are counted), and say which."""
    expect(page.locator("[data-order] input[name^='trick_']:checked")).to_have_count(count)
    return tapped(page)


def nothing_back(page):
    """The reloaded sheet has settled (the deals kept counted) with no trick ticked."""
    page.wait_for_function("() => document.getElementById('sheet').dataset.kept !== undefined")
    page.wait_for_timeout(300)
    assert tapped(page) == {}
    assert page.locator("[data-trick-total]").is_hidden()


def test_tricks_tapped_offline_are_back_after_a_reload_and_the_deal_goes_once(
    live_server, page, assert_accessible
):
    start_game(page, live_server, a_night())
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "Harbour Hearts")
    order_tap(page, 2, "The Robbers")
    order_tap(page, 3, "Harbour Hearts")

    page.reload()  # the Wi-Fi gone, the tab reloaded: the copy kept for no connection
    assert tricks_back(page, 3) == {"trick_1": "0", "trick_2": "1", "trick_3": "0"}
    assert page.locator("details.by-trick").get_attribute("open") is not None
    expect(page.locator("[data-trick-total]")).to_have_text(
        "Harbour Hearts 2 tricks, score 10 · The Robbers 1 trick, score 5"
    )
    assert said(page) == "Not saved yet: the tricks you tapped are back."
    assert_accessible(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "sheet-offline-taps-back.png")

    # The deal finished: kept on the phone, its taps go with it.
    order_tap(page, 4, "The Robbers")
    order_tap(page, 5, "Harbour Hearts")
    page.get_by_text("1 deal waiting to send").wait_for()
    assert tapped(page) == {}
    page.reload()
    page.get_by_text("1 deal waiting to send").wait_for()
    nothing_back(page)

    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    nothing_back(page)
    assert list(Deal.objects.values_list("tricks", "trick_winners")) == [("32", "01010")]
    assert page.locator(".side-score").all_inner_texts() == ["15", "10"]


def test_taps_of_the_next_deal_stay_through_the_reload_that_sends_the_kept_ones(live_server, page):
    """A deal kept, the next one begun trick by trick: the connection back, the kept deal
    is sent and the sheet drawn again, with the tricks of the deal in progress on it.
    With the kept deal in the score they take The Robbers to 25: saved with one tap."""
    start_game(page, live_server, a_night())
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    keep_offline(page, "2", 1)  # 10 – 15
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "The Robbers")
    order_tap(page, 2, "The Robbers")
    page.reload()
    assert tricks_back(page, 2) == {"trick_1": "1", "trick_2": "1"}
    expect(page.locator("[data-trick-total]")).to_have_text(
        "Harbour Hearts 0 tricks · The Robbers 2 tricks: the score follows once the deal "
        "kept on this phone is sent"
    )
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"

    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    assert tricks_back(page, 2) == {"trick_1": "1", "trick_2": "1"}
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    expect(page.locator("[data-trick-total]")).to_have_text(
        "Harbour Hearts 0 tricks, score 10 · The Robbers 2 tricks, score 25"
    )
    assert said(page) == (
        "Not saved yet: the tricks you tapped are back. Tap Save deal 2 to save them."
    )
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["23"]

    with page.expect_response(lambda r: "/deals/" in r.url):
        page.locator("[data-order] button.save").click()
    page.get_by_text("The Robbers win game 1").first.wait_for()
    page.reload()
    nothing_back(page)
    assert list(Deal.objects.order_by("number").values_list("tricks", "trick_winners")) == [
        ("23", ""),
        ("02", "11"),
    ]


def test_taps_kept_for_one_game_are_not_on_another_games_sheet(live_server, page):
    fixture = a_night()
    teams = [
        TeamFactory(season=fixture.season, pub=fixture.pub, name=name)
        for name in ("Ennis Aces", "Kilkee Knaves")
    ]
    other = FixtureFactory(season=fixture.season, pub=fixture.pub, teams=teams)
    other_game = services.game_next(fixture=other, number=1, first_dealer=0)
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}{other_game.get_absolute_url()}")  # kept for no connection
    page.wait_for_function(OFFLINE_READY)
    page.goto(f"{live_server.url}/games/fixtures/{fixture.pk}/play/")
    page.get_by_role("button", name="Start game 1").click()
    page.wait_for_load_state()
    page.wait_for_function(OFFLINE_READY)
    game = Game.objects.get(fixture=fixture)

    page.context.set_offline(True)
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "Harbour Hearts")
    order_tap(page, 2, "Harbour Hearts")
    page.goto(f"{live_server.url}{other_game.get_absolute_url()}")
    page.get_by_text("Ennis Aces").first.wait_for()
    nothing_back(page)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert tricks_back(page, 2) == {"trick_1": "0", "trick_2": "0"}
    page.context.set_offline(False)


def test_taps_go_when_the_game_moved_on_on_another_phone(live_server, page):
    fixture = a_night()
    start_game(page, live_server, fixture)
    page.wait_for_function(OFFLINE_READY)
    game = Game.objects.get(fixture=fixture)
    page.context.set_offline(True)
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "The Robbers")
    order_tap(page, 2, "Harbour Hearts")
    # Meanwhile deal 1 is entered on another phone: the taps were for a deal now played.
    services.deal_record(game=game, dealer=0, tricks=[3, 2], key=uuid.uuid4(), version=1)

    page.context.set_offline(False)
    page.reload()
    page.get_by_text("Deal 2 ·").wait_for()
    nothing_back(page)
    page.context.set_offline(True)
    page.reload()  # gone, not only left out: not back on the copy kept either
    nothing_back(page)
    page.context.set_offline(False)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]


def test_undo_of_the_deal_kept_before_takes_the_taps_with_it(live_server, page):
    """Undo takes back the deal kept on the phone, to enter again: the tricks tapped for
    the deal after it go, on the screen and after a reload."""
    start_game(page, live_server, a_night())
    page.wait_for_function(OFFLINE_READY)
    page.context.set_offline(True)
    keep_offline(page, "2", 1)
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "Harbour Hearts")
    order_tap(page, 2, "The Robbers")
    undo = page.get_by_role("button", name=re.compile("undo", re.I))
    undo.click()
    undo.click()
    expect(page.locator(".deal-kept")).to_have_count(0)
    assert tapped(page) == {}
    page.reload()
    nothing_back(page)
    assert page.locator(".deal-line").inner_text() == "Deal 1 · Harbour Hearts to deal"
    page.context.set_offline(False)
    page.wait_for_timeout(500)
    assert not Deal.objects.exists()


def test_undo_online_takes_the_taps_with_it(live_server, page):
    start_game(page, live_server, a_night())
    page.locator("[data-split] label.tap", has_text="3").click()
    with page.expect_response(lambda r: "/deals/" in r.url):
        page.get_by_role("button", name="Save deal 1").first.click()
    page.get_by_text("Deal 1 saved").wait_for()
    page.get_by_text("Trick by trick").click()
    order_tap(page, 1, "Harbour Hearts")
    undo = page.locator("form.undo button")
    undo.click()
    page.wait_for_timeout(1100)
    with page.expect_response(lambda r: "/undo/" in r.url):
        undo.click()
    page.get_by_text("Deal 1 undone").wait_for()
    page.reload()
    nothing_back(page)
    assert not Deal.objects.filter(live=True).exists()
