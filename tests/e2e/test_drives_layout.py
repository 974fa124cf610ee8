"""A full hall's drive on the phone and on the TV (found by a tester): the leaderboard's
Table column in view at 390 px with ordinary pairs' names; the wall with every entry and
its table on one screen of a 1080p or 720p TV, 26 pairs or 60, a very long name among
them, in type still to be read across the hall; ties listed by name, not in the order
they came in; and a name of 100 letters with no spaces wrapping on the door and the wall
instead of widening the page."""

import datetime
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect

from drives import services
from league.names import unaccented
from tests.e2e.conftest import login
from tests.factories import PASSWORD, PubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/tmp/drive-layout")

FIRST = [
    "Pádraig", "Bríd", "Seán", "Máire", "Caoimhín", "Siobhán",
    "Tomás", "Nóirín", "Donnchadh", "Gráinne", "Mícheál", "Úna",
]  # fmt: skip
SURNAMES = [
    "Keane", "Moloney", "O'Halloran", "McNamara", "Considine", "Ó Súilleabháin",
    "Hehir", "Lynch", "Fitzgerald", "Mac Mathúna", "Kennedy", "Ní Bhriain", "Daly",
    "Mac Con Mara", "Ó Loughlin",
]  # fmt: skip
LONG_WITH_SPACES = (
    "Bartholomew Aloysius Fitzmaurice-Montgomery of the Townland of Ballyvaughan "
    "beyond the Burren Hills"
)
NO_SPACES = "X" * 100
TVS = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]


def shot(page, name, full_page=False):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=full_page)


def people(count):
    """`count` different people's names, ordinary Clare names, in no order at all."""
    names = [f"{first} {surname}" for surname in SURNAMES for first in FIRST]
    random.Random(25).shuffle(names)
    return names[:count]


def hall(pairs, *, long_name=None):
    """A progressive drive of `pairs` pairs, checked in in no order of their names (the
    very long name, if any, halfway), with game 1 started: every entry on 0 wins."""
    pub = PubFactory()
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Friday Progressive",
        date=datetime.date(2026, 10, 9),
        preset="progressive",
    )
    names = people(2 * pairs)
    if long_name:
        names[pairs] = long_name
    for n in range(pairs):
        services.entry_add(drive=drive, name=names[2 * n], partner_name=names[2 * n + 1])
    services.drive_start(drive=drive)
    drive.refresh_from_db()
    return drive


def in_view(page, selector):
    """How many of the elements are wholly on the screen, without any scrolling."""
    size = page.viewport_size
    return page.evaluate(
        """([selector, width, height]) => [...document.querySelectorAll(selector)].filter(el => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.left >= 0 && box.right <= width
                && box.top >= 0 && box.bottom <= height;
        }).length""",
        [selector, size["width"], size["height"]],
    )


def font_px(locator):
    return locator.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")


def table_column(page):
    """The Table heading's and each pair's table's right edge, wherever the column stands."""
    return page.evaluate(
        """() => {
            const table = document.querySelector("table.board");
            const column = [...table.tHead.rows[0].cells].findIndex(
                th => th.textContent.trim() === "Table");
            return [table.tHead.rows[0], ...table.tBodies[0].rows].map(
                row => row.cells[column].getBoundingClientRect().right);
        }"""
    )


def test_on_a_phone_the_leaderboard_shows_every_pairs_table_without_swiping(
    live_server, page, assert_accessible
):
    # Only "Place / Entry / Wins" were in view: the Table heading was cut to "T", the
    # table 430 px wide in its 352 px box.
    drive = hall(26)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}")
    page.wait_for_load_state()
    wrap = page.locator(".table-wrap").first
    wrap.evaluate("el => el.scrollIntoView()")
    shot(page, "leaderboard-390x844")
    heading = page.get_by_role("columnheader", name="Table")
    # At the page's own size, and with a phone's text set 30% larger, as older eyes do.
    for scale in (None, "146.25%"):  # the site's 112.5%, times 1.3
        if scale:
            page.evaluate(f"document.documentElement.style.fontSize = '{scale}'")
            wrap.evaluate("el => el.scrollIntoView()")
            shot(page, "leaderboard-390x844-larger-text")
        assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), scale
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        expect(heading).to_be_visible()
        rights = table_column(page)
        assert len(rights) == 27 and max(rights) <= 390, scale
        # Still the page's own type: nothing smaller than 16 px.
        for cell in (heading, page.locator("table.board tbody td").nth(1)):
            assert font_px(cell) >= 16
    assert_accessible(page)


@pytest.mark.parametrize("pairs", [26, 60])
@pytest.mark.parametrize("tv", TVS, ids=lambda tv: f"{tv['width']}x{tv['height']}")
def test_on_a_tv_the_wall_shows_every_entry_and_its_table_at_once(
    pairs, tv, live_server, page, assert_accessible
):
    # At 1920x1080, 24 of 26 were on the screen (the page 1305 px tall); at 1280x720, 20.
    drive = hall(pairs, long_name=LONG_WITH_SPACES if pairs == 60 else None)
    services.entry_add(drive=drive, name="Mick Alone")  # waiting for a partner
    page.set_viewport_size(tv)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    page.wait_for_load_state()
    shot(page, f"wall-{tv['width']}x{tv['height']}-{pairs}")
    assert in_view(page, ".wall-list li") == pairs
    assert in_view(page, ".wall-table") == pairs
    assert in_view(page, ".wall-singles") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= tv["width"]
    # Read across a hall: names at least 1/60 of the screen's height (18 px on a 1080p
    # TV, the same size on a 720p one of the same inches), each table's number larger.
    names = page.locator(".wall-entry").first
    table = page.locator(".wall-table").first
    assert font_px(names) >= tv["height"] / 60
    assert font_px(table) > font_px(names)
    assert_accessible(page)


def test_the_wall_and_the_leaderboard_list_tied_entries_by_name(live_server, page):
    # Everyone on 0 wins at game 1 was listed in the order they came in at the door.
    drive = hall(12)
    expected = sorted((str(e) for e in drive.entries.all()), key=unaccented)
    page.goto(f"{live_server.url}{drive.get_absolute_url()}wall/")
    shown = page.locator(".wall-entry").evaluate_all(
        "els => els.map(el => el.firstChild.textContent.trim())"
    )
    assert shown == expected
    page.goto(f"{live_server.url}{drive.get_absolute_url()}")
    shown = page.locator("table.board tbody td:nth-child(2) a").all_inner_texts()
    assert shown == expected


def test_a_name_of_100_letters_without_spaces_wraps_on_the_door_and_the_wall(
    live_server, page, assert_accessible
):
    # The door's list was 1266 px wide at 390, the wall 1384.
    drive = hall(4)
    services.entry_add(drive=drive, name=NO_SPACES, partner_name="Úna Hehir-Daly")
    user = UserFactory()
    drive.pub.organisers.add(user)
    login(page, live_server, user.username, PASSWORD)
    for where in ("door/", "wall/"):
        page.goto(f"{live_server.url}{drive.get_absolute_url()}{where}")
        page.wait_for_load_state()
        shot(page, f"no-spaces-{where.strip('/')}-390", full_page=True)
        expect(page.get_by_text(NO_SPACES).first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, where
        assert_accessible(page)
    # On the TV as well: the long name wraps in its column, the others stay on the screen.
    page.set_viewport_size(TVS[0])
    page.reload()
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert in_view(page, ".wall-table") == 5
