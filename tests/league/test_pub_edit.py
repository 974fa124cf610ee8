"""A pub's name and town are put right by a secretary (there was no way to, short of
the Django admin, which secretaries have no access to). Its address stays, so the TV
screen on its wall and links already shared keep working."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from league.models import Pub
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db


def edit_url(pub):
    return reverse("league:manage-pub-edit", args=["clare", pub.slug])


def test_a_secretary_renames_a_pub_and_its_address_stays(client, world):
    client.force_login(world.secretary)
    page = client.get(reverse("league:manage", args=["clare"])).content.decode()
    assert f'href="{edit_url(world.pub)}"' in page
    form = client.get(edit_url(world.pub)).content.decode()
    assert 'value="The Harbour Bar"' in form
    response = client.post(edit_url(world.pub), {"name": "  The Harbour  Inn ", "town": "Kilkee"})
    assert response.status_code == 302
    pub = Pub.objects.get(pk=world.pub.pk)
    assert (pub.name, pub.town, pub.slug) == ("The Harbour Inn", "Kilkee", "harbour")
    public = client.get(reverse("league:pub", args=["clare", "harbour"])).content.decode()
    assert "The Harbour Inn" in public and "The Harbour Bar" not in public


def test_a_name_another_pub_has_in_any_case_is_refused_and_nothing_changes(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(edit_url(world.pub), {"name": "nora cronin's", "town": ""})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was saved" in page
    assert "This league already has a pub called “Nora Cronin&#x27;s”." in page  # as it is
    assert snapshot() == before


@pytest.mark.parametrize("name", ["Nóra Cronin's", "Nora Cronin’s", "Nora Cronins"])
def test_a_name_another_pub_has_but_for_accents_or_apostrophes_is_refused(client, world, name):
    # Three pubs that looked alike in every menu; an import row of the name then matched
    # none of them ("add it first"). Told apart by the town, they may both be kept.
    client.force_login(world.secretary)
    before = snapshot()
    told = f"“{escape(name)} (Ennis)”"  # the town typed, else an example
    for url, data, example in (
        (edit_url(world.pub), {"name": name, "town": ""}, f"such as {told}"),
        (
            reverse("league:manage-pub-create", args=["clare"]),
            {"name": name, "town": "Ennis"},
            told,
        ),
    ):
        page = client.post(url, data).content.decode()
        assert "Nothing was saved" in page
        assert "looks like Nora Cronin&#x27;s, a pub of the league already" in page
        assert f"add the town to its name to tell the two apart, {example}." in page
        assert snapshot() == before
    response = client.post(edit_url(world.pub), {"name": f"{name} (Kilkee)", "town": ""})
    assert response.status_code == 302


def test_its_own_name_in_other_capitals_is_kept(client, world):
    client.force_login(world.secretary)
    client.post(edit_url(world.pub), {"name": "THE HARBOUR BAR", "town": ""})
    assert Pub.objects.get(pk=world.pub.pk).name == "THE HARBOUR BAR"


def test_only_the_leagues_secretary_may_edit_a_pub(client, world):
    before = snapshot()
    for user in (world.organiser, world.other_secretary):
        client.force_login(user)
        assert client.post(edit_url(world.pub), {"name": "Taken Over"}).status_code == 403
    assert snapshot() == before
