"""The drive's services: check-in, seating, results, late arrivals, leavers, ties, prizes."""

import datetime

import pytest

from drives import selectors, services
from drives.models import Drive, Seat, TieBreak
from drives.services import DriveError
from tests.factories import PlayerFactory, PubFactory

pytestmark = pytest.mark.django_db


def make_drive(pairs=8, **fields):
    pub = PubFactory()
    if "games" in fields:
        fields.setdefault("jackpot", None)
    drive = services.drive_create(
        league=pub.league,
        pub=pub,
        name="Monday drive",
        date=datetime.date(2026, 10, 5),
        preset=fields.pop("preset", "progressive"),
        **fields,
    )
    for n in range(pairs):
        services.entry_add(drive=drive, name=f"A{n}", partner_name=f"B{n}")
    return drive


def play_game(drive, side=0):
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=drive.game, table=table, side=side)
    return services.game_next(drive=drive)


def test_a_preset_sets_up_a_progressive_drive():
    drive = make_drive(0)
    assert (drive.table_size, drive.games, drive.movement, drive.jackpot) == (
        4,
        20,
        "winners_move",
        14,
    )


def test_a_name_of_the_league_is_linked_to_its_player():
    drive = make_drive(0)
    player = PlayerFactory(league=drive.league, name="Nora Cronin")
    entry = services.entry_add(drive=drive, name="nora cronin", partner_name="New Person")
    assert entry.player == player and entry.partner is None


def test_a_name_of_the_league_typed_without_its_fadas_is_its_player_as_the_league_spells_it():
    """Found by a walk: "Micheal Lynch & nora considine" was checked in as typed and
    linked to no player, so the night never reached their drive records."""
    drive = make_drive(0)
    mícheál = PlayerFactory(league=drive.league, name="Mícheál Lynch")
    nóra = PlayerFactory(league=drive.league, name="Nóra Considine")
    entry = services.entry_add(drive=drive, name="Micheal Lynch", partner_name="nora considine")
    assert (entry.player, entry.partner) == (mícheál, nóra)
    assert str(entry) == "Mícheál Lynch & Nóra Considine"
    # The same pair typed again, another way (a double tap): the one entry.
    again = services.entry_add(drive=drive, name="MICHEAL LYNCH", partner_name="Nóra Considine")
    assert again == entry and drive.entries.count() == 1


def test_the_same_person_twice_is_refused_and_nothing_saved():
    drive = make_drive(1)
    with pytest.raises(DriveError, match="“A0” is already checked in"):  # as checked in
        services.entry_add(drive=drive, name="a0", partner_name="Someone")
    assert drive.entries.count() == 1


def test_a_name_that_differs_only_by_its_accents_is_refused_naming_who_is_in():
    # "Sean Murphy" typed after "Seán Murphy" was a second entry: seated twice.
    drive = make_drive(0)
    services.entry_add(drive=drive, name="Seán Murphy", partner_name="Máire Ní Shé")
    for name, partner in (("Sean Murphy", "Nóra"), ("Nóra", "MAIRE NI SHE")):
        with pytest.raises(DriveError) as refused:
            services.entry_add(drive=drive, name=name, partner_name=partner)
        assert "is checked in already (Seán Murphy & Máire Ní Shé)" in str(refused.value)
    assert str(refused.value).startswith("“MAIRE NI SHE” looks like “Máire Ní Shé”")
    assert "such as a town: “MAIRE NI SHE (Ennis)”" in str(refused.value)
    assert drive.entries.count() == 1
    services.entry_add(drive=drive, name="Sean Murphy (Ennis)", partner_name="Nóra")
    assert drive.entries.count() == 2


def test_singles_are_paired_in_the_order_they_came():
    drive = make_drive(0)
    for name in ("One", "Two", "Three"):
        services.entry_add(drive=drive, name=name)
    assert [str(e) for e in services.singles_pair(drive=drive)] == ["One & Two"]
    assert [str(e) for e in drive.entries.all()] == ["One & Two", "Three"]


def test_starting_seats_every_pair_once_at_full_tables():
    drive = make_drive(8)
    seating = services.drive_start(drive=drive)
    assert len(seating.tables) == 4 and not seating.sit_outs
    assert Seat.objects.filter(drive=drive, game=1).count() == 8


def test_the_next_game_waits_for_every_table_and_says_which():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    services.result_record(drive=drive, game=1, table=1, side=0)
    with pytest.raises(DriveError, match="table 2"):
        services.game_next(drive=drive)
    drive.refresh_from_db()
    assert drive.game == 1


def test_a_result_for_another_game_or_table_is_refused():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    with pytest.raises(DriveError):
        services.result_record(drive=drive, game=2, table=1, side=0)
    with pytest.raises(DriveError):
        services.result_record(drive=drive, game=1, table=9, side=0)
    with pytest.raises(DriveError):
        services.result_record(drive=drive, game=1, table=1, side=2)


def test_a_late_arrival_joins_at_the_next_game_and_an_early_leaver_is_not_seated_again():
    drive = make_drive(8)
    services.drive_start(drive=drive)
    late = services.entry_add(drive=drive, name="Late", partner_name="Comer")
    assert late.joined_game == 2
    leaver = drive.entries.first()
    services.entry_leave(drive=drive, entry=leaver)
    play_game(drive)
    seats = {s.entry_id: s.table for s in Seat.objects.filter(drive=drive, game=2)}
    assert late.pk in seats and seats[late.pk] is not None  # takes the leaver's seat
    assert leaver.pk not in seats
    assert len([t for t in seats.values() if t]) == 8
    # The leaver's win stands on the leaderboard.
    wins = {r["entry"].pk: r["wins"] for r in selectors.leaderboard(drive)}
    assert leaver.pk in wins


def test_a_tie_for_a_prize_is_settled_by_a_recorded_cut():
    drive = make_drive(4, games=1, places=1)
    services.drive_start(drive=drive)
    play_game(drive)  # two tables, two winners on 1 win each
    drive.refresh_from_db()
    assert drive.status == Drive.Status.FINISHED
    [first] = selectors.drive_prizes(drive)["places"]
    assert not first.settled and len(first.tied) == 2
    loser = next(e for e in drive.entries.all() if e.pk not in first.tied)
    with pytest.raises(DriveError, match="not in the tie"):
        services.tiebreak_record(drive=drive, place=1, winner=loser, method="cut")
    winner = drive.entries.get(pk=first.tied[1])
    services.tiebreak_record(drive=drive, place=1, winner=winner, method="cut")
    [first] = selectors.drive_prizes(drive)["places"]
    assert first.settled and first.entries == [winner.pk]
    with pytest.raises(DriveError, match=f"Place 1 was settled already: {winner} took it"):
        services.tiebreak_record(drive=drive, place=1, winner=winner, method="cut")
    assert TieBreak.objects.count() == 1


def test_split_ties_share_places_and_the_next_place_counts_after_them():
    from drives.prizes import prize_places, ranked

    wins = {1: 18, 2: 18, 3: 16, 4: 15, 5: 15}
    assert [r[0] for r in ranked(wins)] == ["1=", "1=", "3", "4=", "4="]
    places = prize_places(wins, places=3, tie_rule="split", tiebreaks={})
    assert [(p.label, p.entries) for p in places] == [("1 to 2 shared", [1, 2]), ("3", [3])]


def test_the_drive_is_finished_after_its_last_game_and_takes_no_more_results():
    drive = make_drive(4, games=2)
    services.drive_start(drive=drive)
    play_game(drive)
    assert play_game(drive) is None
    drive.refresh_from_db()
    with pytest.raises(DriveError):
        services.result_record(drive=drive, game=2, table=1, side=0)
    with pytest.raises(DriveError):
        services.entry_add(drive=drive, name="Too", partner_name="Late")


def test_a_player_s_drive_record_counts_drives_won_and_games_won():
    drive = make_drive(0, games=1, places=1)
    player = PlayerFactory(league=drive.league, name="Nora Cronin")
    services.entry_add(drive=drive, name="Nora Cronin", partner_name="X")
    services.entry_add(drive=drive, name="Y", partner_name="Z")
    services.drive_start(drive=drive)
    seat = Seat.objects.get(drive=drive, entry__player=player)
    services.result_record(drive=drive, game=1, table=1, side=seat.side)
    services.game_next(drive=drive)
    assert selectors.player_drive_record(player) == {"drives": 1, "games_won": 1, "won": 1}
