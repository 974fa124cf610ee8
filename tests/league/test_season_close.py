"""The secretary's own pages for what the admin used to do: closing a season, and its
divisions."""

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league import services
from league.imports import read_table, sign_rows
from league.models import Season
from league.services import LeagueError
from tests.factories import TeamFactory
from tests.league.conftest import snapshot
from tests.league.test_imports import GOOD, csv_bytes
from tests.questions import ask

pytestmark = pytest.mark.django_db


def test_closing_a_season_finishes_it_and_closing_again_is_refused(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-season-close", args=["clare", "winter"])
    assert "Close Winter" in client.get(url).content.decode()
    version = world.league.content_version
    response = client.post(url)
    assert response["Location"] == reverse("league:manage-season", args=["clare", "winter"])
    season = Season.objects.get(pk=world.season.pk)
    assert season.status == "finished"
    world.league.refresh_from_db()
    assert world.league.content_version > version
    before = snapshot()
    response = client.post(url)
    assert response.status_code == 200
    assert "closed already" in response.content.decode()
    assert snapshot() == before


def test_closing_with_fixtures_to_play_says_their_games_still_count(client, world, fixture_at_pub):
    # "Winter is closed. Its tables are final." with a fixture still to play: its game,
    # entered after, put a new team top of the "final" table.
    client.force_login(world.secretary)
    url = reverse("league:manage-season-close", args=["clare", "winter"])
    page = client.get(url).text
    assert "1 fixture is not played yet" in page
    # The page said both "its tables stay as they are" and "not final until then".
    assert "tables stay as they are" not in page
    assert "its rules, league points and tie-breaks stay as they are" in page
    response = client.post(url, follow=True)
    said = html.unescape(response.content.decode())
    assert "Winter is closed, with 1 fixture not played yet" in said
    assert "tables are final" not in said
    edit = client.get(reverse("league:manage-season-edit", args=["clare", "winter"])).text
    assert "tables are final" not in edit  # a game still to come can change them


def test_closing_with_every_fixture_played_says_its_tables_are_final(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-season-close", args=["clare", "winter"])
    assert "not played yet" not in client.get(url).text
    said = client.post(url, follow=True).content.decode()
    assert "Winter is closed. Its tables are final." in said


def test_a_division_is_added_and_the_same_name_any_case_is_refused(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-divisions", args=["clare", "winter"])
    added = client.post(url, {"name": "Division One"}, follow=True)
    assert "“Division One” added." in added.text  # not "Division Division One added."
    client.post(
        reverse(
            "league:manage-division-delete",
            args=["clare", "winter", added.context["divisions"][0].pk],
        ),
        {"confirm": "yes"},
    )
    assert client.post(url, {"name": "North"}).status_code == 302
    before = snapshot()
    for name in ("NORTH", "", "x" * 51, "No\u200brth"):
        response = client.post(url, {"name": name})
        assert response.status_code == 200, name
    assert "already has a division called" in client.post(url, {"name": "north"}).content.decode()
    assert snapshot() == before
    assert [d.name for d in world.season.divisions.all()] == ["North"]


def test_removing_a_division_keeps_its_teams_without_one(client, world):
    division = world.season.divisions.create(name="North")
    team = TeamFactory(season=world.season, pub=world.pub, division=division)
    client.force_login(world.secretary)
    url = reverse("league:manage-division-delete", args=["clare", "winter", division.pk])
    # The first tap asks, naming the teams that lose their division; nothing changes yet.
    asked = ask(client, url)
    assert asked.status_code == 200
    assert "Remove the division North?" in asked.text and team.name in asked.text
    team.refresh_from_db()
    assert team.division == division
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    team.refresh_from_db()
    assert team.division is None
    assert not world.season.divisions.exists()


def test_a_division_of_another_league_is_not_found(client, world):
    division = world.season.divisions.create(name="North")
    client.force_login(world.other_secretary)
    before = snapshot()
    url = reverse("league:manage-division-delete", args=["kerry", "winter", division.pk])
    assert client.post(url, follow=True).status_code == 404
    assert client.post(url, {"confirm": "yes"}).status_code == 404
    assert snapshot() == before


def test_a_closed_seasons_divisions_stay_as_its_final_table_has_them(client, world):
    """Found by a walk: after "Close Winter", a division could be added and teams moved
    between divisions, and the "final" table's positions changed without a word."""
    north = world.season.divisions.create(name="North")
    team = TeamFactory(season=world.season, pub=world.pub, division=north)
    Season.objects.filter(pk=world.season.pk).update(status="finished")
    client.force_login(world.secretary)
    before = snapshot()
    added = client.post(reverse("league:manage-divisions", args=["clare", "winter"]), {"name": "S"})
    assert "Winter is finished, so its final table stands" in html.unescape(added.text)
    url = reverse("league:manage-division-delete", args=["clare", "winter", north.pk])
    removed = client.post(url, {"confirm": "yes"}, follow=True)
    assert "Winter is finished, so its final table stands" in html.unescape(removed.text)
    data = {"name": team.name, "pub": world.pub.pk, "division": ""}
    data |= {f"player_{n}": p.name for n, p in enumerate(team.players.order_by("pk"), 1)}
    # The division is said beside its box, shown and not to be changed (found by a walk:
    # it could be picked, then the refusal came at the top of the page).
    edit = html.unescape(client.get(reverse("league:team-edit", args=["clare", team.pk])).text)
    select = re.search(r"<select name=\"division\"[^>]*>", edit).group(0)
    assert "disabled" in select and 'aria-describedby="id_division_helptext"' in select
    assert "Winter is finished: its teams stay in the divisions they finished in." in edit
    assert snapshot() == before
    moved = client.post(reverse("league:team-edit", args=["clare", team.pk]), data)
    assert moved.status_code == 302
    team.refresh_from_db()
    assert team.division == north
    with pytest.raises(LeagueError, match="Winter is finished, so its final table stands"):
        services.team_update(
            team=team,
            name=team.name,
            pub=world.pub,
            division=None,
            player_names=list(team.players.order_by("pk").values_list("name", flat=True)),
        )
    # Its name is not its place: a rename is saved.
    renamed = client.post(
        reverse("league:team-edit", args=["clare", team.pk]),
        data | {"division": north.pk, "name": "Renamed"},
    )
    assert renamed.status_code == 302


def _closed(world):
    Season.objects.filter(pk=world.season.pk).update(status="finished")
    world.season.refresh_from_db()


def test_a_closed_seasons_teams_stay_as_its_final_table_has_them(client, world):
    """Found by a walk: after "Close Winter", a team could still be added, imported or
    removed, and the "final" table gained or lost a row without a word."""

    team = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    token = sign_rows(world.season, read_table("t.csv", csv_bytes(GOOD[1:])))  # before closing
    _closed(world)
    client.force_login(world.secretary)
    before = snapshot()
    manage = client.get(reverse("league:manage-season", args=["clare", "winter"])).text
    assert "Add a team" not in manage and "Import teams" not in manage
    assert (
        "Winter is finished, so its final table stands: no team or fixture is added, "
        "and no team removed" in html.unescape(manage)
    )

    create = reverse("league:manage-team-create", args=["clare", "winter"])
    page = html.unescape(client.get(create).text)
    assert "Winter is finished, so its final table stands: no team is added" in page
    assert "<form" not in page.split("<main")[1]
    data = {"name": "Late Entry", "pub": world.pub.pk, "player_1": "A B", "player_2": "C D"}
    added = html.unescape(client.post(create, data).text)
    assert "Winter is finished, so its final table stands: no team is added" in added

    imports = reverse("league:manage-teams-import", args=["clare", "winter"])
    page = html.unescape(client.get(imports).text)
    assert "Winter is finished, so its final table stands: no team is added" in page
    uploaded = client.post(imports, {"file": SimpleUploadedFile("t.csv", csv_bytes(GOOD[1:]))})
    assert "no team is added" in html.unescape(uploaded.text)
    assert "confirm" not in uploaded.context
    confirmed = client.post(imports, {"rows": token})
    assert "no team is added" in html.unescape(confirmed.text)

    edit = client.get(reverse("league:team-edit", args=["clare", team.pk])).text
    assert "Remove this team" not in edit
    url = reverse("league:team-remove", args=["clare", team.pk])
    refused = client.post(url, {"confirm": "yes"}, follow=True)
    assert "Winter is finished, so its final table stands: Harbour Hearts stays" in html.unescape(
        refused.text
    )
    assert snapshot() == before


def test_a_team_is_neither_entered_nor_removed_once_its_season_is_closed(world):
    """The same guard in the services, for a season closed in another tab meanwhile."""

    team = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    rows = read_table("t.csv", csv_bytes(GOOD[1:]))
    stale = Season.objects.get(pk=world.season.pk)  # read before the close
    _closed(world)
    before = snapshot()
    with pytest.raises(services.LeagueError, match="no team is added"):
        services.team_create(season=stale, name="Late", pub=world.pub, player_names=["A B"])
    with pytest.raises(services.LeagueError, match="no team is added"):
        services.teams_import(season=stale, rows=rows)
    team.season = stale
    with pytest.raises(services.LeagueError, match="Harbour Hearts stays"):
        services.team_remove(team=team)
    assert snapshot() == before


def test_a_closed_season_takes_no_new_fixtures(client, world):
    """Found by a walk: the finished season's page said "its final table stands", and
    still offered Generate fixtures (which would replace the fixtures still to play) and
    Add a fixture, whose match would add games to the final table."""
    home = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    away = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    _closed(world)
    client.force_login(world.secretary)
    before = snapshot()
    with pytest.raises(LeagueError, match="Winter is finished, so its final table stands"):
        services.fixture_create(
            season=world.season, pub=world.pub, date=world.season.start_date, teams=[home, away]
        )
    with pytest.raises(LeagueError, match="Winter is finished, so its final table stands"):
        services.fixtures_generate(season=world.season, start=world.season.start_date)
    assert snapshot() == before

    manage = html.unescape(
        client.get(reverse("league:manage-season", args=["clare", "winter"])).text
    )
    assert "Generate fixtures" not in manage and "Add a fixture" not in manage
    assert "no team or fixture is added" in manage
    assert "then generate the fixtures" not in manage
    edit = reverse("league:manage-season-edit", args=["clare", "winter"])
    assert f'href="{edit}"' in manage.split("no team or fixture is added")[1].split("</p>")[0]

    create = reverse("league:manage-fixture-create", args=["clare", "winter"])
    page = html.unescape(client.get(create).text)
    assert "Winter is finished, so its final table stands: no fixture is added" in page
    assert "<form" not in page.split("<main")[1]
    data = {"date": "2027-01-14", "pub": world.pub.pk, "home": home.pk, "away": away.pk}
    added = html.unescape(client.post(create, data | {"games_planned": 3}).text)
    assert "no fixture is added" in added

    generate = reverse("league:manage-fixtures-generate", args=["clare", "winter"])
    page = html.unescape(client.get(generate).text)
    assert "Winter is finished, so its final table stands: no fixture is added" in page
    assert "<form" not in page.split("<main")[1]
    made = html.unescape(client.post(generate, {"start": "2027-01-14", "games_planned": 3}).text)
    assert "no fixture is added" in made
    assert snapshot() == before


def test_no_points_for_a_shutout_read_as_nothing_more_not_0_more(client, world):
    """Found by a walk: "0 more for a shutout win"."""
    Season.objects.filter(pk=world.season.pk).update(points_shutout=0)
    pages = [
        reverse("league:standings-teams", args=["clare", "winter"]),
        reverse("league:season", args=["clare", "winter"]),
    ]
    client.force_login(world.secretary)
    pages.append(reverse("league:manage-season", args=["clare", "winter"]))
    for page in pages:
        text = html.unescape(client.get(page).text)
        assert "nothing more for a shutout" in text and "0 more for a shutout" not in text, page
    Season.objects.filter(pk=world.season.pk).update(points_shutout=1)
    text = html.unescape(client.get(pages[0]).text)
    assert "1 more for a shutout win" in text
