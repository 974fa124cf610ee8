"""The game's record names people by their role in the league ("the organiser of The
Harbour Bar", "the league secretary", "scorer link 3"), never by their login, on the
public page. Those who run the pub also see the login."""

import uuid

import pytest
from django.urls import reverse

from scoring.services import link_create
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorded(world):
    world.pub.name = "The Harbour Bar"
    world.pub.save()
    world.organiser.username = "harbour-login"
    world.organiser.save()
    world.secretary.username = "secretary-login"
    world.secretary.save()
    play(world.game, 3, 2, user=world.organiser)
    link_create(game=world.game, side=0, user=world.secretary)
    play(world.game, 1, 4, link=world.link)
    return world


def test_the_public_record_shows_roles_not_logins(client, recorded):
    response = client.get(reverse("scoring:game-record", args=[recorded.game.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "harbour-login" not in html and "secretary-login" not in html
    assert "by the organiser of The Harbour Bar" in html
    assert "by the league secretary" in html
    assert "through scorer link 1" in html  # the game's first, whatever its id


def test_someone_no_longer_organising_is_a_former_organiser(client, recorded):
    recorded.pub.organisers.remove(recorded.organiser)
    html = client.get(reverse("scoring:game-record", args=[recorded.game.pk])).content.decode()
    assert "harbour-login" not in html
    assert "by a former organiser" in html


def test_those_who_run_the_pub_also_see_the_login(client, recorded):
    client.force_login(recorded.secretary)
    html = client.get(reverse("scoring:game-record", args=[recorded.game.pk])).content.decode()
    assert "the organiser of The Harbour Bar (harbour-login)" in html


def test_after_the_fixture_moves_pub_its_new_pubs_organisers_see_the_logins(client, recorded):
    """A fixture moved to another pub takes its games with it (`Game.venue`): the new
    pub's organisers run the game now, and the old pub's no longer do."""
    other_pub = recorded.other_game.fixture.pub
    recorded.fixture.pub = other_pub
    recorded.fixture.save()
    url = reverse("scoring:game-record", args=[recorded.game.pk])

    client.force_login(recorded.other_organiser)
    assert "(harbour-login)" in client.get(url).content.decode()
    client.force_login(recorded.organiser)
    assert "(harbour-login)" not in client.get(url).content.decode()


def test_a_sheet_names_the_match_as_its_game_was_played(client, world):
    """A team renamed mid-match: the sheet's heading keeps the name game 1 was played
    under, and so does its "Match, games won" line and the line said when the game and
    the match end, so the one sheet never names a team two ways."""
    team = world.game.game_sides.get(index=0).team
    played_as = world.labels[0]
    assert team.name == played_as
    team.name = "The New Name"
    team.save()
    world.fixture.games_planned = 1
    world.fixture.save()
    client.force_login(world.organiser)
    url = reverse("scoring:game-sheet", args=[world.game.pk])

    html = client.get(url).content.decode()
    assert "Match, games won: <a" in html
    match_line = html.split("Match, games won:")[1].split("</p>")[0]
    assert played_as in match_line and "The New Name" not in match_line

    for number in range(5):  # side 0 takes every trick: 25–0 after five deals
        world.game.refresh_from_db()
        response = client.post(
            reverse("scoring:deal-record", args=[world.game.pk]),
            {
                "key": str(uuid.uuid4()),
                "version": world.game.version,
                "mode": "split",
                "first": 5,
                "dealer": number % 2,
            },
            follow=True,
        )
    said = response.content.decode()
    assert f"{played_as} win the match 1–0" in said
    assert "The New Name" not in said.split('id="sheet-said"')[1].split("</div>")[0]
