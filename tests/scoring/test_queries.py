"""The sheet, the match page and the game's record cost the same number of queries
however many deals, games or entries they show."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.services import deal_correct, game_next
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db


def queries(client, url):
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_the_sheet_and_the_record_cost_the_same_for_one_deal_or_many(client, world):
    client.force_login(world.organiser)
    sheet = reverse("scoring:game-sheet", args=[world.game.pk])
    record = reverse("scoring:game-record", args=[world.game.pk])
    play(world.game, 2, 3, user=world.organiser)
    small = queries(client, sheet), queries(client, record)
    play(world.game, 1, 4, dealer=0)  # 15 – 35: won, so the sheet shows more, not more queries
    deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[1, 4],
        key=uuid.uuid4(),
        version=world.game.version,
        link=world.link,
    )
    assert (queries(client, sheet), queries(client, record)) == small


def test_the_match_page_costs_the_same_for_one_game_or_three(client, world):
    url = reverse("scoring:fixture-play", args=[world.fixture.pk])
    small = queries(client, url)
    play(world.game, 5, 0)
    game = game_next(fixture=world.fixture, number=2, first_dealer=1)
    play(game, 0, 5)
    game = game_next(fixture=world.fixture, number=3, first_dealer=0)
    play(game, 3, 2)
    assert queries(client, url) == small


def test_a_deal_post_costs_twelve_queries_however_long_the_game(client, world):
    """The organiser's user and permission, the game and its sides, the game's lock, its
    deals (with any deal already saved under the key), the new deal, the game's totals,
    the league's content version and the record's line: 10 (savepoints aside); then the
    game as saved and its sides again, for the line in words that says what was saved."""
    client.force_login(world.organiser)
    url = reverse("scoring:deal-record", args=[world.game.pk])
    client.get(reverse("scoring:game-sheet", args=[world.game.pk]))  # the session in the cache
    counts = []
    for first in (2, 1):
        world.game.refresh_from_db()
        fields = {"key": uuid.uuid4(), "version": world.game.version, "mode": "split"}
        with CaptureQueriesContext(connection) as context:
            response = client.post(url, {**fields, "dealer": len(counts), "first": first})
        assert response.status_code == 302
        counts.append(sum(1 for q in context.captured_queries if "SAVEPOINT" not in q["sql"]))
    assert counts[0] == 12
    # The deal that finishes the game also writes its result rows and the fixture's count.
    # The deal that finishes the game also writes: the fixture's counts (2), the sides
    # and their players (2), the result rows (3), and the teams' kept rows (the season,
    # the teams' lock, their totals, their fixtures won, delete and insert: 6), and the
    # line in words reads the match's games to say who leads it (4).
    assert counts[1] == 12 + 17
