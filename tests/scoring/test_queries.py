"""The sheet, the match page and the game's record cost the same number of queries
however many deals, games or entries they show."""

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.selectors import match_for
from scoring.services import deal_correct, game_next
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db

# On PostgreSQL a deal POST reads the sides' names and the person's roles in the league
# with the game, and a deal that does not finish its game writes its deal, the game's
# totals, the league's content version and the record's line in one statement. On
# SQLite (`make run`) the names and the roles take a query each, the writes four.
PG = connection.vendor == "postgresql"
LABELS = 0 if PG else 1
ROLES = 0 if PG else 1
WRITES = 1 if PG else 4
# A finished game's head-to-head rows: one statement on PostgreSQL, two elsewhere.
PAIRS = 0 if PG else 1
# The game's fixture: read again for the line in words on PostgreSQL, with the game elsewhere.
FIXTURE = 1 if PG else 0
SIDES = 'SELECT "scoring_gameside".'


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
    deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[3, 2],
        key=uuid.uuid4(),
        version=world.game.version,
        link=world.link,
    )
    assert (queries(client, sheet), queries(client, record)) == small
    play(world.game, 1, 4, dealer=1)  # 20 – 30: won, and the next game can start
    # The sheet shows more; one query more, for who deals first in the next game.
    assert (queries(client, sheet), queries(client, record)) == (small[0] + 1, small[1])


@pytest.mark.parametrize("page", ["game-sheet", "game-record"])
@pytest.mark.parametrize("who", ["organiser", "secretary"])
def test_a_page_asks_once_who_runs_the_pub(client, world, page, who):
    """The view's check (may this person score or see the logins?) and the header's links
    (what do they run?) are one question: a page asks it once."""
    client.force_login(getattr(world, who))
    url = reverse(f"scoring:{page}", args=[world.game.pk])
    client.get(url)  # the session and the login, read once and kept
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    # The question, in either of its forms: the secretaries and the pubs' organisers.
    tables = ("league_league_secretaries", "league_pub_organisers")
    statements = [q["sql"] for q in context.captured_queries]
    asked = [sql for sql in statements if all(table in sql for table in tables)]
    assert len(asked) == 1, "\n".join(asked)


def test_the_sheet_reads_the_games_of_its_match_with_their_winners(client, world):
    """The match's score on the sheet needs only which team won each game: read with the
    games, not as every game's sides. The sheet's own sides are its one read of sides."""
    client.force_login(world.organiser)
    play(world.game, 5, 0)
    game_next(fixture=world.fixture, number=2, first_dealer=1)
    url = reverse("scoring:game-sheet", args=[world.game.pk])
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    sides = [q["sql"] for q in context.captured_queries if q["sql"].startswith(SIDES)]
    assert len(sides) == 1, "\n".join(sides)


def test_the_match_page_costs_the_same_for_one_game_or_three(client, world):
    url = reverse("scoring:fixture-play", args=[world.fixture.pk])
    small = queries(client, url)
    play(world.game, 5, 0)
    game = game_next(fixture=world.fixture, number=2, first_dealer=1)
    play(game, 0, 5)
    game = game_next(fixture=world.fixture, number=3, first_dealer=0)
    play(game, 3, 2)
    assert queries(client, url) == small


def test_a_match_with_a_game_in_play_reads_no_deal(world):
    """Who deals first in the next game is worked out only when one can start: not on
    every sheet of a game in play, which every deal POST is followed by."""
    play(world.game, 2, 3)
    with CaptureQueriesContext(connection) as context:
        match = match_for(world.fixture)
    assert match.in_play == world.game and match.next_number is None
    assert not [q["sql"] for q in context.captured_queries if "scoring_deal" in q["sql"]]


def deal_post(client, game, *, first, dealer):
    """(status, statements) of one deal POST of the split form, as a phone sends it:
    the game's current version, a new key. SAVEPOINT and RELEASE aside."""
    game.refresh_from_db()
    url = reverse("scoring:deal-record", args=[game.pk])
    fields = {"key": uuid.uuid4(), "version": game.version, "mode": "split"}
    with CaptureQueriesContext(connection) as context:
        response = client.post(url, {**fields, "dealer": dealer, "first": first})
    return response.status_code, [
        q["sql"] for q in context.captured_queries if "SAVEPOINT" not in q["sql"]
    ]


@pytest.mark.parametrize("who", ["organiser", "secretary"])
def test_a_deal_post_costs_four_queries_for_an_organiser_or_a_secretary(client, world, who):
    """The person; the game, locked, with its fixture, confirmation, sides' labels and
    the person's roles in its league (the permission); the game's deals (with any deal
    already saved under the key); the writes: the new deal, the game's totals, the
    league's content version and the record's line. The line in words is made from the
    game as saved: no read after the writes."""
    client.force_login(getattr(world, who))
    client.get(reverse("scoring:game-sheet", args=[world.game.pk]))  # the session in the cache
    status, statements = deal_post(client, world.game, first=2, dealer=0)
    assert status == 302
    expected = 3 + LABELS + ROLES + WRITES
    assert len(statements) == expected == (4 if PG else 9), "\n".join(statements)


def test_a_deal_post_through_a_scorer_link_costs_four_queries(client, world):
    """No person to read and no roles, and the link instead: the link, then as for an
    organiser."""
    client.get(world.link.get_absolute_url())  # the link kept in the session
    status, statements = deal_post(client, world.game, first=2, dealer=0)
    assert status == 302
    assert len(statements) == 3 + LABELS + WRITES == (4 if PG else 8), "\n".join(statements)


def test_the_deal_that_finishes_the_game_costs_more_but_no_more_however_long_the_game(
    client, world
):
    client.force_login(world.organiser)
    client.get(reverse("scoring:game-sheet", args=[world.game.pk]))
    assert deal_post(client, world.game, first=2, dealer=0)[0] == 302  # 10 – 15
    status, statements = deal_post(client, world.game, first=1, dealer=1)  # 15 – 35: won
    assert status == 302
    # The deal that finishes the game also writes: the fixture's counts (2), the sides
    # and their players (2), the result rows (3), and the teams' kept rows (the season,
    # the teams' lock, their totals, their fixtures won, delete and insert: 6), their
    # head-to-head rows (1), and the line in words reads the match to say who leads it:
    # the fixture (on PostgreSQL: the deal's own read of the game leaves it out), its
    # teams, its games with who won each, and the last deal, for who deals next (3-4).
    expected = 7 + LABELS + ROLES + 17 + FIXTURE + PAIRS
    assert len(statements) == expected, "\n".join(statements)


@pytest.mark.django_db(transaction=True)
def test_the_bench_counts_a_secretarys_deal_post_as_the_tests_do(world):
    """`make bench` reports this number, outside any test's transaction (so with the
    view's own BEGIN and COMMIT, which it leaves aside): the number asserted above."""
    from bench.measure import deal_post_queries

    assert deal_post_queries(world.game, world.secretary) == (302, 3 + LABELS + ROLES + WRITES)


def test_a_deal_post_writes_only_the_games_totals(client, world):
    """The game's row is written with what a deal changes (its scores, winner, why,
    shut-out, status, finish and version), not every column read with it."""
    client.force_login(world.organiser)
    status, statements = deal_post(client, world.game, first=2, dealer=0)
    assert status == 302
    (update,) = re.findall(r'UPDATE "scoring_game" SET (.*?) WHERE', "\n".join(statements))
    columns = set(re.findall(r'"(\w+)" = ', update))
    assert columns == {"status", "scores", "winner", "reason", "shutout", "version", "finished_at"}
