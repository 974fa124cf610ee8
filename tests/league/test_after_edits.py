"""What a secretary sees after an ordinary edit: the PDF, the fixture page and the team's
and player's pages say what the print view and the tables say, names included."""

import io

import pytest
from django.core.cache import cache
from django.urls import reverse
from pypdf import PdfReader

from league import services
from tests.factories import (
    FixtureFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    win_game,
)


@pytest.fixture
def season(db):
    season = SeasonFactory(name="Winter 2026", slug="winter-2026", league__slug="clare")
    pub = PubFactory(league=season.league, name="The Harbour Bar")
    hearts = TeamFactory(season=season, pub=pub, name="Harbour Hearts")
    clubs = TeamFactory(season=season, pub=pub, name="Knaves of Clubs")
    fixture = FixtureFactory(season=season, pub=pub, round=1, teams=[hearts, clubs])
    win_game(season=season, winner=hearts, loser=clubs, fixture=fixture)
    win_game(season=season, winner=clubs, loser=hearts, fixture=fixture, number=2)
    win_game(season=season, winner=hearts, loser=clubs, fixture=fixture, number=3)
    return season


def pdf_text(client, season, kind) -> str:
    url = reverse("league:standings-pdf", args=[season.league.slug, season.slug, kind])
    reader = PdfReader(io.BytesIO(client.get(url).content))
    return " ".join(page.extract_text() for page in reader.pages)


def test_a_renamed_season_prints_its_new_name_on_the_pdf(client, season):
    # The PDF was kept under a key made from its rows alone: renamed, the season's
    # print view said "Winter League 2026" and its PDF still "Winter 2026".
    cache.clear()
    assert "Winter 2026: teams" in pdf_text(client, season, "teams")
    services.season_update(season=season, name="Winter League 2026")
    assert "Winter League 2026: teams" in pdf_text(client, season, "teams")


def test_a_new_minimum_of_games_is_printed_on_the_players_pdf(client, season):
    # Both players of each team have 3 games: a minimum of 5 or of 4 ranks nobody, so
    # the rows are the same, but the sentence under the title is not.
    cache.clear()
    assert "at least 5 games" in pdf_text(client, season, "players").replace("\n", " ")
    services.season_update(season=season, min_games=4)
    assert "at least 4 games" in pdf_text(client, season, "players").replace("\n", " ")


def test_a_renamed_team_is_named_so_in_its_fixtures_games(client, season):
    # The fixture page said "Harbour Lights won the match 2–1", then listed each game as
    # won by "Harbour Hearts", the name it had when the game was played.
    team = season.teams.get(name="Harbour Hearts")
    services.team_update(
        team=team, name="Harbour Lights", pub=team.pub, player_names=team_players(team)
    )
    fixture = team.fixtures.get()
    page = client.get(reverse("league:fixture", args=["clare", fixture.pk])).content.decode()
    assert "Harbour Lights won the match 2–1" in page
    assert "Harbour Lights 35" in page and "Harbour Lights reached 25" in page
    assert "Harbour Hearts" not in page


def test_a_renamed_team_is_named_so_in_the_recent_games_of_its_team_and_players(client, season):
    team = season.teams.get(name="Harbour Hearts")
    services.team_update(
        team=team, name="Harbour Lights", pub=team.pub, player_names=team_players(team)
    )
    player = team.players.first()
    for page in (
        reverse("league:standings-team", args=["clare", team.pk]),
        reverse("league:standings-player", args=["clare", player.pk]),
    ):
        html = client.get(page).content.decode()
        assert "Harbour Lights 35" in html and "Harbour Lights reached 25" in html, page
        assert "Harbour Hearts" not in html, page


def team_players(team) -> list[str]:
    return [player.name for player in team.players.all()]


def test_a_rename_changes_only_the_whole_name_it_was():
    from league.names import renamed

    # "Aces" renamed, "Aces High" not: "Aces High reached 25" stays as it is.
    names = {"Aces": "Kings", "Aces High": "Aces High"}
    assert renamed("Aces High reached 25", names) == "Aces High reached 25"
    assert renamed("Aces reached 25", names) == "Kings reached 25"
    assert renamed("Races reached 25", {"Aces": "Kings"}) == "Races reached 25"


def test_the_all_time_players_print_says_the_minimum_its_page_ranks_by(client, season):
    # The page said "Players need 5 games in all to be ranked" and listed everyone as
    # not yet ranked; the print view and its PDF listed them too, without saying why.
    cache.clear()
    page = client.get(reverse("league:all-time-players", args=["clare"])).content.decode()
    assert "Players need 5 games in all to be ranked" in page
    printed = client.get(reverse("league:all-time-print", args=["clare", "players"]))
    assert "Ranked players have at least 5 games." in printed.content.decode()


def test_a_teams_recent_games_mark_those_the_table_does_not_count_yet(client, season):
    # With "only confirmed games count" ticked, the team's page said Played 0 and listed
    # three games won and lost, with nothing to say why the table left them out.
    services.season_update(season=season, confirmed_only=True)
    team = season.teams.get(name="Harbour Hearts")
    html = client.get(reverse("league:standings-team", args=["clare", team.pk])).content.decode()
    assert html.count("Not counted yet: waits for confirmation") == 3


def test_a_team_moved_to_another_pub_is_told_its_fixtures_stay_where_they_are(client, season):
    # It said only "Harbour Hearts saved.": its match still to play stayed at the old
    # pub, as it should, and the secretary expected it to have moved.
    team = season.teams.get(name="Harbour Hearts")
    old_pub = team.pub
    knaves = season.teams.get(name="Knaves of Clubs")
    FixtureFactory(season=season, pub=old_pub, round=2, teams=[team, knaves])
    # A postponed one is still to play (found by a walk: it was left out of the count).
    FixtureFactory(season=season, pub=old_pub, round=3, teams=[knaves, team], status="postponed")
    thatch = PubFactory(league=season.league, name="The Thatch")
    secretary = UserFactory()
    season.league.secretaries.add(secretary)
    client.force_login(secretary)
    data = {"name": team.name, "pub": thatch.pk}
    data.update({f"player_{n}": name for n, name in enumerate(team_players(team), 1)})
    response = client.post(reverse("league:team-edit", args=["clare", team.pk]), data, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "Harbour Hearts saved: its home pub is now The Thatch. Its 2 fixtures still to play "
        "at The Harbour Bar stay there: move each on its page if it is to be played at "
        "The Thatch."
    ]
    assert team.fixtures.filter(pub=old_pub).exclude(status="played").count() == 2
