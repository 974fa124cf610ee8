"""Every scoring action × everyone who might try it. Allowed: the expected answer.
Refused: 403 (or the login page for anonymous people) and the database unchanged."""

import uuid

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from scoring.models import Confirmation, Deal, Game, GameEvent, ScorerLink
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db

ACTORS = [
    "secretary",
    "organiser",
    "other_organiser",
    "other_secretary",
    "anonymous",
    "link",
    "other_link",
]
MANAGERS = {"secretary", "organiser"}
SCORERS = MANAGERS | {"link"}


def won(world):
    play(world.game, 5, 0, user=world.organiser)


def one_deal(world):
    play(world.game, 2, 3, user=world.organiser)


def nothing(world):
    pass


def deal_data(world, **extra):
    world.game.refresh_from_db()
    return {"key": str(uuid.uuid4()), "version": world.game.version, "dealer": 0, **extra}


# name: (set up, method, url, data, allowed actors, status when allowed)
ACTIONS = {
    "read the sheet": (
        nothing,
        "get",
        lambda w: reverse("scoring:game-sheet", args=[w.game.pk]),
        None,
        set(ACTORS),
        200,
    ),
    "read the record": (
        nothing,
        "get",
        lambda w: reverse("scoring:game-record", args=[w.game.pk]),
        None,
        set(ACTORS),
        200,
    ),
    "read the match": (
        nothing,
        "get",
        lambda w: reverse("scoring:fixture-play", args=[w.fixture.pk]),
        None,
        set(ACTORS),
        200,
    ),
    "record a deal": (
        nothing,
        "post",
        lambda w: reverse("scoring:deal-record", args=[w.game.pk]),
        lambda w: deal_data(w, mode="split", first=3),
        SCORERS,
        302,
    ),
    "undo a deal": (
        one_deal,
        "post",
        lambda w: reverse("scoring:deal-undo", args=[w.game.pk]),
        lambda w: deal_data(w),
        SCORERS,
        302,
    ),
    "open a correction": (
        one_deal,
        "get",
        lambda w: reverse("scoring:deal-correct", args=[w.game.pk, 1]),
        None,
        SCORERS,
        200,
    ),
    "correct a deal": (
        one_deal,
        "post",
        lambda w: reverse("scoring:deal-correct", args=[w.game.pk, 1]),
        lambda w: deal_data(w, mode="count", tricks_0=4, tricks_1=1),
        SCORERS,
        302,
    ),
    "confirm the result": (
        won,
        "post",
        lambda w: reverse("scoring:game-confirm", args=[w.game.pk]),
        lambda w: deal_data(w),
        SCORERS,
        302,
    ),
    "list scorer links": (
        nothing,
        "get",
        lambda w: reverse("scoring:game-links", args=[w.game.pk]),
        None,
        MANAGERS,
        200,
    ),
    "make a scorer link": (
        nothing,
        "post",
        lambda w: reverse("scoring:game-links", args=[w.game.pk]),
        lambda w: {"side": "0"},
        MANAGERS,
        302,
    ),
    "show a QR code": (
        nothing,
        "get",
        lambda w: reverse("scoring:link-detail", args=[w.game.pk, w.link.pk]),
        None,
        MANAGERS,
        200,
    ),
    "withdraw a link": (
        nothing,
        "post",
        lambda w: reverse("scoring:link-revoke", args=[w.game.pk, w.link.pk]),
        lambda w: {"confirm": "yes"},
        MANAGERS,
        302,
    ),
    "start the next game": (
        won,
        "post",
        lambda w: reverse("scoring:fixture-play", args=[w.fixture.pk]),
        lambda w: {"number": 2, "first_dealer": 1},
        MANAGERS,
        302,
    ),
    "open a friendly": (
        nothing,
        "get",
        lambda w: reverse("scoring:friendly-start", args=[w.pub.pk]),
        None,
        MANAGERS,
        200,
    ),
    "start a friendly": (
        nothing,
        "post",
        lambda w: reverse("scoring:friendly-start", args=[w.pub.pk]),
        lambda w: {"ruleset": "twenty-five", "sides": "Ann\nBob", "first_dealer": 1},
        MANAGERS,
        302,
    ),
}


def snapshot():
    return (
        list(Deal.objects.order_by("pk").values_list("pk", "live", "tricks")),
        list(Game.objects.order_by("pk").values_list("pk", "version", "scores")),
        Confirmation.objects.count(),
        list(ScorerLink.objects.order_by("pk").values_list("pk", "revoked_at")),
        GameEvent.objects.count(),
    )


def act_as(client, world, actor):
    if actor == "link":
        client.get(reverse("scoring:link-open", args=[world.link.token]))
    elif actor == "other_link":
        client.get(reverse("scoring:link-open", args=[world.other_link.token]))
    elif actor != "anonymous":
        client.force_login(getattr(world, actor))


@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_scoring_action_is_allowed_or_refused_with_nothing_changed(world, action):
    setup, method, url, data, allowed, status = ACTIONS[action]
    for actor in ACTORS:
        # Each actor tries on the same start; the savepoint puts it back afterwards.
        with transaction.atomic():
            world.game.refresh_from_db()
            setup(world)
            client = Client()
            act_as(client, world, actor)
            before = snapshot()
            kwargs = {"data": data(world)} if data else {}
            response = getattr(client, method)(url(world), **kwargs)
            if actor in allowed:
                assert response.status_code == status, (actor, response.content[:300])
            elif actor == "anonymous":
                assert response.status_code == 302, actor
                assert response["Location"].startswith(reverse("login")), actor
                assert snapshot() == before, actor
            else:
                assert response.status_code == 403, actor
                assert snapshot() == before, actor
            transaction.set_rollback(True)


def test_an_ended_login_comes_back_to_the_page_the_form_was_on(client, world):
    # "Yes, withdraw it" posts to an address whose GET is its question, not that page.
    page = reverse("scoring:game-links", args=[world.game.pk])
    before = snapshot()
    response = client.post(
        reverse("scoring:link-revoke", args=[world.game.pk, world.link.pk]),
        {"confirm": "yes"},
        HTTP_REFERER=f"http://testserver{page}",
    )
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={page}"
    assert "Your login has ended" in client.get(response["Location"]).content.decode()
    assert snapshot() == before


def test_a_player_with_a_scorer_link_is_told_what_the_link_is_for(client, world):
    """A player scoring through a link who opens an organiser's page (the game's links)
    was told "You are not logged in: your login may have ended", of a login never had."""
    client.get(world.link.get_absolute_url())
    response = client.get(reverse("scoring:game-links", args=[world.game.pk]))
    assert response.status_code == 403
    page = response.content.decode().replace("&#x27;", "'")
    assert "Your scorer link is for entering this game's deals on its sheet" in page
    assert "your login may have ended" not in page
