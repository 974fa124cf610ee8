"""Giving a pub to an organiser: only an account already in the league (a secretary,
an organiser of one of its pubs, the login of one of its players) or a new login made
with an initial password. An account of another league and a name nobody has get the
same answer, so the page tells no one which usernames exist."""

import pytest
from django.urls import reverse

from league import services
from league.services import LeagueError
from tests.factories import PlayerFactory, UserFactory
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db

NOT_IN_LEAGUE = "No one in this league has that username"


def _give(client, world, username, password=""):
    return client.post(
        reverse("league:manage-organisers", args=["clare"]),
        {"pub": world.other_pub.pk, "username": username, "password": password},
    )


def _error(response) -> str:
    return " ".join(response.context["form"].non_field_errors())


def test_an_account_of_another_league_and_no_account_get_one_answer(client, world):
    UserFactory(username="loner")  # an account in no league at all
    client.force_login(world.secretary)
    before = snapshot()
    answers = {name: _give(client, world, name) for name in ("kerry-secretary", "loner", "nobody")}
    assert {response.status_code for response in answers.values()} == {200}
    assert len({_error(response) for response in answers.values()}) == 1
    assert NOT_IN_LEAGUE in _error(answers["nobody"])
    assert snapshot() == before


@pytest.mark.parametrize("username", ["kerry-secretary", "nobody"])
def test_the_service_refuses_an_account_outside_the_league(world, username):
    before = snapshot()
    with pytest.raises(LeagueError, match=NOT_IN_LEAGUE):
        services.organiser_add(pub=world.other_pub, username=username)
    assert snapshot() == before


def test_an_inactive_account_of_another_league_gets_the_same_answer(world):
    world.other_secretary.is_active = False
    world.other_secretary.save()
    with pytest.raises(LeagueError, match=NOT_IN_LEAGUE):
        services.organiser_add(pub=world.other_pub, username="kerry-secretary")


def test_the_secretary_an_organiser_and_a_player_of_the_league_may_be_given_a_pub(world):
    player_login = UserFactory(username="sean")
    PlayerFactory(league=world.league, name="Seán Ó Briain", user=player_login)
    for username in ("secretary", "harbour", "SEAN"):
        services.organiser_add(pub=world.other_pub, username=username)
    assert set(world.other_pub.organisers.values_list("username", flat=True)) == {
        "cronins",
        "secretary",
        "harbour",
        "sean",
    }


def test_a_player_of_another_league_is_not_in_this_one(world):
    stranger = UserFactory(username="stranger")
    PlayerFactory(league=world.other_league, user=stranger)
    with pytest.raises(LeagueError, match=NOT_IN_LEAGUE):
        services.organiser_add(pub=world.other_pub, username="stranger")
    assert not world.other_pub.organisers.filter(pk=stranger.pk).exists()


def test_a_new_login_with_an_initial_password_is_made_and_given_the_pub(client, world):
    client.force_login(world.secretary)
    response = _give(client, world, "thatch", "pint-of-plain-25")
    assert response.status_code == 302
    assert world.other_pub.organisers.filter(username="thatch").exists()
