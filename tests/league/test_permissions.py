"""The permission matrix: every page that shows or changes the league's records, for
a secretary, the organiser of this pub, the organiser of another pub, the secretary of
another league and someone not logged in. A refused change leaves the database as it was."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import services
from league.imports import sign_rows
from league.models import Fixture
from league.permissions import ORGANISERS, SECRETARIES
from tests.factories import PubFactory, TeamFactory, UserFactory
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

ROLES = ["secretary", "organiser", "other_organiser", "other_secretary", "anonymous"]
# Expected status per role, in the order of ROLES. 302 is a redirect: to the login page
# for someone not logged in, onward after a change that was allowed.
PUBLIC = (200, 200, 200, 200, 200)
SECRETARY = (200, 403, 403, 403, 302)
SECRETARY_CHANGE = (302, 403, 403, 403, 302)
PUB_RUNNERS = (200, 200, 403, 403, 302)
PUB_RUNNERS_CHANGE = (302, 302, 403, 403, 302)
ANY_ORGANISER = (200, 200, 200, 403, 302)
LOGGED_IN = (200, 200, 200, 200, 302)
LOGGED_IN_CHANGE = (302, 302, 302, 302, 302)


@pytest.fixture
def scene(world, fixture_at_pub):
    """The world, plus a team and player to look at; returns what the URLs need."""
    team = fixture_at_pub.fixture_teams.first().team
    TeamFactory(season=world.season, pub=world.pub, name="Spare Team")
    invite = services.invite_create(
        league=world.league, created_by=world.secretary, role="organiser", pubs=[world.pub]
    )
    division = world.season.divisions.create(name="North")
    co_secretary = UserFactory(username="co-secretary")
    world.league.secretaries.add(co_secretary)
    return {
        "invite": invite,
        "division": division,
        "co_secretary": co_secretary,
        "league": "clare",
        "season": "winter",
        "pub": world.pub,
        "team": team,
        "player": team.players.first(),
        "fixture": fixture_at_pub,
        "world": world,
    }


def _user(world, role):
    return None if role == "anonymous" else getattr(world, role)


PAGES = [
    ("league:home", lambda s: [], PUBLIC),
    ("league:league", lambda s: [s["league"]], PUBLIC),
    ("league:seasons", lambda s: [s["league"]], PUBLIC),
    ("league:season", lambda s: [s["league"], s["season"]], PUBLIC),
    ("league:pub", lambda s: [s["league"], s["pub"].slug], PUBLIC),
    ("league:player", lambda s: [s["league"], s["player"].pk], PUBLIC),
    ("league:team", lambda s: [s["league"], s["team"].pk], PUBLIC),
    ("league:fixture", lambda s: [s["league"], s["fixture"].pk], PUBLIC),
    ("league:tonight", lambda s: [s["league"]], ANY_ORGANISER),
    ("league:fixture-edit", lambda s: [s["league"], s["fixture"].pk], PUB_RUNNERS),
    ("league:team-edit", lambda s: [s["league"], s["team"].pk], PUB_RUNNERS),
    ("league:player-edit", lambda s: [s["league"], s["player"].pk], PUB_RUNNERS),
    ("league:password-change", lambda s: [], (200, 200, 200, 200, 302)),
    ("league:signup", lambda s: [], PUBLIC),
    ("league:league-create", lambda s: [], LOGGED_IN),
    ("league:season-fixtures-print", lambda s: [s["league"], s["season"]], PUBLIC),
    ("league:manage-first-run", lambda s: [s["league"]], SECRETARY),
    ("league:manage", lambda s: [s["league"]], SECRETARY),
    ("league:invite-accept", lambda s: [s["league"], s["invite"].token], PUBLIC),
    ("league:manage-invites", lambda s: [s["league"]], SECRETARY),
    ("league:manage-season-close", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-divisions", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-invite", lambda s: [s["league"], s["invite"].pk], SECRETARY),
    ("league:manage-pub-create", lambda s: [s["league"]], SECRETARY),
    ("league:manage-pub-edit", lambda s: [s["league"], s["pub"].slug], SECRETARY),
    ("league:manage-season-create", lambda s: [s["league"]], SECRETARY),
    ("league:manage-organisers", lambda s: [s["league"]], SECRETARY),
    ("league:manage-import-example", lambda s: [s["league"]], SECRETARY),
    ("league:manage-season", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-season-edit", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-team-create", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-teams-import", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-fixtures-generate", lambda s: [s["league"], s["season"]], SECRETARY),
    ("league:manage-fixture-create", lambda s: [s["league"], s["season"]], SECRETARY),
    ("data:league-export", lambda s: [s["league"]], SECRETARY),
    ("data:league-import", lambda s: [], LOGGED_IN),
]


def _as(client, world, role):
    client.logout()
    user = _user(world, role)
    if user:
        client.force_login(user)


@pytest.mark.parametrize(("name", "args", "expected"), PAGES, ids=[p[0] for p in PAGES])
def test_who_may_see_each_page(client, scene, name, args, expected):
    url = reverse(name, args=args(scene))
    for role, status in zip(ROLES, expected, strict=True):
        _as(client, scene["world"], role)
        response = client.get(url)
        assert response.status_code == status, role
        if status == 302:
            assert response["Location"].startswith("/login/?next="), role


def _fixture_data(s, **extra):
    teams = [ft.team for ft in s["fixture"].fixture_teams.all()]
    return {
        "date": "2026-11-03",
        "pub": s["pub"].pk,
        "home": teams[1].pk,
        "away": teams[0].pk,
        "games_planned": 4,
        "status": "scheduled",
        **extra,
    }


def _import_data(s):
    rows = [
        {
            "line": 2,
            "team": "Imported",
            "pub": s["pub"].name,
            "players": ["Imp One", "Imp Two"],
            "division": "",
        }
    ]
    return {"rows": sign_rows(s["world"].season, rows)}


SEASON = {
    "name": "Spring",
    "start_date": "2027-03-01",
    "status": "planning",
    "ruleset_key": "twenty-five",
    "march_bonus": 0,
    "points_win": 2,
    "points_loss": 0,
    "points_shutout": 1,
    "tiebreaks": "points, head_to_head",
    "min_games": 5,
}


def _team_data(s):
    names = [p.name for p in s["team"].players.all()]
    return {"name": "Renamed", "pub": s["pub"].pk, "player_1": names[0], "player_2": "Newcomer"}


NEW_LEAGUE = {
    "name": "Galway League",
    "slug": "galway",
    "pubs": "Tigh Neachtain, Galway",
    "season_name": "Winter 2026",
    "start_date": "2026-09-07",
    "ruleset_key": "twenty-five",
    "march_bonus": "0",
}

CHANGES = [
    ("league:league-create", lambda s: [], lambda s: NEW_LEAGUE, LOGGED_IN_CHANGE),
    ("league:team-edit", lambda s: [s["league"], s["team"].pk], _team_data, PUB_RUNNERS_CHANGE),
    (
        "league:player-edit",
        lambda s: [s["league"], s["player"].pk],
        lambda s: {"name": "Renamed Player", "home_pub": s["pub"].pk},
        PUB_RUNNERS_CHANGE,
    ),
    (
        "league:fixture-edit",
        lambda s: [s["league"], s["fixture"].pk],
        _fixture_data,
        PUB_RUNNERS_CHANGE,
    ),
    (
        "league:fixture-postpone",
        lambda s: [s["league"], s["fixture"].pk],
        lambda s: {"confirm": "yes"},
        PUB_RUNNERS_CHANGE,
    ),
    (
        "league:team-remove",
        lambda s: [s["league"], s["team"].pk],
        lambda s: {"confirm": "yes"},
        SECRETARY_CHANGE,
    ),
    (
        "league:fixture-remove",
        lambda s: [s["league"], s["fixture"].pk],
        lambda s: {"confirm": "yes"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-pub-edit",
        lambda s: [s["league"], s["pub"].slug],
        lambda s: {"name": "The Harbour Inn", "town": "Kilkee"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-pub-create",
        lambda s: [s["league"]],
        lambda s: {"name": "The Thatch", "town": "Sixmilebridge"},
        SECRETARY_CHANGE,
    ),
    ("league:manage-season-create", lambda s: [s["league"]], lambda s: SEASON, SECRETARY_CHANGE),
    (
        "league:manage-season-edit",
        lambda s: [s["league"], s["season"]],
        lambda s: {**SEASON, "name": "Winter", "march_bonus": 10},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-team-create",
        lambda s: [s["league"], s["season"]],
        lambda s: {"name": "New Team", "pub": s["pub"].pk, "player_1": "N1", "player_2": "N2"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-teams-import",
        lambda s: [s["league"], s["season"]],
        _import_data,
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-fixtures-generate",
        lambda s: [s["league"], s["season"]],
        lambda s: {"start": "2026-09-07", "games_planned": 3, "replace": "on"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-fixture-create",
        lambda s: [s["league"], s["season"]],
        _fixture_data,
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-organisers",
        lambda s: [s["league"]],
        lambda s: {"pub": s["pub"].pk, "username": "newbie", "password": "pint-of-plain-25"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-organiser-remove",
        lambda s: [s["league"], s["pub"].slug, s["world"].organiser.pk],
        lambda s: {"confirm": "yes"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-invites",
        lambda s: [s["league"]],
        lambda s: {"role": "organiser", "pubs": [s["pub"].pk]},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-season-close",
        lambda s: [s["league"], s["season"]],
        lambda s: {},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-divisions",
        lambda s: [s["league"], s["season"]],
        lambda s: {"name": "South"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-division-delete",
        lambda s: [s["league"], s["season"], s["division"].pk],
        lambda s: {"confirm": "yes"},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-invite-revoke",
        lambda s: [s["league"], s["invite"].pk],
        lambda s: {},
        SECRETARY_CHANGE,
    ),
    (
        "league:manage-secretary-remove",
        lambda s: [s["league"], s["co_secretary"].pk],
        lambda s: {"confirm": "yes"},
        SECRETARY_CHANGE,
    ),
]


@pytest.mark.parametrize(("name", "args", "data", "expected"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_refused_change_answers_403_or_login_and_changes_nothing(
    client, scene, name, args, data, expected
):
    url = reverse(name, args=args(scene))
    payload = data(scene)
    for role, status in zip(ROLES, expected, strict=True):
        if status == 302 and role != "anonymous":
            continue  # allowed: see the next test
        _as(client, scene["world"], role)
        before = snapshot()
        response = client.post(url, payload)
        assert response.status_code == status, role
        if status == 302:
            assert response["Location"].startswith("/login/?next="), role
        assert snapshot() == before, role


ALLOWED = [
    (name, args, data, role)
    for name, args, data, expected in CHANGES
    for role, status in zip(ROLES, expected, strict=True)
    if status == 302 and role != "anonymous"
]


@pytest.mark.parametrize(
    ("name", "args", "data", "role"), ALLOWED, ids=[f"{a[0]}-{a[3]}" for a in ALLOWED]
)
def test_an_allowed_change_is_saved(client, scene, name, args, data, role):
    _as(client, scene["world"], role)
    before = snapshot()
    response = client.post(reverse(name, args=args(scene)), data(scene))
    assert response.status_code == 302, response.content[:2000]
    assert not response["Location"].startswith("/login/")
    assert snapshot() != before


POST_ONLY = [
    "league:team-remove",
    "league:fixture-postpone",
    "league:fixture-remove",
    "league:manage-organiser-remove",
    "league:manage-invite-revoke",
    "league:manage-secretary-remove",
    "league:manage-division-delete",
]


# Ask first (league.asking): a GET draws the question; only its "Yes", a POST, acts.
ASKED = {
    "league:team-remove",
    "league:manage-organiser-remove",
    "league:manage-secretary-remove",
    "league:fixture-postpone",
    "league:fixture-remove",
    "league:manage-division-delete",
}


@pytest.mark.parametrize("name", POST_ONLY)
def test_a_get_never_changes_anything(client, scene, name):
    client.force_login(scene["world"].secretary)
    args = next(c[1] for c in CHANGES if c[0] == name)(scene)
    before = snapshot()
    response = client.get(reverse(name, args=args), {"confirm": "yes"})
    assert response.status_code == (200 if name in ASKED else 405)
    assert snapshot() == before


@pytest.mark.parametrize("name", POST_ONLY)
def test_an_ended_login_comes_back_to_the_page_the_form_was_on(client, scene, name):
    # Not to the address the form posts to, which answers only a POST (a blank 405).
    client.force_login(scene["world"].secretary)
    page = reverse("league:manage", args=["clare"])
    client.logout()
    args = next(c[1] for c in CHANGES if c[0] == name)(scene)
    before = snapshot()
    response = client.post(reverse(name, args=args), HTTP_REFERER=f"http://testserver{page}")
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={page}"
    login_page = client.get(response["Location"]).content.decode()
    assert "Your login has ended, so nothing was changed" in login_page
    assert snapshot() == before


def test_a_fixture_through_another_league_url_is_not_found(client, scene):
    client.force_login(scene["world"].other_secretary)
    url = reverse("league:fixture-edit", args=["kerry", scene["fixture"].pk])
    before = snapshot()
    assert client.get(url).status_code == 404
    assert client.post(url, _fixture_data(scene)).status_code == 404
    assert snapshot() == before


def test_an_organiser_cannot_move_a_fixture_to_another_pub(client, scene):
    """The pub is the secretary's: the organiser's post moves the date only."""
    client.force_login(scene["world"].organiser)
    url = reverse("league:fixture-edit", args=["clare", scene["fixture"].pk])
    response = client.post(url, _fixture_data(scene, pub=scene["world"].other_pub.pk))
    assert response.status_code == 302
    fixture = Fixture.objects.get(pk=scene["fixture"].pk)
    assert (fixture.pub, str(fixture.date)) == (scene["pub"], "2026-11-03")


def test_a_secretary_cannot_remove_an_organiser_of_another_league(client, scene):
    client.force_login(scene["world"].other_secretary)
    url = reverse(
        "league:manage-organiser-remove", args=["kerry", "harbour", scene["world"].organiser.pk]
    )
    before = snapshot()
    assert client.post(url, {"confirm": "yes"}).status_code == 404
    assert snapshot() == before


def test_the_header_links_follow_the_role(client, scene):
    url = reverse("league:league", args=["clare"])
    client.force_login(scene["world"].secretary)
    page = client.get(url).content.decode()
    assert ">Manage</a>" in page and ">Tonight</a>" in page
    client.force_login(scene["world"].organiser)
    page = client.get(url).content.decode()
    assert ">Manage</a>" not in page and ">Tonight</a>" in page
    client.force_login(scene["world"].other_secretary)
    page = client.get(url).content.decode()
    assert ">Manage</a>" not in page and ">Tonight</a>" not in page


def test_the_header_reads_what_the_person_may_do_in_one_query(rf, world, django_assert_num_queries):
    # Every page of a league asks this for its header links, for everyone logged in.
    from league.templatetags.league_roles import league_roles

    kerry_pub = PubFactory(league=world.other_league, slug="tralee")
    kerry_pub.organisers.add(world.organiser)  # organises in both leagues
    world.other_pub.organisers.add(world.organiser)
    expected = {
        world.secretary: (True, set()),
        world.organiser: (False, {world.pub.pk, world.other_pub.pk}),
        world.other_organiser: (False, {world.other_pub.pk}),
        world.other_secretary: (False, set()),
    }
    for user, (secretary, pubs) in expected.items():
        request = rf.get("/")
        request.user = user
        with django_assert_num_queries(1):
            roles = league_roles({"request": request}, world.league)
        assert (roles["secretary"], set(roles["pub_ids"])) == (secretary, pubs)


SEEN = [
    (name, args, role)
    for name, args, expected in PAGES
    for role, status in zip(ROLES, expected, strict=True)
    if status == 200 and role in ("secretary", "organiser")
]


@pytest.mark.parametrize(("name", "args", "role"), SEEN, ids=[f"{p[0]}-{p[2]}" for p in SEEN])
def test_a_page_asks_what_the_person_may_do_once(client, scene, name, args, role):
    # The permission check and the header's links read the same answer, kept on the request.
    user = getattr(scene["world"], role)
    client.force_login(user)
    mine = re.compile(rf'(user_id"?|"auth_user"\."id") = {user.pk}\b')
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse(name, args=args(scene))).status_code == 200
    asks = [
        q["sql"]
        for q in queries.captured_queries
        if (ORGANISERS in q["sql"] or SECRETARIES in q["sql"]) and mine.search(q["sql"])
    ]
    assert len(asks) <= 1, asks


def test_who_may_run_a_pub_asked_once_a_request(rf, world, django_assert_num_queries):
    # The check every sheet and every change to a game asks, given objects or ids.
    from django.contrib.auth.models import AnonymousUser

    from league.permissions import request_runs_pub

    may = {
        world.secretary: (True, True, True),
        world.organiser: (True, False, False),
        world.other_organiser: (False, True, False),
        world.other_secretary: (False, False, False),
    }
    for user, expected in may.items():
        request = rf.get("/")
        request.user = user
        with django_assert_num_queries(1):
            answers = (
                request_runs_pub(request, world.pub, world.league),
                request_runs_pub(request, world.other_pub.pk, world.league.pk),
                request_runs_pub(request, None, world.league),  # a game with no pub
            )
        assert answers == expected, user
    request = rf.get("/")
    request.user = AnonymousUser()
    with django_assert_num_queries(0):
        assert not request_runs_pub(request, world.pub, world.league)
