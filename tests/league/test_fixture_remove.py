"""A fixture entered by mistake (wrong teams, a night that was never on) is taken off by
a secretary, asked first, while no game of it has started. There was no way to but
the Django admin, which secretaries have no access to; postponing left it on the list."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from league import services
from league.models import Fixture
from league.services import LeagueError
from scoring.models import Game
from scoring.services import game_next
from tests.league.conftest import snapshot
from tests.questions import ask

pytestmark = pytest.mark.django_db


def remove_url(fixture):
    return reverse("league:fixture-remove", args=["clare", fixture.pk])


def test_a_secretary_removes_a_fixture_after_being_asked(client, world, fixture_at_pub):
    client.force_login(world.secretary)
    edit = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]))
    assert f'action="{remove_url(fixture_at_pub)}"' in edit.content.decode()
    before = snapshot()
    asked = ask(client, remove_url(fixture_at_pub))
    assert asked.status_code == 200 and snapshot() == before
    page = asked.content.decode()
    assert "Remove Harbour Hearts v Cronin&#x27;s Jinkers?" in page
    assert "The match on Thursday 1 October 2026 at The Harbour Bar comes off" in page
    response = client.post(remove_url(fixture_at_pub), {"confirm": "yes"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "league:manage-season", args=["clare", "winter"]
    )
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Harbour Hearts v Cronin's Jinkers on 1 October removed."]
    assert not Fixture.objects.filter(pk=fixture_at_pub.pk).exists()


def test_a_fixture_with_a_game_started_stays_and_offers_no_remove(client, world, fixture_at_pub):
    game_next(fixture=fixture_at_pub, number=1, first_dealer=0)
    client.force_login(world.secretary)
    edit = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]))
    assert remove_url(fixture_at_pub) not in edit.content.decode()
    before = snapshot()
    response = client.post(remove_url(fixture_at_pub), {"confirm": "yes"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "Harbour Hearts v Cronin's Jinkers has a game started, so it stays; "
        "it can be moved or re-planned."
    ]
    assert snapshot() == before
    # The question, reached by Back or an old tab, said "No game of it has started".
    question = client.get(remove_url(fixture_at_pub), follow=True)
    said = [str(m) for m in question.context["messages"]]
    assert said == [
        "Harbour Hearts v Cronin's Jinkers has a game started, so it stays; "
        "it can be moved or re-planned."
    ]
    assert "Remove Harbour Hearts" not in question.content.decode()


def test_an_organiser_is_not_offered_remove(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    edit = client.get(reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]))
    assert remove_url(fixture_at_pub) not in edit.content.decode()


def remove_while_a_game_starts(fixture, remove=None):
    """A game of `fixture` starts on one phone and, before it is saved, a secretary
    removes the fixture (or with `remove`, what else takes it off) on another: what each
    got, and whether the game is still there."""
    remove_it = remove or (lambda: services.fixture_remove(fixture=fixture))
    started, release = threading.Event(), threading.Event()
    outcomes = {}

    def start():
        try:
            with transaction.atomic():
                outcomes["game"] = game_next(fixture=fixture, number=1, first_dealer=0)
                started.set()
                release.wait(timeout=10)  # the start not yet saved
        finally:
            connection.close()

    def remove():
        try:
            started.wait(timeout=10)
            remove_it()
            outcomes["remove"] = "removed"
        except LeagueError as error:
            outcomes["remove"] = str(error)
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            outcomes["remove"] = repr(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=start), threading.Thread(target=remove)]
    for thread in threads:
        thread.start()
    started.wait(timeout=10)
    time.sleep(0.5)  # the removal is waiting on the start's lock by now
    release.set()
    for thread in threads:
        thread.join(timeout=20)
    return outcomes, Game.objects.filter(pk=outcomes["game"].pk).exists()


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_fixture_whose_game_is_starting_meanwhile_stays(fixture_at_pub):
    outcomes, game_kept = remove_while_a_game_starts(fixture_at_pub)
    assert outcomes["remove"].endswith(
        "has a game started, so it stays; it can be moved or re-planned."
    )
    assert game_kept


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_fixtures_lock_the_removal_fails_as_a_server_error(
    fixture_at_pub, monkeypatch
):
    """The negative control: the fixture read without its lock in the app's own code
    path. The removal sees no game yet and deletes; only the database's foreign key
    stops it, as an error the secretary would see as a server error, not in words."""
    monkeypatch.setattr(services, "_lock_fixture", lambda f: Fixture.objects.get(pk=f.pk))
    outcomes, game_kept = remove_while_a_game_starts(fixture_at_pub)
    assert outcomes["remove"].startswith("IntegrityError(")
    assert game_kept


def game_starts_after_the_check(monkeypatch, lock_name, *, locked):
    """Make the removal's read of the fixtures (`services.<lock_name>`, with its lock or,
    for the negative control, without) be followed at once by a game's start on another
    phone, before the removal goes on: what the start got (a game, or an error)."""
    real = getattr(services, lock_name)
    start = {}

    def start_a_game(fixture):
        try:
            start["got"] = game_next(fixture=fixture, number=1, first_dealer=0)
        except Exception as error:  # noqa: BLE001 (the outcome under test)
            start["got"] = error
        finally:
            connection.close()

    def read_then_a_game_starts(what):
        read = real(what) if locked else _unlocked(what)
        fixture = read if isinstance(read, Fixture) else read[0]
        thread = threading.Thread(target=start_a_game, args=(fixture,))
        thread.start()
        thread.join(timeout=0.5)  # done, or waiting on the removal's lock
        start["thread"] = thread
        return read

    monkeypatch.setattr(services, lock_name, read_then_a_game_starts)
    return start


def _unlocked(what):
    if isinstance(what, Fixture):
        return Fixture.objects.select_related("season").get(pk=what.pk)
    return list(what.fixtures.all())


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_game_started_after_the_check_waits_and_is_never_thrown_away(fixture_at_pub, monkeypatch):
    start = game_starts_after_the_check(monkeypatch, "_lock_fixture", locked=True)
    services.fixture_remove(fixture=fixture_at_pub)
    start["thread"].join(timeout=20)
    assert str(start["got"]) == "This fixture is no longer on the list: it was removed."
    assert not Game.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_fixtures_lock_a_game_started_after_the_check_is_thrown_away(
    fixture_at_pub, monkeypatch
):
    """The negative control: the fixture read without its lock, and a game started and
    saved on another phone between the check and the removal: the removal deletes the
    fixture and the game with it, deals and all."""
    start = game_starts_after_the_check(monkeypatch, "_lock_fixture", locked=False)
    services.fixture_remove(fixture=fixture_at_pub)
    assert isinstance(start["got"], Game)  # a game saved ...
    assert not Game.objects.filter(pk=start["got"].pk).exists()  # ... and thrown away


def test_a_second_tap_on_remove_it_says_it_is_removed_already(client, world, fixture_at_pub):
    client.force_login(world.secretary)
    client.post(remove_url(fixture_at_pub), {"confirm": "yes"}, follow=True)
    response = client.post(remove_url(fixture_at_pub), {"confirm": "yes"}, follow=True)
    assert response.status_code == 200
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Already removed: that fixture is no longer on the list."]
