"""Standings never drift from the games: every action a secretary, an organiser or the
admin can take, done through the page they use, leaves every table equal to a recount
of the raw deals (`bench.recount.recount`, which owes nothing to the app's result code),
and the public pages and downloads show it at once.

Each guard has a negative control: the same action with the guard switched off in the
app's own code path (the content-version bump, the result writer) shows the defect the
test would catch."""

import csv
import datetime
import io
import uuid

import pytest
from django.urls import reverse

from bench.recount import kept, recount
from league import services as league_services
from league import standings
from league.models import Fixture, SideResult, TeamPairStanding
from scoring import services as scoring_services
from scoring.models import Game
from tests.factories import (
    FixtureFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    play_game,
    win_game,
)

pytestmark = pytest.mark.django_db


def assert_true_to_the_games(season):
    season.refresh_from_db()
    assert kept(season) == recount(season)


def teams_csv(client, season) -> list[dict]:
    url = reverse(
        "league:standings-download", args=[season.league.slug, season.slug, "teams", "csv"]
    )
    response = client.get(url)
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def teams_page(client, season) -> str:
    url = reverse("league:standings-teams", args=[season.league.slug, season.slug])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def all_time_teams_page(client, league) -> str:
    response = client.get(reverse("league:all-time-teams", args=[league.slug]))
    assert response.status_code == 200
    return response.content.decode()


def all_time_teams_csv(client, league) -> list[dict]:
    url = reverse("league:all-time-download", args=[league.slug, "teams", "csv"])
    response = client.get(url)
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def played(world):
    """Two teams of different pubs, a fixture at the first pub with two games played
    (Harbour Hearts won both), and a third team with no games yet."""
    home = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    away = TeamFactory(season=world.season, pub=world.other_pub, name="Cronin's Jinkers")
    spare = TeamFactory(season=world.season, pub=world.other_pub, name="The Spares")
    fixture = FixtureFactory(season=world.season, pub=world.pub, teams=[home, away])
    games = [
        win_game(season=world.season, winner=home, loser=away, fixture=fixture, number=n)
        for n in (1, 2)
    ]
    teams_page(_anonymous(), world.season)  # the table is cached now
    return home, away, spare, fixture, games


def _anonymous():
    from django.test import Client

    return Client()


def _team_post(team, **changes) -> dict:
    players = [p.name for p in team.players.all()]
    data = {
        "name": team.name,
        "pub": team.pub_id,
        "division": "",
        "player_1": players[0],
        "player_2": players[1],
        "player_3": "",
    }
    return {**data, **changes}


def test_a_team_moved_to_another_pub_keeps_its_games_with_the_pub_it_played_for(
    client, world, played
):
    home, away, _, fixture, _ = played
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])

    response = client.post(url, _team_post(home, pub=world.other_pub.pk))

    assert response.status_code == 302
    home.refresh_from_db()
    assert home.pub == world.other_pub
    assert_true_to_the_games(world.season)
    # Its next game counts for its new pub; both games so far stay with The Harbour Bar.
    win_game(season=world.season, winner=home, loser=away, fixture=fixture, number=3)
    assert_true_to_the_games(world.season)
    pubs = SideResult.objects.filter(team=home).values_list("pub_id", flat=True)
    assert sorted(pubs) == sorted([world.pub.pk, world.pub.pk, world.other_pub.pk])
    # A later correction of an old game keeps it where it was.
    game = Game.objects.get(fixture=fixture, number=1)
    scoring_services.deal_correct(
        game=game, number=2, dealer=1, tricks=[4, 1], key=uuid.uuid4(), version=game.version
    )
    assert_true_to_the_games(world.season)
    assert SideResult.objects.filter(pub=world.pub, points_against__lt=0).count() == 0


def test_the_pub_table_counts_the_teams_that_played_for_each_pub(client, world, played):
    """Its games and its teams alike: a team that moved after its games is counted with
    the pub those games were played for, not with its new pub that has none of them."""
    home, away, *_ = played
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])
    assert client.post(url, _team_post(home, pub=world.other_pub.pk)).status_code == 302

    rows = {r["name"]: r for r in standings.pub_rows(world.season)}
    assert (rows[world.pub.name]["played"], rows[world.pub.name]["teams"]) == (2, 1)
    assert (rows[world.other_pub.name]["played"], rows[world.other_pub.name]["teams"]) == (2, 1)


def test_a_rename_shows_at_once_on_the_public_table_and_in_the_csv(client, world, played):
    home = played[0]
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])

    client.post(url, _team_post(home, name="The Harbour Sharks"))

    visitor = _anonymous()
    assert "The Harbour Sharks" in teams_page(visitor, world.season)
    assert "Harbour Hearts" not in teams_page(visitor, world.season)
    assert [row["Team"] for row in teams_csv(visitor, world.season)][0] == "The Harbour Sharks"


def test_a_rename_shows_at_once_in_the_all_time_team_table(client, world, played):
    home = played[0]
    visitor = _anonymous()
    assert "Harbour Hearts" in all_time_teams_page(visitor, world.league)  # cached now
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])

    response = client.post(url, _team_post(home, name="The Harbour Sharks"))

    assert response.status_code == 302
    page = all_time_teams_page(visitor, world.league)
    assert "The Harbour Sharks" in page and "Harbour Hearts" not in page
    names = [row["Team"] for row in all_time_teams_csv(visitor, world.league)]
    assert names == ["The Harbour Sharks", "Cronin's Jinkers"]


def test_a_partnership_is_named_by_its_team_in_its_latest_season_before_it_plays_there(
    client, world, played
):
    home = played[0]
    visitor = _anonymous()
    assert "Harbour Hearts" in all_time_teams_page(visitor, world.league)  # cached now
    spring = SeasonFactory(
        league=world.league, name="Spring", slug="spring", start_date=datetime.date(2027, 3, 1)
    )
    client.force_login(world.secretary)
    url = reverse("league:manage-team-create", args=[world.league.slug, spring.slug])

    response = client.post(url, _team_post(home, name="Harbour Hearts Reborn"))

    assert response.status_code == 302
    page = all_time_teams_page(visitor, world.league)
    assert "Harbour Hearts Reborn" in page and "Harbour Hearts<" not in page
    rows = all_time_teams_csv(visitor, world.league)
    assert [(row["Team"], row["Games"]) for row in rows] == [
        ("Harbour Hearts Reborn", "2"),
        ("Cronin's Jinkers", "2"),
    ]


def test_a_partnership_keeps_the_name_of_the_team_it_played_as_when_its_players_change(
    client, world, played
):
    home = played[0]
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])

    data = _team_post(home, name="The Harbour Sharks", player_2="Someone New")
    response = client.post(url, data)

    assert response.status_code == 302
    rows = all_time_teams_csv(_anonymous(), world.league)
    assert [(row["Team"], row["Games"]) for row in rows] == [
        ("The Harbour Sharks", "2"),
        ("Cronin's Jinkers", "2"),
    ]


def test_negative_control_without_the_content_version_bump_the_page_is_stale(
    client, world, played, monkeypatch
):
    home = played[0]
    monkeypatch.setattr(league_services, "content_changed", lambda **kwargs: None)
    client.force_login(world.secretary)
    url = reverse("league:team-edit", args=[world.league.slug, home.pk])

    client.post(url, _team_post(home, name="The Harbour Sharks"))

    page = teams_page(_anonymous(), world.season)
    assert "Harbour Hearts" in page and "The Harbour Sharks" not in page


def _season_post(season, **changes) -> dict:
    from league.forms import SeasonForm

    data = {
        key: ("" if value is None else value)
        for key, value in SeasonForm.initial_for(season).items()
    }
    data["start_date"] = season.start_date.isoformat()
    data["end_date"] = season.end_date.isoformat() if season.end_date else ""
    for flag in ("march_wins", "confirmed_only"):
        if not data[flag]:
            del data[flag]
    data.update(changes)
    return {k: v for k, v in data.items() if v is not False}


def test_new_league_points_and_tiebreaks_show_at_once(client, world, played):
    client.force_login(world.secretary)
    url = reverse("league:manage-season-edit", args=[world.league.slug, world.season.slug])

    response = client.post(
        url, _season_post(world.season, points_win=7, tiebreaks="points, marches", min_games=0)
    )

    assert response.status_code == 302
    rows = teams_csv(_anonymous(), world.season)
    assert (rows[0]["Team"], rows[0]["Pts"]) == ("Harbour Hearts", "14")
    assert_true_to_the_games(world.season)


def test_switching_confirmed_only_recounts_and_a_later_confirmation_counts_once(
    client, world, played
):
    home, away, _, fixture, games = played
    client.force_login(world.secretary)
    url = reverse("league:manage-season-edit", args=[world.league.slug, world.season.slug])

    client.post(url, _season_post(world.season, confirmed_only="on"))

    world.season.refresh_from_db()
    assert world.season.confirmed_only
    assert_true_to_the_games(world.season)
    assert [r["P"] for r in teams_csv(_anonymous(), world.season)] == ["0", "0", "0"]
    confirm = reverse("scoring:game-confirm", args=[games[0].pk])
    games[0].refresh_from_db()
    client.post(confirm, {"version": games[0].version})
    assert_true_to_the_games(world.season)
    played_column = {r["Team"]: r["P"] for r in teams_csv(_anonymous(), world.season)}
    assert played_column == {"Harbour Hearts": "1", "Cronin's Jinkers": "1", "The Spares": "0"}


@pytest.fixture
def operator(client):
    user = UserFactory(username="operator", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def test_deleting_a_played_fixture_in_the_admin_takes_its_games_out(
    client, world, played, operator
):
    fixture = played[3]
    url = reverse("admin:league_fixture_delete", args=[fixture.pk])

    response = client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Fixture.objects.filter(pk=fixture.pk).exists()
    assert not Game.objects.filter(fixture_id=fixture.pk).exists()
    assert_true_to_the_games(world.season)
    assert [r["P"] for r in teams_csv(_anonymous(), world.season)] == ["0", "0", "0"]


def test_changing_a_fixtures_round_in_the_admin_moves_its_games_in_the_chart(
    client, world, played, operator
):
    home, _, _, fixture, _ = played
    url = reverse("admin:league_fixture_change", args=[fixture.pk])
    page = client.get(url)
    assert page.status_code == 200
    data = {
        "pub": fixture.pub_id,
        "date": fixture.date.isoformat(),
        "round": 5,
        "games_planned": fixture.games_planned,
        "status": fixture.status,
        "fixture_teams-TOTAL_FORMS": 2,
        "fixture_teams-INITIAL_FORMS": 2,
        "fixture_teams-MIN_NUM_FORMS": 0,
        "fixture_teams-MAX_NUM_FORMS": 1000,
    }
    for i, ft in enumerate(fixture.fixture_teams.all()):
        data[f"fixture_teams-{i}-id"] = ft.pk
        data[f"fixture_teams-{i}-fixture"] = fixture.pk

    response = client.post(url, data)

    assert response.status_code == 302, response.content.decode()[:2000]
    team_page = _anonymous().get(
        reverse("league:standings-team", args=[world.league.slug, home.pk])
    )
    assert '<tr><td class="num">5</td>' in team_page.content.decode()
    assert_true_to_the_games(world.season)


def test_the_admin_cannot_move_a_team_or_a_fixture_to_another_season(
    client, world, played, operator
):
    home, _, _, fixture, _ = played
    for name, obj in (("team", home), ("fixture", fixture)):
        page = client.get(reverse(f"admin:league_{name}_change", args=[obj.pk]))
        assert page.status_code == 200
        assert 'name="season"' not in page.content.decode()


def test_a_fixture_moved_to_another_pub_takes_its_games_and_their_organiser(client, world, played):
    home, away, _, fixture, games = played
    client.force_login(world.secretary)
    url = reverse("league:fixture-edit", args=[world.league.slug, fixture.pk])
    client.post(
        url,
        {
            "date": fixture.date.isoformat(),
            "pub": world.other_pub.pk,
            "home": home.pk,
            "away": away.pk,
            "third": "",
            "games_planned": fixture.games_planned,
            "status": fixture.status,
        },
    )
    fixture.refresh_from_db()
    assert fixture.pub == world.other_pub
    game = games[0]
    game.refresh_from_db()
    correct = reverse("scoring:deal-correct", args=[game.pk, 1])

    client.force_login(world.organiser)  # the old pub's organiser
    assert client.get(correct).status_code in (302, 403)
    client.force_login(world.other_organiser)  # the new pub's
    assert client.get(correct).status_code == 200
    assert_true_to_the_games(world.season)


def test_a_confirmed_game_takes_no_deal_or_undo_and_a_correction_reopens_it(client, world, played):
    game = played[4][0]
    scoring_services.game_confirm(game=game, user=world.secretary)
    game.refresh_from_db()
    with pytest.raises(scoring_services.ScoringError, match="confirmed"):
        scoring_services.deal_undo(game=game, version=game.version)
    with pytest.raises(scoring_services.ScoringError, match="confirmed"):
        scoring_services.deal_record(
            game=game, dealer=0, tricks=[1, 4], key=uuid.uuid4(), version=game.version
        )
    client.force_login(world.organiser)
    url = reverse("scoring:deal-correct", args=[game.pk, 2])

    response = client.post(
        url,
        {
            "key": uuid.uuid4(),
            "version": game.version,
            "mode": "count",
            "dealer": 1,
            "tricks_0": 0,
            "tricks_1": 5,
            "reason": "Scores were swapped",
        },
        follow=True,
    )

    game.refresh_from_db()
    assert not game.is_confirmed
    assert game.winner == 1
    said = response.content.decode()
    assert "winner changes from Harbour Hearts to Cronin" in said
    assert "The confirmation is cleared: the result is confirmed again" in said
    assert_true_to_the_games(world.season)


def test_correcting_a_trick_by_trick_deal_keeps_its_order_and_its_winner(client, world):
    home = TeamFactory(season=world.season, pub=world.pub, name="Ayes")
    away = TeamFactory(season=world.season, pub=world.pub, name="Bees")
    game = play_game(season=world.season, teams=[home, away], deals=[(2, 3)])
    # Deal 2, dealt by Bees: from 10–15, Bees reach 25 on the third trick (B A B), and
    # Ayes reach 25 only with the last two. By the counting order (non-dealers first)
    # Ayes would have won; by the trick order, Bees did.
    scoring_services.deal_record(
        game=game,
        dealer=1,
        tricks=[3, 2],
        trick_winners=[1, 0, 1, 0, 0],
        key=uuid.uuid4(),
        version=game.version,
    )
    game.refresh_from_db()
    assert game.winner == 1 and "third trick" in game.reason
    client.force_login(world.organiser)
    url = reverse("scoring:deal-correct", args=[game.pk, 2])
    form = client.get(url).content.decode()
    assert 'name="trick_1" value="1" checked' in form
    assert 'name="mode" value="order"' in form

    # The form sent back unchanged, as a person tapping Save would: it carries the trick
    # order, so nothing differs from the deal and nothing is corrected (without the
    # order it would be a correction, losing it).
    response = client.post(
        url,
        {
            "key": uuid.uuid4(),
            "version": game.version,
            "mode": "order",
            "dealer": 1,
            **{f"trick_{n}": side for n, side in enumerate([1, 0, 1, 0, 0], start=1)},
            "reason": "",
        },
    )

    assert response.status_code == 422
    assert "Nothing to correct: deal 2 is already" in response.text
    game.refresh_from_db()
    assert game.winner == 1 and "third trick" in game.reason
    assert game.deals.get(number=2, live=True).trick_winners == "10100"
    assert game.deals.filter(number=2).count() == 1
    assert_true_to_the_games(world.season)


def test_head_to_head_is_skipped_when_the_teams_level_have_not_all_met(world):
    from league import standings

    a, b, c, d = (TeamFactory(season=world.season, pub=world.pub, name=n) for n in "ABCD")
    # A beats C, B beats D: A and B level on points but never met.
    win_game(season=world.season, winner=a, loser=c)
    win_game(season=world.season, winner=b, loser=d)

    rows = {row["name"]: row for row in standings.team_rows(world.season)}

    assert "head-to-head not used" in rows["A"]["note"]
    assert "(" not in rows["A"]["note"].replace(
        "(head-to-head not used: they have not all met)", ""
    )
    assert "league points" in rows["A"]["note"]


def test_the_all_time_team_table_adds_up_a_partnership_across_seasons(client, world):
    from league import standings
    from tests.factories import SeasonFactory

    home = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    away = TeamFactory(season=world.season, pub=world.pub, name="Jinkers")
    win_game(season=world.season, winner=home, loser=away)
    later = SeasonFactory(
        league=world.league, name="Spring", slug="spring", start_date=datetime.date(2027, 3, 1)
    )
    again = TeamFactory(season=later, pub=world.pub, name="Harbour Hearts II", players=[])
    for player in home.players.all():
        again.members.create(player=player)
    other = TeamFactory(season=later, pub=world.pub, name="Others")
    win_game(season=later, winner=again, loser=other)

    rows = {row["name"]: row for row in standings.all_time_team_rows(world.league)}

    assert rows["Harbour Hearts II"]["played"] == 2
    assert rows["Harbour Hearts II"]["won"] == 2
    assert rows["Harbour Hearts II"]["seasons"] == 2
    response = client.get(reverse("league:all-time-teams", args=[world.league.slug]))
    assert response.status_code == 200
    assert "Harbour Hearts II" in response.content.decode()


def test_two_partnerships_under_one_team_name_are_told_apart_by_their_players(client, world):
    """Found by a walk: a player of The Robbers was replaced, the new pair played on as
    The Robbers, and the all-time table had two "The Robbers" rows, alike."""
    from league import standings

    robbers = TeamFactory(season=world.season, pub=world.pub, name="The Robbers")
    others = TeamFactory(season=world.season, pub=world.pub, name="Others")
    win_game(season=world.season, winner=robbers, loser=others)
    eoin, caitríona = robbers.players.order_by("pk")
    eoin.name, caitríona.name = "Eoin Casey", "Caitríona Daly"
    eoin.save(), caitríona.save()
    nuala = robbers.members.get(player=eoin)
    nuala.player = PlayerFactory(league=world.league, name="Nuala Ryan")
    nuala.save()
    win_game(season=world.season, winner=others, loser=robbers)

    names = sorted(row["name"] for row in standings.all_time_team_rows(world.league))
    assert names == [
        "Others",
        "The Robbers (Caitríona Daly & Eoin Casey)",  # A to Z, as every list of names
        "The Robbers (Caitríona Daly & Nuala Ryan)",
    ]
    page = client.get(reverse("league:all-time-teams", args=[world.league.slug])).text
    assert "The Robbers (Caitríona Daly &amp; Eoin Casey)" in page


def test_the_all_time_team_table_costs_the_same_queries_however_many_seasons_and_teams(
    world, django_assert_num_queries
):
    from league import standings

    def grow(season, teams):
        more = [TeamFactory(season=season, pub=world.pub) for _ in range(teams)]
        for home, away in zip(more, more[1:], strict=False):
            win_game(season=season, winner=home, loser=away)
        return more

    first = grow(world.season, 2)
    with django_assert_num_queries(3):
        assert len(standings.all_time_team_rows(world.league)) == 2
    grow(world.season, 6)
    later = SeasonFactory(league=world.league, start_date=datetime.date(2027, 3, 1))
    TeamFactory(season=later, pub=world.pub, players=list(first[0].players.all()))
    grow(later, 6)
    with django_assert_num_queries(3):
        assert len(standings.all_time_team_rows(world.league)) == 14


def test_negative_control_without_the_result_writer_the_tables_drift(world, monkeypatch):
    from scoring import services

    home = TeamFactory(season=world.season, pub=world.pub)
    away = TeamFactory(season=world.season, pub=world.pub)
    game = win_game(season=world.season, winner=home, loser=away)
    monkeypatch.setattr(services, "record_results", lambda game, result: None)

    services.deal_correct(
        game=game, number=2, dealer=1, tricks=[0, 5], key=uuid.uuid4(), version=game.version
    )

    assert kept(world.season) != recount(world.season)


def test_negative_control_without_head_to_head_kept_it_drifts(world, monkeypatch):
    from league import standings

    home = TeamFactory(season=world.season, pub=world.pub)
    away = TeamFactory(season=world.season, pub=world.pub)
    game = win_game(season=world.season, winner=home, loser=away)
    assert_true_to_the_games(world.season)
    monkeypatch.setattr(standings, "_pairs_derive", lambda season, ids: None)

    # The loser takes the last deal instead: the game changes hands.
    scoring_services.deal_correct(
        game=game, number=2, dealer=1, tricks=[0, 5], key=uuid.uuid4(), version=game.version
    )

    assert kept(world.season) != recount(world.season)
    assert TeamPairStanding.objects.get(team=home, opponent=away).won == 1  # as it was


def test_a_league_renamed_in_the_admin_shows_its_new_name_at_once(client, world, operator):
    teams_page(_anonymous(), world.season)  # cached under the old name
    url = reverse("admin:league_league_change", args=[world.league.pk])

    response = client.post(url, {"name": "County Clare League", "slug": world.league.slug})

    assert response.status_code == 302
    assert "County Clare League" in teams_page(_anonymous(), world.season)


def test_a_full_recount_of_head_to_head_rewrites_only_the_pairs_that_differ(world):
    # A season's recount runs over thousands of pairs, nearly all of them right: it
    # mends the wrong ones (a changed count, a pair missing, a pair that never met) and
    # leaves every right row where it is, not written again (its ctid, the row version's
    # place on disk, unchanged).
    from django.db import connection

    from league import standings

    a, b, c, d = (TeamFactory(season=world.season, pub=world.pub) for _ in range(4))
    win_game(season=world.season, winner=a, loser=b)
    win_game(season=world.season, winner=a, loser=c)
    win_game(season=world.season, winner=d, loser=b)
    pairs = TeamPairStanding.objects.filter(season=world.season)
    pairs.filter(team=a, opponent=c).update(won=9)
    pairs.filter(team=c, opponent=a).delete()
    TeamPairStanding.objects.create(season=world.season, team=b, opponent=c, won=1)

    def versions():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT team_id, opponent_id, ctid::text FROM league_teampairstanding"
                " WHERE season_id = %s",
                [world.season.pk],
            )
            return {(team, opponent): ctid for team, opponent, ctid in cursor.fetchall()}

    before = versions()
    standings.standings_derive(season_id=world.season.pk)
    after = versions()

    assert_true_to_the_games(world.season)
    right = {(a.pk, b.pk), (b.pk, a.pk), (d.pk, b.pk), (b.pk, d.pk)}
    assert {pair: after[pair] for pair in right} == {pair: before[pair] for pair in right}
    assert after[a.pk, c.pk] != before[a.pk, c.pk]  # mended
    assert (c.pk, a.pk) in after and (b.pk, c.pk) not in after
