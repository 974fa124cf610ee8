"""A scorer link closed while its phone holds the sheet: the tap that finds it out says
why, keeps the taps to tell the organiser, and takes away every button that can no longer
do anything (found by a walk: Save, Undo and Correct stayed, each refused in turn)."""

import uuid

import pytest

from scoring import services
from tests.e2e.test_sheet import night, player_with_link, refused_save, tap  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

GONE = ["button.save", "form.undo", "a.deal-correct", "form.confirm"]


def test_a_withdrawn_links_phone_keeps_its_taps_and_loses_its_buttons(
    night,  # noqa: F811
    live_server,
    new_page,
    assert_accessible,
):
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    services.deal_record(game=game, dealer=0, tricks=[3, 2], key=uuid.uuid4(), version=1)
    player, link = player_with_link(new_page, live_server, game)
    for selector in ("button.save", "form.undo", "a.deal-correct"):
        assert player.locator(selector).count() >= 1, selector
    tap(player, "2")
    services.link_revoke(link=link)
    box = refused_save(player)
    assert "withdrawn your scorer link" in box.inner_text()
    assert player.locator("input[name='first'][value='2']").is_checked()
    for selector in GONE:
        assert player.locator(selector).count() == 0, selector
    assert player.get_by_text("You are scoring with a scorer link").count() == 0
    player.get_by_role("link", name="See the game as it stands now").click()
    player.wait_for_load_state()
    assert player.locator("#sheet").is_visible()
    for selector in GONE:
        assert player.locator(selector).count() == 0, selector
    assert_accessible(player)


def test_a_game_confirmed_meanwhile_takes_the_buttons_away_too(
    night,  # noqa: F811
    live_server,
    new_page,
):
    game = services.game_next(fixture=night, number=1, first_dealer=0)
    player, _ = player_with_link(new_page, live_server, game, side=1)
    tap(player, "2")
    services.deal_record(game=game, dealer=0, tricks=[5, 0], key=uuid.uuid4(), version=1)
    services.game_confirm(game=game)
    box = refused_save(player)
    assert "This game is confirmed" in box.inner_text()
    for selector in GONE:
        assert player.locator(selector).count() == 0, selector
