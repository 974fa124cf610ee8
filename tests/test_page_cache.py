"""Public pages for visitors come whole from the cache, keyed by the league's content
version: one query, nothing per person, 304 when the visitor's copy is current, and a
new result shows at once (issue 14)."""

import datetime
import functools
import gzip
import re
import uuid

import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from config import page_cache
from league import services
from scoring.services import deal_record
from tests.factories import SeasonFactory, TeamFactory, UserFactory, play_game, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    season = SeasonFactory(league__slug="clare", slug="winter")
    a, b = TeamFactory(season=season, name="Aces"), TeamFactory(season=season, name="Bowers")
    win_game(season=season, winner=a, loser=b)
    return season


def teams_url(season):
    return reverse("league:standings-teams", args=["clare", season.slug])


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return response, len(queries)


def test_a_visitor_gets_the_page_from_the_cache_in_one_query_with_nothing_per_person(season):
    visitor = Client()
    first, _ = get(visitor, teams_url(season))
    again, queries = get(visitor, teams_url(season))
    assert again.status_code == 200
    assert queries == 1  # the league's content version
    assert again.content == first.content
    assert "Set-Cookie" not in again and not again.cookies
    assert "Cookie" not in again.get("Vary", "")
    assert "csrf" not in again.content.decode().lower()
    assert (
        "s-maxage" in again["Cache-Control"] and "stale-while-revalidate" in again["Cache-Control"]
    )
    assert again["ETag"].startswith('"') and again["Last-Modified"]


def test_a_current_copy_gets_304_and_a_new_result_a_new_page(season):
    visitor = Client()
    first, _ = get(visitor, teams_url(season))
    not_modified, queries = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert not_modified.status_code == 304 and queries == 1
    assert not_modified.content == b""
    aces, bowers = season.teams.order_by("name")
    win_game(season=season, winner=bowers, loser=aces)
    fresh, _ = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert fresh.status_code == 200
    assert fresh["ETag"] != first["ETag"]


SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
)


def test_the_kept_page_and_its_304_carry_the_security_headers_of_the_drawn_one(season):
    visitor = Client()
    drawn, _ = get(visitor, teams_url(season))
    kept, _ = get(visitor, teams_url(season))
    not_modified, _ = get(visitor, teams_url(season), if_none_match=drawn["ETag"])
    assert not_modified.status_code == 304
    for header in SECURITY_HEADERS:
        assert drawn[header]
        assert kept[header] == not_modified[header] == drawn[header], header


def test_the_kept_page_names_no_nonce_and_needs_none(season):
    """A nonce read from a page kept for everyone must open nothing: its policy has none,
    and the page has no script of its own that would need one."""
    visitor = Client()
    drawn, _ = get(visitor, teams_url(season))
    kept, _ = get(visitor, teams_url(season))
    for response in (drawn, kept):
        assert "nonce-" not in response["Content-Security-Policy"]
        assert "script-src 'self'" in response["Content-Security-Policy"]
    page = kept.content.decode()
    assert "<script" in page and not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)


def test_a_release_with_another_policy_does_not_answer_with_the_old_one(
    season, settings, monkeypatch
):
    visitor = Client()
    get(visitor, teams_url(season))
    settings.SECURE_CSP = {**settings.SECURE_CSP, "img-src": ["'self'"]}
    monkeypatch.setattr(page_cache, "HEADER_SETTINGS", page_cache.header_settings())
    response, queries = get(visitor, teams_url(season))
    assert queries > 1  # drawn again, not the old copy
    assert "img-src 'self';" in response["Content-Security-Policy"]


def test_the_page_goes_out_gzipped_when_the_browser_takes_it(season):
    response, _ = get(Client(), teams_url(season), accept_encoding="gzip, br")
    response, _ = get(Client(), teams_url(season), accept_encoding="gzip, br")
    assert response["Content-Encoding"] == "gzip"
    assert b"Aces" in gzip.decompress(response.content)
    assert "Accept-Encoding" in response["Vary"]


def test_unknown_query_parameters_make_no_new_cache_entry(season):
    visitor = Client()
    get(visitor, teams_url(season))
    entries = len(cache._cache)
    for n in range(5):
        get(visitor, f"{teams_url(season)}?utm_source=poster{n}")
    assert len(cache._cache) == entries


def test_people_logged_in_are_never_served_the_visitors_copy(client, season):
    get(Client(), teams_url(season))
    client.force_login(UserFactory())
    response, queries = get(client, teams_url(season))
    assert "Log out" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    assert queries > 1


def test_a_game_sheet_is_cached_for_visitors_and_follows_each_deal(season):
    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[(3, 2)])
    url = reverse("scoring:game-sheet", args=[game.pk])
    first, _ = get(Client(), url)
    again, queries = get(Client(), url)
    assert queries == 1 and again.content == first.content
    deal_record(game=game, dealer=1, tricks=[1, 4], key=uuid.uuid4(), version=game.version)
    after, _ = get(Client(), url)
    assert after.content != first.content


def test_a_game_in_play_refreshes_itself_for_visitors_only(client, season):
    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[(3, 2)])
    url = reverse("scoring:game-sheet", args=[game.pk])
    polling = 'data-hx-trigger="every 20s"'
    assert polling in Client().get(url).content.decode()
    # The fragment the refresh asks for comes from the cache too.
    fragment, queries = get(Client(), url, hx_request="true", hx_target="sheet")
    fragment, queries = get(Client(), url, hx_request="true", hx_target="sheet")
    assert queries == 1 and fragment.content.decode().lstrip().startswith('<div id="sheet"')
    secretary = UserFactory()
    season.league.secretaries.add(secretary)
    client.force_login(secretary)
    assert polling not in client.get(url).content.decode()  # a scorer's entry is never wiped


def test_the_seasons_page_is_kept_for_visitors_and_shows_a_new_season_at_once(season):
    url = reverse("league:seasons", args=["clare"])
    first, _ = get(Client(), url)
    again, queries = get(Client(), url)
    assert queries == 1 and again.content == first.content
    services.season_close(season=season)
    services.season_create(
        league=season.league, name="Spring 2027", start_date=datetime.date(2027, 3, 1)
    )
    fresh, _ = get(Client(), url, if_none_match=first["ETag"])
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert "Spring 2027" in html and "Closed" in html


# With Redis, the current version of a league's pages is published in the cache
# (settings.PUBLISHED_VERSIONS): a visitor's page costs no query at all. These run with
# real commits, as the version is published once the change is committed.

published = pytest.mark.django_db(transaction=True)


@pytest.fixture
def publishing(settings):
    settings.PUBLISHED_VERSIONS = True
    cache.clear()


@published
def test_with_published_versions_a_visitor_costs_no_query_and_sees_a_new_result_at_once(
    season, publishing
):
    visitor = Client()
    first, _ = get(visitor, teams_url(season))
    again, queries = get(visitor, teams_url(season))
    assert queries == 0 and again.content == first.content
    not_modified, queries = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert not_modified.status_code == 304 and queries == 0
    aces, bowers = season.teams.order_by("name")

    win_game(season=season, winner=bowers, loser=aces)

    fresh, _ = get(visitor, teams_url(season), if_none_match=first["ETag"])
    assert fresh.status_code == 200 and fresh.content != first.content


@published
def test_with_published_versions_a_new_season_is_on_the_seasons_page_at_once(season, publishing):
    url = reverse("league:seasons", args=["clare"])
    first, _ = get(Client(), url)
    again, queries = get(Client(), url)
    assert queries == 0 and again.content == first.content

    services.season_create(
        league=season.league, name="Spring 2027", start_date=datetime.date(2027, 3, 1)
    )

    fresh, _ = get(Client(), url)
    assert "Spring 2027" in fresh.content.decode()


@published
def test_negative_control_a_version_not_published_leaves_the_old_page(
    season, publishing, monkeypatch
):
    from league import results

    first, _ = get(Client(), teams_url(season))
    monkeypatch.setattr(results, "pages_changed", lambda slug: None)
    aces, bowers = season.teams.order_by("name")

    win_game(season=season, winner=bowers, loser=aces)

    stale, _ = get(Client(), teams_url(season))
    assert stale.content == first.content


@published
def test_a_published_version_lost_from_the_cache_draws_the_page_again(season, publishing):
    from league.results import published_key

    first, _ = get(Client(), teams_url(season))
    cache.delete(published_key("clare"))
    aces, bowers = season.teams.order_by("name")
    win_game(season=season, winner=bowers, loser=aces)
    cache.delete(published_key("clare"))

    after, _ = get(Client(), teams_url(season))
    assert after.content != first.content


@published
def test_with_published_versions_a_game_sheet_follows_each_deal(season, publishing):
    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[(3, 2)])
    url = reverse("scoring:game-sheet", args=[game.pk])
    first, _ = get(Client(), url)
    again, queries = get(Client(), url)
    assert queries == 0 and again.content == first.content

    deal_record(game=game, dealer=1, tricks=[1, 4], key=uuid.uuid4(), version=game.version)

    assert get(Client(), url)[0].content != first.content


@published
def test_a_league_deleted_in_the_admin_is_not_served_from_the_cache(client, publishing):
    league = SeasonFactory(league__slug="empty").league  # nothing played: it may go
    url = reverse("league:league", args=["empty"])
    assert get(Client(), url)[0].status_code == 200
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    change = reverse("admin:league_league_change", args=[league.pk])
    assert 'name="slug"' not in client.get(change).content.decode()  # the address stays

    response = client.post(reverse("admin:league_league_delete", args=[league.pk]), {"post": "yes"})

    assert response.status_code == 302
    assert get(Client(), url)[0].status_code == 404


@published
def test_negative_control_a_deleted_league_unpublished_stays_served(
    client, publishing, monkeypatch
):
    from league import admin

    league = SeasonFactory(league__slug="empty").league
    url = reverse("league:league", args=["empty"])
    assert get(Client(), url)[0].status_code == 200
    monkeypatch.setattr(admin, "pages_changed", lambda slug: None)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    client.post(reverse("admin:league_league_delete", args=[league.pk]), {"post": "yes"})

    assert get(Client(), url)[0].status_code == 200


@published
def test_a_version_that_cannot_be_published_leaves_the_change_saved(
    season, publishing, monkeypatch
):
    from league import results
    from league.models import SideResult

    def out_of_reach(*args, **kwargs):
        raise ConnectionError("Redis is out of reach")

    monkeypatch.setattr(results.cache, "set", out_of_reach)
    aces, bowers = season.teams.order_by("name")

    win_game(season=season, winner=bowers, loser=aces)  # no error reaches the changer

    assert SideResult.objects.filter(season=season, won=True, team=bowers).exists()
    assert results.PUBLISHED_FOR <= 60  # and the pages catch up within a minute


# With Redis out of reach the site carries on from the database (config/redis_cache.py):
# visitors get their pages, an organiser logged in records a deal, and the pages show
# it. With Django's plain backend (the guard off) the same visit fails.

# Nothing listens on port 1: every connection is refused.
NOWHERE = "redis://127.0.0.1:1/0"


def redis_at(backend: str) -> dict:
    return {"default": {"BACKEND": backend, "LOCATION": NOWHERE}}


def test_without_redis_visitors_and_organisers_carry_on(season, settings, caplog):
    secretary = UserFactory()
    season.league.secretaries.add(secretary)
    organiser = Client()
    organiser.force_login(secretary)  # before Redis goes: logging in waits for it

    settings.CACHES = redis_at("config.redis_cache.RedisCache")
    settings.PUBLISHED_VERSIONS = True
    visitor = Client()
    for _ in range(2):
        page = visitor.get(teams_url(season))
        assert page.status_code == 200 and "Aces" in page.content.decode()
    assert "Redis is out of reach" in caplog.text
    assert "Log out" in organiser.get(teams_url(season)).content.decode()

    aces, bowers = season.teams.order_by("name")
    game = play_game(season=season, teams=[aces, bowers], deals=[])
    sheet_url = reverse("scoring:game-sheet", args=[game.pk])
    before = visitor.get(sheet_url)
    saved = organiser.post(
        reverse("scoring:deal-record", args=[game.pk]),
        {
            "key": str(uuid.uuid4()),
            "version": game.version,
            "mode": "split",
            "dealer": 0,
            "first": 3,
        },
    )
    assert saved.status_code == 302
    game.refresh_from_db()
    assert game.scores == [15, 10]
    after = visitor.get(sheet_url)
    assert before.status_code == after.status_code == 200
    assert after.content != before.content  # the visitor sees the deal at once


def test_negative_control_with_djangos_plain_backend_a_visit_fails(season, settings):
    settings.CACHES = redis_at("django.core.cache.backends.redis.RedisCache")
    settings.PUBLISHED_VERSIONS = True
    with pytest.raises(redis.ConnectionError):
        Client().get(teams_url(season))


# With Redis, each app server also keeps the published versions and the pages it answered
# in its own memory, and answers a visitor from there with no round trip at all, for as
# long as it has heard of no change (config/redis_cache.py: Heard). Another server's
# change reaches it as news from Redis, taken in before every visit.

REDIS = "redis://127.0.0.1:6379/5"


@pytest.fixture
def redis_cache(settings):
    redis.Redis.from_url(REDIS).ping()  # make test starts Redis when it is down
    prefix = f"heard-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS,
            "KEY_PREFIX": prefix,
        }
    }
    settings.PUBLISHED_VERSIONS = True
    page_cache.HERE._pages.clear()
    yield
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    page_cache.HERE._pages.clear()


def another_server():
    """The cache as another app server's process has it: the same Redis, its own memory."""
    from django.conf import settings

    from config.redis_cache import RedisCache

    options = settings.CACHES["default"]
    return RedisCache(options["LOCATION"], {"KEY_PREFIX": options["KEY_PREFIX"]})


@functools.cache
def _counter():
    return redis.Redis.from_url(REDIS)


def redis_commands() -> int:
    """Commands Redis has run so far, by everyone (less the one that asks)."""
    return _counter().info("stats")["total_commands_processed"]


def visit(url, **headers):
    """A visitor's GET: the response, its queries and the Redis commands it cost."""
    before = redis_commands()
    response, queries = get(Client(), url, **headers)
    return response, queries, redis_commands() - before - 1


@published
def test_with_redis_a_server_answers_a_page_it_holds_from_its_own_memory(season, redis_cache):
    first, _, _ = visit(teams_url(season))
    again, queries, commands = visit(teams_url(season))
    assert again.content == first.content
    assert (queries, commands) == (0, 0)
    not_modified, queries, commands = visit(teams_url(season), if_none_match=first["ETag"])
    assert not_modified.status_code == 304
    assert (queries, commands) == (0, 0)

    aces, bowers = season.teams.order_by("name")
    win_game(season=season, winner=bowers, loser=aces)  # announced by this server

    fresh, _, commands = visit(teams_url(season), if_none_match=first["ETag"])
    assert fresh.status_code == 200 and fresh.content != first.content
    assert commands > 0


def change_elsewhere(season, monkeypatch):
    """A result saved and announced by another server: this one only hears of it."""
    from league import results

    with monkeypatch.context() as here:
        here.setattr(results, "pages_changed", lambda slug: None)
        aces, bowers = season.teams.order_by("name")
        win_game(season=season, winner=bowers, loser=aces)
    another_server().announce(results.published_key("clare"), uuid.uuid4().hex, 60)


@published
def test_a_change_announced_by_another_server_is_on_the_next_visit(
    season, redis_cache, monkeypatch
):
    first, _, _ = visit(teams_url(season))
    assert visit(teams_url(season))[2] == 0  # held here

    change_elsewhere(season, monkeypatch)

    after, queries, _ = visit(teams_url(season))
    assert after.content != first.content and queries > 0


@published
def test_negative_control_news_not_taken_in_leaves_the_old_page(season, redis_cache, monkeypatch):
    first, _, _ = visit(teams_url(season))
    heard = cache.heard
    monkeypatch.setattr(heard._pubsub, "get_message", lambda timeout: None)

    change_elsewhere(season, monkeypatch)

    stale, _, commands = visit(teams_url(season))
    assert stale.content == first.content and commands == 0


@published
def test_after_a_second_without_a_look_the_copies_are_read_again(season, redis_cache):
    """News can wait in Redis rather than in this process's socket only once the socket
    is full; a second of news is far short of that, so copies older than the last look
    by more than a second are not trusted."""
    visit(teams_url(season))
    assert visit(teams_url(season))[2] == 0
    cache.heard._looked_at -= 2

    _, _, commands = visit(teams_url(season))

    assert commands > 0
    assert visit(teams_url(season))[2] == 0  # and held again


@published
def test_a_lost_subscription_forgets_every_copy(season, redis_cache):
    visit(teams_url(season))
    assert visit(teams_url(season))[2] == 0
    redis.Redis.from_url(REDIS).client_kill_filter(_type="pubsub")

    _, _, commands = visit(teams_url(season))

    assert commands > 0  # read from Redis again, not from a copy heard of by no news


def test_a_new_day_draws_the_pages_anew_though_nothing_changed(season, monkeypatch):
    # The pub's screen names the day and tonight's matches: kept from last night, with no
    # result entered since, it said yesterday on the wall until the first deal of the day.
    pub = season.teams.first().pub
    url = reverse("screens:pub", args=["clare", pub.slug])
    today = timezone.localtime()
    assert f"{today:%A} {today.day} {today:%B}" in Client().get(url).content.decode()

    tomorrow = today + datetime.timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: tomorrow)
    page = Client().get(url).content.decode()
    assert f"{tomorrow:%A} {tomorrow.day} {tomorrow:%B}" in page
