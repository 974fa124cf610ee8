"""A postponed fixture gets its new date in one step: "Set a new date" asks for the date
only and puts the fixture back on the schedule. Before, it led to the whole edit form,
where the new date alone left the fixture postponed (and unplayable) until its status
was changed too, in a second field the organiser had to know about."""

import datetime

import pytest
from django.urls import reverse

from league import services
from league.models import Fixture
from tests.league.conftest import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def postponed(fixture_at_pub):
    services.fixture_postpone(fixture=fixture_at_pub)
    return Fixture.objects.get(pk=fixture_at_pub.pk)


def _reschedule(client, fixture, date):
    target = reverse("league:fixture-reschedule", args=["clare", fixture.pk])
    return client.post(target, {"date": date})


def test_the_new_date_puts_a_postponed_fixture_back_on_the_schedule(client, world, postponed):
    client.force_login(world.organiser)
    page = client.get(reverse("league:fixture-reschedule", args=["clare", postponed.pk]))
    assert page.status_code == 200
    assert list(page.context["form"].fields) == ["date"]
    response = _reschedule(client, postponed, "2026-12-10")
    assert response.status_code == 302
    assert response.url == postponed.get_absolute_url()
    fixture = Fixture.objects.get(pk=postponed.pk)
    assert (fixture.date, fixture.status) == (datetime.date(2026, 12, 10), "scheduled")
    shown = client.get(response.url)
    assert "is now on Thursday 10 December 2026" in shown.text


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("", "This field is required."),
        ("soon", "Enter a valid date."),
        ("2026-09-06", "Winter starts on 7 September 2026: give a date from then on."),
    ],
)
def test_a_bad_date_is_refused_and_changes_nothing(client, world, postponed, date, message):
    client.force_login(world.organiser)
    before = snapshot()
    response = _reschedule(client, postponed, date)
    assert response.status_code == 200
    assert list(response.context["form"].errors["date"]) == [message]
    assert snapshot() == before


def test_an_organiser_of_another_pub_cannot_reschedule_it(client, world, postponed):
    client.force_login(world.other_organiser)
    before = snapshot()
    assert _reschedule(client, postponed, "2026-12-10").status_code == 403
    assert snapshot() == before


def test_a_fixture_that_is_not_postponed_is_moved_on_its_edit_page(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    before = snapshot()
    response = _reschedule(client, fixture_at_pub, "2026-12-10")
    assert response.status_code == 302
    assert response.url == reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk])
    assert snapshot() == before


def test_set_a_new_date_leads_to_the_one_step_page(client, world, postponed):
    client.force_login(world.organiser)
    target = reverse("league:fixture-reschedule", args=["clare", postponed.pk])
    for page in (
        postponed.get_absolute_url(),
        reverse("scoring:fixture-play", args=[postponed.pk]),
    ):
        assert f'href="{target}">Set a new date' in client.get(page).text, page
