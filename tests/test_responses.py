"""What every response says about itself: HEAD where GET works, no-store for people
with a login or a scorer link, one log line for a 403 or a bad Host, and no scorer
token in full in gunicorn's access log."""

import datetime
import io
import logging
from types import SimpleNamespace

import pytest
from django.urls import reverse

from scoring.services import game_next, link_create
from tests.factories import FixtureFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(db):
    fixture = FixtureFactory()
    organiser = UserFactory()
    fixture.pub.organisers.add(organiser)
    game = game_next(fixture=fixture, number=1, first_dealer=0)
    return link_create(game=game, side=None, user=organiser)


def test_a_public_page_may_be_stored_by_a_browser(client):
    league = LeagueFactory()
    response = client.get(league.get_absolute_url())
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_scorer_link_and_the_sheet_it_opens_are_never_stored(client, link):
    opened = client.get(link.get_absolute_url())
    assert opened.status_code == 302
    assert "no-store" in opened["Cache-Control"]
    sheet = client.get(opened["Location"])
    assert sheet.status_code == 200
    assert "no-store" in sheet["Cache-Control"]


def test_a_withdrawn_scorer_link_page_is_never_stored(client, link):
    link.revoked_at = datetime.datetime.now(datetime.UTC)
    link.save()
    response = client.get(link.get_absolute_url())
    assert response.status_code == 403
    assert "no-store" in response["Cache-Control"]


def test_the_qr_page_of_a_link_is_never_stored(client, link):
    client.force_login(link.game.pub.organisers.get())
    url = reverse("scoring:link-detail", args=[link.game.pk, link.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert client.head(url).status_code == 200


@pytest.fixture
def console():
    """What the console handler of settings.LOGGING writes."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    stream = io.StringIO()
    old = handler.setStream(stream)
    yield stream
    handler.setStream(old)


def test_a_403_is_logged_in_one_line(client, console):
    league = LeagueFactory(slug="clare")
    client.force_login(UserFactory())
    assert client.get(reverse("league:manage", args=[league.slug])).status_code == 403
    lines = console.getvalue().splitlines()
    assert lines == ["Forbidden (Permission denied): /clare/manage/"]


def test_a_bad_host_is_logged_in_one_line(client, console):
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400
    lines = console.getvalue().splitlines()
    assert len(lines) == 1
    assert "Invalid HTTP_HOST header: 'evil.example'" in lines[0]


def _access_line(path, query="", referer="-"):
    from gunicorn.config import Config

    from config.access_log import TokenHidingLogger

    config = Config()
    config.set("accesslog", "-")
    logger = TokenHidingLogger(config)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"{path}?{query}" if query else path,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": referer,
    }
    response = SimpleNamespace(status="302 Found", headers=[], sent=0)
    atoms = logger.atoms(response, SimpleNamespace(headers=[]), environ, datetime.timedelta(0))
    return config.access_log_format % logger.atoms_wrapper_class(atoms)


def test_gunicorn_never_logs_a_scorer_token_in_full():
    token = "q1w2e3r4t5y6u7i8o9p0AsDfGhJkLzXc"
    line = _access_line(f"/games/s/{token}/", referer=f"https://x.ie/games/s/{token}/")
    assert token not in line
    assert "/games/s/q1w2…/" in line
    assert "GET /games/s/q1w2…/ HTTP/1.1" in line


def test_other_paths_are_logged_as_they_are():
    assert "GET /clare/standings/ HTTP/1.1" in _access_line("/clare/standings/")


def test_an_address_for_a_button_opened_as_a_page_says_so_in_plain_words(client, link):
    """Found by a walk: a bookmarked "withdraw" or "save" address gave a blank page."""
    url = reverse("scoring:deal-record", args=[link.game.pk])
    response = client.get(url)
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    text = response.text
    assert "This address is for a button" in text
    assert "Nothing was changed." in text
    assert 'href="/"' in text
    assert client.head(url).status_code == 405
