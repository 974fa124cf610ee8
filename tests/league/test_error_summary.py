"""A form sent back with mistakes says so at its top, before the first field: "Nothing
was saved", and each mistake as a link to its field. On a long form such as a season's,
a mistake in the last fieldset was a red line a phone's screen or more below the Save
button the secretary had just tapped, under a page that looked as it did before."""

import re

import pytest
from django.urls import reverse

from league.models import Season

pytestmark = pytest.mark.django_db

SEASON = {
    "name": "Spring",
    "start_date": "2027-03-01",
    "status": "planning",
    "ruleset_key": "twenty-five",
    "march_bonus": 0,
    "points_win": 2,
    "points_loss": 0,
    "points_shutout": 1,
    "tiebreaks": "points",
    "min_games": 5,
}


def summary(response) -> str:
    match = re.search(r'<div class="error-box" id="error-summary".*?</div>', response.text, re.S)
    assert match, "no error summary"
    return match.group(0)


def test_a_long_form_lists_its_mistakes_at_the_top_with_links_to_the_fields(client, world):
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {**SEASON, "points_loss": 2, "min_games": -1},
    )
    box = summary(response)
    assert "Nothing was saved" in box
    links = dict(re.findall(r'<a href="#([\w-]+)">(.*?)</a>', box))
    assert set(links) == {"id_points_loss", "id_min_games"}
    assert "League points for a loss: A win must be worth more" in links["id_points_loss"]
    # The summary comes before the form's first field, and each link leads to a field.
    assert response.text.index('id="error-summary"') < response.text.index('id="id_name"')
    for field_id in links:
        assert f'id="{field_id}"' in response.text
    assert not Season.objects.filter(name="Spring").exists()


def test_a_form_without_mistakes_has_no_summary(client, world):
    client.force_login(world.secretary)
    response = client.get(reverse("league:manage-season-create", args=["clare"]))
    assert 'id="error-summary"' not in response.text


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("league:manage-team-create", ["clare", "winter"], {"name": ""}),
        ("league:manage-fixture-create", ["clare", "winter"], {"date": "1999-01-01"}),
        ("league:manage-invites", ["clare"], {"email": "not an address"}),
        ("league:manage-fixtures-generate", ["clare", "winter"], {"start": "bad"}),
        # Drawn with `{{ form.as_div }}` and no tag of their own: the form's layout has it.
        ("league:manage-pub-create", ["clare"], {"name": ""}),
        ("league:manage-divisions", ["clare", "winter"], {"name": ""}),
    ],
)
def test_every_set_up_form_has_the_summary(client, world, name, args, data):
    client.force_login(world.secretary)
    response = client.post(reverse(name, args=args), data)
    assert response.status_code in (200, 422)
    assert "Nothing was saved" in summary(response)


def test_a_refusal_that_is_no_one_fields_is_in_the_summary_once(client, world):
    """A team against itself is the form's own mistake, not one field's: it was a red line
    in the form with no "Nothing was saved" above it."""
    from tests.factories import TeamFactory

    team = TeamFactory(season=world.season, pub=world.pub)
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-fixture-create", args=["clare", "winter"]),
        {"date": "2026-10-01", "pub": world.pub.pk, "home": team.pk, "away": team.pk},
    )
    box = summary(response)
    assert "A team cannot play against itself." in box
    assert "Games planned: This field is required." in box
    assert response.text.count("A team cannot play against itself.") == 1
