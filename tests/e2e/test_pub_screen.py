"""The pub screen on the TV on the wall: tonight's matches and the season's table, read
from across the room, all of it on the screen at once (a TV has no one to scroll it)."""

import pytest

from scoring.demo import load_demo
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo()


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_whole_screen_fits_a_tv(demo, live_server, page, assert_accessible, width, height):
    # Before, the page kept a phone's column in the middle of the TV: at 1920×1080 one
    # row of the table was on the screen.
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/clare/pubs/harbour/screen/")
    page.wait_for_load_state()
    page.screenshot(path=ARTIFACTS / f"pub-screen-{width}.png")
    assert page.locator(".screen-table tbody tr").count() == 8
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)


def test_on_a_phone_the_screen_reads_down_the_page(demo, live_server, page, assert_accessible):
    page.goto(f"{live_server.url}/clare/pubs/harbour/screen/")
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)
