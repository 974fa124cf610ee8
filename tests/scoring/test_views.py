"""The table sheet over HTTP: entry in its three ways, every rule error in plain words,
retries, conflicts, undo, corrections, confirmation, links and the match page."""

import datetime
import html
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import dateformat, timezone

from league.models import Fixture
from scoring import services
from scoring.models import Confirmation, Deal, Game, GameEvent, ScorerLink
from tests.factories import FixtureFactory
from tests.scoring.conftest import fixture_game, play, stopped_at_25_then_game_2

pytestmark = pytest.mark.django_db


def sheet_url(game):
    return reverse("scoring:game-sheet", args=[game.pk])


def record_url(game):
    return reverse("scoring:deal-record", args=[game.pk])


def split(game, first, dealer=0, **extra):
    game.refresh_from_db()
    return {
        "key": str(uuid.uuid4()),
        "version": game.version,
        "mode": "split",
        "first": first,
        "dealer": dealer,
        **extra,
    }


@pytest.fixture
def organiser(client, world):
    client.force_login(world.organiser)
    return client


def test_anyone_can_read_the_sheet_but_only_scorers_see_the_entry(client, world):
    play(world.game, 2, 3)
    response = client.get(sheet_url(world.game))
    assert response.status_code == 200
    assert "scoring/game_sheet.html" in [t.name for t in response.templates]
    assert b"Save deal" not in response.content
    assert world.labels[0].encode() in response.content
    client.force_login(world.organiser)
    response = client.get(sheet_url(world.game))
    assert b"Save deal 2" in response.content
    assert response["Vary"].count("HX-Request") == 1


def test_a_split_entry_saves_the_deal_and_redirects_to_the_sheet(organiser, world):
    response = organiser.post(record_url(world.game), split(world.game, 3))
    assert response.status_code == 302
    assert response["Location"] == sheet_url(world.game)
    deal = Deal.objects.get(game=world.game)
    assert (deal.tricks, deal.dealer, deal.entered_by) == ("32", 0, world.organiser)


def test_with_htmx_the_sheet_partial_comes_back_in_place(organiser, world):
    response = organiser.post(record_url(world.game), split(world.game, 3), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert (
        response.content.startswith(b'\n<div id="sheet"') or b'id="sheet"' in response.content[:200]
    )
    assert b"<html" not in response.content
    assert b"Deal 2" in response.content


def test_trick_by_trick_entry_records_the_order_and_who_reached_25_first(organiser, world):
    play(world.game, 3, 2, dealer=0)  # 15 – 10
    world.game.refresh_from_db()
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "order",
        "dealer": 1,
        "trick_1": 1,
        "trick_2": 1,
        "trick_3": 1,
        "trick_4": 0,
        "trick_5": 0,
    }
    organiser.post(record_url(world.game), data)
    world.game.refresh_from_db()
    deal = world.game.deals.live().get(number=2)
    assert deal.trick_winners == "11100"
    assert world.game.winner == 1
    assert world.game.reason == f"{world.labels[1]} reached 25 on the third trick"


def test_a_short_deal_stops_at_the_target_trick_by_trick(organiser, world):
    play(world.game, 4, 1, dealer=0)  # 20 – 5
    world.game.refresh_from_db()
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "order",
        "dealer": 1,
        "trick_1": 0,
    }
    organiser.post(record_url(world.game), data)
    world.game.refresh_from_db()
    assert world.game.scores == [25, 5]
    assert world.game.winner == 0


def test_steppers_enter_a_deal_for_three_sides(client, world):
    from scoring.services import SideSpec, game_start

    game = game_start(
        season=None, pub=world.pub, sides=[SideSpec("Ann"), SideSpec("Bob"), SideSpec("Cáit")]
    )
    client.force_login(world.organiser)
    page = client.get(sheet_url(game))
    assert b'name="tricks_2"' in page.content
    assert b'name="first"' not in page.content
    data = {
        "key": str(uuid.uuid4()),
        "version": game.version,
        "mode": "count",
        "dealer": 0,
        "tricks_0": 1,
        "tricks_1": 2,
        "tricks_2": 2,
    }
    assert client.post(record_url(game), data).status_code == 302
    game.refresh_from_db()
    assert game.scores == [5, 10, 10]


def test_four_tricks_tapped_one_by_one_are_told_which_trick_to_tap(organiser, world):
    """Found by a walk: four of five tricks tapped gave only the rule book's "the tricks
    add up to 4, not 5"; the organiser looked for what to do."""
    taps = {"mode": "order", "trick_1": 0, "trick_2": 1, "trick_3": 0, "trick_4": 1}
    response = organiser.post(record_url(world.game), {**split(world.game, 0), **taps})
    assert response.status_code == 422
    assert "the tricks add up to 4, not 5" in response.text
    assert "Tap who won trick 5." in response.text
    # Counted, not tapped: there is no trick 5 to tap.
    counted = {"mode": "count", "tricks_0": 3, "tricks_1": 1}
    response = organiser.post(record_url(world.game), {**split(world.game, 0), **counted})
    assert "Tap who won trick" not in response.text
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"mode": "count", "tricks_0": 3}, "there are 1 trick counts for 2 sides"),
        ({"mode": "split", "first": 7}, "{0} is shown with 7 tricks; a side takes 0 to 5"),
        ({"mode": "split", "first": 2, "dealer": 4}, "the dealer is shown as side 5"),
        ({"mode": "count", "tricks_0": 3, "tricks_1": 3}, "the tricks add up to 6"),
        ({"mode": "count", "tricks_0": 3, "tricks_1": 1}, "the tricks add up to 4, not 5"),
        (
            {
                "mode": "order",
                "tricks_0": 2,
                "tricks_1": 3,
                "trick_1": 0,
                "trick_2": 0,
                "trick_3": 0,
                "trick_4": 1,
                "trick_5": 1,
            },
            "the trick order gives {0} 3 tricks, but the counts say 2",
        ),
        ({"mode": "split", "first": 2, "bonus_side": 1}, "Twenty-Five has no highest-trump bonus"),
    ],
)
def test_each_rule_error_is_shown_in_plain_words_and_nothing_is_saved(
    organiser, world, data, words
):
    response = organiser.post(record_url(world.game), {**split(world.game, 0), **data})
    assert response.status_code == 422
    text = response.content.decode()
    assert words.format(*world.labels) in text.replace("&#x27;", "'")
    assert "Nothing was saved." in text
    assert not Deal.objects.exists()
    assert not GameEvent.objects.filter(kind=GameEvent.Kind.DEAL).exists()


def test_a_deal_after_the_game_is_won_is_refused_in_plain_words(organiser, world):
    play(world.game, 5, 0)
    response = organiser.post(record_url(world.game), split(world.game, 2))
    assert response.status_code == 422
    assert f"the game is over: {world.labels[0]} won it in deal 1" in response.content.decode()
    assert Deal.objects.count() == 1


def test_a_retry_with_the_same_key_gives_the_stored_outcome(organiser, world):
    data = split(world.game, 3)
    assert organiser.post(record_url(world.game), data).status_code == 302
    assert organiser.post(record_url(world.game), data).status_code == 302
    assert Deal.objects.count() == 1


def test_the_same_key_with_a_different_deal_is_refused_with_422(organiser, world):
    data = split(world.game, 3)
    organiser.post(record_url(world.game), data)
    response = organiser.post(record_url(world.game), {**data, "first": 1})
    assert response.status_code == 422
    assert b"already used for a different deal" in response.content
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["32"]


def test_a_stale_version_shows_the_conflict_with_what_was_tried(organiser, world):
    stale = split(world.game, 4)
    play(world.game, 2, 3)
    response = organiser.post(record_url(world.game), stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    text = response.content.decode()
    assert "Someone else changed this game" in text
    assert f"{world.labels[0]} 4, {world.labels[1]} 1" in text
    assert list(Deal.objects.values_list("tricks", flat=True)) == ["23"]
    # Without htmx the conflict page is the whole sheet, still 409.
    assert (
        organiser.post(record_url(world.game), {**stale, "key": str(uuid.uuid4())}).status_code
        == 409
    )


def test_undo_takes_back_the_last_deal(organiser, world):
    play(world.game, 5, 0)
    response = organiser.post(
        reverse("scoring:deal-undo", args=[world.game.pk]), {"version": world.game.version}
    )
    assert response.status_code == 302
    world.game.refresh_from_db()
    assert world.game.winner is None
    assert Deal.objects.live().count() == 0
    assert Deal.objects.count() == 1


def test_a_correction_page_saves_a_new_version(organiser, world):
    play(world.game, 2, 3)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    page = organiser.get(url)
    assert page.status_code == 200
    assert b'value="2"' in page.content
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "count",
        "dealer": 0,
        "tricks_0": 4,
        "tricks_1": 1,
        "reason": "",
    }
    assert organiser.post(url, data).status_code == 302
    assert list(Deal.objects.order_by("version").values_list("tricks", "live")) == [
        ("23", False),
        ("41", True),
    ]


def test_a_correction_of_a_confirmed_game_needs_a_reason(organiser, world):
    play(world.game, 5, 0)
    organiser.post(reverse("scoring:game-confirm", args=[world.game.pk]))
    world.game.refresh_from_db()
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "count",
        "dealer": 0,
        "tricks_0": 0,
        "tricks_1": 5,
        "reason": "  ",
    }
    response = organiser.post(url, data)
    assert response.status_code == 422
    assert b"give a reason" in response.content
    response = organiser.post(url, {**data, "reason": "Scores swapped"})
    assert response.status_code == 302
    world.game.refresh_from_db()
    assert world.game.winner == 1


def test_a_refused_correction_shows_what_was_typed_not_the_deal_as_it_was(organiser, world):
    play(world.game, 2, 3, dealer=0)
    play(world.game, 2, 3)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "count",
        "dealer": 1,
        "tricks_0": 5,
        "tricks_1": 0,
        "reason": "Read out wrong",
    }
    response = organiser.post(url, data)  # 25-0 ends the game before deal 2
    assert response.status_code == 422
    html = response.content.decode()
    assert 'name="tricks_0" inputmode="numeric" min="0" max="5" step="1" value="5"' in html
    assert 'name="tricks_1" inputmode="numeric" min="0" max="5" step="1" value="0"' in html
    assert 'name="dealer" value="1" checked' in html
    assert 'value="Read out wrong"' in html


def test_a_sheet_looks_for_the_other_phones_saves_only_while_a_scorer_link_is_out(organiser, world):
    watching = 'id="sheet-watch"'
    assert watching in organiser.get(sheet_url(world.game)).text  # the world's link is out
    assert watching not in Client().get(sheet_url(world.game)).text  # the public's polls
    ScorerLink.objects.filter(game=world.game).update(revoked_at=timezone.now())
    assert watching not in organiser.get(sheet_url(world.game)).text


def test_once_the_matchs_next_game_has_started_the_sheet_offers_no_undo(organiser, world):
    """Found by a walk: the undo button stayed, armed, and was refused when tapped
    ("Game 2 of this match has started, so this game must keep a winner")."""
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])  # 25: game 1 is won
    assert "Undo the last deal" in organiser.get(sheet_url(world.game)).text
    fixture_game(world.fixture, number=2, first_dealer=1)
    page = organiser.get(sheet_url(world.game)).text
    assert "Undo the last deal" not in page
    assert "Correct" in page


def deal_1_corrected(game, *tricks):
    """The address and the fields of a correction of deal 1 to `tricks`, by counts."""
    url = reverse("scoring:deal-correct", args=[game.pk, 1])
    counts = {f"tricks_{side}": count for side, count in enumerate(tricks)}
    data = {"key": str(uuid.uuid4()), "version": game.version, "mode": "count", "dealer": 0}
    return url, data | counts


def test_a_correction_that_makes_a_later_deal_stop_sooner_ends_it_there(organiser, world):
    """Found by a walk: with deal 1 corrected, the other side reached 25 on trick 2 of
    deal 2, entered trick by trick over 4 tricks; its tricks 3 and 4 could not be
    untapped, so every save was refused and the score could not be put right."""
    play(world.game, 2, 3, dealer=0)  # 10-15
    play(world.game, 2, 2, trick_winners=[0, 1, 0, 1])  # 20-25 on trick 4
    url, data = deal_1_corrected(world.game, 1, 4)  # 5-20: 25 comes on trick 2 of deal 2
    page = organiser.post(url, data)
    assert page.status_code == 422
    assert "Correct deal 2 below too" in page.text
    for trick in (3, 4):  # the tricks after play stopped can be said not to have been
        assert f'name="later-trick_{trick}" value="" checked' not in page.text
        assert f'name="later-trick_{trick}" value=""' in page.text
    later = {"later-number": 2, "later-key": str(uuid.uuid4()), "later-version": 3}
    later |= {"later-mode": "order", "later-dealer": 1, "later-trick_1": 0, "later-trick_2": 1}
    later |= {f"later-trick_{trick}": "" for trick in (3, 4, 5)}
    assert organiser.post(url, data | later).status_code == 302
    world.game.refresh_from_db()
    assert (world.game.scores, world.game.winner) == ([10, 25], 1)
    assert world.game.deals.live().get(number=2).trick_winners == "01"


def test_an_undo_refused_from_an_old_sheet_brings_the_sheet_as_it_stands(organiser, world):
    """Found by a walk: a sheet opened before game 2 started still offered Undo; tapped
    twice it was refused, with the armed button still under the refusal."""
    play(world.game, 3, 2, dealer=0)
    play(world.game, 2, 0, trick_winners=[0, 0])
    version = world.game.version
    fixture_game(world.fixture, number=2, first_dealer=1)
    response = organiser.post(
        reverse("scoring:deal-undo", args=[world.game.pk]),
        {"version": version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "HX-Retarget" not in response  # the whole sheet, in the sheet's place
    page = html.unescape(response.text)
    assert page.lstrip().startswith('<div id="sheet"')
    assert "Game 2 of this match has started, so this game must keep a winner." in page
    assert "Undo the last deal" not in page
    assert world.game.deals.live().count() == 2


def test_a_correction_that_ends_the_game_early_takes_the_later_deal_out_on_a_second_save(
    organiser, world
):
    # It said "Deal 2: the game is over: … won it in deal 1.", about a deal nobody was
    # correcting, and not what to do. Then it said "Undo deal 2, then correct deal 1",
    # a dead end once the match's game 2 had started: undo is refused then.
    play(world.game, 2, 3, dealer=0)
    play(world.game, 2, 3)  # 20–30: side 2 wins in deal 2
    fixture_game(world.fixture, number=2, first_dealer=1)
    url, data = deal_1_corrected(world.game, 5, 0)
    before = list(world.game.deals.values_list("pk", "tricks", "live"))
    response = organiser.post(url, data)
    assert response.status_code == 422
    page = html.unescape(response.text)
    assert (
        "With this correction the game is over after deal 1, but deal 2 was played after "
        "it. Save again to take deal 2 out of the game with this correction: it stays in "
        "the game's record."
    ) in page
    assert "Save the correction and take out deal 2" in page
    assert list(world.game.deals.values_list("pk", "tricks", "live")) == before

    response = organiser.post(url, data | {"take_out_later": "yes"}, follow=True)
    world.game.refresh_from_db()
    assert (world.game.scores, world.game.winner) == ([25, 0], 0)
    assert list(world.game.deals.live().values_list("number", "tricks")) == [(1, "50")]
    assert world.game.deals.filter(number=2, live=False).exists()  # kept in the record
    said = html.unescape(response.text)
    assert "deal 2 taken out: played after the game was over" in said


def test_a_correction_changed_before_its_second_save_to_one_that_ends_nothing_is_saved(
    organiser, world
):
    """Found by a walk: the page offered "Save the correction and take out deal 2"; the
    tricks changed to a correction that ends nothing early, it was refused, needing a
    third save. The later deals stay, and the correction is saved as any other."""
    play(world.game, 2, 3, dealer=0)
    play(world.game, 2, 3)
    url, data = deal_1_corrected(world.game, 4, 1)
    organiser.post(url, data | {"take_out_later": "yes"})
    world.game.refresh_from_db()
    assert list(world.game.deals.live().values_list("number", "tricks")) == [(1, "41"), (2, "23")]
    assert world.game.scores == [30, 20]


def test_a_correction_a_later_deal_no_longer_fits_offers_that_deal_to_correct_with_it(
    organiser, world
):
    stopped_at_25_then_game_2(world)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "count",
        "dealer": 0,
        "tricks_0": 2,
        "tricks_1": 3,
    }
    before = list(world.game.deals.values_list("pk", "tricks", "live"))
    response = organiser.post(url, data)
    assert response.status_code == 422
    page = html.unescape(response.text)
    assert "With this correction, deal 2 no longer fits." in page
    assert "Correct deal 2 below too: the two are saved together." in page
    # Deal 2 as stored, trick by trick, its fields named apart from deal 1's.
    assert 'name="later-number" value="2"' in page
    assert re.search(r'name="later-trick_2" value="0" checked', page)
    assert not re.search(r'name="later-trick_3" value="\d" checked', page)
    assert 'name="tricks_0" inputmode="numeric" min="0" max="5" step="1" value="2"' in page
    assert list(world.game.deals.values_list("pk", "tricks", "live")) == before

    later = re.search(r'name="later-key" value="([^"]+)"', page).group(1)
    data.update({"later-number": 2, "later-key": later, "later-version": world.game.version})
    data.update({"later-mode": "order", "later-dealer": 1})
    data.update({"later-trick_1": 0, "later-trick_2": 0, "later-trick_3": 0})
    response = organiser.post(url, data)
    assert response.status_code == 302
    world.game.refresh_from_db()
    assert (world.game.scores, world.game.winner) == ([25, 15], 0)
    saved = organiser.get(response.url).text
    assert "Correction saved. Deal 1:" in html.unescape(saved)


def _deal_now_reads(page: str) -> list[str]:
    """The tricks per side the correction page says the deal now has."""
    reads = re.search(r"The deal now reads:\s*([^.]*)\.", page).group(1)
    return re.findall(r"(\d+)(?= ·|$)", reads.strip())


def test_a_refused_correction_still_says_what_the_deal_now_reads(organiser, world):
    # "The deal now reads: … 5 · … 0" with the deal stored as 2 · 3: the refused entry
    # was shown as though it were the deal.
    play(world.game, 2, 3, dealer=0)
    play(world.game, 2, 3)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    data = {
        "key": str(uuid.uuid4()),
        "version": world.game.version,
        "mode": "count",
        "dealer": 1,
        "tricks_0": 5,
        "tricks_1": 0,
        "reason": "",
    }
    response = organiser.post(url, data)
    assert response.status_code == 422
    assert _deal_now_reads(html.unescape(response.content.decode())) == ["2", "3"]


def test_a_correction_refused_as_stale_starts_again_from_the_deal_as_it_now_is(
    organiser, client, world
):
    # Two phones correct deal 1: the second is refused, and was shown its own entry as
    # the deal, ready to be saved over the first correction with one more tap.
    play(world.game, 2, 3, dealer=0)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 1])
    stale = world.game.version
    client.force_login(world.secretary)
    base = {"mode": "count", "dealer": 0, "reason": ""}
    first = {**base, "key": str(uuid.uuid4()), "version": stale, "tricks_0": 1, "tricks_1": 4}
    assert client.post(url, first).status_code == 302
    second = {**base, "key": str(uuid.uuid4()), "version": stale, "tricks_0": 4, "tricks_1": 1}
    response = organiser.post(url, second)
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert _deal_now_reads(page) == ["1", "4"]
    assert 'name="tricks_0" inputmode="numeric" min="0" max="5" step="1" value="1"' in page
    assert 'name="tricks_1" inputmode="numeric" min="0" max="5" step="1" value="4"' in page
    assert "You had entered: " in page and " 4 · " in page
    assert Deal.objects.live().get().tricks == "14"


def test_a_correction_sent_after_its_deal_was_undone_says_so_not_not_found(
    organiser, client, world
):
    # Another phone undid deal 2 while this one was correcting it: Save gave "Not
    # found", a dead end with the typed correction gone unexplained.
    from scoring.services import deal_undo

    play(world.game, 2, 3, dealer=0)
    play(world.game, 2, 3)
    url = reverse("scoring:deal-correct", args=[world.game.pk, 2])
    version = world.game.version
    deal_undo(game=world.game, version=version)
    data = {"key": str(uuid.uuid4()), "version": version, "mode": "count", "dealer": 1}
    response = organiser.post(url, {**data, "tricks_0": 4, "tricks_1": 1, "reason": ""})
    assert response.status_code == 302
    assert response["Location"] == world.game.get_absolute_url()
    said = html.unescape(organiser.get(response["Location"]).content.decode())
    assert "Deal 2 is no longer in the game: it was undone meanwhile. Nothing was saved." in said
    assert Deal.objects.live().count() == 1


def test_a_correction_starts_from_the_deal_as_entered_bonus_side_too(organiser, world):
    import rules
    from scoring.services import SideSpec, game_start

    game = game_start(
        season=None,
        pub=world.pub,
        sides=[SideSpec("Ann"), SideSpec("Bob")],
        ruleset=rules.RULESETS["forty-five"],
    )
    play(game, 3, 2, dealer=1, bonus_side=1)
    html = organiser.get(reverse("scoring:deal-correct", args=[game.pk, 1])).content.decode()
    assert 'name="bonus_side" value="1" checked' in html
    assert 'name="bonus_side" value="" checked' not in html
    assert 'name="dealer" value="1" checked' in html


def test_an_organiser_confirms_a_won_game(organiser, world):
    play(world.game, 5, 0)
    response = organiser.post(reverse("scoring:game-confirm", args=[world.game.pk]))
    assert response.status_code == 302
    confirmation = Confirmation.objects.get(game=world.game)
    assert confirmation.confirmed_by == world.organiser
    assert b"Result confirmed." in organiser.get(sheet_url(world.game)).content


def test_a_scorer_link_scores_that_game_without_an_account(client, world):
    response = client.get(reverse("scoring:link-open", args=[world.link.token]))
    assert response.status_code == 302
    assert response["Location"] == sheet_url(world.game)
    page = client.get(sheet_url(world.game))
    assert b"scoring with a scorer link" in page.content
    assert client.post(record_url(world.game), split(world.game, 3)).status_code == 302
    deal = Deal.objects.get()
    assert (deal.entered_via, deal.entered_by) == (world.link, None)
    # The other game is not this link's.
    assert client.post(record_url(world.other_game), split(world.other_game, 3)).status_code == 403
    assert Deal.objects.count() == 1


def test_a_revoked_or_confirmed_link_stops_working(client, world):
    client.get(reverse("scoring:link-open", args=[world.link.token]))
    from scoring.services import link_revoke

    link_revoke(link=world.link)
    assert client.post(record_url(world.game), split(world.game, 3)).status_code == 403
    # The sheet the player is on (it refreshes itself) says why it stopped taking deals.
    sheet = client.get(sheet_url(world.game)).text
    assert "The organiser has withdrawn your scorer link." in sheet
    response = client.get(reverse("scoring:link-open", args=[world.link.token]))
    assert response.status_code == 403
    assert b"no longer works" in response.content
    assert not Deal.objects.exists()


def test_a_link_stops_working_once_the_game_is_confirmed(client, world):
    from scoring.services import game_confirm, link_create

    table = link_create(game=world.game, user=world.organiser)
    client.get(reverse("scoring:link-open", args=[table.token]))
    play(world.game, 5, 0)
    game_confirm(game=world.game, user=world.organiser)
    response = client.post(reverse("scoring:deal-undo", args=[world.game.pk]), {"version": 99})
    assert response.status_code == 403
    sheet = client.get(sheet_url(world.game)).text
    assert "This game is confirmed, so its scorer links are closed." in sheet
    assert client.get(reverse("scoring:link-open", args=[table.token])).status_code == 403
    assert Deal.objects.live().count() == 1


def test_an_unknown_token_is_not_found(client, world):
    assert client.get(reverse("scoring:link-open", args=["nope"])).status_code == 404


def test_the_other_sides_link_confirms_the_result(client, world):
    play(world.game, 5, 0, user=world.organiser)
    client.get(reverse("scoring:link-open", args=[world.link.token]))
    page = client.get(sheet_url(world.game))
    assert b"Confirm the result" in page.content
    response = client.post(reverse("scoring:game-confirm", args=[world.game.pk]))
    assert response.status_code == 302
    assert Confirmation.objects.get().confirmed_via == world.link


def test_the_organiser_makes_a_link_and_sees_its_qr_code_without_inline_style(organiser, world):
    response = organiser.post(reverse("scoring:game-links", args=[world.game.pk]), {"side": "0"})
    link = ScorerLink.objects.filter(side=0).get()
    assert response["Location"] == reverse("scoring:link-detail", args=[world.game.pk, link.pk])
    page = organiser.get(response["Location"])
    text = page.content.decode()
    assert "<svg" in text and "style=" not in text
    assert link.token in text


def test_the_record_lists_every_entry_correction_undo_and_confirmation(client, world):
    play(world.game, 2, 3, user=world.organiser)
    play(world.game, 1, 4, link=world.link)
    client.force_login(world.organiser)
    game = world.game
    client.post(reverse("scoring:deal-undo", args=[game.pk]), {"version": game.version})
    play(game, 2, 3)
    game.refresh_from_db()
    client.post(
        reverse("scoring:deal-correct", args=[game.pk, 2]),
        {
            "key": str(uuid.uuid4()),
            "version": game.version,
            "mode": "count",
            "dealer": 1,
            "tricks_0": 0,
            "tricks_1": 5,
        },
    )
    client.post(reverse("scoring:game-confirm", args=[game.pk]))
    client.logout()
    page = client.get(reverse("scoring:game-record", args=[game.pk]))
    text = page.content.decode()
    for words in (
        "Deal entered",
        "Deal undone",
        "Deal corrected",
        "Result confirmed",
        f"by the organiser of {world.pub.name}",
        "through scorer link 1",  # the game's first
    ):
        assert words in text
    assert world.link.token not in text


def test_the_match_page_starts_the_next_game_with_the_deal_passing_left(organiser, world):
    play(world.game, 2, 3, dealer=0)
    play(world.game, 3, 2, dealer=1)  # game 1 won by side 0; side 1 dealt last
    url = reverse("scoring:fixture-play", args=[world.fixture.pk])
    page = organiser.get(url)
    text = page.content.decode()
    assert "Start game 2" in text
    assert 'value="0" checked' in text  # left of side 1 is side 0
    response = organiser.post(url, {"number": 2, "first_dealer": 0})
    game = Game.objects.get(fixture=world.fixture, number=2)
    assert response["Location"] == sheet_url(game)
    # A double tap starts one game.
    organiser.post(url, {"number": 2, "first_dealer": 0})
    assert Game.objects.filter(fixture=world.fixture).count() == 2
    page = organiser.get(sheet_url(game))
    assert f"{world.labels[0]} 1 – {world.labels[1]} 0" in page.content.decode()


def test_a_second_phone_starting_the_same_game_is_told_who_deals_first(organiser, world):
    # It landed on the game the first phone started, its own choice of dealer dropped
    # without a word; who deals first decides a 25-25 finish.
    play(world.game, 5, 0)
    url = reverse("scoring:fixture-play", args=[world.fixture.pk])
    organiser.post(url, {"number": 2, "first_dealer": 1})  # the first phone
    response = organiser.post(url, {"number": 2, "first_dealer": 0}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == [f"Game 2 was started already, on another phone: {world.labels[1]} deals first."]
    assert Game.objects.get(fixture=world.fixture, number=2).first_dealer == 1


def test_the_match_page_says_who_won_the_match_once_every_game_is_played(organiser, world):
    play(world.game, 5, 0)
    for number, tricks in ((2, (0, 5)), (3, (5, 0))):
        game = fixture_game(world.fixture, number=number)
        play(game, *tricks)
    page = organiser.get(reverse("scoring:fixture-play", args=[world.fixture.pk])).text
    assert f"{world.labels[0]} win the match 2–1. All 3 games of the match are played." in page


def test_a_match_of_one_game_is_said_to_be_played_in_plain_words(organiser, world):
    """Found by a walk: "All 1 games of the match are played"."""
    world.fixture.games_planned = 1
    world.fixture.save()
    play(world.game, 5, 0)
    for url in (
        reverse("scoring:fixture-play", args=[world.fixture.pk]),
        world.game.get_absolute_url(),
    ):
        page = html.unescape(organiser.get(url).text)
        assert "The match's one game is played." in page
        assert "All 1" not in page


def test_a_postponed_fixture_offers_no_start_and_refuses_one_in_plain_words(organiser, world):
    fixture = FixtureFactory(
        season=world.season, pub=world.pub, date=timezone.localdate(), status="postponed"
    )
    url = reverse("scoring:fixture-play", args=[fixture.pk])
    edit = reverse("league:fixture-reschedule", args=[world.league.slug, fixture.pk])
    page = organiser.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert "This fixture is postponed: set a new date first." in text
    assert edit in text
    assert "Start game" not in text
    response = organiser.post(url, {"number": 1, "first_dealer": 0})
    assert response.status_code == 422
    assert "scoring/fixture_play.html" in [t.name for t in response.templates]
    assert "This fixture is postponed: set a new date first." in response.content.decode()
    fixture.refresh_from_db()
    assert not Game.objects.filter(fixture=fixture).exists()
    assert (fixture.status, fixture.games_started) == ("postponed", 0)
    # A reader sees why, without the way to change it.
    organiser.logout()
    text = organiser.get(url).content.decode()
    assert "This fixture is postponed" in text
    assert edit not in text


def test_a_fixture_of_a_later_day_starts_only_when_the_organiser_ticks_that_they_mean_it(
    organiser, world
):
    day = timezone.localdate() + datetime.timedelta(days=7)
    fixture = FixtureFactory(season=world.season, pub=world.pub, date=day, games_planned=3)
    url = reverse("scoring:fixture-play", args=[fixture.pk])
    text = organiser.get(url).content.decode()
    assert f"This fixture is on {dateformat.format(day, 'l j F')}" in text
    assert "not today" in text
    assert "Start game 1 anyway" in text
    assert f'name="not_today" value="{day.isoformat()}"' in text
    # One tap on Start, without the tick (or with the tick for a date it no longer has),
    # starts nothing.
    for tick in ({}, {"not_today": (day - datetime.timedelta(days=7)).isoformat()}):
        response = organiser.post(url, {"number": 1, "first_dealer": 0, **tick})
        assert response.status_code == 422
        assert "not today" in response.content.decode()
        assert not Game.objects.filter(fixture=fixture).exists()
    response = organiser.post(url, {"number": 1, "first_dealer": 0, "not_today": day.isoformat()})
    game = Game.objects.get(fixture=fixture, number=1)
    assert response["Location"] == sheet_url(game)
    # Once its match is started, its next game starts as any other.
    play(game, 5, 0)
    text = organiser.get(url).content.decode()
    assert "Start game 2" in text
    assert "anyway" not in text
    response = organiser.post(url, {"number": 2, "first_dealer": 1})
    assert response["Location"] == sheet_url(Game.objects.get(fixture=fixture, number=2))


def test_a_fixture_of_today_or_a_past_day_starts_with_one_tap(organiser, world):
    today = timezone.localdate()
    for day in (today, today - datetime.timedelta(days=14)):
        fixture = FixtureFactory(season=world.season, pub=world.pub, date=day)
        url = reverse("scoring:fixture-play", args=[fixture.pk])
        text = organiser.get(url).content.decode()
        assert "Start game 1</button>" in text
        assert "not today" not in text
        response = organiser.post(url, {"number": 1, "first_dealer": 0})
        assert response["Location"] == sheet_url(Game.objects.get(fixture=fixture))
    assert Fixture.objects.filter(pub=world.pub, games_started=1).count() == 3


def test_the_sheet_offers_the_next_game_once_this_one_is_won(organiser, world):
    play(world.game, 5, 0)
    text = organiser.get(sheet_url(world.game)).content.decode()
    assert "Next game: game 2" in text
    assert "Save deal" not in text


@pytest.mark.parametrize("confirmed_only", [True, False])
def test_where_only_confirmed_games_count_confirm_comes_before_the_next_game(
    organiser, world, confirmed_only
):
    """Found by a walk: "Next game" came first and Confirm under it, with "Not confirmed
    yet." and no more. An organiser could play the whole match on and go home with none
    of its games in the table of a season that counts only confirmed games."""
    world.season.confirmed_only = confirmed_only
    world.season.save()
    play(world.game, 5, 0)

    text = organiser.get(sheet_url(world.game)).content.decode()

    counts_once = "Not confirmed yet: this season's table counts it once it is confirmed."
    confirm_first = text.index("Confirm the result") < text.index("Next game: game 2")
    assert (counts_once in text, confirm_first) == (confirmed_only, confirmed_only)


def test_the_match_page_marks_the_games_not_confirmed_where_only_confirmed_ones_count(
    organiser, world
):
    world.season.confirmed_only = True
    world.season.save()
    play(world.game, 5, 0)
    url = reverse("scoring:fixture-play", args=[world.game.fixture_id])
    assert "Not confirmed yet" in organiser.get(url).content.decode()

    services.game_confirm(game=Game.objects.get(pk=world.game.pk))

    assert "Not confirmed yet" not in organiser.get(url).content.decode()


def test_a_friendly_between_players_starts_at_the_pub(organiser, world):
    url = reverse("scoring:friendly-start", args=[world.pub.pk])
    assert organiser.get(url).status_code == 200
    response = organiser.post(
        url, {"ruleset": "spoil-five", "sides": "Ann\nBob\nCáit", "first_dealer": 2}
    )
    game = Game.objects.get(season=None, pub=world.pub)
    assert response["Location"] == sheet_url(game)
    assert (game.sides, game.first_dealer, game.ruleset_key) == (3, 1, "spoil-five")


def test_a_friendly_started_again_by_back_or_a_double_tap_is_the_one_game(organiser, world):
    """Found by a walk: Back to the filled-in form and Start again began a second game of
    the same sides, and an unfinished friendly could not be found again from anywhere."""
    url = reverse("scoring:friendly-start", args=[world.pub.pk])
    data = {"ruleset": "twenty-five", "sides": "Ann\nBob", "first_dealer": 1}
    first = organiser.post(url, data)
    again = organiser.post(url, data, follow=True)
    game = Game.objects.get(season=None, pub=world.pub)
    assert again.redirect_chain[-1][0] == first["Location"] == sheet_url(game)
    assert "Ann v Bob was started a moment ago: this is that game." in again.text
    # The friendlies in play at the pub are listed where one is started.
    page = organiser.get(url).text
    assert "In play here now" in page and f'href="{sheet_url(game)}"' in page
    # Once a deal is in, the same names start a new game: a friendly of its own.
    play(game, 3, 2)
    organiser.post(url, data)
    assert Game.objects.filter(season=None, pub=world.pub).count() == 2


def test_a_friendly_with_too_few_sides_is_refused_in_plain_words(organiser, world):
    url = reverse("scoring:friendly-start", args=[world.pub.pk])
    count = Game.objects.count()
    response = organiser.post(url, {"ruleset": "twenty-five", "sides": "Ann", "first_dealer": 1})
    assert response.status_code == 422
    assert b"played by 2 to 9 sides" in response.content
    assert Game.objects.count() == count


def test_wrong_ids_are_not_found(organiser, world):
    assert organiser.get(reverse("scoring:game-sheet", args=[99999])).status_code == 404
    assert (
        organiser.get(reverse("scoring:deal-correct", args=[world.game.pk, 7])).status_code == 404
    )
    assert organiser.get(reverse("scoring:fixture-play", args=[99999])).status_code == 404
    other_link = world.other_link.pk
    assert (
        organiser.get(reverse("scoring:link-detail", args=[world.game.pk, other_link])).status_code
        == 404
    )


def test_no_get_changes_anything(organiser, world):
    assert organiser.get(record_url(world.game)).status_code == 405
    assert organiser.get(reverse("scoring:deal-undo", args=[world.game.pk])).status_code == 405
    assert organiser.get(reverse("scoring:game-confirm", args=[world.game.pk])).status_code == 405


def test_a_garbled_form_gets_plain_words_not_a_server_error(organiser, world):
    data = {"key": "zz", "version": "x", "mode": "foo", "dealer": "a", "first": "b"}
    response = organiser.post(record_url(world.game), data)
    assert response.status_code == 422
    text = response.content.decode()
    assert text.count("This form is out of date") == 1
    assert "Choose who dealt." in text
    assert not Deal.objects.exists()


def forty_five_friendly(world):
    import rules
    from scoring.services import SideSpec, game_start

    return game_start(
        season=None,
        pub=world.pub,
        sides=[SideSpec("Ann"), SideSpec("Bob")],
        ruleset=rules.RULESETS["forty-five"],
    )


def test_forty_five_takes_a_bonus_side_and_refuses_one_that_won_no_trick(client, world):
    game = forty_five_friendly(world)
    client.force_login(world.organiser)
    assert b"Highest trump won by" in client.get(sheet_url(game)).content
    assert b"Highest trump won by" not in client.get(sheet_url(world.game)).content
    response = client.post(record_url(game), split(game, 5, bonus_side=1))
    assert response.status_code == 422
    assert "Bob took no trick, so it cannot have won the highest trump" in response.content.decode()
    assert client.post(record_url(game), split(game, 3, bonus_side=1)).status_code == 302
    game.refresh_from_db()
    assert game.scores == [15, 15]


def test_the_sheet_asks_who_won_the_highest_trump_and_saves_no_deal_unanswered(client, world):
    """Forty-Five's bonus was preset to "No trump played": a deal saved without looking
    lost its 5 points without a word. The sheet now asks, and a played-out deal whose
    question was left unanswered is refused; a short deal carries no bonus to ask."""
    game = forty_five_friendly(world)
    client.force_login(world.organiser)
    page = client.get(sheet_url(game)).content.decode()
    assert page.count('name="bonus_side"') == 2 * 3  # split and trick by trick: none, Ann, Bob
    assert not re.search(r'name="bonus_side"[^>]*checked', page)

    asked = {"bonus_asked": "1"}
    response = client.post(record_url(game), split(game, 3, **asked))
    assert response.status_code == 422
    assert "Tap who won the highest trump, or “No trump played”." in response.content.decode()
    assert not Deal.objects.filter(game=game).exists()

    assert client.post(record_url(game), split(game, 3, bonus_side="", **asked)).status_code == 302
    assert client.post(record_url(game), split(game, 4, bonus_side=0, **asked)).status_code == 302
    game.refresh_from_db()
    assert game.scores == [40, 15]
    # A side reaches 45 on the first trick: play stops, no bonus is asked, and one
    # tapped before play stopped is not given.
    short = {"key": str(uuid.uuid4()), "version": game.version, "mode": "order", "dealer": 0}
    response = client.post(record_url(game), {**short, "trick_1": 0, "bonus_side": 0, **asked})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.scores, game.winner) == ([45, 15], 0)
    assert [d.bonus_side for d in game.deals.order_by("number")] == [None, 0, None]
    # The sheet's list of deals says who won the highest trump, where a side did.
    rows = re.findall(r'<li class="deal-row">.*?</li>', client.get(sheet_url(game)).text, re.S)
    assert ["highest trump: Ann" in row for row in rows] == [False, True, False]


def test_a_short_deals_correction_ticks_no_answer_to_the_highest_trump(client, world):
    """Found by a walk: a deal stopped at 45 on trick 1, never asked about the highest
    trump, opened for correction with "No trump played" ticked."""
    game = forty_five_friendly(world)
    client.force_login(world.organiser)
    play(game, 4, 1)  # 20–5, played out: "No trump played" was the answer
    play(game, 4, 1)  # 40–10
    play(game, 1, 0, trick_winners=[0])  # 45 on trick 1: play stops, nothing asked
    assert game.winner == 0
    checked = r'name="bonus_side" value="[^"]*" checked'
    played_out = client.get(reverse("scoring:deal-correct", args=[game.pk, 1])).text
    assert re.findall(checked, played_out) == ['name="bonus_side" value="" checked']
    stopped = client.get(reverse("scoring:deal-correct", args=[game.pk, 3])).text
    assert 'name="bonus_side"' in stopped and not re.search(checked, stopped)


def test_an_ended_login_gets_a_box_with_htmx_and_returns_to_the_sheet(client, world):
    """Never a login page nested in the sheet, never a login that ends on a POST-only URL."""
    data = split(world.game, 3)
    response = client.post(record_url(world.game), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#box-split"
    text = response.content.decode()
    assert "Your login has ended" in text and "Nothing was saved." in text
    assert f"/login/?next={sheet_url(world.game).replace('/', '%2F')}" in text
    assert "<form" not in text
    response = client.post(record_url(world.game), data)
    assert response.status_code == 302
    assert response["Location"].endswith(f"?next={sheet_url(world.game)}")
    assert "Your login has ended" in client.get(response["Location"]).content.decode()
    assert not Deal.objects.exists()


def test_a_rule_refused_with_htmx_comes_back_as_a_box_beside_the_form(organiser, world):
    data = {**split(world.game, 0), "mode": "order", "trick_1": 0, "trick_3": 1}
    response = organiser.post(record_url(world.game), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#box-order"
    assert response["HX-Reswap"] == "innerHTML"
    assert b"Trick 2 has no winner" in response.content
    assert not Deal.objects.exists()


POLL = 'hx-trigger="every 20s"'


def test_the_match_page_follows_the_match_for_a_reader(client, organiser, world):
    # Opened by a player as "the match", it said "0 – 0, game 1 in play" long after game
    # 1 was won and game 2 begun: it never refreshed itself.
    url = reverse("scoring:fixture-play", args=[world.fixture.pk])
    reader = Client()
    assert POLL in reader.get(url).text  # game 1 in play
    play(world.game, 5, 0)  # won: between games, the next not started
    page = reader.get(url).text
    assert POLL in page and "Game 2 of 3 is next." in page
    # The organiser's own page has the form to start the next game: it is left alone.
    assert POLL not in organiser.get(url).text
    for number in (2, 3):
        play(fixture_game(world.fixture, number=number, first_dealer=0), 5, 0)
    assert POLL not in reader.get(url).text  # the match is over


def test_the_fixture_page_follows_the_match_between_games_too(client, world):
    url = world.fixture.get_absolute_url()
    play(world.game, 5, 0)  # game 1 won, game 2 not yet started
    assert POLL in Client().get(url).text


def test_a_refusal_in_its_box_clears_the_line_about_the_last_save(organiser, world):
    """After "Deal 1 saved: …" a refused deal came back as its box alone, and the sheet
    said "Deal 1 saved" above and "Nothing was saved" below at once."""
    play(world.game, 3, 2)
    data = {**split(world.game, 2), "mode": "split", "first": 9}
    response = organiser.post(record_url(world.game), data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#box-split"
    html = response.content.decode()
    assert "Nothing was saved." in html
    assert '<div id="sheet-said" data-hx-swap-oob="innerHTML"></div>' in html


def test_the_trick_by_trick_hint_says_the_deal_saves_itself_where_play_stops(organiser, world):
    """Found by a newcomer's walk: it said "save after that trick", and the tap that took
    a side to 25 saved the deal, ended the game and decided the match by itself."""
    page = organiser.get(sheet_url(world.game)).text
    assert (
        "Tap who won each trick. The deal saves itself after trick 5, or at the trick that "
        "takes a side to 25, as play stops there." in page
    )
