"""The services behind the table sheet: what they write, what they refuse, and that a
refusal writes nothing."""

import uuid

import pytest
from django.db import IntegrityError, transaction

import rules
from league.models import Fixture
from scoring.models import Confirmation, Deal, Game, GameEvent
from scoring.services import (
    KeyReused,
    ScoringError,
    StaleGame,
    deal_correct,
    deal_record,
    deal_undo,
    game_confirm,
    game_next,
    link_create,
    link_revoke,
)
from tests.factories import DealFactory
from tests.scoring.conftest import play, stopped_at_25_then_game_2

pytestmark = pytest.mark.django_db


def counts():
    return Deal.objects.count(), GameEvent.objects.count(), Confirmation.objects.count()


def test_a_deal_is_recorded_with_the_game_totals_and_an_event(world):
    deal = play(world.game, 2, 3)
    game = world.game
    assert (deal.number, deal.version, deal.live, deal.tricks) == (1, 1, True, "23")
    assert game.scores == [10, 15]
    assert game.status == Game.Status.IN_PLAY
    event = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.DEAL).get()
    assert event.deal == deal
    assert world.labels[0] in event.text


def test_the_winner_and_why_are_told_in_the_sides_names(world):
    play(world.game, 2, 3, dealer=0)
    play(world.game, 3, 2, dealer=1)  # 25 – 25: the dealer's side is counted last
    game = world.game
    assert game.winner == 0
    assert game.status == Game.Status.FINISHED
    assert game.reason == f"{world.labels[0]} reached 25 first (non-dealers counted first)"


def test_a_retry_with_the_same_key_returns_the_stored_deal(world):
    key = uuid.uuid4()
    version = world.game.version
    first = deal_record(game=world.game, dealer=0, tricks=[2, 3], key=key, version=version)
    again = deal_record(game=world.game, dealer=0, tricks=[2, 3], key=key, version=version)
    assert again.pk == first.pk
    assert Deal.objects.filter(game=world.game).count() == 1


def test_the_same_key_with_a_different_deal_is_refused_and_nothing_is_written(world):
    key = uuid.uuid4()
    deal_record(game=world.game, dealer=0, tricks=[2, 3], key=key, version=world.game.version)
    before = counts()
    world.game.refresh_from_db()
    with pytest.raises(KeyReused):
        deal_record(game=world.game, dealer=0, tricks=[4, 1], key=key, version=world.game.version)
    assert counts() == before


def test_a_stale_version_is_refused_and_nothing_is_overwritten(world):
    old_version = world.game.version
    play(world.game, 2, 3)
    before = counts()
    with pytest.raises(StaleGame) as refused:
        deal_record(game=world.game, dealer=1, tricks=[4, 1], key=uuid.uuid4(), version=old_version)
    assert refused.value.game.scores == [10, 15]
    assert counts() == before
    world.game.refresh_from_db()
    assert world.game.scores == [10, 15]


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ({"dealer": 0, "tricks": [2, 2, 1]}, "wrong_side_count"),
        ({"dealer": 0, "tricks": [6, -1]}, "tricks_out_of_range"),
        ({"dealer": 2, "tricks": [2, 3]}, "bad_dealer"),
        ({"dealer": 0, "tricks": [3, 3]}, "wrong_trick_total"),
        ({"dealer": 0, "tricks": [2, 3], "trick_winners": [0, 0, 0, 1, 1]}, "trick_order_mismatch"),
        ({"dealer": 0, "tricks": [2, 3], "bonus_side": 1}, "bad_bonus"),
    ],
)
def test_a_deal_the_rules_refuse_writes_nothing(world, deal, code):
    before = counts()
    with pytest.raises(rules.InvalidDeal) as refused:
        deal_record(game=world.game, key=uuid.uuid4(), version=world.game.version, **deal)
    assert refused.value.code == code
    assert counts() == before


def test_no_deal_is_taken_after_the_game_is_won(world):
    play(world.game, 5, 0)
    assert world.game.winner == 0
    with pytest.raises(rules.InvalidDeal) as refused:
        play(world.game, 2, 3)
    assert refused.value.code == "game_over"


def test_a_correction_keeps_the_old_version_and_rescores_the_game(world):
    old = play(world.game, 2, 3, dealer=0)
    play(world.game, 1, 4, dealer=1)
    assert world.game.winner == 1
    new = deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[4, 1],
        key=uuid.uuid4(),
        version=world.game.version,
    )
    old.refresh_from_db()
    world.game.refresh_from_db()
    assert (old.live, new.live, new.version, new.number) == (False, True, 2, 1)
    assert world.game.scores == [25, 25]
    assert world.game.winner == 0  # the dealer of deal 2 was side 1: side 0 counted first
    assert GameEvent.objects.filter(kind=GameEvent.Kind.CORRECTION).count() == 1


def test_a_correction_the_rules_refuse_writes_nothing(world):
    play(world.game, 2, 3)
    before = counts()
    with pytest.raises(rules.InvalidDeal):
        deal_correct(
            game=world.game,
            number=1,
            dealer=0,
            tricks=[3, 3],
            key=uuid.uuid4(),
            version=world.game.version,
        )
    assert counts() == before
    assert Deal.objects.get().live


def test_an_earlier_deal_is_corrected_with_the_later_deal_it_no_longer_fits(world):
    # Found by a walk: deal 1 was 2–3, not 3–2. Corrected alone, deal 2 stops at 20, short
    # of 25; deal 2 alone cannot take a third trick at 25; and with game 2 started,
    # neither can be undone. No single change worked.
    stopped_at_25_then_game_2(world)
    before = counts()
    fix = {"game": world.game, "number": 1, "dealer": 0, "tricks": [2, 3]}
    with pytest.raises(rules.InvalidDeal) as refused:
        deal_correct(**fix, key=uuid.uuid4(), version=world.game.version)
    assert refused.value.deal_index == 1
    with pytest.raises(ScoringError, match="Correct the deal instead"):
        deal_undo(game=world.game, version=world.game.version)
    assert counts() == before

    later = {"number": 2, "dealer": 1, "tricks": [3, 0], "trick_winners": [0, 0, 0]}
    deal_correct(
        **fix,
        key=uuid.uuid4(),
        version=world.game.version,
        later={**later, "bonus_side": None, "key": uuid.uuid4()},
    )
    world.game.refresh_from_db()
    assert (world.game.scores, world.game.winner) == ([25, 15], 0)
    live = world.game.deals.live().order_by("number")
    assert [(d.tricks, d.trick_winners) for d in live] == [("23", ""), ("30", "000")]
    assert world.game.deals.filter(live=False).count() == 2  # both old entries kept
    record = world.game.events.get(kind=GameEvent.Kind.CORRECTION).text
    assert record.startswith("Deal 1: ") and "; deal 2, with it: " in record


def test_a_later_deal_sent_back_as_it_was_is_not_corrected(world):
    stopped_at_25_then_game_2(world)
    later = {"number": 2, "dealer": 1, "tricks": [2, 0], "trick_winners": [0, 0]}
    deal_correct(
        game=world.game,
        number=1,
        dealer=1,  # only deal 1's dealer was wrong
        tricks=[3, 2],
        key=uuid.uuid4(),
        version=world.game.version,
        later={**later, "bonus_side": None, "key": uuid.uuid4()},
    )
    assert list(world.game.deals.filter(live=False).values_list("number", flat=True)) == [1]
    assert "deal 2" not in world.game.events.get(kind=GameEvent.Kind.CORRECTION).text


def test_a_confirmed_game_is_corrected_only_with_a_reason(world):
    play(world.game, 5, 0)
    game_confirm(game=world.game, user=world.organiser)
    world.game.refresh_from_db()
    with pytest.raises(ScoringError):
        deal_correct(
            game=world.game,
            number=1,
            dealer=0,
            tricks=[4, 1],
            key=uuid.uuid4(),
            version=world.game.version,
        )
    deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[0, 5],
        key=uuid.uuid4(),
        version=world.game.version,
        reason="Tricks read out the wrong way round",
        user=world.organiser,
    )
    world.game.refresh_from_db()
    assert world.game.winner == 1
    event = GameEvent.objects.get(kind=GameEvent.Kind.CORRECTION)
    assert "Tricks read out the wrong way round" in event.text
    assert event.user == world.organiser


def test_a_correction_s_line_in_the_record_is_whole_however_long_its_reason(world):
    # The record is what disputes are settled from: the line of a correction of a
    # confirmed game, with a long reason and the winner changed, was cut at 300
    # characters and ended "…the result is confirmed again, by the other".
    play(world.game, 5, 0)
    game_confirm(game=world.game, user=world.organiser)
    world.game.refresh_from_db()
    reason = "Tricks read out the wrong way round at the end of the night, " * 3
    deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[0, 5],
        key=uuid.uuid4(),
        version=world.game.version,
        reason=reason[:200],
        user=world.organiser,
    )
    text = GameEvent.objects.get(kind=GameEvent.Kind.CORRECTION).text
    assert len(text) > 300
    assert text.endswith("the result is confirmed again, by the other side's link or an organiser")


def test_a_correction_that_changes_nothing_is_refused_and_keeps_the_confirmation(world):
    play(world.game, 5, 0, dealer=0)
    game_confirm(game=world.game, user=world.organiser)
    world.game.refresh_from_db()
    before = counts()
    with pytest.raises(ScoringError, match="Nothing to correct: deal 1 is already"):
        deal_correct(
            game=world.game,
            number=1,
            dealer=0,
            tricks=[5, 0],
            key=uuid.uuid4(),
            version=world.game.version,
            reason="Checking",
            user=world.organiser,
        )
    assert counts() == before
    world.game.refresh_from_db()
    assert world.game.is_confirmed


def test_undo_takes_back_the_last_deal_and_reopens_the_game(world):
    play(world.game, 5, 0)
    deal = deal_undo(game=world.game, version=world.game.version, user=world.organiser)
    world.game.refresh_from_db()
    assert deal.number == 1
    assert Deal.objects.get(pk=deal.pk).live is False
    assert (world.game.scores, world.game.winner, world.game.status) == ([0, 0], None, "in_play")
    again = play(world.game, 2, 3)
    assert (again.number, again.version) == (1, 2)


def test_undo_with_nothing_to_undo_or_on_a_confirmed_game_is_refused(world):
    with pytest.raises(ScoringError):
        deal_undo(game=world.game, version=world.game.version)
    play(world.game, 5, 0)
    game_confirm(game=world.game, user=world.organiser)
    world.game.refresh_from_db()
    with pytest.raises(ScoringError):
        deal_undo(game=world.game, version=world.game.version)
    assert Deal.objects.live().count() == 1


def test_a_game_is_confirmed_once_and_only_when_won(world):
    with pytest.raises(ScoringError):
        game_confirm(game=world.game, user=world.organiser)
    play(world.game, 5, 0)
    game_confirm(game=world.game, user=world.organiser)
    with pytest.raises(ScoringError):
        game_confirm(game=world.game, user=world.secretary)
    assert Confirmation.objects.filter(game=world.game).count() == 1


def test_the_other_sides_link_confirms_but_the_entering_link_does_not(world):
    play(world.game, 5, 0, link=world.link)
    with pytest.raises(ScoringError):
        game_confirm(game=world.game, link=world.link)
    from scoring.services import link_create

    other_side = link_create(game=world.game, side=0, user=world.organiser)
    confirmation = game_confirm(game=world.game, link=other_side)
    assert confirmation.confirmed_via == other_side


def test_a_link_for_no_side_cannot_confirm(world):
    from scoring.services import link_create

    table = link_create(game=world.game, user=world.organiser)
    play(world.game, 5, 0)
    with pytest.raises(ScoringError):
        game_confirm(game=world.game, link=table)
    assert not Confirmation.objects.exists()


def test_revoking_a_link_is_recorded_once(world):
    link_revoke(link=world.link, user=world.organiser)
    link_revoke(link=world.link, user=world.organiser)
    world.link.refresh_from_db()
    assert world.link.revoked_at is not None
    assert GameEvent.objects.filter(kind=GameEvent.Kind.REVOKED).count() == 1


def test_a_postponed_fixture_starts_no_game(world):
    # Postponed after its play page was opened: the start, under the fixture's lock, sees it.
    fixture = world.fixture
    play(world.game, 5, 0)
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.POSTPONED)
    with pytest.raises(ScoringError, match="This fixture is postponed"):
        game_next(fixture=fixture, number=2, first_dealer=1)
    assert fixture.games.count() == 1


def test_the_next_game_of_a_match_waits_for_the_one_in_play(world):
    with pytest.raises(ScoringError):
        game_next(fixture=world.fixture, number=2, first_dealer=1)
    play(world.game, 5, 0)
    second = game_next(fixture=world.fixture, number=2, first_dealer=1)
    assert (second.number, second.first_dealer, second.season) == (2, 1, world.season)
    assert [s.team for s in second.game_sides.all()] == [
        s.team for s in world.game.game_sides.all()
    ]
    # A second tap on "Start game 2" finds the same game.
    assert game_next(fixture=world.fixture, number=2, first_dealer=1) == second
    with pytest.raises(ScoringError):
        game_next(fixture=world.fixture, number=5, first_dealer=0)


def test_a_fixture_is_played_once_its_planned_games_are_won(world):
    game = world.game
    for number in (2, 3, 4):
        play(game, 5, 0)
        world.fixture.refresh_from_db()
        if number <= 3:
            assert world.fixture.status == Fixture.Status.SCHEDULED
            game = game_next(fixture=world.fixture, number=number, first_dealer=0)
    assert world.fixture.status == Fixture.Status.PLAYED
    deal_undo(game=game, version=game.version)
    world.fixture.refresh_from_db()
    assert world.fixture.status == Fixture.Status.SCHEDULED


def test_the_database_refuses_a_second_live_deal_for_a_number(world):
    DealFactory(game=world.game, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealFactory(game=world.game, number=1, version=2)


@pytest.mark.parametrize("tricks", ["63", "2", "2a"])
def test_the_database_refuses_trick_counts_out_of_range(world, tricks):
    with pytest.raises(IntegrityError), transaction.atomic():
        DealFactory(game=world.game, number=1, tricks=tricks)


def test_the_database_refuses_a_second_confirmation(world):
    Confirmation.objects.create(game=world.game)
    with pytest.raises(IntegrityError), transaction.atomic():
        Confirmation.objects.create(game=world.game)


def test_the_database_refuses_a_second_game_with_the_same_number_in_a_match(world):
    from tests.factories import GameFactory

    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(season=world.season, fixture=world.fixture, number=1)


def test_a_game_cannot_be_reopened_once_the_match_has_gone_on(world):
    play(world.game, 5, 0)
    game_next(fixture=world.fixture, number=2, first_dealer=1)
    world.game.refresh_from_db()
    with pytest.raises(ScoringError):
        deal_undo(game=world.game, version=world.game.version)
    with pytest.raises(ScoringError):
        deal_correct(
            game=world.game,
            number=1,
            dealer=0,
            tricks=[3, 2],
            key=uuid.uuid4(),
            version=world.game.version,
        )
    # A correction that keeps a winner is fine.
    deal_correct(
        game=world.game,
        number=1,
        dealer=0,
        tricks=[0, 5],
        key=uuid.uuid4(),
        version=world.game.version,
    )
    world.game.refresh_from_db()
    assert world.game.winner == 1


def test_long_side_names_are_kept_whole_in_the_record(world):
    from scoring.services import SideSpec, game_start

    names = [f"{letter * 95} team" for letter in "ABCDEF"]
    game = game_start(season=None, pub=world.pub, sides=[SideSpec(name) for name in names])
    play(game, 1, 1, 1, 1, 1, 0)
    event = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.DEAL).get()
    assert all(f"{name} 1" in event.text for name in names[:5]) and f"{names[5]} 0" in event.text


def test_a_sides_second_link_cannot_confirm_what_its_side_entered(world):
    """Confirmation is per side, not per link: a fresh link for the side that entered
    the deals is still that side."""
    play(world.game, 5, 0, link=world.link)
    same_side = link_create(game=world.game, side=1)
    with pytest.raises(ScoringError, match="the other side confirms"):
        game_confirm(game=world.game, link=same_side)
    assert not Confirmation.objects.exists()
    confirmation = game_confirm(game=world.game, link=link_create(game=world.game, side=0))
    assert confirmation.confirmed_via.side == 0


def test_an_organiser_who_entered_the_deals_may_confirm_and_the_record_says_so(world):
    play(world.game, 5, 0, user=world.organiser)
    game_confirm(game=world.game, user=world.organiser)
    text = GameEvent.objects.get(kind=GameEvent.Kind.CONFIRMED).text
    assert "Entered and confirmed by the same organiser." in text


def test_an_organiser_who_entered_nothing_confirms_without_a_note(world):
    play(world.game, 5, 0, link=world.link)
    game_confirm(game=world.game, user=world.secretary)
    assert "same organiser" not in GameEvent.objects.get(kind=GameEvent.Kind.CONFIRMED).text
