"""Who sits out and who takes a prize when not everyone plays every game: a late arrival
is not also sat out at its first game, and the door promises no game it will not get;
an entry that never sat at a table takes no place and no booby prize; a place needs a
game won; the start question says plainly why some sit out game 1."""

from html import escape, unescape

import pytest
from django.urls import reverse

from drives import prizes, selectors, services
from drives.models import Seat
from tests.drives.test_door_and_setup import organiser_of, said
from tests.drives.test_services import make_drive, play_game
from tests.questions import ask

pytestmark = pytest.mark.django_db


def url(name, drive, *args):
    return reverse(f"drives:{name}", args=[drive.league.slug, drive.pk, *args])


def check_in(client, drive, name, partner_name=""):
    response = client.post(url("door", drive), {"name": name, "partner_name": partner_name})
    assert response.status_code == 302
    return said(response)


def played(drive, entry) -> list[int]:
    return list(
        Seat.objects.filter(drive=drive, entry=entry, table__isnull=False).values_list(
            "game", flat=True
        )
    )


# 1. A late arrival's missed games count as sat out.


def test_a_pair_checked_in_during_game_1_plays_game_2_as_the_door_said():
    # 11 pairs at tables of four, one sitting out game 1; a pair comes in and one goes
    # home: game 2 still has one sit-out. It was the late pair, as having sat out none,
    # while the door had told them "They play from game 2".
    drive = make_drive(11, games=4)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    message = check_in(client, drive, "Nuala Late", "Pat Late")
    assert message == "Nuala Late & Pat Late checked in. They play from game 2."
    late = drive.entries.get(name="Nuala Late")
    leaver = Seat.objects.filter(drive=drive, game=1, table__isnull=False).first().entry
    services.entry_leave(drive=drive, entry=leaver)
    game_2 = play_game(drive)
    assert len(game_2.sit_outs) == 1
    assert late.pk in game_2.seated()
    # The one who sits out game 2 played game 1: it has played more than the late pair.
    assert played(drive, game_2.sit_outs[0]) == [1]
    grid = unescape(client.get(url("grid", drive)).content.decode())
    assert "Sitting out this game: Nuala Late & Pat Late" not in grid


def test_the_door_promises_no_game_a_newcomer_may_sit_out_or_that_is_not_left():
    # Ten for themselves at tables of six: six play game 1, four sit out, and five of the
    # six go home. Of three newcomers, the third makes eight for one table while only one
    # there has played a game: two must sit out game 2, and it may be them.
    drive = make_drive(0, format="individual", table_size=6, games=2)
    for n in range(10):
        services.entry_add(drive=drive, name=f"P{n}")
    first = services.drive_start(drive=drive)
    for entry in first.seated()[:5]:
        services.entry_leave(drive=drive, entry=drive.entries.get(pk=entry))
    client = organiser_of(drive)
    assert check_in(client, drive, "New One") == "New One checked in. They play from game 2."
    assert check_in(client, drive, "New Two") == "New Two checked in. They play from game 2."
    assert check_in(client, drive, "New Three") == (
        "New Three checked in. They join at game 2 but, as things stand, may sit it out: "
        "2 players must sit out and only 1 there has played a game (who has played most "
        "sits out first)."
    )
    game_2 = play_game(drive)
    # The last to come in sits out first: the door's word to the first two holds.
    newcomers = {e.name: e.pk for e in drive.entries.filter(name__startswith="New")}
    assert newcomers["New One"] in game_2.seated() and newcomers["New Two"] in game_2.seated()
    assert newcomers["New Three"] in game_2.sit_outs
    # Checked in during the last game: nothing is promised.
    assert check_in(client, drive, "Too Late") == (
        "Too Late checked in. Game 2 is the last: there is no game left for them to play."
    )


# 2. An entry that never sat at a table takes no place and no booby prize.


def test_places_and_the_booby_prize_leave_out_an_entry_that_never_played():
    wins = {1: 3, 2: 2, 3: 1, 4: 1, 5: 0}
    rows = prizes.ranked(wins, played={1, 2, 3, 4})
    assert [(rank, entry) for rank, entry, _ in rows] == [
        ("1", 1),
        ("2", 2),
        ("3=", 3),
        ("3=", 4),
        ("", 5),
    ]
    places = prizes.prize_places(wins, places=1, tie_rule="split", tiebreaks={})
    booby = prizes.booby(wins, places, played={1, 2, 3, 4})
    assert (booby.entries, booby.wins) == ([3, 4], 1)
    assert prizes.booby({1: 1, 2: 0}, places[:0], played={1}).entries == [1]


def test_a_pair_that_never_sat_at_a_table_is_not_ranked_last_or_given_the_booby_prize(client):
    drive = make_drive(4, games=2, places=1, booby=True)
    services.drive_start(drive=drive)
    play_game(drive)
    late = services.entry_add(drive=drive, name="Nuala Late", partner_name="Pat Late")
    assert play_game(drive) is None  # the last game: the late pair never sat at a table
    rows = selectors.leaderboard(drive)
    assert rows[-1]["entry"] == late and (rows[-1]["rank"], rows[-1]["played"]) == ("", False)
    assert [r["rank"] for r in rows[:-1]] == ["1=", "1=", "3=", "3="]  # 2, 2, 0 and 0 wins
    booby = selectors.drive_prizes(drive)["booby"]
    assert late not in booby.names and booby.wins == 0
    page = client.get(url("prizes", drive)).content.decode()
    booby_part, not_played = page.split("Booby prize")[1].split("Did not play")
    assert escape(str(late)) not in booby_part
    assert escape(str(late)) in not_played and "never at a table" in not_played
    own = client.get(url("entry", drive, late.pk)).content.decode()
    assert "You: 0 wins, no place: no game played." in own


# 3. A place needs a game won.


def test_players_who_won_nothing_share_no_place_and_the_booby_prize_goes_to_them(client):
    # Tables of five, eight players, two games, one player wins both: the prizes read "2
    # to 3 shared: Bea; Cy; ... (0 wins each)" and "Booby prize: Nobody".
    names = ["Al", "Bea", "Cy", "Di", "Ed", "Flo", "Gil", "Hu"]
    drive = make_drive(0, format="individual", table_size=5, games=2, booby=True, places=3)
    for name in names:
        services.entry_add(drive=drive, name=name)
    first = services.drive_start(drive=drive)
    star = drive.entries.get(pk=first.tables[0].sides[0][0])
    for game in (1, 2):  # the winner moves (to the one table): a stayer sits out game 2
        seat = Seat.objects.get(drive=drive, game=game, entry=star)
        services.result_record(drive=drive, game=game, table=1, side=seat.side)
        services.game_next(drive=drive)
    found = selectors.drive_prizes(drive)
    assert [(p.label, p.names, p.wins) for p in found["places"]] == [("1", [star], 2)]
    assert found["not_given"] == (2, 3)
    others = [e.name for e in drive.entries.exclude(pk=star.pk)]  # in the order they came
    assert [e.name for e in found["booby"].names] == others
    page = unescape(client.get(url("prizes", drive)).content.decode())
    assert "Places 2 and 3 are not given: a place needs a game won, and nobody else won one." in (
        page
    )
    assert "0 wins each" not in page.split("Booby prize")[0]
    assert "Nobody: every entry" not in page
    assert f"{'; '.join(others)} (0 wins each)" in page


# 4. The start question says why some sit out game 1.


def test_the_start_question_says_how_many_tables_the_players_make_not_that_they_are_full():
    drive = make_drive(0, format="individual", table_size=5)
    for name in ("Al", "Bea", "Cy", "Di", "Ed", "Flo", "Gil", "Hu"):
        services.entry_add(drive=drive, name=name)
    page = unescape(ask(organiser_of(drive), url("start", drive)).content.decode())
    out = services.listed(
        [str(drive.entries.get(pk=e)) for e in services.drive_start_check(drive=drive).sit_outs]
    )
    assert f"8 players make 1 table of 5: {out} sit out game 1." in page
    assert "The tables are full" not in page
    drive = make_drive(5)
    page = unescape(ask(organiser_of(drive), url("start", drive)).content.decode())
    [alone] = services.drive_start_check(drive=drive).sit_outs
    assert f"5 pairs make 2 tables of 4: {drive.entries.get(pk=alone)} sit out game 1." in page


def test_the_doors_line_promises_no_seat_and_no_game_after_the_last():
    """Found by a walk: "anyone checked in now plays from game 3", as a promise, and at the
    last game a game that would never come."""
    drive = make_drive(4, games=2)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    door = client.get(url("door", drive)).content.decode()
    assert "Game 1 in play: anyone checked in now joins from game 2." in door
    play_game(drive)  # and game 2 starts
    door = client.get(url("door", drive)).content.decode()
    assert "Game 2, the last, in play: there is no game left for anyone checked in now." in door
