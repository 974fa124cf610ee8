"""Found by walking a match night as an older organiser on a phone: a player's tap after
their scorer link closed, and a player's link followed on to the match's next game."""

import html
import re

import pytest
from django.urls import reverse

from scoring.models import Deal
from scoring.services import game_confirm, link_create, link_revoke
from tests.factories import FixtureFactory
from tests.questions import ask
from tests.scoring.conftest import fixture_game, play
from tests.scoring.test_views import split

pytestmark = pytest.mark.django_db


def sheet_url(game):
    return reverse("scoring:game-sheet", args=[game.pk])


def open_link(client, link):
    client.get(reverse("scoring:link-open", args=[link.token]))


def test_a_tap_after_the_game_was_confirmed_leads_to_the_sheet_as_it_stands(client, world):
    """The player's phone still shows "Save deal 2" and the old score: beside the reason
    (the taps kept), a button to the game as it is now, with its confirmed result."""
    table = link_create(game=world.game, user=world.organiser)
    open_link(client, table)
    play(world.game, 3, 2)
    stale = split(world.game, 4, dealer=1)
    play(world.game, 4, 1, dealer=1, user=world.organiser)
    game_confirm(game=world.game, user=world.organiser)
    response = client.post(
        reverse("scoring:deal-record", args=[world.game.pk]), stale, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#box-split"
    text = response.text
    assert "This game is confirmed, so its scorer links are closed." in text
    assert f'href="{sheet_url(world.game)}">See the game as it stands now</a>' in text
    assert Deal.objects.live().count() == 2


def test_an_undo_after_the_link_was_withdrawn_leads_to_the_sheet_as_it_stands(client, world):
    open_link(client, world.link)
    play(world.game, 3, 2)
    world.game.refresh_from_db()
    version = world.game.version
    link_revoke(link=world.link)
    response = client.post(
        reverse("scoring:deal-undo", args=[world.game.pk]),
        {"version": version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert "The organiser has withdrawn your scorer link." in response.text
    assert "See the game as it stands now" in response.text
    assert Deal.objects.live().count() == 1


def test_a_players_link_followed_to_the_next_game_says_it_is_for_the_last_one(client, world):
    """The finished game's sheet leads on to the next game; a player who follows it with
    game 1's link is told why there is nothing to tap, and what to do."""
    open_link(client, world.link)
    play(world.game, 5, 0)
    second = fixture_game(world.fixture, number=2)
    sheet = client.get(sheet_url(second)).text
    assert "Your scorer link is for game 1 only." in sheet
    assert "Ask the organiser for the QR code of game 2." in sheet
    assert "Save deal" not in sheet


def test_a_players_link_says_nothing_on_a_game_of_another_match(client, world):
    open_link(client, world.link)
    other = fixture_game(FixtureFactory(season=world.fixture.season, pub=world.fixture.pub))
    sheet = client.get(sheet_url(other)).text
    assert "Your scorer link is for" not in sheet and "Save deal" not in sheet


def test_withdrawing_a_link_asks_first_and_back_after_yes_says_it_is_withdrawn(client, world):
    # "Withdraw this link" sits under the QR code a player is scanning: one tap cut
    # the player's phone off.
    client.force_login(world.organiser)
    url = reverse("scoring:link-revoke", args=[world.game.pk, world.link.pk])
    question = ask(client, url)
    assert "Withdraw link 1" in question.text and "can no longer enter deals" in question.text
    assert "Withdraw Link" not in question.text
    world.link.refresh_from_db()
    assert world.link.is_active
    done = client.post(url, {"confirm": "yes"}, follow=True)
    said = [str(m) for m in done.context["messages"]]
    assert said[-1].endswith("withdrawn: the phone that scanned it can no longer enter deals.")
    world.link.refresh_from_db()
    assert not world.link.is_active
    back = client.get(url, follow=True)
    assert [str(m) for m in back.context["messages"]][-1].endswith("is withdrawn already.")
    # The game's list after its only link went: "None in use", not "No links yet".
    assert "No links yet" not in done.text
    assert "None: no link of this game is in use." in done.text


def test_a_games_links_are_numbered_from_1_for_that_game(client, world):
    """Found by a walk: a game's first scorer link was called "Link 2" (its number among
    every link of the league), and the organiser looked for link 1."""
    first = world.other_link  # made after world.link, of another game
    assert first.pk > 1
    second = link_create(game=world.other_game, user=world.other_organiser)
    client.force_login(world.other_organiser)
    links = client.get(reverse("scoring:game-links", args=[world.other_game.pk])).text
    assert "Link 2 for the table: show the QR code" in links
    assert "Withdraw link 1" in links and "Withdraw link 2" in links
    detail = reverse("scoring:link-detail", args=[world.other_game.pk, second.pk])
    page = client.get(detail).text
    assert "<title>Scorer link 2 ·" in page and ", link for the table.</p>" in page
    question = ask(client, reverse("scoring:link-revoke", args=[world.other_game.pk, second.pk]))
    assert "Withdraw link 2 for the table?" in question.text
    url = reverse("scoring:link-revoke", args=[world.other_game.pk, first.pk])
    done = client.post(url, {"confirm": "yes"}, follow=True)
    assert [str(m) for m in done.context["messages"]][-1].startswith("Link 1 for ")
    # Link 2 keeps its name once link 1 is withdrawn.
    assert "Withdraw link 2" in done.text and "Withdraw link 1" not in done.text
    record = client.get(reverse("scoring:game-record", args=[world.other_game.pk])).text
    assert "Scorer link 2 for the table made" in record
    assert "Scorer link 1 for " in record and "revoked" not in record
    assert re.search(r"Scorer link 1 for [^<]+ withdrawn", record)


def test_a_withdrawn_links_page_says_it_no_longer_works_not_scan_to_score(client, world):
    client.force_login(world.organiser)
    detail = reverse("scoring:link-detail", args=[world.game.pk, world.link.pk])
    page = client.get(detail).text
    assert "<h1>Scan to score: link 1</h1>" in page
    link_revoke(link=world.link)
    page = client.get(detail).text
    assert "Scan to score" not in page
    assert "<h1>Link 1 no longer works</h1>" in page
    assert "It was withdrawn: the phone that scanned it can no longer enter deals." in page
    # The phone that held it is told what to do.
    client.logout()
    closed = client.get(world.link.get_absolute_url())
    assert closed.status_code == 403
    assert "ask the organiser for a new link" in closed.text


def test_a_confirmed_games_links_page_says_why_no_link_can_be_made(client, world):
    client.force_login(world.organiser)
    play(world.game, 5, 0)
    game_confirm(game=world.game)
    page = html.unescape(client.get(reverse("scoring:game-links", args=[world.game.pk])).text)
    assert "Make a scorer link" not in page
    assert "This game is confirmed, so no scorer link can be made for it." in page


def test_a_deals_score_is_kept_whole_on_a_line(client, world):
    """Found by a walk: "score 10 –" at a line's end, "15" on the next (a line may break
    after a dash, no-break spaces or not)."""
    play(world.game, 2, 3)
    client.force_login(world.organiser)
    sheet = client.get(world.game.get_absolute_url()).text
    assert "score 10\u00a0–\u2060\u00a015" in sheet
