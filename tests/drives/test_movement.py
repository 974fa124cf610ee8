"""Properties of every movement in drives/movement.py, checked with Hypothesis."""

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from drives.movement import (
    LOSERS_MOVE,
    WINNERS_MOVE,
    Plan,
    Seating,
    Table,
    first_seating,
    next_seating,
    opponents_and_partners,
)

PLANS = [
    Plan.for_drive(individual=False, table_size=4, movement=WINNERS_MOVE),
    Plan.for_drive(individual=False, table_size=4, movement=LOSERS_MOVE),
    Plan.for_drive(individual=False, table_size=6, movement=WINNERS_MOVE),
    Plan.for_drive(individual=False, table_size=6, movement=LOSERS_MOVE),
    Plan.for_drive(individual=True, table_size=3, movement=WINNERS_MOVE),
    Plan.for_drive(individual=True, table_size=4, movement=WINNERS_MOVE),
    Plan.for_drive(individual=True, table_size=5, movement=LOSERS_MOVE),
    Plan.for_drive(individual=True, table_size=6, movement=WINNERS_MOVE),
]


def assert_well_seated(seating, present, plan):
    seated = seating.seated()
    assert sorted(seated + list(seating.sit_outs)) == sorted(present)  # each exactly once
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    for table in seating.tables:
        assert len(table.entries) == plan.per_table  # tables full
        assert all(len(side) == plan.side_size for side in table.sides)
    assert len(seating.sit_outs) < plan.per_table or not seating.tables


def play(plan, entries, games, seed, data, changes=False):
    """A night with random results (and, if `changes`, arrivals and leavers)."""
    present = set(range(entries))
    seating = first_seating(present, plan=plan, seed=seed)
    nights = [seating]
    assert_well_seated(seating, present, plan)
    next_id = entries
    for _ in range(games - 1):
        winners = {t.number: data.draw(st.integers(0, len(t.sides) - 1)) for t in seating.tables}
        if changes:
            leavers = data.draw(st.sets(st.sampled_from(sorted(present) or [-1]), max_size=2))
            present -= leavers
            arriving = data.draw(st.integers(0, 2))
            present |= set(range(next_id, next_id + arriving))
            next_id += arriving
        following = next_seating(
            seating,
            winners=winners,
            present=present,
            plan=plan,
            missed=missed_before(nights, present),
        )
        assert_well_seated(following, present, plan)
        if not changes:
            assert_rule_holds(seating, following, winners, plan)
        seating = following
        nights.append(seating)
    return nights


def missed_before(nights, present):
    """{entry: games it did not play of `nights`}: sat out, or not there yet (or gone)."""
    played = Counter(e for seating in nights for e in seating.seated())
    return {e: len(nights) - played[e] for e in present}


def assert_rule_holds(before, after, winners, plan):
    """Movers are at the next table (the top table's at table 1), stayers where they were,
    except whoever swapped places with last game's sit-out."""
    count = len(before.tables)
    came_in = set(before.sit_outs) - set(after.sit_outs)
    if before.tables:
        assert len(came_in) == len(set(before.sit_outs))  # last game's sit-outs all play
    for table in before.tables:
        won = table.sides[winners[table.number]]
        for side in table.sides:
            moves = (side is won) == (plan.movers == WINNERS_MOVE)
            target = table.number % count + 1 if moves else table.number
            for entry in side:
                if entry in after.sit_outs:
                    continue
                assert after.table_of(entry) == target
    assert len(after.sit_outs) == len(before.sit_outs)


@settings(max_examples=60, deadline=None)
@given(
    plan=st.sampled_from(PLANS),
    entries=st.integers(0, 60),
    games=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_every_game_seats_everyone_present_once_at_full_tables_by_the_movement_rule(
    plan, entries, games, seed, data
):
    play(plan, entries, games, seed, data)


@settings(max_examples=60, deadline=None)
@given(
    plan=st.sampled_from(PLANS),
    entries=st.integers(0, 40),
    games=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_late_arrivals_and_early_leavers_are_seated_without_a_restart(
    plan, entries, games, seed, data
):
    play(plan, entries, games, seed, data, changes=True)


@settings(max_examples=40, deadline=None)
@given(
    movement=st.sampled_from([WINNERS_MOVE, LOSERS_MOVE]),
    entries=st.integers(4, 40),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_at_tables_of_four_no_two_pairs_meet_in_two_games_running(movement, entries, seed, data):
    plan = Plan.for_drive(individual=False, table_size=4, movement=movement)
    nights = play(plan, entries, 8, seed, data)
    for before, after in itertools.pairwise(nights):
        met = {frozenset(t.entries) for t in before.tables}
        assert not any(frozenset(t.entries) in met for t in after.tables)


@settings(max_examples=40, deadline=None)
@given(
    movement=st.sampled_from([WINNERS_MOVE, LOSERS_MOVE]),
    entries=st.integers(6, 40),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_at_tables_of_six_every_table_gets_a_pair_new_to_it_each_game(
    movement, entries, seed, data
):
    plan = Plan.for_drive(individual=False, table_size=6, movement=movement)
    nights = play(plan, entries, 8, seed, data)
    for before, after in itertools.pairwise(nights):
        if len(before.tables) < 2:
            continue
        for table in after.tables:
            there_before = set(before.tables[table.number - 1].entries)
            assert set(table.entries) - there_before


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([4, 6]),
    movement=st.sampled_from([WINNERS_MOVE, LOSERS_MOVE]),
    entries=st.integers(4, 40),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_at_an_individual_drive_nobody_keeps_a_partner_two_games_running(
    size, movement, entries, seed, data
):
    plan = Plan.for_drive(individual=True, table_size=size, movement=movement)
    nights = play(plan, entries, 8, seed, data)
    for before, after in itertools.pairwise(nights):
        pairs = {frozenset(s) for t in before.tables for s in t.sides}
        assert not any(frozenset(s) in pairs for t in after.tables for s in t.sides)


def test_over_a_20_game_night_pairs_meet_many_different_pairs():
    """Measured with random results (50 nights each): 16 pairs at tables of four meet 9
    different pairs on average (of 15), 24 pairs at tables of six 13 (of 23); partners
    stay together all night."""
    for size, count, floor in ((4, 16, 8.5), (6, 24, 12.5)):
        plan = Plan.for_drive(individual=False, table_size=size, movement=WINNERS_MOVE)
        means = []
        for seed in range(50):
            rng = random.Random(seed)
            seating = first_seating(range(count), plan=plan, seed=seed)
            night = [seating]
            for _ in range(19):
                winners = {t.number: rng.randrange(len(t.sides)) for t in seating.tables}
                seating = next_seating(seating, winners=winners, present=range(count), plan=plan)
                night.append(seating)
            opponents, partners = opponents_and_partners(night)
            means.append(sum(map(len, opponents.values())) / count)
            assert all(not p for p in partners.values())
        assert sum(means) / len(means) >= floor


def test_the_same_seed_gives_the_same_first_seating():
    plan = PLANS[0]
    assert first_seating(range(20), plan=plan, seed=7) == first_seating(
        range(20), plan=plan, seed=7
    )
    assert first_seating(range(20), plan=plan, seed=7) != first_seating(
        range(20), plan=plan, seed=8
    )


def test_a_pair_too_many_sits_out_and_plays_the_next_game():
    plan = PLANS[0]
    first = first_seating(range(5), plan=plan, seed=1)
    assert len(first.tables) == 2 and len(first.sit_outs) == 1
    second = next_seating(
        first, winners={1: 0, 2: 0}, present=range(5), plan=plan, missed={first.sit_outs[0]: 1}
    )
    assert first.sit_outs[0] in second.seated()


def assert_sat_out_least(seating, missed):
    """Nobody sits out a game while someone who has missed fewer games plays."""
    for out in seating.sit_outs:
        for playing in seating.seated():
            assert missed.get(out, 0) <= missed.get(playing, 0), (out, playing)


def test_a_pair_that_sat_out_is_not_sat_out_again_when_a_table_closes():
    # 5 pairs at tables of four: A sat out game 1, X game 2. In game 2 two pairs leave;
    # table 2 closes, and A, moved off it, sat out game 3 too while R (never out) played.
    A, X, P, Q, R = 1, 2, 3, 4, 5
    plan = PLANS[0]
    game_2 = Seating(2, (Table(1, ((P,), (Q,))), Table(2, ((R,), (A,)))), (X,))
    missed = {A: 1, X: 1}
    game_3 = next_seating(game_2, winners={1: 0, 2: 0}, present=[A, X, R], plan=plan, missed=missed)
    assert_well_seated(game_3, [A, X, R], plan)
    assert game_3.sit_outs == (R,)
    assert_sat_out_least(game_3, missed)


def test_a_late_arrival_s_missed_games_count_as_sat_out_so_it_plays_its_first_game():
    # A late player (8, in for game 5) was sat out at its first game, as one who had sat
    # out none, while players there from the start, who had played more, played it.
    plan = Plan.for_drive(individual=True, table_size=3, movement=LOSERS_MOVE)
    game_4 = Seating(4, (Table(1, ((1,), (2,), (3,))), Table(2, ((5,), (6,), (7,)))), ())
    missed = {3: 1, 5: 1, 8: 4}
    game_5 = next_seating(
        game_4, winners={1: 0, 2: 0}, present=[1, 2, 3, 6, 8], plan=plan, missed=missed
    )
    assert_well_seated(game_5, [1, 2, 3, 6, 8], plan)
    assert_sat_out_least(game_5, missed)
    # Of those who have missed none: a stayer (1) before a mover, the lowest seat first.
    assert set(game_5.sit_outs) == {1, 6} and {3, 8} <= set(game_5.seated())
    # At equal counts, the one with no seat after the moves (the arrival) sits out first.
    game_5 = next_seating(
        game_4, winners={1: 0, 2: 0}, present=[1, 2, 3, 6, 8], plan=plan, missed={8: 0}
    )
    assert 8 in game_5.sit_outs


@settings(max_examples=150, deadline=None)
@given(
    plan=st.sampled_from(PLANS),
    entries=st.integers(0, 30),
    games=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_nobody_sits_out_while_someone_who_missed_fewer_games_plays(
    plan, entries, games, seed, data
):
    """With leavers and late arrivals, at every game: each sit-out has missed (before it)
    no more games than anyone who plays it. Missed games are those an entry did not play:
    sat out, or not there yet (a late arrival's games before it came count as sat out)."""
    nights = play(plan, entries, games, seed, data, changes=True)
    for n, seating in enumerate(nights):
        present = [*seating.seated(), *seating.sit_outs]
        assert_sat_out_least(seating, missed_before(nights[:n], present))
