"""
The security suite over every URL the project has, reached by walking the demo league
as a visitor, an organiser and the secretary:

- every response carries the Content-Security-Policy;
- no page is a server error, and no GET changes anything;
- every form that changes something refuses a post without a CSRF token;
- arbitrary input posted to every form never gives a 5xx or a row that breaks the rules.
"""

import re

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, path, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from drives.demo import drives_demo_load
from drives.models import Drive
from league.models import Fixture, League, Team
from scoring.demo import load_demo
from scoring.models import Game, ScorerLink
from tests.security.crawler import crawl

REQUIRED_CSP = ("object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'")
PERSONS = ("anonymous", "harbour", "secretary")


def assert_csp(response, url):
    policy = response.get("Content-Security-Policy", "")
    assert policy, f"{url} has no Content-Security-Policy"
    assert "'unsafe-inline'" not in re.search(r"script-src[^;]*", policy).group(0), url
    for directive in REQUIRED_CSP:
        assert directive in policy, f"{url}: {directive} missing"


def client_for(person) -> Client:
    client = Client()
    if person != "anonymous":
        client.force_login(get_user_model().objects.get(username=person))
    return client


def database_state():
    """Row counts of every table but sessions, and every game's version."""
    counts = {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.label not in ("sessions.Session",)
    }
    counts["game versions"] = sorted(Game.objects.values_list("version", flat=True))
    return counts


def starts(person) -> list[str]:
    """Where a person's walk begins: the home page, and the pages nobody links to: the
    game in play (its sheet and links), the scorer link a player scans, the health check
    and the page after a password change; /favicon.ico, where a login lands, and the "No
    connection" page a phone keeps with a sheet."""
    game = Game.objects.in_play().get(fixture__isnull=False)
    pages = ["/", game.get_absolute_url(), reverse("healthz"), reverse("favicon")]
    pages += [reverse("league:after-login"), reverse("service-worker")]
    pages.append(reverse("scoring:no-connection"))
    # The pages a password reset email and form lead to.
    pages += [
        reverse("password_reset_done"),
        reverse("password_reset_confirm", args=["MQ", "set-password"]),
        reverse("password_reset_complete"),
    ]
    if person == "anonymous":
        pages.append(ScorerLink.objects.filter(game=game).first().get_absolute_url())
    else:
        pages += [
            reverse("scoring:game-links", args=[game.pk]),
            reverse("league:password-change-done"),
            # Each walked first among the pages of its route (a few are walked a route): a
            # postponed fixture; the door and results of a drive not yet finished, and
            # the prize list (its cut) of a finished one; a team with no game yet.
            Fixture.objects.filter(status=Fixture.Status.POSTPONED).first().get_absolute_url(),
            reverse("league:team-edit", args=["clare", Team.objects.get(name="Late Entrants").pk]),
            Game.objects.in_play().get(fixture__isnull=True).get_absolute_url(),  # no deal yet
        ]
        for drive in Drive.objects.all():
            names = ("prizes",) if drive.status == Drive.Status.FINISHED else ("door", "grid")
            pages += [
                reverse(f"drives:{name}", args=[drive.league.slug, drive.pk]) for name in names
            ]
    return pages


def _what_the_demo_lacks():
    """An invitation not yet accepted, a division, a team with no game yet (which a
    secretary may remove) and a friendly just started (which its pub may take back), so
    the walk reaches their pages."""
    from league.models import Division, League
    from league.services import invite_create, team_create
    from scoring.services import SideSpec, game_start

    league = League.objects.get()
    season = league.seasons.current()
    Division.objects.create(season=season, name="North")
    team_create(
        season=season, name="Late Entrants", pub=league.pubs.first(), player_names=["Ann", "Bo"]
    )
    pub = league.pubs.get(slug="harbour")
    game_start(season=None, pub=pub, sides=[SideSpec("Blues"), SideSpec("Greens")])
    secretary = league.secretaries.first()
    invite_create(league=league, created_by=secretary, role="organiser", pubs=[league.pubs.first()])


def named_routes(resolver=None, namespace=""):
    """Every named URL pattern of our apps (Django's admin has its own tests)."""
    resolver = resolver or get_resolver()
    names = set()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                continue
            ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= named_routes(pattern, ns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(f"{namespace}{pattern.name}")
    return names


@pytest.fixture(scope="module")
def walked(django_db_setup, django_db_blocker):
    """Walk the demo league once for the module, inside a transaction rolled back after."""
    plain_static = {
        **django_settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with (
        override_settings(STORAGES=plain_static, PASSWORD_HASHERS=fast),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        load_demo()
        drives_demo_load(league=League.objects.get())
        _what_the_demo_lacks()
        clients = {person: client_for(person) for person in PERSONS}  # logging in writes
        before = database_state()
        results = {person: crawl(client, starts(person)) for person, client in clients.items()}
        yield before, results
        transaction.set_rollback(True)


def test_every_page_of_the_site_has_the_csp_and_no_get_changes_anything(walked, db):
    before, results = walked
    for pages, _ in results.values():
        for url, response in pages.items():
            assert response.status_code < 500, url
            assert_csp(response, url)
    assert database_state() == before


def test_the_walk_reaches_every_named_url_of_the_project(walked, db):
    _, results = walked
    reached = set()
    for pages, forms in results.values():
        reached |= {
            response.resolver_match.view_name
            for response in pages.values()
            if response.resolver_match
        }
        reached |= {form.route for form in forms}
    missing = named_routes() - reached - {"logout"}
    assert not missing, f"no link or form leads to {sorted(missing)}"


def test_every_form_that_changes_something_refuses_a_post_without_csrf_token(walked, db):
    _, results = walked
    checked = 0
    for person in ("harbour", "secretary"):
        _, forms = results[person]
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(get_user_model().objects.get(username=person))
        before = database_state()
        for form in forms:
            data = {
                name: (values[0] if values else "1")
                for name, values in form.fields.items()
                if name != "csrfmiddlewaretoken"
            }
            response = strict.post(form.action, data)
            assert response.status_code == 403, f"{form.action} took a post without a CSRF token"
            checked += 1
        assert database_state() == before
    assert checked > 0


def test_a_server_error_page_also_carries_the_csp(client):
    def broken(request):
        raise RuntimeError("boom")

    urls = type("urls", (), {"urlpatterns": [path("broken/", broken)]})
    with override_settings(ROOT_URLCONF=urls):
        client.raise_request_exception = False
        response = client.get("/broken/")
    assert response.status_code == 500
    assert_csp(response, "/broken/")


def test_an_htmx_fragment_also_carries_the_csp(walked, db):
    _, results = walked
    pages, _ = results["anonymous"]
    client = Client()
    for url in list(pages)[:20]:
        response = client.get(url, headers={"HX-Request": "true"})
        assert_csp(response, url)


text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "5",
            "6",
            "99999999999999999999",
            "1.5",
            "x",
            "<script>",
            "' or 1=1 --",
            "\x00",
            "2026-02-30",
            "00000000-0000-0000-0000-000000000000",
        ]
    ),
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_arbitrary_input_to_every_form_never_gives_a_server_error(data, walked, db):
    _, results = walked
    client = client_for("secretary")
    client.raise_request_exception = False
    for person in ("harbour", "secretary"):
        for form in results[person][1]:
            payload = {}
            for name, values in form.fields.items():
                if name == "csrfmiddlewaretoken":
                    continue
                choices = st.sampled_from(values) if values else text
                payload[name] = data.draw(st.one_of(choices, text), label=name)
            for name in form.files:
                content = data.draw(st.binary(max_size=200), label=name)
                payload[name] = SimpleUploadedFile("upload.csv", content)
            response = client.post(form.action, payload)
            assert response.status_code < 500, f"{form.action} with {payload!r}"
    # Whatever was accepted still obeys the rules.
    for game in Game.objects.prefetch_related("deals"):
        deals = [d.as_rules_deal() for d in game.deals.all() if d.live]
        result = rules.score_game(game.ruleset, sides=game.sides, deals=deals)
        assert list(result.scores) == game.scores


def _one_page_per_route(pages):
    chosen = {}
    for url, response in pages.items():
        if response.resolver_match:
            chosen.setdefault(response.resolver_match.view_name, (url, response))
    return chosen.values()


def test_head_answers_like_get_on_every_page(walked, db):
    _, results = walked
    for person, (pages, _) in results.items():
        client = client_for(person)
        for url, response in _one_page_per_route(pages):
            if person == "anonymous" and "/games/s/" in url:
                continue  # opening a scorer link keeps it in the session: below
            head = client.head(url)
            assert head.status_code == response.status_code, (person, url)
            assert head.content == b"", url


def test_every_response_to_a_logged_in_person_is_not_stored(walked, db):
    _, results = walked
    for person in ("harbour", "secretary"):
        pages, _ = results[person]
        for url, response in pages.items():
            assert "no-store" in response.get("Cache-Control", ""), (person, url)
