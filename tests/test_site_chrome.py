"""What every page carries for browsers, crawlers and validators (issue 11, item 8):
/favicon.ico and touch icons, a meta description, htmx attributes in their valid
`data-hx-*` form, and styled 403, 404 and 500 pages that fit a phone. A form sent from
a page that is out of date (a login or logout since, in another tab) is refused in
words that say nothing was saved, never Django's bare "CSRF verification failed"."""

import re
import uuid

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils.crypto import get_random_string

from scoring.models import Deal
from scoring.services import game_next
from tests.factories import FixtureFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

BARE_HTMX = re.compile(r"[\s\"']hx-[a-z-]+=")


def test_the_favicon_is_served_from_the_site_root(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"


def test_every_page_has_a_description_icons_and_valid_htmx_attributes(client):
    fixture = FixtureFactory()
    game = game_next(fixture=fixture, number=1, first_dealer=0)
    organiser = UserFactory()
    fixture.pub.organisers.add(organiser)
    client.force_login(organiser)
    season = fixture.season
    for url in [
        season.league.get_absolute_url(),
        season.get_absolute_url(),
        f"/{season.league.slug}/seasons/{season.slug}/standings/teams/",
        game.get_absolute_url(),
        "/login/",
    ]:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert re.search(r'<meta name="description" content="[^"]{40,}">', html), url
        assert 'rel="apple-touch-icon"' in html, url
        assert not BARE_HTMX.search(html), (url, BARE_HTMX.search(html))


def test_the_404_and_500_pages_are_styled_for_a_phone(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'name="viewport"' in html and "css/site" in html
    assert "Page not found" in html
    html = render_to_string("500.html")
    assert 'name="viewport"' in html and "css/site" in html
    assert "Something went wrong" in html


def test_a_refused_page_says_why_in_the_site_s_own_page(client):
    league = LeagueFactory(slug="clare")
    client.force_login(UserFactory())
    response = client.get("/clare/manage/")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'name="viewport"' in html and "css/site" in html
    assert "Only the league&#x27;s secretaries may do this." in html
    assert f'href="{league.get_absolute_url()}"' in html


@pytest.fixture
def stale_sheet():
    """An organiser's browser that enforces CSRF, holding a sheet whose token is from
    before a login in another tab of this phone (a login gives the cookie a new secret)."""
    fixture = FixtureFactory()
    game = game_next(fixture=fixture, number=1, first_dealer=0)
    organiser = UserFactory()
    fixture.pub.organisers.add(organiser)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organiser)
    browser.get(game.get_absolute_url())
    stale = browser.cookies["csrftoken"].value
    browser.cookies["csrftoken"] = get_random_string(32)
    deal = {"key": uuid.uuid4(), "version": game.version, "mode": "split", "dealer": 0, "first": 3}
    return browser, game, {"csrfmiddlewaretoken": stale, **deal}


def test_a_form_from_an_out_of_date_page_saves_nothing_and_says_so(stale_sheet):
    browser, game, deal = stale_sheet
    url = f"/games/{game.pk}/deals/"
    sheet = game.get_absolute_url()
    response = browser.post(url, deal, HTTP_REFERER=f"http://testserver{sheet}")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'name="viewport"' in html and "css/site" in html
    assert "Nothing was saved" in html and "CSRF verification" not in html
    assert f'href="{sheet}"' in html  # back to the page it came from
    assert not Deal.objects.exists()
    deal["csrfmiddlewaretoken"] = browser.cookies["csrftoken"].value  # the page reloaded
    assert browser.post(url, deal).status_code == 302
    assert Deal.objects.count() == 1


def test_an_out_of_date_sheet_sent_by_htmx_reloads_and_says_nothing_was_saved(stale_sheet):
    browser, game, deal = stale_sheet
    response = browser.post(f"/games/{game.pk}/deals/", deal, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"
    assert not Deal.objects.exists()
    page = browser.get(game.get_absolute_url()).content.decode()
    assert "Nothing was saved" in page


def test_a_sheet_whose_cookies_were_all_cleared_says_the_login_ended(stale_sheet):
    # Cookies cleared (a phone's "clear browsing data"): the login and the token are
    # both gone. The sheet reloads saying the login ended, with a login that comes back
    # to it, not that the page was opened before a login.
    browser, game, deal = stale_sheet
    browser.cookies.clear()
    response = browser.post(f"/games/{game.pk}/deals/", deal, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"
    page = browser.get(game.get_absolute_url()).content.decode()
    assert "Your login has ended" in page and "opened before you last" not in page
    assert f'href="/login/?next={game.get_absolute_url().replace("/", "%2F")}"' in page
    assert not Deal.objects.exists()


def test_an_off_site_referer_is_not_offered_as_the_way_back(stale_sheet):
    browser, game, deal = stale_sheet
    response = browser.post(
        f"/games/{game.pk}/deals/", deal, HTTP_REFERER="https://elsewhere.example/games/1/"
    )
    assert response.status_code == 403
    assert "elsewhere.example" not in response.content.decode()


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    page = client.get("/login/").content.decode()
    assert 'rel="manifest"' in page and 'name="theme-color"' in page


def test_the_no_connection_page_kept_on_a_phone_is_nobodys_and_leaves_messages_alone(client):
    """The "No connection" page is kept on a phone once, by whoever was logged in, and
    shown to whoever uses the phone with no connection after. Drawn as that person's
    page, it kept their Log out button (with their form's token) for the next one, and
    a message waiting for the next page ("Deal 1 saved") was drawn into it: shown with
    no connection, it would say a deal was saved that the phone could not send."""
    fixture = FixtureFactory()
    game = game_next(fixture=fixture, number=1, first_dealer=0)
    organiser = UserFactory()
    fixture.pub.organisers.add(organiser)
    everyone = client.get("/games/no-connection/").content.decode()

    client.force_login(organiser)
    deal = {"key": uuid.uuid4(), "version": game.version, "mode": "split", "dealer": 0, "first": 3}
    assert client.post(f"/games/{game.pk}/deals/", deal).status_code == 302  # "Deal 1 saved"
    kept = client.get("/games/no-connection/").content.decode()

    assert "saved" not in kept and "Log out" not in kept and "csrfmiddlewaretoken" not in kept
    assert kept.partition("<header")[2] == everyone.partition("<header")[2]
    assert "Deal 1 saved" in client.get(game.get_absolute_url()).content.decode()
