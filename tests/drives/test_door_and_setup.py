"""Setting a drive up and the door: what is saved is what the organiser saw, nobody is
left out without a word, a tap that drops a pair asks first and can be undone, a double
tap checks in once, and the door offers only what can be done."""

import re
from html import escape

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from drives import services
from drives.models import Drive, Entry, Seat
from drives.services import DriveError
from tests.drives.test_services import make_drive, play_game
from tests.factories import PubFactory, UserFactory
from tests.questions import ask

pytestmark = pytest.mark.django_db


def url(name, drive, *args):
    return reverse(f"drives:{name}", args=[drive.league.slug, drive.pk, *args])


def pub_and_organiser() -> tuple:
    """A new pub and a client logged in as its organiser."""
    pub, user = PubFactory(), UserFactory()
    pub.organisers.add(user)
    client = Client()
    client.force_login(user)
    return pub, client


def organiser_of(drive) -> Client:
    user = UserFactory()
    drive.pub.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def said(response) -> str:
    """The message this request left for the next page (earlier unread ones are older)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


# 1. A kind of night fills the form in; what is typed is what is saved.


def setup_data(pub, **changes):
    data = {
        "name": "Confey night",
        "date": "2026-10-05",
        "pub": pub.pk,
        "format": "partners",
        "table_size": "4",
        "games": "20",
        "movement": "winners_move",
        "places": "3",
        "tie_rule": "cut",
    }
    return {**data, **changes}


def test_what_the_organiser_typed_is_saved_even_with_a_kind_of_night_chosen():
    pub, client = pub_and_organiser()
    target = reverse("drives:create", args=[pub.league.slug])
    data = setup_data(pub, preset="six", games="8", tie_rule="split", places="5")
    assert client.post(target, data).status_code == 302
    drive = pub.drives.get()
    assert (drive.table_size, drive.games, drive.tie_rule, drive.places) == (4, 8, "split", 5)
    data = setup_data(pub, name="Forty-fives", preset="45s", games="12", table_size="6")
    assert client.post(target, data).status_code == 302
    drive = pub.drives.get(name="Forty-fives")
    assert (drive.table_size, drive.games, drive.booby) == (6, 12, False)


def test_a_night_dated_outside_the_years_a_league_keeps_is_refused_and_nothing_saved():
    # 1 January 1900 was saved and listed, a year typed wrong on a phone's date wheel.
    pub, client = pub_and_organiser()
    target = reverse("drives:create", args=[pub.league.slug])
    response = client.post(target, setup_data(pub, date="1900-01-01"))
    assert response.status_code == 200
    assert "Give a date between 1 January 2000 and 31 December 2100." in response.text
    assert not pub.drives.exists()


def test_choosing_a_kind_of_night_fills_in_the_form_and_saves_nothing():
    pub, client = pub_and_organiser()
    target = reverse("drives:create", args=[pub.league.slug])
    response = client.get(target, {"preset": "six"})
    assert response.status_code == 200
    form = response.context["form"]
    assert form["table_size"].value() == 6
    assert form["games"].value() == 20 and form["jackpot"].value() == 14
    assert form["tie_rule"].value() == "cut"
    page = response.content.decode()
    assert "Filled in for “Tables of six, three pairs”" in page
    assert '<option value="6" selected>' in page
    assert not pub.drives.exists()
    # A kind of night nobody knows leaves the form as it was, with no error.
    assert client.get(target, {"preset": "nonsense"}).status_code == 200


def test_the_set_up_form_s_date_box_holds_today_in_the_format_a_date_box_reads():
    # It held "04/12/2026", which a date box cannot read: it showed mm/dd/yyyy, blank.
    pub, client = pub_and_organiser()
    target = reverse("drives:create", args=[pub.league.slug])
    today = timezone.localdate().isoformat()
    for query in ({}, {"preset": "progressive"}):
        page = client.get(target, query).content.decode()
        assert re.search(rf'<input type="date" name="date" value="{today}"', page), query


def set_up_page() -> str:
    """The drive set-up form as a new pub's organiser first sees it."""
    pub, client = pub_and_organiser()
    return client.get(reverse("drives:create", args=[pub.league.slug])).content.decode()


def test_every_hint_on_the_set_up_form_is_tied_to_its_field():
    # The cookie-jar field pointed at a hint with no such id ("Game numbers, for
    # example 5, 12, 18" never read out), and the kind of night's hint at nothing.
    page = set_up_page()
    described = re.findall(r'aria-describedby="([^"]+)"', page)
    assert "id_preset_helptext" in described and "id_cookie_jar_helptext" in described
    for hint in described:
        assert f'id="{hint}"' in page, hint


def test_each_movement_is_a_radio_button_read_whole():
    # A closed list on a phone showed "Winners move up a table, losers s".
    page = set_up_page()
    assert "<legend>Movement:</legend>" in page
    assert re.search(r'value="winners_move"[^>]* checked', page)  # as the list's first was
    for value, label in Drive.Movement.choices:
        assert re.search(
            rf'<input type="radio" name="movement" value="{value}"[^>]*>\s*{label}', page
        )


def test_the_door_shows_the_drive_s_settings_to_check_before_starting():
    drive = make_drive(0, preset="six", games=8, tie_rule="split", places=5, booby=True)
    page = organiser_of(drive).get(url("door", drive)).content.decode()
    for words in (
        "With a partner",
        "tables of 6 (three pairs)",
        "8 games",
        "Winners move up a table, losers stay",
        "5 prizes by games won",
        "a booby prize",
        "Ties for a prize: split the prize",
    ):
        assert words in page, words


# 2. A single with no partner is never left out without a word.


def test_starting_with_a_single_who_has_no_partner_is_refused_naming_them():
    drive = make_drive(2)
    services.entry_add(drive=drive, name="Mick")
    client = organiser_of(drive)
    response = ask(client, url("start", drive))
    assert response.status_code == 302 and response.url == url("door", drive)
    assert "Mick has no partner yet" in said(response)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.OPEN and drive.game == 0
    assert not Seat.objects.filter(drive=drive).exists()


def test_names_typed_at_the_door_stay_typed_when_the_start_is_refused():
    """Found by a walk: names typed but not checked in, then "Start game 1" refused (a
    single with no partner): the door came back with both boxes empty."""
    drive = make_drive(2)
    services.entry_add(drive=drive, name="Mick")
    client = organiser_of(drive)
    typed = {"name": "Liam Halloran", "partner_name": "Peig Talty"}
    response = ask(client, url("start", drive), typed)
    assert response.status_code == 302
    assert response.url == url("door", drive) + "?name=Liam+Halloran&partner_name=Peig+Talty"
    assert "Mick has no partner yet" in said(response)
    door = client.get(response.url).content.decode()
    assert 'value="Liam Halloran"' in door and 'value="Peig Talty"' in door


def test_two_singles_left_unpaired_are_both_named():
    drive = make_drive(2)
    services.entry_add(drive=drive, name="Mick")
    services.entry_add(drive=drive, name="Ann")
    with pytest.raises(DriveError, match="Mick and Ann have no partner yet: tap “Pair"):
        services.drive_start(drive=drive)


def test_a_single_checked_in_late_is_told_they_need_a_partner_not_a_game():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    response = client.post(url("door", drive), {"name": "Mick"})
    assert "Mick needs a partner" in said(response)
    mick = drive.entries.get(name="Mick")
    page = client.get(url("entry", drive, mick.pk)).content.decode()
    assert "You play from game" not in page
    assert "You need a partner to play: ask at the door." in page


def test_the_wall_and_the_leaderboard_say_a_single_waits_for_a_partner():
    # Found by a walk: Mick, checked in alone, was not on the wall screen at all, where
    # everyone looks for their table.
    drive = make_drive(4)
    services.drive_start(drive=drive)
    organiser_of(drive).post(url("door", drive), {"name": "Mick"})
    wall = Client().get(url("wall", drive)).content.decode()
    assert "Waiting for a partner: Mick. Ask at the door." in wall
    board = Client().get(url("drive", drive)).content.decode()
    assert "Waiting for a partner, not placed until paired: Mick." in board


def test_starting_the_next_game_with_a_single_waiting_says_who_sits_out_until_paired():
    # Game 2 started with no word of a single checked in during game 1. The room is not
    # held up for them (they play once paired), but the organiser is told, and the grid
    # keeps saying it.
    drive = make_drive(4)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    client.post(url("door", drive), {"name": "Mick"})
    drive.refresh_from_db()
    for table in services.tables_waiting(drive):
        services.result_record(drive=drive, game=1, table=table, side=0)
    response = client.post(url("next", drive), {"confirm": "yes", "game": "1"})
    assert response.status_code == 302 and response.url == url("grid", drive)
    assert said(response) == (
        "Mick is waiting for a partner and sits out until paired: check in someone to "
        "partner them and tap “Pair the singles” at the door."
    )
    drive.refresh_from_db()
    assert drive.game == 2
    mick = drive.entries.get(name="Mick")
    assert not Seat.objects.filter(entry=mick).exists()
    page = client.get(url("grid", drive)).content.decode()
    assert "Waiting for a partner, not playing until paired: Mick." in page
    # Two singles waiting: both named, and they can be paired now.
    client.post(url("door", drive), {"name": "Ann"})
    play_game(drive)
    page = client.get(url("grid", drive)).content.decode()
    assert "Waiting for a partner, not playing until paired: Mick, Ann." in page


def test_pairing_says_who_is_still_waiting_for_a_partner():
    # "Pair the 3 singles" said only "1 pair made.": nothing of the third.
    drive = make_drive(0)
    for name in ("One", "Two", "Three"):
        services.entry_add(drive=drive, name=name)
    response = organiser_of(drive).post(url("pair", drive))
    assert said(response) == (
        "1 pair made: One & Two. Three is still waiting for a partner: check in someone "
        "to partner them and tap “Pair the singles”."
    )
    assert [str(e) for e in drive.entries.all()] == ["One & Two", "Three"]


# 3. "Leaves now" and "Remove" ask first, say the right words, and can be undone.


def test_leaves_now_asks_first_and_changes_nothing_until_confirmed():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    entry = drive.entries.first()
    client = organiser_of(drive)
    response = ask(client, url("entry-leave", drive, entry.pk))
    assert response.status_code == 200
    assert "drives/entry_detail.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert f"Does {escape(str(entry))} leave now?" in page and 'name="confirm" value="yes"' in page
    entry.refresh_from_db()
    assert entry.left_after_game is None
    response = client.post(url("entry-leave", drive, entry.pk), {"confirm": "yes"})
    assert response.status_code == 302
    assert said(response) == f"{entry} left after game 1; their wins stand."
    entry.refresh_from_db()
    assert entry.left_after_game == 1
    back = client.get(url("entry-leave", drive, entry.pk))  # Back to the question
    assert back.status_code == 302 and back.url == url("door", drive)
    assert said(back) == f"{entry} left after game 1 already."


def test_back_to_start_game_1_after_yes_starts_nothing_and_says_so():
    drive = make_drive(4)
    client = organiser_of(drive)
    question = ask(client, url("start", drive))
    started = client.post(url("start", drive), {"confirm": "yes"})
    # Found by a walk: the phone that started the game was told nothing.
    assert (
        said(started) == "Game 1 has started: everyone to their table. The wall screen shows where."
    )
    client.get(started.url)  # the grid, its message seen
    back = client.get(question.wsgi_request.get_full_path())
    assert back.status_code == 302 and back.url == url("grid", drive)
    assert said(back) == "Game 1 has already started: nothing more was started."
    drive.refresh_from_db()
    assert drive.game == 1


def test_remove_before_the_start_asks_first_and_says_removed():
    drive = make_drive(2)
    entry = drive.entries.first()
    client = organiser_of(drive)
    page = ask(client, url("entry-leave", drive, entry.pk)).content.decode()
    assert f"Remove {escape(str(entry))}?" in page and "wins" not in page
    assert drive.entries.count() == 2
    response = client.post(url("entry-leave", drive, entry.pk), {"confirm": "yes"})
    assert said(response) == f"{entry} removed."
    assert drive.entries.count() == 1


def test_a_late_arrival_who_has_played_no_game_is_removed_not_left():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    late = services.entry_add(drive=drive, name="Late", partner_name="Later")
    client = organiser_of(drive)
    response = client.post(url("entry-leave", drive, late.pk), {"confirm": "yes"})
    assert said(response) == "Late & Later removed."
    assert not Entry.objects.filter(pk=late.pk).exists()


def test_a_pair_that_left_can_come_back_between_games():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    entry = drive.entries.first()
    client = organiser_of(drive)
    client.post(url("entry-leave", drive, entry.pk), {"confirm": "yes"})
    play_game(drive)  # game 2: they are out
    assert not Seat.objects.filter(drive=drive, game=2, entry=entry).exists()
    response = client.post(url("entry-return", drive, entry.pk))
    assert response.status_code == 302
    assert said(response) == f"{entry} are back: they play from game 3."
    entry.refresh_from_db()
    assert entry.left_after_game is None
    play_game(drive)
    assert Seat.objects.filter(drive=drive, game=3, entry=entry).exists()
    # A double tap on "Back again" brings them back once, and says so again.
    response = client.post(url("entry-return", drive, entry.pk))
    assert said(response) == f"{entry} are back: they play from game 4."


def test_a_double_tap_on_yes_leaves_once_and_never_shows_a_failure():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    leaver = drive.entries.first()
    client = organiser_of(drive)
    for _ in range(2):
        response = client.post(url("entry-leave", drive, leaver.pk), {"confirm": "yes"})
        assert said(response) == f"{leaver} left after game 1; their wins stand."
    drive = make_drive(2)
    removed = drive.entries.first()
    client = organiser_of(drive)
    client.post(url("entry-leave", drive, removed.pk), {"confirm": "yes"})
    response = client.post(url("entry-leave", drive, removed.pk), {"confirm": "yes"})
    assert response.status_code == 302
    assert said(response) == "Already removed: they are no longer on the list."


def test_checking_in_a_pair_that_left_says_how_to_bring_them_back():
    drive = make_drive(4)
    services.drive_start(drive=drive)
    entry = drive.entries.get(name="A0")
    services.entry_leave(drive=drive, entry=entry)
    with pytest.raises(DriveError, match="A0 & B0 left after game 1: tap “Back again”"):
        services.entry_add(drive=drive, name="A0", partner_name="B0")


def test_only_the_pub_s_organisers_may_drop_bring_back_or_mark_paid():
    drive = make_drive(4, entry_fee=5)
    services.drive_start(drive=drive)
    entry = drive.entries.first()
    other = UserFactory()
    PubFactory(league=drive.league).organisers.add(other)
    stranger = Client()
    stranger.force_login(other)
    for name, data in (
        ("entry-leave", {"confirm": "yes"}),
        ("entry-return", {}),
        ("entry-paid", {"paid": "1"}),
    ):
        assert stranger.post(url(name, drive, entry.pk), data).status_code == 403
        assert Client().post(url(name, drive, entry.pk), data).status_code in (302, 403)
    entry.refresh_from_db()
    assert entry.left_after_game is None and not entry.paid
    assert organiser_of(drive).get(url("entry-return", drive, entry.pk)).status_code == 405


# 4. A double tap on "Check in" checks in once and says so.


def test_a_double_tap_on_check_in_gives_one_entry_and_a_success_message():
    drive = make_drive(0)
    client = organiser_of(drive)
    data = {"name": "Double", "partner_name": "Tap"}
    first = client.post(url("door", drive), data)
    second = client.post(url("door", drive), data)
    assert (first.status_code, second.status_code) == (302, 302)
    assert said(second) == "Double & Tap checked in."
    page = client.get(url("door", drive)).content.decode()
    assert page.count("Double &amp; Tap checked in.") == 1  # said once, not twice
    assert drive.entries.count() == 1
    # The same pair named the other way round is the same pair.
    assert services.entry_add(drive=drive, name="tap", partner_name="double").name == "Double"
    assert drive.entries.count() == 1
    # Someone already in another pair is still refused.
    with pytest.raises(DriveError, match="already checked in"):
        services.entry_add(drive=drive, name="Tap", partner_name="Someone Else")


# 5. The door offers only what can be done.


def test_an_individual_drive_s_door_offers_no_pairing():
    drive = make_drive(0, format="individual", table_size=4)
    for name in ("Ann", "Bea", "Cat", "Dot", "Eve"):
        services.entry_add(drive=drive, name=name)
    page = organiser_of(drive).get(url("door", drive)).content.decode()
    assert "Pair the" not in page and "needs a partner" not in page
    assert "Start game 1" in page


def test_a_finished_drive_s_door_has_no_check_in_form():
    drive = make_drive(2, games=1)
    services.drive_start(drive=drive)
    play_game(drive)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.FINISHED
    page = organiser_of(drive).get(url("door", drive)).content.decode()
    assert "Check in</button>" not in page and 'name="name"' not in page
    assert "This drive has finished" in page
    assert "Leaves now" not in page and "Remove" not in page and "Pair the" not in page


# 6. Paid after check-in.


def test_an_entry_can_be_marked_paid_after_check_in_and_back():
    drive = make_drive(1, entry_fee=5)
    entry = drive.entries.get()
    client = organiser_of(drive)
    page = client.get(url("door", drive)).content.decode()
    assert f'Mark paid<span class="visually-hidden"> {escape(str(entry))}</span>' in page
    response = client.post(url("entry-paid", drive, entry.pk), {"paid": "1"})
    assert response.status_code == 302 and said(response) == f"{entry} paid €5.00."
    entry.refresh_from_db()
    assert entry.paid
    client.post(url("entry-paid", drive, entry.pk), {"paid": "1"})  # a double tap
    entry.refresh_from_db()
    assert entry.paid
    response = client.post(url("entry-paid", drive, entry.pk), {"paid": "0"})
    assert said(response) == f"{entry} marked not paid."
    entry.refresh_from_db()
    assert not entry.paid
    response = client.post(url("entry-paid", drive, entry.pk), {"paid": "maybe"})
    assert said(response) == "Tap “Mark paid” or “Mark not paid”."


def test_marking_paid_at_a_drive_with_no_fee_is_refused():
    drive = make_drive(1)
    entry = drive.entries.get()
    response = organiser_of(drive).post(url("entry-paid", drive, entry.pk), {"paid": "1"})
    assert said(response) == "There is no entry fee tonight."
    entry.refresh_from_db()
    assert not entry.paid


def test_an_entry_of_another_drive_is_not_found(client):
    drive = make_drive(1)
    other = make_drive(1)
    entry = other.entries.get()
    organiser = organiser_of(drive)
    for name in ("entry-return", "entry-paid"):
        assert organiser.post(url(name, drive, entry.pk), {"paid": "1"}).status_code == 404
    # Not on this drive's list: said so, and nothing changed anywhere.
    response = organiser.post(url("entry-leave", drive, entry.pk), {"confirm": "yes"})
    assert said(response) == "Already removed: they are no longer on the list."
    entry.refresh_from_db()
    assert entry.left_after_game is None and not entry.paid


# 7. "Start game 1" asks first: a mis-tap under "Check in" starts nothing.


def test_start_game_1_asks_first_saying_who_plays_and_starts_nothing_until_yes():
    # A tester typed a third pair's names, tapped "Start game 1" by mistake, and the
    # drive started at once, the typed pair not checked in, no way back.
    drive = make_drive(5)
    client = organiser_of(drive)
    response = ask(client, url("start", drive), {"name": " Liam ", "partner_name": "Nóra"})
    assert response.status_code == 200
    assert "drives/drive_start.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert "Start game 1 with 5 pairs at 2 tables?" in page
    assert "Nobody can check in for game 1 after this; late arrivals play from game 2." in page
    sits_out = services.drive_start_check(drive=drive).sit_outs
    assert escape(f"{Entry.objects.get(pk=sits_out[0])} sit out game 1") in page
    assert escape("“Liam & Nóra” is typed at the door but not checked in") in page
    assert f'href="{url("door", drive)}?name=Liam&amp;partner_name=N%C3%B3ra"' in page
    assert 'name="confirm" value="yes"' in page
    drive.refresh_from_db()
    assert drive.status == Drive.Status.OPEN and drive.game == 0
    assert not Seat.objects.filter(drive=drive).exists()
    # "No" goes back to the door with the typed names still in the boxes.
    door = client.get(f"{url('door', drive)}?name=Liam&partner_name=N%C3%B3ra").content.decode()
    assert 'autocomplete="off" value="Liam"' in door
    assert 'value="Nóra"' in door
    # "Yes" starts it; a second "Yes" (Back and send again) starts nothing more, and says so.
    response = client.post(url("start", drive), {"confirm": "yes"})
    assert response.status_code == 302 and response.url == url("grid", drive)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.RUNNING and drive.game == 1
    seats = Seat.objects.filter(drive=drive).count()
    client.get(response.url)  # the grid seen, then Back
    response = client.post(url("start", drive), {"confirm": "yes"})
    assert response.status_code == 302 and response.url == url("grid", drive)
    assert said(response) == "Game 1 has already started: nothing more was started."
    assert Seat.objects.filter(drive=drive).count() == seats


def test_start_game_1_at_an_individual_drive_counts_players_and_a_full_room_says_no_sit_out():
    drive = make_drive(0, format="individual", table_size=4)
    for name in ("Ann", "Bea", "Cat", "Dot"):
        services.entry_add(drive=drive, name=name)
    page = ask(organiser_of(drive), url("start", drive)).content.decode()
    assert "Start game 1 with 4 players at 1 table?" in page
    assert "sit out" not in page and "sits out" not in page and "typed" not in page


def test_a_night_of_each_for_themselves_asks_which_player_won_not_which_pair():
    # At tables of five every player plays for themselves; the pages said "pair".
    drive = make_drive(0, format="individual", table_size=5, games=3)
    for name in ("Ann", "Bea", "Cat", "Dot", "Eve"):
        services.entry_add(drive=drive, name=name)
    services.drive_start(drive=drive)
    client = organiser_of(drive)
    grid = client.get(url("grid", drive)).content.decode()
    assert "Tap the player that won at each table" in grid and "pair" not in grid
    refused = client.post(url("result", drive, 1, 1), {}, follow=True).content.decode()
    assert "Choose the player that won." in refused
    services.result_record(drive=drive, game=1, table=1, side=0)
    asked = client.get(f"{url('next', drive)}?game=1").content.decode()
    assert "tap the right player first" in asked and "pair" not in asked


def test_a_start_that_would_be_refused_is_refused_at_the_first_tap_not_asked():
    drive = make_drive(1)
    response = ask(organiser_of(drive), url("start", drive))
    assert response.status_code == 302 and response.url == url("door", drive)
    assert said(response) == "A table needs 2 pairs: check more in first."
    assert not Seat.objects.filter(drive=drive).exists()
