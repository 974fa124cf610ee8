"""An organiser on a phone puts a drive's settings right from the door (20 games set up,
the night has time for 12), then removes a second drive set up by mistake. Both pages
pass axe and fit the phone."""

import datetime

import pytest
from playwright.sync_api import expect

from drives import services
from drives.models import Drive
from tests.e2e.conftest import login
from tests.factories import PASSWORD, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def set_up(pub, name):
    return services.drive_create(
        league=pub.league, pub=pub, name=name, date=datetime.date(2026, 10, 9), preset="progressive"
    )


def test_an_organiser_puts_the_settings_right_and_removes_a_drive_set_up_twice(
    live_server, page, assert_accessible
):
    pub = PubFactory(name="The Harbour Bar")
    pub.organisers.add(UserFactory(username="harbour"))
    drive, twice = set_up(pub, "Friday drive"), set_up(pub, "Friday drive again")
    services.entry_add(drive=drive, name="Nuala", partner_name="Pat")
    login(page, live_server, "harbour", PASSWORD)
    page.goto(f"{live_server.url}/{pub.league.slug}/drives/{drive.pk}/door/")

    page.get_by_role("link", name="Change the settings").click()
    expect(page.get_by_role("heading", name="Settings: Friday drive")).to_be_visible()
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("Games:", exact=True).fill("12")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_text("The jackpot at 14 wins is more than the 12 games")).to_be_visible()
    assert_accessible(page)
    page.get_by_label("Jackpot at wins").fill("9")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_text("The drive's settings are saved.")).to_be_visible()
    expect(page.get_by_text("12 games")).to_be_visible()
    assert Drive.objects.get(pk=drive.pk).jackpot == 9

    page.goto(f"{live_server.url}/{pub.league.slug}/drives/{twice.pk}/settings/")
    page.get_by_role("button", name="Set up by mistake? Remove this drive").click()
    expect(page.get_by_role("heading", name="Remove Friday drive again?")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Yes, remove Friday drive again").click()
    expect(page.get_by_text("Friday drive again on Friday 9 October removed.")).to_be_visible()
    expect(page.get_by_role("link", name="Friday drive again")).to_have_count(0)
    assert list(Drive.objects.values_list("name", flat=True)) == ["Friday drive"]
