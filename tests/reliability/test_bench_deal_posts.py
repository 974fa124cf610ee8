"""
The bench's deal POST figures count deals, not answers (`bench.__main__.each_a_deal`).
Two app servers with secret keys of their own once answered every POST with the login
page (a login made on one is ended on the other), and two wrk processes started in the
same second sent the same idempotency keys: the bench added those answers up as deals.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import load
from bench.__main__ import each_a_deal, pool_of_games
from bench.server import Browser
from scoring.models import Deal
from tests.factories import PubFactory, SeasonFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def league(settings):
    season = SeasonFactory()
    pub = PubFactory(league=season.league)
    TeamFactory.create_batch(2, season=season, pub=pub)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the server's
    season.league.secretaries.add(UserFactory(username="una", password="una-secretary-25"))
    return SimpleNamespace(league=season.league, season=season)


def test_deal_posts_by_a_secretary_are_each_a_deal(gunicorn, league):
    phone = Browser(gunicorn)
    phone.login("una", "una-secretary-25")
    games = pool_of_games(league, 2000)

    result = each_a_deal(
        lambda: load.post_deals(gunicorn, games, phone.cookie_header(), phone.csrf, 1)
    )
    load.drain(gunicorn)  # the server done with what was sent, before the tables are emptied

    assert result["requests"] > 0
    assert Deal.objects.count() >= result["saved"] >= result["requests"]
    assert result["bad"] == 0


def test_answers_that_saved_no_deal_are_counted_unexpected(gunicorn, league):
    phone = Browser(gunicorn)
    phone.login("una", "una-secretary-25")
    phone.post("/logout/", {})  # the session ended: every POST is sent to the login page
    games = pool_of_games(league, 2000)

    result = each_a_deal(
        lambda: load.post_deals(gunicorn, games, phone.cookie_header(), phone.csrf, 1)
    )
    load.drain(gunicorn)  # the server done with what was sent, before the tables are emptied

    assert result["requests"] > 0
    assert result["saved"] == Deal.objects.count() == 0
    assert result["bad"] == result["requests"]


def test_two_deal_scripts_made_at_once_make_different_keys():
    # Seeded from the clock, two wrk processes started together sent the same keys.
    scripts = [load._deal_script([1, 2], "sessionid=x", "csrf", "http://x") for _ in range(2)]
    seeds = []
    for script in scripts:
        with open(script) as handle:
            seeds.append(next(line for line in handle if "math.randomseed" in line))
        Path(script).unlink()
    assert seeds[0] != seeds[1]
