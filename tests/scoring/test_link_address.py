"""A scorer link's address is read off a page and typed into a phone when a camera will
not scan the code: short, in small letters and digits none of which looks like another
(no 0 and o, no 1, l and i), and still a secret no one can guess."""

import math
import string

import pytest
from django.urls import reverse

from scoring.models import ScorerLink, new_token
from scoring.services import link_create

pytestmark = pytest.mark.django_db

LOOK_ALIKE = set("0o1li")


def test_a_new_links_address_is_short_and_has_no_look_alike_characters():
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    used = set("".join(tokens))
    assert used <= set(string.ascii_lowercase + string.digits) - LOOK_ALIKE
    assert len(used) == 31  # every one of the others is used
    assert {len(token) for token in tokens} == {20}
    assert 20 * math.log2(len(used)) > 96  # bits: beyond guessing


def test_the_link_page_shows_the_address_to_type(client, world):
    client.force_login(world.organiser)
    link = link_create(game=world.game, side=0, user=world.organiser)
    page = client.get(reverse("scoring:link-detail", args=[world.game.pk, link.pk]))
    assert f"/games/s/{link.token}/" in page.content.decode()
    assert not LOOK_ALIKE & set(link.token)


def test_an_address_typed_in_capitals_still_opens_the_sheet(client, world):
    link = link_create(game=world.game, side=0, user=world.organiser)
    response = client.get(reverse("scoring:link-open", args=[link.token.upper()]))
    assert response.status_code == 302
    assert response["Location"] == world.game.get_absolute_url()
    sheet = client.get(response["Location"]).content.decode()
    assert "You are scoring with a scorer link" in sheet


def test_a_link_made_before_keeps_its_address(client, world):
    old = ScorerLink.objects.create(game=world.game, token="Ab3_-xYz" * 4, side=1)
    response = client.get(reverse("scoring:link-open", args=[old.token]))
    assert response.status_code == 302
    assert client.get(reverse("scoring:link-open", args=[old.token.lower()])).status_code == 404
