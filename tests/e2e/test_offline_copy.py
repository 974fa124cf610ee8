"""The copy of the sheet kept for no connection follows the deals saved online.

Found by a walk: the copy was the page as it was at its last full load. Deals saved
since (each drawn in place, with no new page) were not in it, so when the pub's Wi-Fi
went and the phone reloaded the sheet, it showed an older deal number, an older score
and fewer deals: it looked as if deals were lost."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Deal, Game, ScorerLink
from tests.e2e.conftest import ARTIFACTS, swapped
from tests.e2e.test_sheet import OFFLINE_READY, said, sheet_checked
from tests.e2e.test_sheet_walk import a_night, start_game

pytestmark = pytest.mark.django_db(transaction=True)

KEPT_COPY = """async path => {
    const kept = await (await caches.open("sheet-shell-v1")).match(path);
    return {
        type: kept.headers.get("Content-Type"),
        csp: kept.headers.get("Content-Security-Policy"),
        text: await kept.text(),
    };
}"""


CAUGHT_UP = """async () => {
    const kept = await caches.match(location.pathname);
    const shown = document.getElementById("sheet").dataset.version;
    return Boolean(kept) && (await kept.text()).includes(`data-version="${shown}"`);
}"""


WAITING_KEYS = """() => new Promise(resolve => {
    indexedDB.open("twentyfive-offline", 1).onsuccess = event => {
        const db = event.target.result;
        const names = Array.from(db.objectStoreNames);
        db.transaction(names[0]).objectStore(names[0]).getAll().onsuccess = e =>
            resolve(e.target.result.map(d => d.fields.find(f => f[0] === "key")[1]));
    };
})"""


def copy_caught_up(page):
    """A moment for the copy to be written after the swap (the reload then says whether
    it was): a phone is reloaded long after, the test at once."""
    for _ in range(30):
        if page.evaluate(CAUGHT_UP):
            return
        page.wait_for_timeout(100)


def forty_five_night():
    """Forty-Five (to 45): three deals of two sides are played before anyone wins."""
    fixture = a_night()
    fixture.season.ruleset_key = "forty-five"
    fixture.season.save()
    return fixture


def save_online(page, first, bonus):
    """Tap `first` tricks for Harbour Hearts and who won the highest trump, and save."""
    page.locator("[data-split] label.tap", has_text=first).first.click()
    page.locator("[data-split] .bonus label.tap", has_text=bonus).click()
    with swapped(page, "/deals/"):
        page.locator("[data-split] button.save").click()


def deals_listed(page):
    return page.locator("ol.deals .deal-row:not(.deal-kept) .deal-no").all_inner_texts()


def scores(page):
    return page.locator(".side-score").all_inner_texts()


def reload_offline(page):
    """The Wi-Fi gone and the sheet reloaded: the copy kept on the phone, settled."""
    page.context.set_offline(True)
    page.reload()
    page.wait_for_function("() => document.getElementById('sheet').dataset.kept !== undefined")


def test_a_reload_with_no_connection_shows_the_deals_saved_online(
    live_server, page, assert_accessible
):
    fixture = forty_five_night()
    start_game(page, live_server, fixture)
    page.wait_for_function(OFFLINE_READY)
    path = Game.objects.get(fixture=fixture).get_absolute_url()
    blocked = []
    page.on("console", lambda m: "Content Security Policy" in m.text and blocked.append(m.text))
    asked = []  # the sheet asked for again: no request more than the deal's own
    page.on("request", lambda r: r.url.endswith(path) and asked.append(r.method))

    save_online(page, "3", "No trump played")  # deal 1: 15 – 10
    save_online(page, "2", "The Robbers")  # deal 2: 25 – 30
    assert said(page) == "Deal 2 saved: Harbour Hearts 25 – The Robbers 30."
    copy_caught_up(page)
    assert asked == []
    kept = page.evaluate(KEPT_COPY, path)
    assert kept["type"].startswith("text/html")
    # The page's script runs in the copy: its nonce is the one its header allows.
    nonce = re.search(r"'nonce-([^']+)'", kept["csp"]).group(1)
    assert re.search(rf'<script src="[^"]*sheet[^"]*\.js" nonce="{re.escape(nonce)}"', kept["text"])

    reload_offline(page)
    assert page.locator(".deal-line").inner_text() == "Deal 3 · Harbour Hearts to deal"
    assert scores(page) == ["25", "30"]
    assert deals_listed(page) == ["Deal 1", "Deal 2"]
    assert page.get_by_role("button", name="Save deal 3").first.is_visible()
    assert said(page) == ""  # "Deal 2 saved" was news once, not on every reload
    assert page.evaluate("document.compatMode") == "CSS1Compat"  # a doctype, as served
    assert_accessible(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "sheet-offline-copy.png")

    # A deal kept on the phone goes on top of them, once.
    page.locator("[data-split] label.tap", has_text="3").first.click()
    page.locator("[data-split] .bonus label.tap", has_text="No trump played").click()
    page.locator("[data-split] button.save").click()
    expect(page.locator(".deal-kept")).to_have_text(
        "Deal 3: Harbour Hearts 3 · The Robbers 2, dealt by Harbour Hearts, "
        "no trump played: waiting to send"
    )
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    expect(page.locator("#sheet-waiting")).to_have_text(
        "1 deal kept on this phone was sent: it is in the score below."
    )
    assert list(Deal.objects.order_by("number").values_list("number", "tricks")) == [
        (1, "32"),
        (2, "23"),
        (3, "32"),
    ]
    assert scores(page) == ["40", "40"]
    assert deals_listed(page) == ["Deal 1", "Deal 2", "Deal 3"]
    assert blocked == []


def test_a_reload_with_no_connection_after_an_undo_leaves_the_deal_out(
    live_server, page, assert_accessible
):
    fixture = forty_five_night()
    start_game(page, live_server, fixture)
    save_online(page, "3", "No trump played")
    save_online(page, "2", "The Robbers")
    page.reload()  # the copy kept is now a page with both deals
    page.wait_for_function(OFFLINE_READY)
    undo = page.locator("form.undo:not([data-take-back]) button")
    undo.click()
    page.wait_for_timeout(1100)  # the button rests a second after asking
    with swapped(page, "/undo/"):
        undo.click()
    page.get_by_text("Deal 2 undone").wait_for()
    copy_caught_up(page)

    reload_offline(page)
    assert deals_listed(page) == ["Deal 1"]
    assert scores(page) == ["15", "10"]
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    expect(undo).to_have_attribute("data-second-tap", "Tap again to undo deal 1")
    assert said(page) == ""
    assert_accessible(page)
    page.context.set_offline(False)
    assert list(Deal.objects.filter(live=True).values_list("number", flat=True)) == [1]


def test_a_save_refused_as_another_phone_saved_first_leaves_their_deal_in_the_copy(
    live_server, page
):
    """A lost race comes back as the sheet as it stands, "Not saved" on top: the copy
    follows it (the other phone's deal in), without the box, old news on a reload."""
    fixture = a_night()
    start_game(page, live_server, fixture)
    page.wait_for_function(OFFLINE_READY)
    game = Game.objects.get(fixture=fixture)
    services.deal_record(game=game, dealer=0, tricks=[3, 2], key=uuid.uuid4(), version=1)
    page.locator("[data-split] label.tap", has_text="4").first.click()
    with swapped(page, "/deals/"):
        page.locator("[data-split] button.save").click()
    page.locator(".conflict").get_by_text("Not saved").wait_for()
    copy_caught_up(page)

    reload_offline(page)
    assert deals_listed(page) == ["Deal 1"]
    assert scores(page) == ["15", "10"]
    assert page.locator(".deal-line").inner_text() == "Deal 2 · The Robbers to deal"
    expect(page.locator(".conflict")).to_have_count(0)
    page.context.set_offline(False)
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]


def test_a_deal_from_the_other_phone_brought_in_by_the_sheet_is_in_the_copy(live_server, new_page):
    """The sheet that looks for the other phone's saves (a scorer link is out) draws them
    in place, with no page loaded: the copy follows that too."""
    fixture = a_night()
    organiser = new_page()
    start_game(organiser, live_server, fixture)
    game = Game.objects.get(fixture=fixture)
    link = ScorerLink.objects.create(game=game)
    organiser.reload()  # a link is out: the sheet now looks for the other phone's saves
    organiser.wait_for_function(OFFLINE_READY)
    player = new_page()
    player.goto(f"{live_server.url}{link.get_absolute_url()}")
    player.locator("[data-split] label.tap", has_text="2").first.click()
    with swapped(player, "/deals/"):
        player.locator("[data-split] button.save").click()
    with organiser.expect_response(sheet_checked(game)):
        organiser.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    organiser.get_by_text("Up to date: this game was changed on another phone.").wait_for()
    copy_caught_up(organiser)

    reload_offline(organiser)
    assert deals_listed(organiser) == ["Deal 1"]
    assert scores(organiser) == ["10", "15"]
    assert said(organiser) == ""
    organiser.context.set_offline(False)


def keep_no_trump(page, first, deal):
    """Offline: `first` tricks for Harbour Hearts, no trump played, kept as deal `deal`."""
    kept = page.locator(".deal-kept").count()
    page.locator("[data-split] label.tap", has_text=first).first.click()
    page.locator("[data-split] .bonus label.tap", has_text="No trump played").click()
    page.get_by_role("button", name=f"Save deal {deal}").first.click()
    expect(page.locator(".deal-kept")).to_have_count(kept + 1)


def test_two_deals_kept_across_a_reload_with_no_connection_are_both_saved(live_server, page):
    """Found by a walk: the page reloaded with no connection is the copy, whose form has
    the key the first deal kept had taken, so the second deal kept went with the same
    key and the server took it for the first again: refused, or not saved at all."""
    start_game(page, live_server, forty_five_night())
    page.wait_for_function(OFFLINE_READY)
    save_online(page, "3", "No trump played")  # deal 1: 15 – 10; the copy is this sheet
    copy_caught_up(page)
    page.context.set_offline(True)
    keep_no_trump(page, "3", 2)  # 30 – 20
    page.reload()
    page.get_by_text("1 deal waiting to send").wait_for()
    keep_no_trump(page, "2", 3)  # 40 – 35
    page.get_by_text("2 deals waiting to send").wait_for()
    keys = page.evaluate(WAITING_KEYS)
    assert len(set(keys)) == 2, keys

    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_load_state()
    expect(page.locator("#sheet-waiting")).to_have_text(
        "2 deals kept on this phone were sent: they are in the score below."
    )
    assert list(Deal.objects.order_by("number").values_list("number", "tricks", "live")) == [
        (1, "32", True),
        (2, "32", True),
        (3, "23", True),
    ]
    assert scores(page) == ["40", "35"]
