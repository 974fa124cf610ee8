"""What a secretary starting a league from nothing ran into on a phone (a walk-through):
each test is one moment where she would have been unsure what happened or what to do."""

import pytest
from django.urls import reverse

from league.imports import check_rows, read_table
from league.models import Invite, Player
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def csv_file(*lines: str) -> bytes:
    return ("team,pub,player 1,player 2\n" + "\n".join(lines) + "\n").encode()


def test_the_same_player_spelt_with_and_without_fadas_in_one_file_is_a_row_error(world):
    """ "Sean O Briain" on one line and "Seán Ó Briain" on another are one man: saving
    both would split his games between two lines of the player table."""
    rows = read_table(
        "teams.csv",
        csv_file(
            "Kilrush Aces,The Harbour Bar,Seán Ó Briain,Máire Ní Shé",
            "Bridge Boys,Nora Cronin's,Sean O Briain,Tomás Hehir",
        ),
    )
    good, errors = check_rows(world.season, rows)
    assert len(errors) == 1
    assert errors[0].startswith("Line 3:")
    assert "Seán Ó Briain" in errors[0] and "line 2" in errors[0]
    assert Player.objects.count() == 0


def _organiser_invite(world):
    from league import services

    return services.invite_create(
        league=world.league, created_by=world.secretary, role="organiser", pubs=[world.pub]
    )


@pytest.mark.parametrize("method", ["get", "post"])
def test_whoever_accepted_an_invite_and_opens_it_again_is_told_they_are_in(client, world, method):
    """The new organiser taps the emailed link again next week (or taps Accept twice):
    "used already, ask the secretary for a new one" would send her to the secretary for
    nothing. She is told she has the role, with the way to her pubs' night."""
    invite = _organiser_invite(world)
    newcomer = UserFactory(username="nora@example.ie")
    client.force_login(newcomer)
    url = reverse("league:invite-accept", args=["clare", invite.token])
    client.post(url)
    response = getattr(client, method)(url, follow=True)
    text = response.content.decode()
    assert "Ask the secretary for a new one" not in text
    assert "You accepted this invitation" in text
    assert reverse("league:tonight", args=["clare"]) in text
    assert list(world.pub.organisers.filter(pk=newcomer.pk)) == [newcomer]


def test_someone_else_opening_a_used_invite_is_still_refused(client, world):
    invite = _organiser_invite(world)
    client.force_login(UserFactory(username="nora@example.ie"))
    url = reverse("league:invite-accept", args=["clare", invite.token])
    client.post(url)
    client.force_login(UserFactory(username="stranger@example.ie"))
    response = client.post(url)
    assert response.status_code == 410
    assert "used already" in response.content.decode()
    assert Invite.objects.get().used_by.username == "nora@example.ie"


def test_an_organiser_removed_since_is_not_told_they_organise(client, world):
    invite = _organiser_invite(world)
    newcomer = UserFactory(username="nora@example.ie")
    client.force_login(newcomer)
    url = reverse("league:invite-accept", args=["clare", invite.token])
    client.post(url)
    world.pub.organisers.remove(newcomer)
    response = client.get(url)
    assert response.status_code == 410
    assert "You accepted this invitation" not in response.content.decode()


def test_a_web_address_typed_like_a_name_gets_plain_words_and_a_ready_answer(client, world):
    """She typed "West Clare 25" as the league's address: "Enter a valid “slug”" told
    her nothing. The message says what the address may hold and offers one to copy."""
    from tests.league.test_signup import NEW_LEAGUE

    client.force_login(world.other_secretary)
    response = client.post(reverse("league:league-create"), {**NEW_LEAGUE, "slug": "West Clare 25"})
    text = response.content.decode()
    assert "slug" not in text.replace('name="slug"', "").replace("id_slug", "")
    assert "west-clare-25" in text
    assert "Web address" in text


def _print_pages(world):
    return [
        reverse("league:season-fixtures-print", args=["clare", "winter"]),
        reverse("league:standings-print", args=["clare", "winter", "teams"]),
    ]


def test_the_print_pages_have_a_print_button(client, world):
    """ "Print the fixture list" led to a sheet with no way to print it: on a phone the
    browser's Print hides under Share. Each print page has a button that prints it."""
    for url in _print_pages(world):
        text = client.get(url).content.decode()
        assert 'id="print-page"' in text, url
        # A script file of the site's own: no inline script, so no nonce in a page
        # that visitors are served whole from the cache.
        assert '<script src="/static/js/print.' in text and "<script nonce" not in text, url


def test_the_login_page_asks_for_the_email_address_she_signed_up_with(client, world):
    """She signed up with an email address and no username; the login page asked for a
    "Username" and, when it failed, said "both fields may be case-sensitive"."""
    page = client.get(reverse("login")).content.decode()
    assert "Email address or username" in page
    refused = client.post(reverse("login"), {"username": "mary@example.ie", "password": "x"})
    text = refused.content.decode()
    assert "case-sensitive" not in text
    assert "That email address (or username) and password do not match a login" in text


@pytest.mark.parametrize(
    "typed", ["Nora Cronin’s", "Nora Cronins", "NORA CRONIN'S ", "Nora  Cronin`s"]
)
def test_a_pub_typed_with_another_apostrophe_or_none_is_still_that_pub(world, typed):
    """A phone or a spreadsheet turns ' into ’, or it is left out: the sheet looks like
    the pub's name and "there is no pub called “Nora Cronin’s”" would leave her stuck.
    Pubs are a short list of the league's own, so one that is plainly meant is found."""
    rows = read_table("teams.csv", csv_file(f"Jinkers,{typed},Mícheál Lynch,Siobhán McMahon"))
    good, errors = check_rows(world.season, rows)
    assert errors == []
    assert good[0].pub == world.other_pub


def test_a_name_alike_to_a_league_player_is_said_once_not_twice(world):
    from tests.factories import PlayerFactory

    PlayerFactory(league=world.league, name="Seán Ó Briain")
    rows = read_table(
        "teams.csv",
        csv_file(
            "Kilrush Aces,The Harbour Bar,Seán Ó Briain,Máire Ní Shé",
            "Bridge Boys,Nora Cronin's,Sean O Briain,Tomás Hehir",
        ),
    )
    good, errors = check_rows(world.season, rows)
    assert len(errors) == 1
    assert "looks like Seán Ó Briain" in errors[0]
    assert "is spelt" not in errors[0]
