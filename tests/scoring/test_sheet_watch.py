"""While a scorer link is out, each scoring phone's sheet asks every 20 s whether the other
phone changed the game (static/js/sheet.js). It sends the tag of the sheet it shows
(`data-tag`, as If-None-Match): while nothing that sheet is drawn from has changed, the
answer is a bare 304, with no sheet drawn; else the sheet as it stands."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import ScorerLink
from tests.scoring.conftest import fixture_game, play

pytestmark = pytest.mark.django_db


def tag_shown(client, game) -> str:
    """The tag of the sheet this phone shows, as its check sends it."""
    html = client.get(reverse("scoring:game-sheet", args=[game.pk])).text
    return '"' + html.split('data-tag="', 1)[1].split('"', 1)[0] + '"'


def check(client, game, tag):
    """The phone's check: the sheet, for htmx, if it is no longer the one tagged `tag`."""
    url = reverse("scoring:game-sheet", args=[game.pk])
    return client.get(url, headers={"HX-Request": "true", "If-None-Match": tag})


@pytest.fixture
def organiser(client, world):
    client.force_login(world.organiser)
    return client


@pytest.fixture
def player(world):
    """The phone that opened the world's scorer link (for side 1)."""
    phone = Client()
    phone.get(world.link.get_absolute_url())
    return phone


def test_an_unchanged_game_is_answered_304_with_no_sheet_drawn(organiser, world):
    play(world.game, 2, 3)
    tag = tag_shown(organiser, world.game)
    check(organiser, world.game, tag)  # the session and the login, read once and kept
    with CaptureQueriesContext(connection) as unchanged:
        response = check(organiser, world.game, tag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == tag
    with CaptureQueriesContext(connection) as drawn:
        assert check(organiser, world.game, '"another"').status_code == 200
    # The game and who may score it, not its deals, its match or its sides' names.
    # The game, the login and the pubs it runs; not the deals, the match or the sides.
    assert len(unchanged) == 3
    assert len(drawn) == 7


def test_a_deal_from_the_other_phone_brings_the_sheet(organiser, player, world):
    tag = tag_shown(organiser, world.game)
    play(world.game, 2, 3, link=world.link)
    response = check(organiser, world.game, tag)
    assert response.status_code == 200
    assert 'data-version="2"' in response.text
    assert check(organiser, world.game, tag_shown(organiser, world.game)).status_code == 304


def test_a_change_that_moves_no_deal_brings_the_sheet(organiser, player, world):
    """The link withdrawn, the match's next game started, more games planned: what may be
    done on the sheet changes with no new version of the game."""
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])  # 25: game 1 is won
    theirs = tag_shown(player, world.game)
    ScorerLink.objects.filter(pk=world.link.pk).update(revoked_at=timezone.now())
    assert check(player, world.game, theirs).status_code == 200

    ours = tag_shown(organiser, world.game)
    world.fixture.games_planned = 5
    world.fixture.save()
    assert check(organiser, world.game, ours).status_code == 200
    ours = tag_shown(organiser, world.game)
    fixture_game(world.fixture, number=2, first_dealer=1)
    assert check(organiser, world.game, ours).status_code == 200


def test_the_tag_is_of_this_persons_sheet(organiser, world):
    """Another login on this phone (logged out, and in as someone else) draws another
    sheet: not answered as unchanged."""
    tag = tag_shown(organiser, world.game)
    organiser.force_login(world.secretary)
    assert check(organiser, world.game, tag).status_code == 200


def test_a_visitors_htmx_poll_still_gets_the_sheet(client, world):
    """The public's own refresh of a game in play (every 20 s, from the cache) sends no
    tag and is answered as before."""
    url = reverse("scoring:game-sheet", args=[world.game.pk])
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="sheet"' in response.text
