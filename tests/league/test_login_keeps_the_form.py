"""A set-up form sent after the login ended (it lasted two weeks, or someone logged out in
another tab) saves nothing and asks to log in; after logging in, the form is back as it
was sent, to check and save. Found by a walk: the secretary came back to an empty form
and had to type everything again."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Pub, Season
from tests.league.test_two_tabs import Tab, saved_text

pytestmark = pytest.mark.django_db

KEPT = (
    "Your login had ended, so nothing was saved. What you sent is back below: "
    "check it and save it again."
)


def log_in_again(client, user, next_url):
    """The login page's form, as the person fills it in: back to `next_url`."""
    client.force_login(user)
    return client.get(next_url)


def test_a_season_form_sent_after_the_login_ended_is_back_after_logging_in(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-season-edit", args=["clare", world.season.slug])
    tab = Tab(client, url)
    client.logout()  # in another tab
    response = tab.save(name="Winter League", points_win="3")
    assert response.redirect_chain[-1][0] == f"{reverse('login')}?next={url}"
    assert saved_text(response) == (
        "Your login has ended, so nothing was saved: log in, and what you sent comes back, "
        "to check and save."
    )
    assert Season.objects.get(pk=world.season.pk).name == "Winter"

    page = log_in_again(client, world.secretary, url)
    assert KEPT in [str(m) for m in page.context["messages"]]
    again = Tab(client, url, page)  # the values sent are in the page's form
    assert (again.values["name"], again.values["points_win"]) == ("Winter League", "3")
    assert Season.objects.get(pk=world.season.pk).name == "Winter"  # not saved yet
    # Kept for that one visit: the form is as it is saved after it.
    response = client.post(url, again.values, follow=True)
    season = Season.objects.get(pk=world.season.pk)
    assert (season.name, season.points_win) == ("Winter League", 3)
    assert Tab(client, url).values["name"] == "Winter League"
    assert "Winter League saved." in saved_text(response)


def test_a_new_pub_sent_after_the_login_ended_is_back_with_its_mistakes(client, world):
    url = reverse("league:manage-pub-create", args=["clare"])
    client.force_login(world.secretary)
    tab = Tab(client, url)
    client.logout()
    tab.save(name="", town="Sixmilebridge")  # the name forgotten
    page = log_in_again(client, world.secretary, url)
    assert Tab(client, url, page).values["town"] == "Sixmilebridge"
    assert page.context["form"].errors["name"]  # its mistake, said as it would have been
    assert not Pub.objects.filter(town="Sixmilebridge").exists()


def test_what_was_sent_comes_back_only_on_its_own_page_straight_after_logging_in(client, world):
    url = reverse("league:manage-pub-create", args=["clare"])
    client.force_login(world.secretary)
    tab = Tab(client, url)
    client.logout()
    tab.save(name="The Thatch", town="Sixmilebridge")
    other = reverse("league:manage-season-create", args=["clare"])
    assert not log_in_again(client, world.secretary, other).context["form"].is_bound
    assert not client.get(url).context["form"].is_bound  # not days later, out of the blue


def test_a_form_that_fails_the_csrf_check_is_not_kept(world):
    """Sent from another site, not this one's page: nothing of it is kept to be put in
    front of the secretary after they log in."""
    url = reverse("league:manage-pub-create", args=["clare"])
    forged = Client(enforce_csrf_checks=True)
    assert forged.post(url, {"name": "Forged Arms", "town": "X"}).status_code == 403
    page = log_in_again(forged, world.secretary, url)
    assert not page.context["form"].is_bound
    assert "Forged Arms" not in page.text
