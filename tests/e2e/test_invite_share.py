"""An invitation's link is sent from the phone it was made on with one tap: the phone's
share sheet where it has one, else the link copied and said so. It had to be pressed
and held to copy, which a new secretary did not know to do."""

import pytest
from playwright.sync_api import expect

from league import services
from tests.e2e.conftest import PHONE, login
from tests.factories import PASSWORD, LeagueFactory, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_send_the_link_copies_it_where_the_phone_has_no_share_sheet(
    live_server, browser, assert_accessible
):
    league = LeagueFactory(slug="clare", name="Clare League")
    pub = PubFactory(league=league, name="The Harbour Bar")
    secretary = UserFactory(username="una")
    league.secretaries.add(secretary)
    invite = services.invite_create(
        league=league, created_by=secretary, role="organiser", pubs=[pub]
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_init_script("delete Navigator.prototype.share;")  # no share sheet here
    page = context.new_page()
    try:
        login(page, live_server, "una", PASSWORD)
        page.goto(f"{live_server.url}/clare/manage/invites/{invite.pk}/")
        link = page.locator(".invite-link a").inner_text()
        page.get_by_role("button", name="Send the link").click()
        expect(page.get_by_text("Copied. Paste it into a text, WhatsApp or email")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == link
        assert_accessible(page)
    finally:
        context.close()
