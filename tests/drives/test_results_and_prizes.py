"""Results that two phones enter for one table, the warning that results lock, the grid's
waiting line, a prize list that agrees with itself (places, cut, booby prize), an undo
of a cut that asks first, and a place won by a cut said the same way on every page."""

import html

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from drives import prizes, selectors, services
from drives.models import Result, Seat, TableLink, TieBreak
from drives.services import DriveError
from tests.drives.test_services import make_drive, play_game
from tests.factories import UserFactory
from tests.questions import ask

pytestmark = pytest.mark.django_db


def url(name, drive, *args):
    return reverse(f"drives:{name}", args=[drive.league.slug, drive.pk, *args])


def organiser_of(drive):
    user = UserFactory()
    drive.pub.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def names_at(drive, table, side):
    seats = Seat.objects.filter(drive=drive, game=1, table=table, side=side)
    return " & ".join(str(seat.entry) for seat in seats.select_related("entry"))


@pytest.fixture
def running():
    drive = make_drive(8, games=2)
    services.drive_start(drive=drive)
    return drive


# 1. A second phone never overwrites a table's result without being told.


def test_a_result_from_a_page_that_saw_none_does_not_replace_a_stored_one(running):
    services.result_record(drive=running, game=1, table=3, side=0)
    with pytest.raises(DriveError) as refused:
        services.result_record(drive=running, game=1, table=3, side=1, seen=None)
    assert str(refused.value) == (
        f"Table 3 is already entered: {names_at(running, 3, 0)} won. Nothing was changed. "
        "If that is wrong, tap the winners again."
    )
    assert Result.objects.get(drive=running, table=3).side == 0
    assert Seat.objects.get(drive=running, game=1, table=3, side=0, won=True)


def test_a_change_from_a_page_that_saw_the_stored_result_is_a_correction(running):
    services.result_record(drive=running, game=1, table=3, side=0)
    services.result_record(drive=running, game=1, table=3, side=1, seen=0)
    assert Result.objects.get(drive=running, table=3).side == 1
    assert Seat.objects.filter(drive=running, game=1, table=3, won=True).get().side == 1
    # The same winners tapped twice is no change and no refusal.
    services.result_record(drive=running, game=1, table=3, side=1, seen=None)
    assert Result.objects.get(drive=running, table=3).side == 1


def test_the_scorer_link_refuses_an_overwrite_and_shows_what_is_stored(running):
    organiser = organiser_of(running)
    link = TableLink.objects.get(drive=running, table=3)
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(link.get_absolute_url())  # opened before the organiser taps
    assert 'name="seen" value=""' in page.content.decode()
    token = page.context["csrf_token"]
    assert (
        organiser.post(url("result", running, 1, 3), {"side": "0", "seen": ""}).status_code == 302
    )

    sent = {"side": "1", "game": "1", "seen": "", "csrfmiddlewaretoken": token}
    response = phone.post(link.get_absolute_url(), sent)
    body = response.content.decode()
    assert response.status_code == 409
    assert escape(f"Table 3 is already entered: {names_at(running, 3, 0)} won.") in body
    assert 'name="seen" value="0"' in body and 'aria-pressed="true"' in body
    assert Result.objects.get(drive=running, table=3).side == 0

    # Now the page has seen the stored result: tapping the other pair is a correction.
    response = phone.post(link.get_absolute_url(), {**sent, "seen": "0"})
    assert response.status_code == 302
    assert Result.objects.get(drive=running, table=3).side == 1


def test_the_grid_refuses_an_overwrite_by_htmx_and_shows_the_stored_result(running):
    organiser = organiser_of(running)
    link = TableLink.objects.get(drive=running, table=2)
    Client().post(link.get_absolute_url(), {"side": "1", "game": "1", "seen": ""})
    response = organiser.post(
        url("result", running, 1, 2), {"side": "0", "seen": ""}, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert escape(f"Table 2 is already entered: {names_at(running, 2, 1)} won.") in body
    assert 'name="seen" value="1"' in body
    assert Result.objects.get(drive=running, table=2).side == 1


def test_a_tap_from_a_grid_of_an_older_game_saves_nothing_and_reloads_the_grid(running):
    # A phone still showing game 1 tapped table 1 after game 2 had started: its box
    # turned into game 2's table under a "Game 1" heading, and a second tap saved a
    # result nobody played. Now nothing is saved and the whole page is brought round.
    organiser = organiser_of(running)
    play_game(running)
    response = organiser.post(
        url("result", running, 1, 1), {"side": "0", "seen": ""}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    assert not Result.objects.filter(drive=running, game=2).exists()
    assert not Seat.objects.filter(drive=running, game=2, won=True).exists()
    page = organiser.get(url("grid", running)).content.decode()
    assert "Game 2 of 2" in page
    assert "Game 1 is not the game in play, so nothing was saved: results go to game 2." in page
    # Once the drive is over, a tap from its last grid is brought round the same way.
    play_game(running)
    response = organiser.post(
        url("result", running, 2, 1), {"side": "0", "seen": ""}, headers={"HX-Request": "true"}
    )
    assert response["HX-Refresh"] == "true"
    page = organiser.get(url("grid", running)).content.decode()
    assert "This drive has finished: no more results." in page


def test_bad_seen_values_are_a_message_and_change_nothing(running):
    organiser = organiser_of(running)
    services.result_record(drive=running, game=1, table=1, side=0)
    response = organiser.post(url("result", running, 1, 1), {"side": "1", "seen": "x"})
    assert response.status_code == 302
    assert Result.objects.get(drive=running, table=1).side == 0
    page = organiser.get(url("grid", running)).content.decode()
    assert "Table 1 is already entered" in page


def test_the_grid_asks_every_10_s_for_tables_entered_elsewhere_and_gets_only_those(running):
    organiser = organiser_of(running)
    grid = organiser.get(url("grid", running)).content.decode()
    assert 'data-hx-trigger="every 10s"' in grid and 'name="table-1" value=""' in grid
    Client().post(
        TableLink.objects.get(drive=running, table=4).get_absolute_url(),
        {"side": "1", "game": "1", "seen": ""},
    )
    known = {f"table-{n}": "" for n in range(1, 5)}
    response = organiser.get(
        url("grid", running), {"game": 1, **known}, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert 'id="table-4"' in body and 'id="table-1"' not in body
    assert 'data-hx-swap-oob="true"' in body and "Still to come: tables 1, 2, 3." in body
    assert "HX-Request" in response["Vary"]
    # Once the next game has started, the page reloads itself.
    play_game(running)
    response = organiser.get(
        url("grid", running), {"game": 1, **known}, headers={"HX-Request": "true"}
    )
    assert response["HX-Refresh"] == "true"


# 2. Results lock when the next game starts: the grid says so before the tap.


def test_the_grid_says_that_starting_the_next_game_closes_this_one_s_results(running):
    organiser = organiser_of(running)
    page = organiser.get(url("grid", running)).content.decode()
    assert "Starting game 2 closes game 1's results: nobody can change them after." in page
    play_game(running)
    page = organiser.get(url("grid", running)).content.decode()
    assert "Finishing closes game 2's results and makes the prize list." in page


# 3. The grid's waiting line follows the tables as they come in.


def test_a_refused_start_is_said_on_the_grid_and_updates_as_tables_come_in(running):
    organiser = organiser_of(running)
    services.result_record(drive=running, game=1, table=3, side=0)
    services.result_record(drive=running, game=1, table=4, side=0)
    response = organiser.post(url("next", running), follow=True)
    page = response.content.decode()
    assert "Game 1: no result yet from tables 1, 2." in page
    assert page.count("no result yet") == 1  # said once, in the line that updates
    running.refresh_from_db()
    assert running.game == 1
    tapped = organiser.post(
        url("result", running, 1, 1), {"side": "0", "seen": ""}, headers={"HX-Request": "true"}
    ).content.decode()
    assert 'id="waiting"' in tapped and "Still to come: table 2." in tapped
    assert "no result yet" not in tapped
    tapped = organiser.post(
        url("result", running, 1, 2), {"side": "0", "seen": ""}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Every table is in." in tapped
    page = organiser.get(url("grid", running)).content.decode()
    assert "no result yet" not in page and "Every table is in." in page


# 4. Prizes: plain Python first.


def test_a_cut_ranks_its_winner_alone_and_the_rest_of_its_tie_after_it():
    wins = {1: 3, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}
    assert [r[0] for r in prizes.ranked(wins)] == ["1", "2", "3=", "3=", "3=", "3="]
    rows = prizes.ranked(wins, took={6: 3})
    assert [(label, entry) for label, entry, _ in rows] == [
        ("1", 1),
        ("2", 2),
        ("3", 6),
        ("4=", 3),
        ("4=", 4),
        ("4=", 5),
    ]
    # Two cuts in one tie: places 1 and 2, then the last of the three on its own.
    rows = prizes.ranked({1: 5, 2: 5, 3: 5, 4: 2}, took={3: 1, 1: 2})
    assert [(label, entry) for label, entry, _ in rows] == [("1", 3), ("2", 1), ("3", 2), ("4", 4)]


def test_the_booby_prize_never_goes_to_an_entry_that_took_a_prize_place():
    wins = {1: 3, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}
    places = prizes.prize_places(wins, places=3, tie_rule="cut", tiebreaks={3: 6})
    booby = prizes.booby(wins, places)
    assert (booby.entries, booby.wins, booby.waits_on) == ([3, 4, 5], 1, None)


def test_before_the_cut_the_booby_prize_waits_on_it():
    wins = {1: 3, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}
    places = prizes.prize_places(wins, places=3, tie_rule="cut", tiebreaks={})
    booby = prizes.booby(wins, places)
    assert (booby.entries, booby.waits_on) == ([3, 4, 5, 6], 3)


def test_no_booby_prize_when_every_entry_took_a_place_and_the_next_fewest_otherwise():
    wins = {1: 3, 2: 2, 3: 1}
    places = prizes.prize_places(wins, places=3, tie_rule="cut", tiebreaks={})
    assert prizes.booby(wins, places) is None
    wins = {1: 3, 2: 2, 3: 1, 4: 2}
    places = prizes.prize_places(wins, places=1, tie_rule="split", tiebreaks={})
    assert prizes.booby(wins, places).entries == [3]
    assert prizes.booby({}, []) is None


def test_a_split_tie_for_one_place_says_it_is_shared():
    wins = {1: 3, 2: 2, **dict.fromkeys(range(3, 10), 1)}
    places = prizes.prize_places(wins, places=3, tie_rule="split", tiebreaks={})
    assert [(p.label, len(p.entries)) for p in places] == [("1", 1), ("2", 1), ("3= shared", 7)]
    places = prizes.prize_places({1: 18, 2: 18, 3: 16}, places=3, tie_rule="split", tiebreaks={})
    assert [p.label for p in places] == ["1 to 2 shared", "3"]


# 4. Prizes: the page, the leaderboard and a cut put right.


@pytest.fixture
def tied():
    """A finished drive of four pairs, three games, three prizes: two pairs on two wins,
    two on one, so place 3 is a tie between the two pairs on one, to settle by a cut (a
    place needs a game won: a tie on none is no place)."""
    drive = make_drive(4, games=3, places=3, booby=True)
    services.drive_start(drive=drive)
    for side in (0, 1, 0):  # the pairs that lost game 1 win games 2 and 3
        play_game(drive, side=side)
    drive.refresh_from_db()
    assert sorted(r["wins"] for r in selectors.leaderboard(drive)) == [1, 1, 2, 2]
    return drive


def test_after_the_cut_the_leaderboard_shows_the_cut_and_the_booby_prize_skips_its_winner(
    client, tied
):
    third = next(p for p in selectors.drive_prizes(tied)["places"] if p.place == 3)
    assert not third.settled and len(third.tied) == 2
    winner, loser = third.tied
    page = client.get(url("prizes", tied)).content.decode()
    assert "whoever does not win the cut for place 3" in page
    services.tiebreak_record(drive=tied, place=3, winner=tied.entries.get(pk=winner), method="cut")

    rows = {r["entry"].pk: r for r in selectors.leaderboard(tied)}
    assert (rows[winner]["rank"], rows[winner]["decided"]) == ("3", "cut")
    assert (rows[loser]["rank"], rows[loser]["decided"]) == ("4", None)
    assert selectors.drive_prizes(tied)["booby"].names == [tied.entries.get(pk=loser)]
    board = client.get(url("drive", tied)).content.decode()
    assert '3 <span class="muted">(cut)</span>' in board
    page = client.get(url("prizes", tied)).content.decode()
    booby = page.split("Booby prize")[1]
    assert escape(tied.entries.get(pk=winner)) not in booby
    assert escape(tied.entries.get(pk=loser)) in booby


def test_a_second_phone_recording_a_cut_already_recorded_is_told_who_took_the_place(tied):
    # It was told "Place 3 has no tie to settle", as if there had never been one.
    winner, loser = next(p for p in selectors.drive_prizes(tied)["places"] if p.place == 3).tied
    services.tiebreak_record(drive=tied, place=3, winner=tied.entries.get(pk=winner), method="cut")
    with pytest.raises(DriveError) as refused:
        services.tiebreak_record(
            drive=tied, place=3, winner=tied.entries.get(pk=loser), method="cut"
        )
    assert str(refused.value) == (
        f"Place 3 was settled already: {tied.entries.get(pk=winner)} took it. Nothing was changed."
    )
    assert TieBreak.objects.filter(drive=tied).count() == 1
    with pytest.raises(DriveError, match="Place 9 has no tie to settle."):
        services.tiebreak_record(drive=tied, place=9, winner=tied.entries.first(), method="cut")


def test_the_prize_list_numbers_itself_once_and_says_1_win(client, tied):
    page = client.get(url("prizes", tied)).content.decode()
    assert '<ul class="prize-list">' in page and '<ol class="prize-list">' not in page
    assert "(1 win each)" in page and "(2 wins each)" in page and "(1 wins" not in page


def test_the_cut_form_makes_the_organiser_choose_and_a_recorded_cut_can_be_undone(tied):
    organiser = organiser_of(tied)
    page = organiser.get(url("prizes", tied)).content.decode()
    assert '<option value="">Choose</option>' in page
    third = next(p for p in selectors.drive_prizes(tied)["places"] if p.place == 3)
    organiser.post(url("tiebreak", tied), {"place": 3, "winner": third.tied[0], "method": "cut"})
    assert TieBreak.objects.filter(drive=tied, place=3).exists()
    page = organiser.get(url("prizes", tied)).content.decode()
    assert "Undo the cut for place 3" in page

    assert ask(Client(), url("tiebreak-undo", tied), {"place": 3}).status_code == 403
    yes = {"place": 3, "confirm": "yes"}
    assert Client().post(url("tiebreak-undo", tied), yes).status_code == 403
    response = organiser.get(url("tiebreak-undo", tied), follow=True)
    assert "Choose the place" in response.content.decode()
    response = organiser.post(url("tiebreak-undo", tied), {"place": "x"}, follow=True)
    assert "Choose the place" in response.content.decode()
    response = organiser.post(url("tiebreak-undo", tied), {"place": 1}, follow=True)
    assert "No cut or play-off is recorded for place 1." in response.content.decode()
    assert TieBreak.objects.filter(drive=tied).count() == 1

    asked = ask(organiser, url("tiebreak-undo", tied), {"place": 3})
    assert "Undo the cut for place 3?" in asked.content.decode() and "goes too" not in (
        asked.content.decode()
    )
    assert TieBreak.objects.filter(drive=tied).count() == 1
    sent = {"place": 3, "confirm": "yes", "cuts": asked.context["cuts"]}
    response = organiser.post(url("tiebreak-undo", tied), sent, follow=True)
    assert "The cut for place 3 is undone: record it again." in response.content.decode()
    assert not TieBreak.objects.filter(drive=tied).exists()
    third = next(p for p in selectors.drive_prizes(tied)["places"] if p.place == 3)
    assert not third.settled


def test_undoing_a_cut_also_undoes_the_later_cuts_of_the_same_tie():
    drive = make_drive(6, games=1, places=2)  # three pairs on one win: two cuts
    services.drive_start(drive=drive)
    play_game(drive)
    drive.refresh_from_db()
    first = selectors.drive_prizes(drive)["places"][0]
    services.tiebreak_record(
        drive=drive, place=1, winner=drive.entries.get(pk=first.tied[0]), method="cut"
    )
    second = selectors.drive_prizes(drive)["places"][1]
    services.tiebreak_record(
        drive=drive, place=2, winner=drive.entries.get(pk=second.tied[0]), method="cut"
    )
    services.tiebreak_undo(drive=drive, place=1)
    assert not TieBreak.objects.filter(drive=drive).exists()


def test_the_leaderboard_is_still_one_query(tied, django_assert_num_queries):
    third = next(p for p in selectors.drive_prizes(tied)["places"] if p.place == 3)
    services.tiebreak_record(
        drive=tied, place=3, winner=tied.entries.get(pk=third.tied[0]), method="cut"
    )
    with django_assert_num_queries(1):
        selectors.leaderboard(tied)


# 5. Undoing a cut asks first and names every cut that goes with it.


@pytest.fixture
def four_tied():
    """A finished drive of eight pairs, one game, three prizes: four pairs on one win, so
    places 1, 2 and 3 are settled by three cuts in one tie, recorded in turn."""
    drive = make_drive(8, games=1, places=3)
    services.drive_start(drive=drive)
    play_game(drive)
    drive.refresh_from_db()
    for place in (1, 2, 3):
        tie = selectors.drive_prizes(drive)["places"][place - 1]
        winner = drive.entries.get(pk=tie.tied[0])
        services.tiebreak_record(drive=drive, place=place, winner=winner, method="cut")
    return drive


def test_undoing_a_cut_asks_first_naming_the_later_cuts_that_go_with_it(four_tied):
    # "Undo the cut for place 2" took place 3's cut too, without a word.
    organiser = organiser_of(four_tied)
    response = ask(organiser, url("tiebreak-undo", four_tied), {"place": "2"})
    assert response.status_code == 200
    assert "drives/tiebreak_undo.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert "Undo the cut for place 2?" in page
    assert "The cut for place 3 goes too: it was decided after it" in page
    assert "place 1" not in page.split("<h1>")[1]
    assert 'name="confirm" value="yes"' in page
    assert "Yes, undo the cuts for places 2 and 3</button>" in page
    assert TieBreak.objects.filter(drive=four_tied).count() == 3

    sent = {"place": "2", "confirm": "yes", "cuts": response.context["cuts"]}
    response = organiser.post(url("tiebreak-undo", four_tied), sent, follow=True)
    assert "The cut for place 2 is undone, and with it the cut for place 3: " in (
        response.content.decode()
    )
    assert list(TieBreak.objects.filter(drive=four_tied).values_list("place", flat=True)) == [1]

    # Back and send again (or a second tap on "Yes"): said, and nothing more undone.
    response = organiser.post(url("tiebreak-undo", four_tied), sent, follow=True)
    assert response.status_code == 200
    assert "Already undone: the prize list shows" in response.content.decode()
    assert list(TieBreak.objects.filter(drive=four_tied).values_list("place", flat=True)) == [1]


def test_an_undo_confirmed_on_a_page_that_named_other_cuts_undoes_nothing(four_tied):
    organiser = organiser_of(four_tied)
    asked = ask(organiser, url("tiebreak-undo", four_tied), {"place": "3"})
    assert "goes too" not in asked.content.decode()
    # Meanwhile place 3's cut was undone and recorded again for another pair.
    services.tiebreak_undo(drive=four_tied, place=3)
    tie = selectors.drive_prizes(four_tied)["places"][2]
    again = four_tied.entries.get(pk=tie.tied[1])
    services.tiebreak_record(drive=four_tied, place=3, winner=again, method="cut")
    sent = {"place": "3", "confirm": "yes", "cuts": asked.context["cuts"]}
    response = organiser.post(url("tiebreak-undo", four_tied), sent, follow=True)
    assert "Already undone" in response.content.decode()
    assert TieBreak.objects.get(drive=four_tied, place=3).winner == again
    # A confirmation that names place 2's cut alone, while place 3's rests on it.
    only_two = [TieBreak.objects.get(drive=four_tied, place=2).pk]
    sent = {"place": "2", "confirm": "yes", "cuts": only_two}
    response = organiser.post(url("tiebreak-undo", four_tied), sent, follow=True)
    assert "Nothing was undone" in response.content.decode()
    assert TieBreak.objects.filter(drive=four_tied).count() == 3
    for cuts in (["x"], ["99999999999"]):
        sent = {"place": "2", "confirm": "yes", "cuts": cuts}
        response = organiser.post(url("tiebreak-undo", four_tied), sent, follow=True)
        assert response.status_code == 200
    assert TieBreak.objects.filter(drive=four_tied).count() == 3


# 6. A place decided by a cut says so the same way on every page.


def test_a_place_won_by_a_cut_says_cut_on_every_page_that_shows_it(client, four_tied):
    # The leaderboard said "2 (cut)", the prize list "(won the cut)", and the wall, the
    # winners box and the entry's own page a plain "2".
    second = TieBreak.objects.get(drive=four_tied, place=2).winner
    cut = '2 <span class="muted">(cut)</span>'
    drive_page = client.get(url("drive", four_tied)).content.decode()
    winners, board = drive_page.split('id="winners-heading"')[1].split("</section>")
    assert f"<strong>{cut}</strong>" in winners
    assert f"<td>{cut}</td>" in board
    wall = client.get(url("wall", four_tied)).content.decode()
    assert f'<span class="wall-place">{cut}</span>' in wall
    prize_list = client.get(url("prizes", four_tied)).content.decode()
    assert f"<strong>{cut}</strong>" in prize_list and "won the cut" not in prize_list
    own = client.get(url("entry", four_tied, second.pk)).content.decode()
    assert f"You: 1 win, place {cut}." in own


# 5. "Start game N" and "Finish" ask first; a second "Yes" starts nothing more.


def enter_every_result(drive):
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=drive.game, table=table, side=0)


def test_start_game_2_asks_first_and_a_second_yes_starts_nothing_more(running):
    organiser = organiser_of(running)
    enter_every_result(running)
    response = ask(organiser, url("next", running), {"game": "1"})
    assert response.status_code == 200
    assert "drives/game_next.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert "Start game 2?" in page
    assert "Game 1's results close: nobody can change them after." in page
    assert 'name="confirm" value="yes"' in page and 'name="game" value="1"' in page
    assert f'href="{url("grid", running)}"' in page
    running.refresh_from_db()
    assert running.game == 1 and not Seat.objects.filter(drive=running, game=2).exists()
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "1"})
    assert response.status_code == 302 and response.url == url("grid", running)
    running.refresh_from_db()
    assert running.game == 2
    seats = Seat.objects.filter(drive=running).count()
    # A double tap: the second "Yes" finds game 2 started. The page says so once, as the
    # first tap's answer, not beside "already started" (found by a walk).
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "1"})
    assert response.status_code == 302 and response.url == url("grid", running)
    page = html.unescape(organiser.get(response.url).content.decode())
    assert "Game 2: move now." in page
    assert "already started" not in page
    # Back and send again, after the grid was seen: game 1 is closed already.
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "1"})
    page = organiser.get(response.url).content.decode()
    assert "Game 2 has already started: nothing more was started." in page
    running.refresh_from_db()
    assert running.game == 2 and Seat.objects.filter(drive=running).count() == seats


def test_finish_asks_first_and_a_second_yes_says_the_drive_is_over(running):
    organiser = organiser_of(running)
    play_game(running)
    enter_every_result(running)
    page = ask(organiser, url("next", running), {"game": "2"}).content.decode()
    assert "Finish the drive?" in page
    assert "Game 2's results close: nobody can change them after" in page
    running.refresh_from_db()
    assert running.status == "running"
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "2"})
    assert response.status_code == 302 and response.url == url("prizes", running)
    running.refresh_from_db()
    assert running.status == "finished"
    # A double tap: said once, as the first tap's answer.
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "2"})
    assert response.status_code == 302 and response.url == url("prizes", running)
    page = organiser.get(response.url).content.decode()
    assert "That was the last game. Here are the prizes." in page
    assert "already finished" not in page
    # Back and send again, after the prizes were seen.
    response = organiser.post(url("next", running), {"confirm": "yes", "game": "2"})
    page = organiser.get(response.url).content.decode()
    assert "The drive has already finished: here are the prizes." in page


def test_a_yes_from_a_page_of_another_game_or_bad_input_asks_again_and_starts_nothing(running):
    organiser = organiser_of(running)
    enter_every_result(running)
    for data in (
        {"confirm": "yes"},
        {"confirm": "yes", "game": "x"},
        {"confirm": "yes", "game": "7"},
    ):
        response = organiser.post(url("next", running), data, follow=True)
        assert response.status_code == 200 and b"Start game 2?" in response.content
    running.refresh_from_db()
    assert running.game == 1


def test_a_yes_beaten_by_another_phone_s_yes_starts_nothing_more(running):
    # Two organisers' "Yes" at once: the service, not only the view, refuses the second.
    enter_every_result(running)
    services.game_next(drive=running, closing=1)
    with pytest.raises(DriveError, match="Game 1's results are closed already"):
        services.game_next(drive=running, closing=1)
    running.refresh_from_db()
    assert running.game == 2
