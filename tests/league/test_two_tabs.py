"""Two people (or two tabs) with the same record's form open: the second save keeps
what the first changed, and where both changed the same thing it says so and saves
nothing. Each tab sends exactly what a browser would send for the page it was given."""

import datetime
import threading

import lxml.html
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Fixture, Pub, Season, Team
from tests.factories import PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


class Tab:
    """A page's form opened in a browser tab: the values it holds can be changed, and
    `save` sends them, hidden ones included, as the browser would."""

    def __init__(self, client, url, response=None):
        """The form of the page at `url`, opened now, or as `response` gave it."""
        self.client, self.url = client, url
        page = lxml.html.fromstring((response or client.get(url)).content)
        form = next(f for f in page.forms if f.action == url)
        self.values = dict(form.form_values())
        for box in form.inputs:  # a browser sends "" for an input with no value; lxml, none
            if box.tag == "input" and box.type in ("hidden", "text") and box.value is None:
                self.values[box.name] = ""

    def save(self, **changes):
        return self.client.post(self.url, self.values | changes, follow=True)


def season_url(world):
    return reverse("league:manage-season-edit", args=["clare", world.season.slug])


def saved_text(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])


def test_a_second_tab_of_a_season_keeps_what_the_first_saved(client, world):
    client.force_login(world.secretary)
    first, second = Tab(client, season_url(world)), Tab(client, season_url(world))
    first.save(points_win="3")
    response = second.save(name="Winter League")
    season = Season.objects.get(pk=world.season.pk)
    assert (season.name, season.points_win) == ("Winter League", 3)
    assert saved_text(response) == (
        "Winter League saved. Someone else saved a change while you had the page open, "
        "and it is kept: “League points for a win”."
    )


def test_both_tabs_changing_the_same_thing_the_second_is_told_and_saves_nothing(client, world):
    client.force_login(world.secretary)
    first, second = Tab(client, season_url(world)), Tab(client, season_url(world))
    first.save(points_win="3")
    response = second.save(points_win="4", name="Winter League")
    season = Season.objects.get(pk=world.season.pk)
    assert (season.name, season.points_win) == ("Winter", 3)
    form = response.context["form"]
    assert form.errors["points_win"] == [
        "Someone else saved “3” here while you had this page open. Save again to put yours "
        "in its place."
    ]
    # The page keeps what this person typed, and now knows what the other saved:
    page = lxml.html.fromstring(response.content)
    again = dict(next(f for f in page.forms if f.action == season_url(world)).form_values())
    assert (again["name"], again["points_win"], again["initial-points_win"]) == (
        "Winter League",
        "4",
        "3",
    )
    response = client.post(season_url(world), again, follow=True)
    season.refresh_from_db()
    assert (season.name, season.points_win) == ("Winter League", 4)
    assert saved_text(response) == "Winter League saved."


def test_both_tabs_making_the_same_change_is_no_clash(client, world):
    client.force_login(world.secretary)
    first, second = Tab(client, season_url(world)), Tab(client, season_url(world))
    first.save(points_win="3")
    second.save(points_win="3", march_wins="on")
    season = Season.objects.get(pk=world.season.pk)
    assert (season.points_win, season.march_wins) == (3, True)


def test_a_box_ticked_in_one_tab_stays_ticked_after_the_other_saves(client, world):
    client.force_login(world.secretary)
    first, second = Tab(client, season_url(world)), Tab(client, season_url(world))
    first.save(confirmed_only="on")
    second.save(min_games="3")
    season = Season.objects.get(pk=world.season.pk)
    assert (season.confirmed_only, season.min_games) == (True, 3)


def test_a_team_renamed_in_one_tab_and_given_a_player_in_another_keeps_both(client, world):
    team = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    url = reverse("league:team-edit", args=["clare", team.pk])
    client.force_login(world.secretary)
    first, second = Tab(client, url), Tab(client, url)
    first.save(name="Harbour Queens")
    second.save(player_2="Máire Ní Bhriain")
    team = Team.objects.get(pk=team.pk)
    assert team.name == "Harbour Queens"
    assert "Máire Ní Bhriain" in [player.name for player in team.players.all()]


def test_each_player_stays_in_the_box_it_was_typed_in(client, world):
    """Found by a walk: the boxes were filled in the players' alphabetical order, so a
    player renamed in one tab moved the other a box, and the second tab's change of the
    other player clashed with it, then put the team's players wrong."""
    seán = PlayerFactory(league=world.league, name="Seán Ó Briain")
    máire = PlayerFactory(league=world.league, name="Máire Ní Shé")
    team = TeamFactory(season=world.season, pub=world.pub, players=[seán, máire])
    url = reverse("league:team-edit", args=["clare", team.pk])
    client.force_login(world.secretary)
    first, second = Tab(client, url), Tab(client, url)
    assert (first.values["player_1"], first.values["player_2"]) == ("Seán Ó Briain", "Máire Ní Shé")
    first.save(player_1="Zara Quinn")
    response = second.save(player_2="Máire Ní Shé Óg")
    assert "here while you had this page open" not in response.text  # no clash
    assert sorted(p.name for p in Team.objects.get(pk=team.pk).players.all()) == [
        "Máire Ní Shé Óg",
        "Zara Quinn",
    ]


def test_a_clash_is_said_with_the_forms_own_mistakes_at_once(client, world):
    client.force_login(world.secretary)
    first, second = Tab(client, season_url(world)), Tab(client, season_url(world))
    first.save(points_win="3")
    response = second.save(points_win="4", min_games="-1")
    errors = response.context["form"].errors
    assert set(errors) == {"points_win", "min_games"}
    assert Season.objects.get(pk=world.season.pk).points_win == 3


def test_an_organisers_date_and_the_secretarys_games_planned_are_both_kept(
    client, world, fixture_at_pub
):
    url = reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk])
    organiser = Client()
    organiser.force_login(world.organiser)
    client.force_login(world.secretary)
    secretarys, organisers = Tab(client, url), Tab(organiser, url)
    secretarys.save(games_planned="7")
    date = (fixture_at_pub.date + datetime.timedelta(days=7)).isoformat()
    organisers.save(date=date)
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert (fixture.games_planned, fixture.date.isoformat()) == (7, date)


def test_a_fixture_moved_to_another_pub_meanwhile_says_so_to_the_organisers_old_tab(
    client, world, fixture_at_pub
):
    url = reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk])
    client.force_login(world.organiser)
    tab = Tab(client, url)
    services.fixture_update(
        fixture=fixture_at_pub,
        date=fixture_at_pub.date,
        status=fixture_at_pub.status,
        pub=world.other_pub,
    )
    response = client.post(url, tab.values | {"status": "postponed"})
    assert response.status_code == 403
    assert (
        "This fixture is at Nora Cronin&#x27;s now, whose organisers look after it. "
        "Nothing was saved." in response.text
    )
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert (fixture.pub, fixture.status) == (world.other_pub, "scheduled")


def test_a_pub_and_a_player_keep_the_other_tabs_change(client, world):
    player = PlayerFactory(league=world.league, name="Seán Ó Briain")
    client.force_login(world.secretary)
    pub_url = reverse("league:manage-pub-edit", args=["clare", "harbour"])
    first, second = Tab(client, pub_url), Tab(client, pub_url)
    first.save(town="Kilrush")
    second.save(name="The Harbour Bar & Lounge")
    pub = Pub.objects.get(pk=world.pub.pk)
    assert (pub.name, pub.town) == ("The Harbour Bar & Lounge", "Kilrush")

    player_url = reverse("league:player-edit", args=["clare", player.pk])
    first, second = Tab(client, player_url), Tab(client, player_url)
    first.save(home_pub=str(world.other_pub.pk))
    second.save(name="Seán Ó Briain Óg")
    player.refresh_from_db()
    assert (player.name, player.home_pub) == ("Seán Ó Briain Óg", world.other_pub)


def test_a_client_that_sends_no_hidden_values_saves_what_it_sends(client, world):
    """An outside client (a script, an old tab from before) is not second-guessed."""
    client.force_login(world.secretary)
    form = Tab(client, season_url(world)).values
    Season.objects.filter(pk=world.season.pk).update(points_win=3)
    sent = {name: value for name, value in form.items() if not name.startswith("initial-")}
    client.post(season_url(world), sent | {"name": "Winter League"})
    season = Season.objects.get(pk=world.season.pk)
    assert (season.name, season.points_win) == ("Winter League", 2)


# Two saves at the same moment --------------------------------------------------------


def save_both_at_once(world):
    """Two tabs opened, then saved at the same moment, each changing one thing."""
    tabs = []
    for _ in range(2):
        browser = Client()
        browser.force_login(world.secretary)
        tabs.append(Tab(browser, season_url(world)))
    barrier = threading.Barrier(2)

    def save(tab, change):
        try:
            barrier.wait(timeout=10)
            tab.save(**change)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(tabs[0], {"points_win": "3"})),
        threading.Thread(target=save, args=(tabs[1], {"min_games": "3"})),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    season = Season.objects.get(pk=world.season.pk)
    return season.points_win, season.min_games


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's test database is one connection's"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_saves_at_the_same_moment_keep_both_changes(world):
    for _ in range(3):
        Season.objects.filter(pk=world.season.pk).update(points_win=2, min_games=5)
        assert save_both_at_once(world) == (3, 3)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_control_without_the_records_lock_two_saves_at_once_lose_one(world, monkeypatch):
    """The negative control: the lock switched off in the app's own code path, both
    saves read the season before either writes, and the later write puts back one."""
    barrier = threading.Barrier(2)

    def unlocked(queryset, pk):
        record = queryset.get(pk=pk)
        barrier.wait(timeout=10)
        return record

    monkeypatch.setattr(services, "locked", unlocked)
    assert save_both_at_once(world) in [(3, 5), (2, 3)]
