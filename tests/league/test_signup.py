"""A stranger signs up and starts a league: all of it is saved, or nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import League
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

NEW_LEAGUE = {
    "name": "Galway League",
    "slug": "galway",
    "pubs": "Tigh Neachtain, Galway\nThe Crane Bar, Galway\n",
    "season_name": "Winter 2026",
    "start_date": "2026-09-07",
    "ruleset_key": "twenty-five",
    "march_bonus": "10",
}


def test_a_visitor_signs_up_and_is_logged_in(client):
    response = client.post(
        reverse("league:signup"),
        {
            "email": "Una@Example.ie",
            "password1": "pint-of-plain-25",
            "password2": "pint-of-plain-25",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("league:league-create")
    user = get_user_model().objects.get()
    assert (user.username, user.email) == ("una@example.ie", "una@example.ie")
    assert client.get(reverse("league:league-create")).status_code == 200


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"password1": "1234", "password2": "1234"}, "too short"),
        ({"password1": "password", "password2": "password"}, "too common"),
        ({"password1": "pint-of-plain-25", "password2": "pint-of-plain-26"}, "passwords differ"),
        ({"email": "not an address"}, "valid email"),
    ],
)
def test_a_bad_sign_up_says_why_and_saves_nothing(client, data, message):
    payload = {"email": "una@example.ie", "password1": "x", "password2": "x", **data}
    response = client.post(reverse("league:signup"), payload)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not get_user_model().objects.exists()


def test_an_email_with_a_login_already_is_told_to_log_in(client, world):
    world.secretary.email = "sec@example.ie"
    world.secretary.save()
    before = snapshot()
    response = client.post(
        reverse("league:signup"),
        {
            "email": "SEC@example.ie",
            "password1": "pint-of-plain-25",
            "password2": "pint-of-plain-25",
        },
    )
    assert "There is already a login for sec@example.ie" in response.content.decode()
    assert snapshot() == before


def test_sign_up_goes_on_to_a_next_page_of_this_site_only(client):
    data = {
        "email": "a@example.ie",
        "password1": "pint-of-plain-25",
        "password2": "pint-of-plain-25",
    }
    response = client.post(reverse("league:signup"), {**data, "next": "/clare/join/abc/"})
    assert response["Location"] == "/clare/join/abc/"
    client.logout()
    data["email"] = "b@example.ie"
    response = client.post(reverse("league:signup"), {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("league:league-create")


def test_a_new_league_has_its_secretary_pubs_and_first_season(client, world):
    user = get_user_model().objects.create_user("una@example.ie", password="x")
    client.force_login(user)
    response = client.post(reverse("league:league-create"), NEW_LEAGUE)
    assert response.status_code == 302
    assert response["Location"] == reverse("league:manage-first-run", args=["galway"])
    league = League.objects.get(slug="galway")
    assert list(league.secretaries.all()) == [user]
    assert [(p.name, p.town) for p in league.pubs.order_by("name")] == [
        ("The Crane Bar", "Galway"),
        ("Tigh Neachtain", "Galway"),
    ]
    season = league.seasons.get()
    assert (season.name, season.status, season.march_bonus) == ("Winter 2026", "planning", 10)
    page = client.get(response["Location"]).content.decode()
    assert "Add or import teams" in page and "Print the fixture list" in page
    # Found by a newcomer's walk: no step said to set the season running, and the
    # league's home page said "Winter 2026 · Planning" on its first match night.
    assert "Set Winter 2026 running" in page
    assert '<li class="card done">\n    <h2>Set Winter 2026 running' not in page
    season.status = "running"
    season.save()
    page = client.get(response["Location"]).content.decode()
    assert '<li class="card done">\n    <h2>Set Winter 2026 running' in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"slug": "admin"}, "is a page of the site"),
        ({"slug": "clare"}, "is taken by another league"),
        ({"slug": "Not a slug!"}, "letters, numbers"),
        ({"pubs": "\n \n"}, "Give at least one pub"),
        ({"pubs": "The Crane, Galway\nthe crane"}, "same pub is named twice"),
        ({"pubs": "Tigh\u200bNeachtain"}, "hidden"),
        ({"season_name": "!!!"}, "at least one letter"),
        ({"start_date": "yesterday"}, "valid date"),
    ],
)
def test_a_bad_new_league_says_why_and_saves_nothing(client, world, change, message):
    client.force_login(world.other_secretary)
    before = snapshot()
    response = client.post(reverse("league:league-create"), {**NEW_LEAGUE, **change})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert snapshot() == before


def test_a_taken_address_is_said_beside_it_with_the_forms_other_mistakes(client, world):
    """Found by a walk: the form's own mistakes were said first, and only once they were
    put right, on the next save, that the address was taken."""
    client.force_login(world.other_secretary)
    before = snapshot()
    sent = {**NEW_LEAGUE, "slug": "clare", "pubs": "The Crane, Galway\nthe crane"}
    form = client.post(reverse("league:league-create"), sent).context["form"]
    assert form.errors["slug"] == [
        "The address “clare” is taken by another league; choose another."
    ]
    assert form.errors["pubs"]
    assert snapshot() == before


def test_every_mistake_of_a_new_league_is_said_at_once_beside_its_answer(client, world):
    """Found by a newcomer's walk: the names were checked only as the league was saved,
    so each save said one mistake, in the box at the top, beside no answer."""
    client.force_login(world.other_secretary)
    before = snapshot()
    sent = {
        **NEW_LEAGUE,
        "name": "!!!",
        "pubs": "Tigh Neachtain, Galway\n???, Galway\nThe Crane\u200b Bar, Galway\n"
        "Tigh Neachtáin, Salthill",
        "season_name": "***",
    }

    form = client.post(reverse("league:league-create"), sent).context["form"]

    assert form.errors == {
        "name": ["Give the league a name with at least one letter or number."],
        "pubs": [
            "Line 2: give the pub a name with at least one letter or number.",
            "Line 3: the pub's name “The Crane Bar” holds hidden characters (such as a "
            "zero-width space or a text-direction mark): type it again.",
            "Line 4: “Tigh Neachtáin” looks like Tigh Neachtain, on line 1: add the town "
            "to its name to tell the two apart, “Tigh Neachtáin (Salthill)”.",
        ],
        "season_name": ["Give the season a name with at least one letter or number."],
    }
    assert snapshot() == before


def test_a_pub_name_or_town_too_long_is_said_at_its_line_never_a_server_error(client, world):
    """Found by trying: a line of the pubs longer than its column went on to the
    database, which refused it, and the page was a server error."""
    client.force_login(world.other_secretary)
    before = snapshot()
    sent = {**NEW_LEAGUE, "pubs": f"{'Tigh ' * 30}, Galway\nThe Crane, {'Galway ' * 20}"}

    response = client.post(reverse("league:league-create"), sent)

    assert response.status_code == 200
    assert response.context["form"].errors["pubs"] == [
        "Line 1: the pub's name is longer than 100 letters: it has 149.",
        "Line 2: the town is longer than 100 letters: it has 139.",
    ]
    assert snapshot() == before


def test_a_new_league_sent_again_by_back_is_the_one_league_not_taken_by_another(client):
    """Found by a newcomer's walk: Back from the first steps to the form, and Create again
    (or a tap the browser sent twice), said the address was "taken by another league".
    It was hers: she is told so and goes on from her first steps, nothing made twice."""
    user = get_user_model().objects.create_user("una@example.ie", password="x")
    client.force_login(user)
    client.post(reverse("league:league-create"), NEW_LEAGUE, follow=True)

    response = client.post(reverse("league:league-create"), NEW_LEAGUE, follow=True)

    assert response.redirect_chain[-1][0] == reverse("league:manage-first-run", args=["galway"])
    assert [str(m) for m in response.context["messages"]] == [
        "Galway League is made already, with you as its secretary. Here is what comes next."
    ]
    assert League.objects.count() == 1
    assert League.objects.get().pubs.count() == 2


@pytest.mark.parametrize("field", ["slug", "name"])
def test_a_nul_byte_in_the_address_or_name_is_a_message_never_a_server_error(client, field):
    """The look for a league sent again reads the address before the form checks it."""
    client.force_login(get_user_model().objects.create_user("una@example.ie", password="x"))
    client.raise_request_exception = False

    response = client.post(reverse("league:league-create"), {**NEW_LEAGUE, field: "gal\x00way"})

    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not League.objects.exists()


def test_two_taps_at_once_make_one_league_and_the_second_says_it_is_made(client, monkeypatch):
    """Both taps passed the form's check before either saved: the second's save is
    refused by the address's unique constraint. It says the league is made, not taken."""
    from league import services

    made_by_the_first_tap = services.league_create

    def second_tap(**kwargs):
        made_by_the_first_tap(**kwargs)
        raise services.LeagueError(League.address_taken(kwargs["slug"]))

    monkeypatch.setattr(services, "league_create", second_tap)
    client.force_login(get_user_model().objects.create_user("una@example.ie", password="x"))

    response = client.post(reverse("league:league-create"), NEW_LEAGUE, follow=True)

    assert response.redirect_chain[-1][0] == reverse("league:manage-first-run", args=["galway"])
    assert "is made already" in str(list(response.context["messages"])[0])
    assert League.objects.count() == 1


def test_her_own_leagues_address_for_another_league_is_said_to_be_hers(client, world):
    client.force_login(world.secretary)
    before = snapshot()

    form = client.post(reverse("league:league-create"), {**NEW_LEAGUE, "slug": "clare"})

    assert form.context["form"].errors["slug"] == [
        f"The address “clare” is for {world.league.name} already, a league you run; choose "
        "another for a new league."
    ]
    assert snapshot() == before


def test_the_fixture_list_prints_every_fixture_by_round(client, world, fixture_at_pub):
    url = reverse("league:season-fixtures-print", args=["clare", "winter"])
    page = client.get(url).content.decode()
    assert "Round 1" in page
    assert "Harbour Hearts v Cronin&#x27;s Jinkers" in page
