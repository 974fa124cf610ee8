"""A game started by mistake (a tap on "Start game 3" after the match was decided, or
before its players sat down) is taken back by an organiser, asked first, while no deal
of it has been entered: as if never started. It stayed "in play" for good: the match,
the fixture page and the pub's screen said a game was being played."""

import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from league.models import Fixture
from scoring import services
from scoring.models import Deal, Game
from tests.questions import ask
from tests.scoring.conftest import play

pytestmark = pytest.mark.django_db


def take_back_url(game):
    return reverse("scoring:game-remove", args=[game.pk])


def test_an_organiser_takes_back_an_empty_game_after_being_asked(client, world):
    client.force_login(world.organiser)
    game = world.game
    sheet = client.get(game.get_absolute_url()).content.decode()
    assert f'action="{take_back_url(game)}"' in sheet
    asked = ask(client, take_back_url(game), {"version": game.version})
    assert asked.status_code == 200
    assert "Take back game 1?" in asked.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()
    response = client.post(take_back_url(game), {"version": game.version, "confirm": "yes"})
    assert response["Location"] == reverse("scoring:fixture-play", args=[world.fixture.pk])
    assert not Game.objects.filter(pk=game.pk).exists()
    fixture = Fixture.objects.get(pk=world.fixture.pk)
    assert (fixture.games_started, fixture.status) == (0, "scheduled")
    page = client.get(response["Location"]).content.decode()
    assert "Game 1 taken back: as if it was never started." in page
    again = client.post(take_back_url(game), {"version": game.version, "confirm": "yes"})
    # A second tap: said, not a 404, on the match's page.
    assert again["Location"] == reverse("scoring:fixture-play", args=[world.fixture.pk])


def test_back_after_taking_a_game_back_leads_to_its_match(client, world):
    """Found by a walk: Back to the question after "Take it back" said "taken back
    already" on the site's front page, far from the match the organiser was at."""
    client.force_login(world.organiser)
    game, match = world.game, world.fixture
    sent = {"version": game.version}
    question = client.post(take_back_url(game), sent)["Location"]
    client.post(take_back_url(game), sent | {"confirm": "yes"})
    back = client.get(question)
    assert back["Location"] == reverse("scoring:fixture-play", args=[match.pk])
    said = [str(m) for m in client.get(back["Location"]).context["messages"]]
    assert said[-1] == "That game was taken back already."
    # A game never there: the front page, as before.
    never = client.post(take_back_url(Game(pk=999999)), {"confirm": "yes"})
    assert never["Location"] == reverse("league:home")


def test_a_game_with_a_deal_ever_entered_stays(client, world):
    game = world.game
    play(game, 2, 3)
    game.refresh_from_db()
    services.deal_undo(game=game, version=game.version)
    game.refresh_from_db()
    client.force_login(world.organiser)
    assert not game.deals.live().exists()  # undone, but entered
    assert take_back_url(game) not in client.get(game.get_absolute_url()).content.decode()
    response = client.post(take_back_url(game), {"version": game.version, "confirm": "yes"})
    assert Game.objects.filter(pk=game.pk).exists()
    page = client.get(response["Location"]).content.decode()
    assert "Deals were entered in game 1, so it stays. Nothing was changed." in page


def test_a_scorer_link_or_another_pub_may_not_take_a_game_back(client, world):
    client.force_login(world.other_organiser)
    assert ask(client, take_back_url(world.game), {"version": 1}).status_code == 403
    assert (
        client.post(take_back_url(world.game), {"version": 1, "confirm": "yes"}).status_code == 403
    )
    client.logout()
    client.get(world.link.get_absolute_url())  # a player scoring through the link
    assert (
        take_back_url(world.game) not in client.get(world.game.get_absolute_url()).content.decode()
    )
    assert ask(client, take_back_url(world.game), {"version": 1}).status_code == 403
    assert (
        client.post(take_back_url(world.game), {"version": 1, "confirm": "yes"}).status_code == 403
    )
    assert Game.objects.filter(pk=world.game.pk).exists()


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)


def deal_sent_while_taking_back(game, monkeypatch, *, locked):
    """The take-back reads the game (locked, or for the control not), finds no deal and,
    before it goes on, a deal of the game is sent from another phone: what the deal got."""
    real_lock, real_check = services._locked, services._check_no_later_game
    sent = {}

    def send_a_deal():
        try:
            sent["got"] = services.deal_record(
                game=game, dealer=0, tricks=[2, 3], key=uuid.uuid4(), version=game.version
            )
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            sent["got"] = error
        finally:
            connection.close()

    def read(what, labels=None):
        taking_back = threading.current_thread() is threading.main_thread()
        if taking_back and not locked:
            return Game.objects.select_related("confirmation").get(pk=what.pk)
        return real_lock(what, labels)

    def checked_then_a_deal_is_sent(what):
        real_check(what)
        thread = threading.Thread(target=send_a_deal)
        thread.start()
        thread.join(timeout=0.5)  # done, or waiting on the take-back's lock
        sent["thread"] = thread

    monkeypatch.setattr(services, "_locked", read)
    monkeypatch.setattr(services, "_check_no_later_game", checked_then_a_deal_is_sent)
    return sent


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_deal_sent_while_the_game_is_taken_back_is_told_not_thrown_away(world, monkeypatch):
    sent = deal_sent_while_taking_back(world.game, monkeypatch, locked=True)
    services.game_remove(game=world.game, version=world.game.version)
    sent["thread"].join(timeout=20)
    assert str(sent["got"]) == "Game 1 was taken back: it was started by mistake."
    assert not Deal.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_games_lock_a_deal_saved_meanwhile_is_thrown_away(world, monkeypatch):
    """The negative control: the take-back reads the game without its lock; a deal is
    saved from another phone between its check and its delete, and goes with the game."""
    sent = deal_sent_while_taking_back(world.game, monkeypatch, locked=False)
    services.game_remove(game=world.game, version=world.game.version)
    assert isinstance(sent["got"], Deal)  # a deal saved ...
    assert not Deal.objects.filter(pk=sent["got"].pk).exists()  # ... and thrown away


GONE = "This game is not here any more"


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_deal_from_a_sheet_left_open_on_a_taken_back_game_is_told(client, world, htmx):
    """The game is taken back on one phone while its sheet is open on another: the next
    deal from that sheet gets the sheet's place saying so, not a bare "Not found" (with
    htmx, an answer it would not show: the tap did nothing to see)."""
    game = world.game
    client.force_login(world.organiser)
    services.game_remove(game=game, version=game.version)
    headers = {"HX-Request": "true"} if htmx else {}
    sent = {"version": game.version, "dealer": 0, "first": 3, "key": uuid.uuid4()}
    for address, data in [
        (reverse("scoring:deal-record", args=[game.pk]), {**sent, "mode": "split"}),
        (reverse("scoring:deal-undo", args=[game.pk]), {"version": game.version}),
        (reverse("scoring:game-confirm", args=[game.pk]), {"version": game.version}),
        (reverse("scoring:deal-correct", args=[game.pk, 1]), {**sent, "confirm": "yes"}),
    ]:
        response = client.post(address, data, headers=headers)
        page = response.content.decode()
        assert response.status_code == 404, address
        assert 'id="sheet"' in page, address  # what htmx and a kept deal swap in
        assert GONE in page, address
        assert "Nothing was saved." in page, address
        assert ("<html" in page) is not htmx, address
    assert not Deal.objects.exists()
    sheet = client.get(game.get_absolute_url())
    assert sheet.status_code == 404
    assert GONE in sheet.content.decode()
    # What to do next, for a friendly too, which has no match to start it from.
    assert "a friendly with “Start a friendly”" in sheet.content.decode()


def test_a_game_taken_back_from_a_match_marked_played_leaves_it_played(world):
    """Found by a walk: a secretary planned one more game for a played match, the next
    game was started by mistake and taken back, and the match stayed "in play": its
    win left the winner's fixtures won."""
    world.fixture.games_planned = 1
    world.fixture.save()
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])  # 25: game 1 won, the match played
    world.fixture.refresh_from_db()
    assert world.fixture.status == Fixture.Status.PLAYED
    Fixture.objects.filter(pk=world.fixture.pk).update(games_planned=2)  # result stands
    extra = services.game_next(fixture=world.fixture, number=2, first_dealer=1)
    world.fixture.refresh_from_db()
    assert world.fixture.status == Fixture.Status.SCHEDULED  # back in play
    services.game_remove(game=extra, version=extra.version)
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.games_started) == (Fixture.Status.PLAYED, 1)


def test_a_game_taken_back_from_a_match_in_play_leaves_it_to_play(world):
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])  # game 1 of 3 won
    extra = services.game_next(fixture=world.fixture, number=2, first_dealer=1)
    services.game_remove(game=extra, version=extra.version)
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.games_started) == (Fixture.Status.SCHEDULED, 1)


def test_a_second_phone_on_a_taken_back_game_is_led_to_its_match(client, world):
    """Found by a walk: the second phone's sheet said the game was taken back, with a
    button to the site's front page; its "Scorer links and QR codes" gave "Not found".
    It leads to the match the game was of; its links to the game's pages go."""
    game, match = world.game, world.fixture
    client.force_login(world.organiser)
    client.post(take_back_url(game), {"version": game.version, "confirm": "yes"})  # 1st phone
    play = reverse("scoring:fixture-play", args=[match.pk])
    for url in (game.get_absolute_url(), reverse("scoring:game-links", args=[game.pk])):
        page = client.get(url)
        assert page.status_code == 404
        assert GONE in page.text
        assert f'href="{play}">Back to the match<' in page.text
    swapped = client.get(game.get_absolute_url(), headers={"HX-Request": "true"}).text
    assert f'href="{play}">Back to the match<' in swapped
    assert 'id="sheet-links" data-hx-swap-oob="delete"' in swapped  # the dead links go
    # A scorer link's phone, logged in as nobody: the match's public page.
    client.logout()
    public = reverse("league:fixture", args=[match.season.league.slug, match.pk])
    assert f'href="{public}">Back to the match<' in client.get(game.get_absolute_url()).text
    # A game never there, or taken back by the service alone: the league's home page.
    assert "Go to the league" in client.get(reverse("scoring:game-sheet", args=[999999])).text
