"""`league.rows` reads and writes a row as the ORM would, for the deal POST."""

import uuid

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from league import rows
from scoring.models import Deal, Game, GameEvent


def test_an_inserted_row_reads_back_as_saved_with_its_id_and_time(world):
    deal = rows.insert(
        Deal(
            game=world.game,
            number=1,
            dealer=0,
            tricks="23",
            key=uuid.uuid4(),
            entered_by=world.organiser,
        )
    )
    assert deal.pk is not None and not deal._state.adding
    assert deal.created_at is not None  # auto_now_add, as save() sets it
    stored = Deal.objects.get(pk=deal.pk)
    assert model_to_dict(stored) == model_to_dict(deal)
    assert (stored.key, stored.live, stored.version) == (deal.key, True, 1)


def test_an_inserted_row_keeps_the_databases_constraints(world):
    key = uuid.uuid4()
    rows.insert(Deal(game=world.game, number=1, dealer=0, tricks="23", key=key))
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(Deal(game=world.game, number=2, dealer=1, tricks="14", key=key))


def test_an_update_writes_the_named_fields_and_no_others(world):
    game = Game.objects.get(pk=world.game.pk)
    game.scores, game.version, game.reason = [15, 10], game.version + 1, "not written"
    rows.update(game, ("scores", "version"))
    stored = Game.objects.get(pk=game.pk)
    assert (stored.scores, stored.version, stored.reason) == ([15, 10], game.version, "")


def test_an_update_of_a_row_not_there_is_refused(world):
    game = Game.objects.get(pk=world.game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        rows.update(game, ("version",))


def test_a_line_of_the_record_is_written_with_its_kind_and_text(world):
    line = rows.insert(GameEvent(game=world.game, kind=GameEvent.Kind.DEAL, text="Deal 1"))
    assert GameEvent.objects.filter(pk=line.pk, kind="deal", text="Deal 1").exists()


def test_a_row_selected_is_made_as_the_orm_makes_it_with_the_columns_read_besides(world):
    game = Game.objects.get(pk=world.game.pk)
    game.scores, game.reason = [15, 10], "a reason"
    game.save()
    sql = f"SELECT {rows.columns(Game, 'g')}, 1 + 1 FROM scoring_game g WHERE g.id = %s"
    (read,) = rows.select(Game, sql, [game.pk], extra=("two",))
    stored = Game.objects.get(pk=game.pk)
    assert model_to_dict(read) == model_to_dict(stored)
    assert (read.scores, read.created_at, read.two) == ([15, 10], stored.created_at, 2)
    assert not read._state.adding
    assert rows.select(Game, sql, [game.pk + 1000], extra=("two",)) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
def test_a_deal_its_games_totals_and_its_line_are_written_in_one_statement(world):
    from league.results import CONTENT_CHANGED

    game = Game.objects.get(pk=world.game.pk)
    content_version = game.league.content_version
    deal = Deal(game=game, number=1, dealer=0, tricks="23", key=uuid.uuid4())
    line = GameEvent(game=game, kind=GameEvent.Kind.DEAL, deal=deal, text="Deal 1")
    game.scores, game.version = [10, 15], game.version + 1
    with CaptureQueriesContext(connection) as queries:
        returned = rows.deal_written(
            deal, game, ("scores", "version"), line, CONTENT_CHANGED, [game.league_id]
        )
    assert len(queries) == 1 and returned == (game.league.slug,)
    assert Deal.objects.get(pk=deal.pk).tricks == "23"
    assert GameEvent.objects.get(kind="deal", text="Deal 1").deal_id == deal.pk
    stored = Game.objects.get(pk=game.pk)
    assert (stored.scores, stored.version) == ([10, 15], game.version)
    assert stored.league.content_version == content_version + 1
