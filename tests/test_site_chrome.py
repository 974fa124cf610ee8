"""What every page carries for browsers, crawlers and validators (issue 11, item 8):
/favicon.ico and touch icons, a meta description, htmx attributes in their valid
`data-hx-*` form, and styled 404 and 500 pages that fit a phone."""

import re

import pytest
from django.template.loader import render_to_string

from scoring.services import game_next
from tests.factories import FixtureFactory, UserFactory

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


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    page = client.get("/login/").content.decode()
    assert 'rel="manifest"' in page and 'name="theme-color"' in page
