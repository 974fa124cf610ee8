"""Races between phones, on the real database: threads, each with its own connection,
released together by a barrier. The database, not the code's luck, keeps the record."""

import threading
import time
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring import selectors
from scoring.models import Deal, Game
from scoring.services import SideSpec, StaleGame, deal_correct, deal_record, game_start
from tests.factories import PubFactory, UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="races are run on PostgreSQL"),
]


def new_game():
    pub = PubFactory()
    return game_start(season=None, pub=pub, sides=[SideSpec("Blues"), SideSpec("Greens")])


def race(*calls):
    """Run each call in its own thread at the same moment; return what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_sixteen_identical_submissions_at_once_make_exactly_one_deal_over_twenty_trials():
    for _ in range(20):
        game = new_game()
        key, version = uuid.uuid4(), game.version

        def submit(game=game, key=key, version=version):
            return deal_record(game=game, dealer=0, tricks=[2, 3], key=key, version=version)

        outcomes = race(*[submit] * 16)
        assert all(isinstance(o, Deal) for o in outcomes), outcomes
        assert len({deal.pk for deal in outcomes}) == 1
        assert Deal.objects.filter(game=game).count() == 1
        game.refresh_from_db()
        assert game.scores == [10, 15]


def test_two_phones_sending_different_deals_for_the_same_number_save_one_and_tell_the_other():
    for _ in range(5):
        game = new_game()
        version = game.version

        def phone(tricks, game=game, version=version):
            return deal_record(
                game=game, dealer=0, tricks=tricks, key=uuid.uuid4(), version=version
            )

        outcomes = race(lambda: phone([2, 3]), lambda: phone([4, 1]))
        saved = [o for o in outcomes if isinstance(o, Deal)]
        told = [o for o in outcomes if isinstance(o, StaleGame)]
        assert len(saved) == 1 and len(told) == 1, outcomes
        assert list(Deal.objects.filter(game=game).values_list("tricks", flat=True)) == [
            saved[0].tricks
        ]
        game.refresh_from_db()
        assert game.scores == [5 * int(t) for t in saved[0].tricks]
        # The phone that lost is shown the game as it now stands.
        assert told[0].game.version == game.version


def test_a_correction_and_a_new_deal_racing_on_the_same_version_keep_one_and_refuse_the_other():
    game = new_game()
    deal_record(game=game, dealer=0, tricks=[2, 3], key=uuid.uuid4(), version=game.version)
    game.refresh_from_db()
    version = game.version
    outcomes = race(
        lambda: deal_correct(
            game=game, number=1, dealer=0, tricks=[3, 2], key=uuid.uuid4(), version=version
        ),
        lambda: deal_record(game=game, dealer=1, tricks=[1, 4], key=uuid.uuid4(), version=version),
    )
    assert sum(isinstance(o, StaleGame) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, Deal) for o in outcomes) == 1, outcomes
    game.refresh_from_db()
    live = list(game.deals.live().order_by("number"))
    result_scores = [0, 0]
    for deal in live:
        for side, count in enumerate(deal.trick_counts):
            result_scores[side] += 5 * count
    assert game.scores == result_scores


def test_a_phone_with_a_stale_version_gets_a_conflict_and_overwrites_nothing():
    game = new_game()
    seen = game.version
    deal_record(game=game, dealer=0, tricks=[2, 3], key=uuid.uuid4(), version=seen)
    with pytest.raises(StaleGame):
        deal_record(game=game, dealer=0, tricks=[5, 0], key=uuid.uuid4(), version=seen)
    game = Game.objects.get(pk=game.pk)
    assert game.scores == [10, 15]
    assert list(game.deals.values_list("tricks", flat=True)) == ["23"]


# Negative controls: the app's own deal_record, with its guards switched off one by one.
# Each shows the defect the guard prevents; the tests above show its absence with the
# guards on.


@pytest.fixture
def slow_scoring(monkeypatch):
    """Widen the race window: every phone reads the game and its deals, then waits
    before working out its deal and writing it."""
    from scoring import services

    real = services._rules_deal

    def slow(*args):
        time.sleep(0.2)
        return real(*args)

    monkeypatch.setattr(services, "_rules_deal", slow)


@pytest.fixture
def phones_meet(monkeypatch):
    """For the controls with no row lock: each phone, having read the game and its deals,
    waits for the other to have read them too before it works out its deal and writes
    it. The race is run every time, not only when the threads' timing allows it (with a
    sleep instead, a busy machine once let one phone write before the other read)."""
    from scoring import services

    real = services._rules_deal
    both_read = threading.Barrier(2, timeout=20)

    def meet(*args):
        both_read.wait()
        return real(*args)

    monkeypatch.setattr(services, "_rules_deal", meet)


@pytest.fixture
def no_row_lock(monkeypatch):
    """deal_record without its row lock: `select_for_update()` locks nothing, nor does
    the sheet's own read of the game (`selectors.game_to_change`)."""
    from django.db.models import QuerySet

    monkeypatch.setattr(QuerySet, "select_for_update", lambda self, **kwargs: self)
    monkeypatch.setattr(selectors, "ROW_LOCK", "")


@pytest.fixture
def no_live_deal_constraint():
    """The database without its two guards on a deal's number: the partial unique index
    "one live deal per number" and the unique (game, number, version)."""
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX one_live_deal_per_number")
        cursor.execute("ALTER TABLE scoring_deal DROP CONSTRAINT deal_version_unique")
    yield
    with connection.cursor() as cursor:
        # Put the guards back: first undo what they would have refused.
        cursor.execute(
            "UPDATE scoring_deal SET live = false, version = 100 + id WHERE id NOT IN "
            "(SELECT min(id) FROM scoring_deal GROUP BY game_id, number)"
        )
        cursor.execute(
            "CREATE UNIQUE INDEX one_live_deal_per_number ON scoring_deal (game_id, number) "
            "WHERE live"
        )
        cursor.execute(
            "ALTER TABLE scoring_deal ADD CONSTRAINT deal_version_unique "
            "UNIQUE (game_id, number, version)"
        )


def two_phones_same_number(game):
    version = game.version

    def phone(tricks):
        return deal_record(game=game, dealer=0, tricks=tricks, key=uuid.uuid4(), version=version)

    return race(lambda: phone([2, 3]), lambda: phone([4, 1]))


def test_control_with_no_lock_and_no_constraint_two_phones_both_save_deal_one(
    phones_meet, no_row_lock, no_live_deal_constraint
):
    game = new_game()
    outcomes = two_phones_same_number(game)
    assert all(isinstance(o, Deal) for o in outcomes), outcomes
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 2  # the defect


def test_control_with_no_lock_the_constraint_alone_saves_one_and_tells_the_other(
    phones_meet, no_row_lock
):
    game = new_game()
    outcomes = two_phones_same_number(game)
    assert sum(isinstance(o, Deal) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, StaleGame) for o in outcomes) == 1, outcomes
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 1


def test_with_the_lock_and_no_constraints_the_version_check_tells_the_second_phone(
    slow_scoring, no_live_deal_constraint
):
    game = new_game()
    outcomes = two_phones_same_number(game)
    assert sum(isinstance(o, Deal) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, StaleGame) for o in outcomes) == 1, outcomes
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 1


# The sheet's POST takes the lock itself (`selectors.game_to_change`, in the view's
# transaction) and hands the locked game to the service: the same guards, through the
# view, switched off by the same switches.


def two_phones_post_deal_one(game):
    """Two phones of the game's organiser send deal 1 through the sheet at once; the
    statuses, in order."""
    organiser = UserFactory()
    game.pub.organisers.add(organiser)
    url = reverse("scoring:deal-record", args=[game.pk])
    phones = [Client(), Client()]
    for phone in phones:
        phone.force_login(organiser)

    def post(phone, first):
        fields = {"key": uuid.uuid4(), "version": game.version, "mode": "split"}
        return phone.post(url, {**fields, "dealer": 0, "first": first}).status_code

    return sorted(race(lambda: post(phones[0], 2), lambda: post(phones[1], 4)))


def test_two_phones_posting_deal_one_through_the_sheet_save_one_and_show_the_other_the_conflict(
    slow_scoring,
):
    game = new_game()
    assert two_phones_post_deal_one(game) == [302, 409]
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 1


def test_control_through_the_sheet_with_no_lock_and_no_constraint_both_phones_save_deal_one(
    phones_meet, no_row_lock, no_live_deal_constraint
):
    game = new_game()
    assert two_phones_post_deal_one(game) == [302, 302]
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 2  # the defect


def test_control_through_the_sheet_with_no_lock_the_constraint_alone_shows_the_conflict(
    phones_meet, no_row_lock
):
    game = new_game()
    assert two_phones_post_deal_one(game) == [302, 409]
    assert Deal.objects.filter(game=game, number=1, live=True).count() == 1
