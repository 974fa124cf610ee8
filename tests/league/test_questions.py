"""Ask-first actions (league.asking): the first tap's POST is sent on to the question
as a GET page, and Back to the question after "Yes" says what is done instead of the
browser's "Confirm Form Resubmission" (or, for a division, a bare "Not found")."""

import pytest
from django.urls import reverse

from league.models import Fixture
from tests.factories import TeamFactory
from tests.league.conftest import snapshot
from tests.questions import ask

pytestmark = pytest.mark.django_db


def test_the_first_tap_is_sent_on_to_the_question_without_its_csrf_token(
    client, world, fixture_at_pub
):
    client.force_login(world.organiser)
    url = reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk])
    before = snapshot()
    response = client.post(url, {"next": "/clare/", "csrfmiddlewaretoken": "t0ken"})
    assert response.status_code == 303
    assert response["Location"] == f"{url}?next=%2Fclare%2F"
    assert client.get(response["Location"]).status_code == 200
    assert client.put(url).status_code == 405
    assert snapshot() == before


def test_back_to_a_postponement_after_yes_says_it_is_postponed_already(
    client, world, fixture_at_pub
):
    client.force_login(world.organiser)
    url = reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk])
    question = ask(client, url, {"next": "/clare/"})
    client.post(url, {"next": "/clare/", "confirm": "yes"})
    back = client.get(question.wsgi_request.get_full_path(), follow=True)
    assert back.redirect_chain[-1][0] == "/clare/"
    said = [str(m) for m in back.context["messages"]]
    assert said[-1] == f"{fixture_at_pub} is postponed already: give it a new date on its page."
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == Fixture.Status.POSTPONED


def test_back_to_a_division_s_removal_after_yes_says_it_is_removed_not_404(client, world):
    division = world.season.divisions.create(name="North")
    TeamFactory(season=world.season, pub=world.pub, division=division)
    client.force_login(world.secretary)
    url = reverse("league:manage-division-delete", args=["clare", "winter", division.pk])
    assert "Remove the division North?" in ask(client, url).text
    client.post(url, {"confirm": "yes"})
    back = client.get(url, follow=True)
    assert back.redirect_chain[-1][0] == reverse(
        "league:manage-divisions", args=["clare", "winter"]
    )
    said = [str(m) for m in back.context["messages"]]
    assert "Already removed: that division is no longer in the season." in said
