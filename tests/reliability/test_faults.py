"""
A fault midway through recording a deal leaves nothing behind.

No mocks: a PostgreSQL trigger made in the test makes the last write of `deal_record`
(its GameEvent) fail, after the deal, the game's totals and the content version were
already written in the same transaction.
"""

import uuid

import pytest
from django.db import DatabaseError, connection

from bench.recount import kept, recount
from scoring.models import Deal, Game, GameEvent
from scoring.services import SideSpec, deal_record, game_start
from tests.factories import PubFactory, SeasonFactory, TeamFactory

pytestmark = pytest.mark.django_db(transaction=True)

FAIL_ON_EVENT = """
CREATE FUNCTION injected_fault() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'injected fault: the disk is full';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER injected_fault BEFORE INSERT ON scoring_gameevent
  FOR EACH ROW EXECUTE FUNCTION injected_fault();
"""
HEAL = "DROP TRIGGER injected_fault ON scoring_gameevent; DROP FUNCTION injected_fault();"


def play(game, *splits):
    version = game.version
    for first in splits:
        deal_record(
            game=game, dealer=0, tricks=[first, 5 - first], key=uuid.uuid4(), version=version
        )
        version += 1
    game.refresh_from_db()
    return game


def game_row(game) -> dict:
    return Game.objects.filter(pk=game.pk).values().get()


def test_a_fault_on_the_last_write_of_a_deal_leaves_no_partial_rows_and_the_standings_unchanged():
    season = SeasonFactory()
    pub = PubFactory(league=season.league)
    teams = [TeamFactory(season=season, pub=pub) for _ in range(2)]
    sides = [SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in teams]
    play(game_start(season=season, pub=pub, sides=sides), 4, 4)  # a counted game first
    game = play(game_start(season=season, pub=pub, sides=sides), 4)  # 20 – 5
    before = {
        "deals": Deal.objects.count(),
        "events": GameEvent.objects.count(),
        "game": game_row(game),
        "rows": kept(season),
    }
    assert before["rows"], "the first game is in the standings"

    with connection.cursor() as cursor:
        cursor.execute(FAIL_ON_EVENT)
    try:
        with pytest.raises(DatabaseError, match="injected fault"):
            # This deal wins the game: it would add to every standings row.
            deal_record(game=game, dealer=1, tricks=[4, 1], key=uuid.uuid4(), version=game.version)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(HEAL)

    assert Deal.objects.count() == before["deals"]
    assert GameEvent.objects.count() == before["events"]
    assert game_row(game) == before["game"]
    assert kept(season) == before["rows"] == recount(season)

    # Healed, the same deal goes through and moves the standings.
    deal_record(game=game, dealer=1, tricks=[4, 1], key=uuid.uuid4(), version=game.version)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert kept(season) != before["rows"]
    assert kept(season) == recount(season)
