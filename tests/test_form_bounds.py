"""Every number a form reads has limits inside the range of the column it ends up in,
on SQLite and PostgreSQL alike: a value too big is a message on the form, never a
database error after the move to PostgreSQL."""

import inspect
from types import SimpleNamespace

import pytest
from django import forms
from django.urls import reverse

import league.forms
import scoring.forms
from league.models import Season
from tests.factories import LeagueFactory, UserFactory

SMALLINT = (-32768, 32767)  # smallint on PostgreSQL: the narrowest column a number meets
INTEGER = (0, 2**31 - 1)  # PositiveIntegerField: only a game's version
WIDER = {"version": INTEGER}


def _forms():
    for module in (league.forms, scoring.forms):
        for name, form in inspect.getmembers(module, inspect.isclass):
            if issubclass(form, forms.Form) and form.__module__ == module.__name__:
                yield name, form


def _fields(form):
    if issubclass(form, scoring.forms.DealForm):
        return form({}, game=SimpleNamespace(sides=3)).fields
    return form.base_fields


def _integer_fields():
    for name, form in _forms():
        for field_name, field in _fields(form).items():
            if isinstance(field, forms.IntegerField):
                yield f"{name}.{field_name}", field_name, field


INTEGER_FIELDS = list(_integer_fields())


@pytest.mark.parametrize(
    ("label", "name", "field"), INTEGER_FIELDS, ids=[f[0] for f in INTEGER_FIELDS]
)
def test_every_integer_field_has_limits_inside_its_column(label, name, field):
    low, high = WIDER.get(name, SMALLINT)
    assert field.min_value is not None and field.max_value is not None, label
    assert low <= field.min_value <= field.max_value <= high, label


@pytest.mark.django_db
def test_league_points_too_big_for_the_column_are_refused_on_the_form(client):
    league = LeagueFactory(slug="clare")
    secretary = UserFactory()
    league.secretaries.add(secretary)
    client.force_login(secretary)
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {
            "name": "Spring",
            "start_date": "2027-03-01",
            "status": "planning",
            "ruleset_key": "twenty-five",
            "march_bonus": 0,
            "points_win": 40000,
            "points_loss": 0,
            "points_shutout": 1,
            "tiebreaks": "points",
            "min_games": 5,
        },
    )
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 100." in response.content.decode()
    assert not Season.objects.exists()


def _date_fields():
    for name, form in _forms():
        for field_name, field in _fields(form).items():
            if isinstance(field, forms.DateField):
                yield f"{name}.{field_name}", field


DATE_FIELDS = list(_date_fields())
OUT_OF_RANGE = "Give a date between 1 January 2000 and 31 December 2100."


@pytest.mark.parametrize(("label", "field"), DATE_FIELDS, ids=[f[0] for f in DATE_FIELDS])
@pytest.mark.parametrize(
    "date", ["1800-01-01", "1900-01-01", "1999-12-31", "2101-01-01", "9999-12-31"]
)
def test_every_date_field_refuses_a_date_outside_2000_to_2100(label, field, date):
    with pytest.raises(forms.ValidationError) as refused:
        field.clean(date)
    assert refused.value.messages == [OUT_OF_RANGE], label


@pytest.mark.parametrize(("label", "field"), DATE_FIELDS, ids=[f[0] for f in DATE_FIELDS])
@pytest.mark.parametrize("date", ["2000-01-01", "2027-03-01", "2100-12-31"])
def test_every_date_field_takes_a_date_from_2000_to_2100(label, field, date):
    assert field.clean(date).isoformat() == date, label
