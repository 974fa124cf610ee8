"""The set-up pages: a good form saves and moves on, a bad one says why and saves
nothing; the organiser's evening shows only their pubs."""

import datetime
import html

import pytest
from django.urls import reverse
from django.utils import timezone

from league import services
from league.models import Fixture, Season, Team
from league.results import fixture_progress
from league.services import fixtures_generate
from tests.factories import FixtureFactory, PlayerFactory, PubFactory, TeamFactory
from tests.league.conftest import snapshot
from tests.questions import ask

pytestmark = pytest.mark.django_db


def test_a_secretary_creates_a_season_and_lands_on_its_page(client, world):
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {
            "name": "Spring 2027",
            "start_date": "2027-03-01",
            "status": "planning",
            "ruleset_key": "fifteen",
            "march_bonus": 0,
            "points_win": 2,
            "points_loss": 0,
            "points_shutout": 1,
            "tiebreaks": "",
            "min_games": 5,
            "divisions": "North, South",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/clare/manage/seasons/spring-2027/"
    season = Season.objects.get(slug="spring-2027")
    assert season.ruleset.target == 15
    assert season.divisions.count() == 2


def test_an_unknown_preset_posted_by_hand_gets_a_message(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {"name": "X", "start_date": "2027-03-01", "ruleset_key": "poker"},
    )
    assert response.status_code == 200
    assert "Unknown rules preset “poker”." in response.content.decode()
    assert snapshot() == before


def test_a_team_with_the_same_player_twice_is_refused_on_the_page(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "Twins", "pub": world.pub.pk, "player_1": "Ann", "player_2": "Ann"},
    )
    assert response.status_code == 200
    assert "The same player is named twice." in response.content.decode()
    assert snapshot() == before


def test_a_duplicate_team_name_is_refused_on_the_page(client, world):
    TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "harbour hearts", "pub": world.pub.pk, "player_1": "A", "player_2": "B"},
    )
    assert response.status_code == 200
    assert "There is already a team called “harbour hearts” this season." in (
        response.content.decode()
    )
    assert snapshot() == before


def test_each_mistake_in_a_team_is_said_on_its_own(client, world):
    """Found by a newcomer's walk: three mistakes came as one bullet joined by
    semicolons, and the page said "1 answer to put right"."""
    TeamFactory(season=world.season, pub=world.pub, name="Kilkee Kings", players=[])
    taken = TeamFactory(season=world.season, pub=world.pub, name="Others")
    PlayerFactory(league=world.league, name="Seán Ó Briain")
    client.force_login(world.secretary)
    before = snapshot()
    data = {"name": "kilkee kings", "pub": world.pub.pk, "player_1": "Sean O Briain"}
    data["player_2"] = taken.players.first().name
    response = client.post(reverse("league:manage-team-create", args=["clare", "winter"]), data)
    assert [str(e) for e in response.context["form"].non_field_errors()] == [
        "There is already a team called “kilkee kings” this season.",
        "“Sean O Briain” looks like Seán Ó Briain, a player of the league already: type "
        "“Seán Ó Briain” to mean them, or add something to tell two people apart, such as "
        "a town: “Sean O Briain (Ennis)”.",
        f"{data['player_2']} already plays for Others this season.",
    ]
    assert "3 answers to put right" in response.text
    assert snapshot() == before


def test_generating_over_existing_fixtures_asks_to_replace_them(client, world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7))
    client.force_login(world.secretary)
    url = reverse("league:manage-fixtures-generate", args=["clare", "winter"])
    before = snapshot()
    response = client.post(url, {"start": "2026-09-14", "games_planned": 3})
    assert response.status_code == 200
    assert "already has 6 fixtures. Tick this box to replace them." in response.content.decode()
    assert snapshot() == before
    response = client.post(url, {"start": "2026-09-14", "games_planned": 3, "replace": "on"})
    assert response.status_code == 302
    assert Fixture.objects.filter(season=world.season).earliest("date").date.day == 14


def test_the_replace_box_shows_only_over_fixtures_and_says_how_many(client, world):
    # A new season's generate page offered to "Replace the fixtures already made".
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    client.force_login(world.secretary)
    url = reverse("league:manage-fixtures-generate", args=["clare", "winter"])
    assert 'name="replace"' not in client.get(url).content.decode()
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7))
    page = client.get(url).content.decode()
    assert "Replace the 6 fixtures already made (none has a result)" in page


def test_generating_over_results_is_refused_on_the_page(client, world):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7))
    Fixture.objects.filter(season=world.season).update(status="played")
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-fixtures-generate", args=["clare", "winter"]),
        {"start": "2026-09-14", "games_planned": 3, "replace": "on"},
    )
    assert response.status_code == 200
    assert "Winter already has results" in response.content.decode()
    assert snapshot() == before


def test_a_season_with_results_says_at_once_to_add_new_teams_matches_by_hand(client, world):
    """A team joined mid-season: the page offered to generate, then asked to tick
    Replace, then refused the tick ("already has results"): two answers at odds, and
    nothing said of adding the matches one at a time. And it proposed 5 games a fixture
    in a season that plays 3."""
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    fixtures_generate(season=world.season, start=datetime.date(2026, 9, 7), games_planned=3)
    Fixture.objects.filter(season=world.season).update(status="played")
    client.force_login(world.secretary)
    url = reverse("league:manage-fixtures-generate", args=["clare", "winter"])
    page = client.get(url).text
    add = reverse("league:manage-fixture-create", args=["clare", "winter"])
    assert "Winter already has results, so its fixtures are not generated again" in page
    assert f'href="{add}"' in page
    assert "Generate fixtures</button>" not in page
    before = snapshot()
    refused = client.post(url, {"start": "2026-09-14", "games_planned": 3}).text
    assert "Tick this box" not in refused
    assert "Winter already has results" in refused
    assert snapshot() == before
    form = client.get(add).context["form"]
    assert form["games_planned"].value() == 3  # as the season's fixtures have it


def test_an_organiser_postpones_a_fixture_at_their_pub(client, world, fixture_at_pub):
    client.force_login(world.organiser)
    response = client.post(
        reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk]),
        {"next": "https://evil.example/", "confirm": "yes"},
    )
    assert response.status_code == 302
    assert response["Location"] == fixture_at_pub.get_absolute_url()
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "postponed"


def test_postpone_asks_first_and_the_answer_keeps_the_page_it_came_from(
    client, world, fixture_at_pub
):
    """A season's list has a Postpone on every line: a tap while scrolling took a match
    off its night at once."""
    client.force_login(world.organiser)
    url = reverse("league:fixture-postpone", args=["clare", fixture_at_pub.pk])
    season_page = reverse("league:manage-season", args=["clare", "winter"])
    before = snapshot()
    response = ask(client, url, {"next": season_page})
    assert response.status_code == 200
    assert snapshot() == before
    page = response.content.decode()
    assert "Postpone Harbour Hearts v Cronin&#x27;s Jinkers?" in page
    assert "It comes off Thursday 1 October 2026 at The Harbour Bar." in page
    assert f'<a class="button" href="{season_page}">Keep it on 1 October</a>' in page
    assert f'name="next" value="{season_page}"' in page
    response = client.post(url, {"next": season_page, "confirm": "yes"})
    assert response["Location"] == season_page
    assert Fixture.objects.get(pk=fixture_at_pub.pk).status == "postponed"


def test_a_secretary_edits_a_fixture_into_a_three_team_table(client, world, fixture_at_pub):
    third = TeamFactory(season=world.season, pub=world.pub, name="Third")
    home, away = (ft.team for ft in fixture_at_pub.fixture_teams.all())
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:fixture-edit", args=["clare", fixture_at_pub.pk]),
        {
            "date": "2026-10-08",
            "pub": world.pub.pk,
            "home": home.pk,
            "away": away.pk,
            "third": third.pk,
            "games_planned": 6,
            "status": "scheduled",
        },
    )
    assert response.status_code == 302
    fixture = Fixture.objects.get(pk=fixture_at_pub.pk)
    assert [ft.team for ft in fixture.fixture_teams.all()] == [home, away, third]
    assert (fixture.date, fixture.games_planned) == (datetime.date(2026, 10, 8), 6)


def test_a_secretary_gives_a_pub_to_a_new_organiser_and_takes_it_back(client, world):
    client.force_login(world.secretary)
    url = reverse("league:manage-organisers", args=["clare"])
    response = client.post(
        url, {"pub": world.other_pub.pk, "username": "thatch", "password": "pint-of-plain-25"}
    )
    assert response.status_code == 302
    user = world.other_pub.organisers.get(username="thatch")
    assert client.get(url).status_code == 200
    url = reverse("league:manage-organiser-remove", args=["clare", "cronins", user.pk])
    question = ask(client, url).content.decode()  # asked first: nothing changes yet
    assert "Remove thatch as an organiser of Nora Cronin&#x27;s?" in question
    assert world.other_pub.organisers.filter(pk=user.pk).exists()
    response = client.post(url, {"confirm": "yes"})
    assert response.status_code == 302
    assert not world.other_pub.organisers.filter(pk=user.pk).exists()
    back = client.get(url, follow=True)  # Back to the question after "Yes"
    said = [str(m) for m in back.context["messages"]]
    assert said[-1] == "Already removed: they no longer organise Nora Cronin's."


def test_a_taken_username_with_a_password_is_refused_on_the_page(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-organisers", args=["clare"]),
        {"pub": world.other_pub.pk, "username": "harbour", "password": "pint-of-plain-25"},
    )
    assert response.status_code == 200
    assert "The username “harbour” is taken." in response.content.decode()
    assert snapshot() == before


def test_tonight_shows_only_the_organiser_pubs_fixtures_of_today(client, world):
    today = timezone.localdate()
    mine = FixtureFactory(season=world.season, pub=world.pub, date=today)
    FixtureFactory(season=world.season, pub=world.other_pub, date=today)
    FixtureFactory(season=world.season, pub=world.pub, date=today - datetime.timedelta(days=1))
    client.force_login(world.organiser)
    response = client.get(reverse("league:tonight", args=["clare"]))
    assert response.status_code == 200
    assert list(response.context["fixtures"]) == [mine]
    page = response.content.decode()
    assert "Tonight at The Harbour Bar" in page
    assert reverse("scoring:fixture-play", args=[mine.pk]) in page
    assert {t.pub for t in response.context["teams"]} == {world.pub}


def test_tonight_shows_a_postponed_fixture_as_postponed_with_no_play_but_a_new_date(client, world):
    """Kept in the list, so the organiser sees why it is not played and can move it."""
    fixture = FixtureFactory(
        season=world.season, pub=world.pub, date=timezone.localdate(), status="postponed"
    )
    client.force_login(world.organiser)
    response = client.get(reverse("league:tonight", args=["clare"]))
    assert list(response.context["fixtures"]) == [fixture]
    page = response.content.decode()
    assert "3 games · Postponed" in page
    assert reverse("scoring:fixture-play", args=[fixture.pk]) not in page
    assert reverse("league:fixture-reschedule", args=["clare", fixture.pk]) in page
    assert "Set a new date" in page


@pytest.mark.parametrize(
    ("status", "started", "finished", "words"),
    [
        ("scheduled", 0, 0, "Scheduled"),
        ("scheduled", 1, 0, "In play"),
        ("scheduled", 2, 1, "In play"),
        ("played", 3, 3, "Played"),
        ("postponed", 0, 0, "Postponed"),
    ],
)
def test_tonight_and_the_fixture_page_word_a_fixture_state_alike(
    client, world, status, started, finished, words
):
    fixture = FixtureFactory(
        season=world.season, pub=world.pub, date=timezone.localdate(), status=status
    )
    fixture_progress(fixture_id=fixture.pk, started=started, finished=finished)
    client.force_login(world.organiser)
    tonight = client.get(reverse("league:tonight", args=["clare"])).content.decode()
    assert f"3 games · {words}</span>" in tonight
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert f"· {words} · 3 games planned" in page


def test_a_played_match_is_offered_to_see_not_to_play(client, world):
    """Once every game is played, "Play" would send an organiser looking for a game to
    start: tonight's list and the fixture page offer the finished match to look at."""
    played = FixtureFactory(
        season=world.season, pub=world.pub, date=timezone.localdate(), status="played"
    )
    fixture_progress(fixture_id=played.pk, started=3, finished=3)
    client.force_login(world.organiser)
    match = reverse("scoring:fixture-play", args=[played.pk])
    for url in (reverse("league:tonight", args=["clare"]), played.get_absolute_url()):
        page = client.get(url).content.decode()
        assert f'href="{match}">See the match' in page
        assert ">Play<" not in page


def test_a_secretary_sees_every_pub_tonight(client, world):
    today = timezone.localdate()
    FixtureFactory(season=world.season, pub=world.pub, date=today)
    FixtureFactory(season=world.season, pub=world.other_pub, date=today)
    client.force_login(world.secretary)
    response = client.get(reverse("league:tonight", args=["clare"]))
    assert len(response.context["fixtures"]) == 2


def test_a_pub_of_another_league_is_not_offered_for_a_team(client, world):
    stranger = PubFactory(league=world.other_league)
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-team-create", args=["clare", "winter"]),
        {"name": "T", "pub": stranger.pk, "player_1": "A", "player_2": "B"},
    )
    assert response.status_code == 200
    assert not Team.objects.exists()


def test_wrong_ids_are_not_found(client, world):
    client.force_login(world.secretary)
    assert client.get("/clare/manage/seasons/nope/").status_code == 404
    assert client.get("/nope/manage/").status_code == 404
    assert client.get("/clare/fixtures/999999/edit/").status_code == 404
    assert client.post("/clare/manage/organisers/nope/1/remove/", follow=True).status_code == 404
    # Someone who does not organise the pub (a second tap, Back after "Yes"): said so.
    gone = client.post("/clare/manage/organisers/harbour/999999/remove/", follow=True)
    assert "Already removed: they no longer organise" in gone.content.decode()


def test_an_organiser_changes_the_initial_password(client, world):
    from tests.factories import PASSWORD

    client.force_login(world.organiser)
    response = client.post(
        reverse("league:password-change"),
        {
            "old_password": PASSWORD,
            "new_password1": "my-own-pint-25",
            "new_password2": "my-own-pint-25",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("league:password-change-done")
    world.organiser.refresh_from_db()
    assert world.organiser.check_password("my-own-pint-25")


@pytest.mark.parametrize("model", ["league", "pub", "season", "player", "team", "fixture"])
def test_the_admin_lists_open_with_their_filters_and_search(client, world, fixture_at_pub, model):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("boss", password="x-boss-25")
    client.force_login(admin)
    url = reverse(f"admin:league_{model}_changelist")
    assert client.get(url, {"q": "Harbour"}).status_code == 200
    first = fixture_at_pub if model == "fixture" else None
    if first:
        change = reverse("admin:league_fixture_change", args=[first.pk])
        assert client.get(change).status_code == 200


# Bad season, fixture and league-points input: a message beside the field, nothing saved.

OUT_OF_RANGE = "Give a date between 1 January 2000 and 31 December 2100."


def _season_data(season, **changes) -> dict:
    """What the season's edit page posts as it stands, with `changes`."""
    from league.forms import SeasonForm

    data = {
        name: "" if value is None else value
        for name, value in SeasonForm.initial_for(season).items()
        if value is not False
    }
    data["end_date"] = data["end_date"] and data["end_date"].isoformat()
    data["start_date"] = season.start_date.isoformat()
    return {**data, **changes}


def _edit_season(client, world, **changes):
    season = Season.objects.get(pk=world.season.pk)
    client.force_login(world.secretary)
    url = reverse("league:manage-season-edit", args=["clare", season.slug])
    return client.post(url, _season_data(season, **changes))


def _error_beside(response, field: str) -> list[str]:
    """The messages the page shows beside one field."""
    assert response.status_code == 200
    return list(response.context["form"].errors.get(field, []))


def test_the_season_edit_page_saves_what_it_shows_unchanged(client, world):
    response = _edit_season(client, world)
    assert response.status_code == 302


@pytest.mark.parametrize("end", ["9999-12-31", "2101-01-01"])
def test_a_season_ending_in_an_impossible_year_is_refused(client, world, end):
    before = snapshot()
    response = _edit_season(client, world, end_date=end)
    assert _error_beside(response, "end_date") == [OUT_OF_RANGE]
    assert OUT_OF_RANGE in response.content.decode()
    assert snapshot() == before


def test_a_season_starting_in_1900_is_refused(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-season-create", args=["clare"]),
        {**_season_data(world.season), "name": "Spring", "start_date": "1900-01-01"},
    )
    assert _error_beside(response, "start_date") == [OUT_OF_RANGE]
    assert snapshot() == before


@pytest.mark.parametrize("date", ["1900-01-01", "9999-12-31"])
def test_a_fixture_in_an_impossible_year_is_refused(client, world, date):
    home, away = (TeamFactory(season=world.season, pub=world.pub) for _ in range(2))
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-fixture-create", args=["clare", "winter"]),
        {"date": date, "pub": world.pub.pk, "home": home.pk, "away": away.pk, "games_planned": 3},
    )
    assert _error_beside(response, "date") == [OUT_OF_RANGE]
    assert snapshot() == before


def test_a_new_fixture_before_its_season_starts_is_refused(client, world):
    home, away = (TeamFactory(season=world.season, pub=world.pub) for _ in range(2))
    client.force_login(world.secretary)
    url = reverse("league:manage-fixture-create", args=["clare", "winter"])
    data = {"pub": world.pub.pk, "home": home.pk, "away": away.pk, "games_planned": 3}
    before = snapshot()
    response = client.post(url, {**data, "date": "2026-09-06"})
    assert _error_beside(response, "date") == [
        "Winter starts on 7 September 2026: give a date from then on."
    ]
    assert snapshot() == before
    response = client.post(url, {**data, "date": "2026-09-07"})
    assert response.status_code == 302
    assert Fixture.objects.get().date == datetime.date(2026, 9, 7)


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("1800-01-01", OUT_OF_RANGE),
        ("2026-08-31", "Winter starts on 7 September 2026: give a date from then on."),
    ],
)
def test_fixtures_generated_from_before_the_season_are_refused(client, world, start, message):
    for _ in range(4):
        TeamFactory(season=world.season, pub=world.pub)
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-fixtures-generate", args=["clare", "winter"]),
        {"start": start, "games_planned": 3},
    )
    assert _error_beside(response, "start") == [message]
    assert snapshot() == before


@pytest.mark.parametrize(("win", "loss"), [(1, 5), (2, 2), (0, 0)])
def test_a_loss_worth_as_much_as_a_win_is_refused(client, world, win, loss):
    before = snapshot()
    response = _edit_season(client, world, points_win=win, points_loss=loss)
    assert _error_beside(response, "points_loss") == [
        "A win must be worth more league points than a loss."
    ]
    assert snapshot() == before


def test_a_loss_worth_a_point_less_than_a_win_is_saved(client, world):
    response = _edit_season(client, world, points_win=3, points_loss=1)
    assert response.status_code == 302
    world.season.refresh_from_db()
    assert (world.season.points_win, world.season.points_loss) == (3, 1)


@pytest.mark.parametrize(
    ("typed", "saved"),
    [
        ("marches, points_for", ["points", "marches", "points_for"]),
        ("Head-to-head", ["points", "head_to_head"]),
        ("league points, marches", ["points", "marches"]),
        ("points, head_to_head, difference", ["points", "head_to_head", "difference"]),
        ("", []),
    ],
)
def test_league_points_always_rank_the_table_first(client, world, typed, saved):
    response = _edit_season(client, world, tiebreaks=typed)
    assert response.status_code == 302
    world.season.refresh_from_db()
    assert world.season.tiebreaks == saved
    assert world.season.tiebreak_order[0] == "points"


def test_the_tiebreak_order_is_shown_and_asked_for_in_words(client, world):
    """It showed "points, head_to_head, difference, points_for, marches" in a one-line box
    cut off at 390 px, "points" not among the choices its help listed."""
    client.force_login(world.secretary)
    form = client.get(reverse("league:manage-season-edit", args=["clare", "winter"])).context[
        "form"
    ]
    field = form["tiebreaks"]
    assert field.value() == "head-to-head, points difference, points for, marches"
    assert "<textarea" in str(field)
    assert field.help_text == (
        "League points always come first. Then the tie-breaks, in order, separated by "
        "commas, from: head-to-head, points difference, points for, marches. "
        "Left empty, they are in that usual order."
    )
    response = _edit_season(client, world, tiebreaks=field.value())
    assert response.status_code == 302
    world.season.refresh_from_db()
    assert world.season.tiebreak_order == Season.DEFAULT_TIEBREAKS


def test_a_tiebreak_box_left_empty_says_the_usual_order_is_kept(client, world):
    """Found by a walk: the box cleared and saved brought back the usual order without a
    word, and the secretary thought there were no tie-breaks now."""
    Season.objects.filter(pk=world.season.pk).update(tiebreaks=["points", "marches"])
    response = _edit_season(client, world, tiebreaks="")
    said = [str(m) for m in response.wsgi_request._messages]
    # Found by a walk: "kept" when the order had just changed back.
    assert said[0] == (
        "Winter saved. The tie-break box was empty, so the tie-breaks are back in the "
        "usual order: head-to-head, points difference, points for, marches."
    )
    world.season.refresh_from_db()
    assert world.season.tiebreak_order == Season.DEFAULT_TIEBREAKS
    response = _edit_season(client, world, tiebreaks="")
    assert [str(m) for m in response.wsgi_request._messages][-1] == (
        "Winter saved. The tie-break box was empty, so the usual order is kept: "
        "head-to-head, points difference, points for, marches."
    )
    response = _edit_season(client, world, tiebreaks="marches")
    assert [str(m) for m in response.wsgi_request._messages][-1] == "Winter saved."


@pytest.mark.parametrize("typed", ["marches, points", "head-to-head, league points"])
def test_league_points_after_a_tiebreak_are_refused(client, world, typed):
    before = snapshot()
    response = _edit_season(client, world, tiebreaks=typed)
    assert _error_beside(response, "tiebreaks") == [
        "League points always come first: list the tie-breaks after them."
    ]
    assert snapshot() == before


CLOSED = (
    "Winter is finished, so this cannot change. "
    "To change it, reopen the season: set its status to Running."
)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("points_win", 5),
        ("points_loss", 1),
        ("points_shutout", 0),
        ("tiebreaks", "points, marches"),
        ("confirmed_only", "on"),
        ("min_games", 1),
        ("ruleset_key", "forty-five"),
        ("target", 31),
        ("march_bonus", 10),
        ("march_wins", "on"),
    ],
)
def test_a_closed_season_refuses_a_change_to_what_decides_its_table(client, world, field, value):
    services.season_close(season=world.season)
    before = snapshot()
    response = _edit_season(client, world, **{field: value})
    assert _error_beside(response, field) == [CLOSED]
    assert snapshot() == before


def test_a_closed_season_says_so_on_its_edit_page(client, world):
    services.season_close(season=world.season)
    client.force_login(world.secretary)
    response = client.get(reverse("league:manage-season-edit", args=["clare", "winter"]))
    assert "Winter is closed. Its rules, league points and tie-breaks cannot change" in (
        response.content.decode()
    )


def test_a_closed_season_can_still_be_renamed_and_its_dates_changed(client, world):
    Season.objects.filter(pk=world.season.pk).update(tiebreaks=["points", "marches"])
    services.season_close(season=world.season)
    response = _edit_season(client, world, name="Winter 2026", end_date="2027-04-30")
    assert response.status_code == 302
    season = Season.objects.get(pk=world.season.pk)
    assert (season.name, season.end_date) == ("Winter 2026", datetime.date(2027, 4, 30))
    assert (season.status, season.tiebreaks) == ("finished", ["points", "marches"])


def test_a_closed_season_reopened_takes_new_league_points(client, world):
    services.season_close(season=world.season)
    response = _edit_season(client, world, status="running", points_win=3)
    assert response.status_code == 302
    season = Season.objects.get(pk=world.season.pk)
    assert (season.status, season.points_win) == ("running", 3)


def test_a_player_taken_off_a_team_still_has_it_on_their_page(client, world):
    # Found by a walk: Seán, replaced on Harbour Hearts after 12 games for them, read
    # "Teams: No teams yet." on his own page.
    from tests.factories import win_game

    team = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts")
    other = TeamFactory(season=world.season, pub=world.other_pub)
    sean = team.players.order_by("pk").first()
    win_game(season=world.season, winner=team, loser=other)
    keep = team.players.exclude(pk=sean.pk).get()
    services.team_update(
        team=team, name=team.name, pub=team.pub, player_names=[keep.name, "Cathal Ryan"]
    )
    page = client.get(reverse("league:player", args=["clare", sean.pk])).text
    assert "Harbour Hearts" in page and "No teams yet." not in page
    assert "Played for this team earlier" in page
    assert (
        "Played for this team earlier"
        not in client.get(reverse("league:player", args=["clare", keep.pk])).text
    )


def test_a_players_page_leads_to_the_seasons_standings_as_the_other_pages_do(client, world):
    """Found by a walk: a player's page, opened from a shared link, had no way in its
    header to the season or its tables; the team, pub and fixture pages have."""
    team = TeamFactory(season=world.season, pub=world.pub)

    page = client.get(reverse("league:player", args=["clare", team.players.first().pk])).text

    assert reverse("league:standings-teams", args=["clare", "winter"]) in page


def test_an_organiser_edits_their_team_but_only_the_secretary_moves_its_division(client, world):
    # Found by a walk: an organiser could put their own team in another division.
    from tests.factories import DivisionFactory

    north, south = (DivisionFactory(season=world.season, name=n) for n in ("North", "South"))
    team = TeamFactory(season=world.season, pub=world.pub, name="Harbour Hearts", division=north)
    names = list(team.players.values_list("name", flat=True))
    data = {"name": "Harbour Hearts", "pub": world.pub.pk, "division": south.pk}
    data.update({f"player_{n}": name for n, name in enumerate(names, 1)})
    url = reverse("league:team-edit", args=["clare", team.pk])

    client.force_login(world.organiser)
    page = client.get(url).text
    assert "Only the league secretary moves a team between divisions." in page
    assert client.post(url, {**data, "name": "Harbour Hearts Too"}).status_code == 302
    team.refresh_from_db()
    assert (team.name, team.division) == ("Harbour Hearts Too", north)

    client.force_login(world.secretary)
    assert client.post(url, data).status_code == 302
    team.refresh_from_db()
    assert team.division == south


def test_the_season_form_says_what_its_house_rules_mean(client, world):
    """Found by a walk: "Target" and "March bonus" left a new secretary guessing."""
    client.force_login(world.secretary)
    page = html.unescape(
        client.get(reverse("league:manage-season-create", args=["clare"])).content.decode()
    )
    assert "Points to win a game" in page
    assert (
        "Leave blank for the preset's: 25 in Twenty-Five, 15 in Fifteen, 45 in Forty-Five" in page
    )
    assert "Extra points for a march" in page
    assert "when one side takes all five tricks (a march, or jink)" in page
    assert "all five tricks win the game, whatever the score" in page
