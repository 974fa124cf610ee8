"""Standings pages: what they show, their exports, print view and PDF, and their cost."""

import csv
import html
import io
import re

import openpyxl
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from league import standings
from league.models import Season
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
    play_game,
    win_game,
)

A4 = (595, 842)  # points, rounded


@pytest.fixture
def season(db):
    season = SeasonFactory(name="Winter 2026", slug="winter-2026", league__slug="clare")
    pub = PubFactory(league=season.league, name="The Harbour Bar")
    a, b, c = (TeamFactory(season=season, pub=pub, name=n) for n in ("Aces", "Bowers", "Cuts"))
    for round, (winner, loser, shutout) in enumerate(
        [(a, b, False), (a, c, True), (b, c, False)], start=1
    ):
        fixture = FixtureFactory(season=season, pub=pub, round=round, teams=[winner, loser])
        win_game(season=season, winner=winner, loser=loser, fixture=fixture, shutout=shutout)
    return season


def url(name, season, *args):
    return reverse(f"league:{name}", args=[season.league.slug, season.slug, *args])


def grow(season, teams=6):
    """Add teams and games to a season, for the second size of a query count."""
    more = [TeamFactory(season=season) for _ in range(teams)]
    for home, away in zip(more, more[1:], strict=False):
        fixture = FixtureFactory(season=season, pub=home.pub, teams=[home, away])
        win_game(season=season, winner=home, loser=away, fixture=fixture)
        win_game(season=season, winner=away, loser=home, fixture=fixture, number=2)
    DivisionFactory(season=season)


def test_the_team_table_lists_teams_in_order_with_their_totals(client, season, db):
    response = client.get(url("standings-teams", season))
    assert response.status_code == 200
    assert "league/standings_page.html" in [t.name for t in response.templates]
    rows = standings.team_rows(season)
    assert [(r["position_label"], r["name"], r["league_points"]) for r in rows] == [
        ("1", "Aces", 5),
        ("2", "Bowers", 2),
        ("3", "Cuts", 0),
    ]
    html = response.content.decode()
    assert html.index("Aces") < html.index("Bowers") < html.index("Cuts")
    assert "Ranked by league points, then head-to-head, then points difference" in html
    assert 'hx-target="#standings-table"' in html


def test_a_tie_broken_on_head_to_head_says_so_on_the_page(client, db):
    season = SeasonFactory()
    a, b = TeamFactory(season=season, name="Aces"), TeamFactory(season=season, name="Bowers")
    c = TeamFactory(season=season, name="Cuts")
    win_game(season=season, winner=a, loser=b)
    win_game(season=season, winner=b, loser=c)
    win_game(season=season, winner=c, loser=a)
    win_game(season=season, winner=a, loser=c)
    win_game(season=season, winner=b, loser=a)
    win_game(season=season, winner=b, loser=c)
    win_game(season=season, winner=c, loser=a)
    win_game(season=season, winner=a, loser=b)
    # Aces and Bowers level on 6 points; Aces won 2 of their 3 meetings.
    response = client.get(url("standings-teams", season))
    assert (
        "level on 6 league points; ahead with 4 league points in the games between them"
        in response.content.decode()
    )


def test_sorting_by_a_column_works_as_a_plain_link_and_as_an_htmx_swap(client, season):
    page = client.get(url("standings-teams", season), {"sort": "-points_against"})
    html = page.content.decode()
    assert html.index("Cuts") < html.index("Aces")
    assert 'aria-sort="descending"' in html
    partial = client.get(
        url("standings-teams", season),
        {"sort": "name"},
        headers={"HX-Request": "true", "HX-Target": "standings-table"},
    )
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="standings-table"')
    assert "<h1" not in body
    assert "HX-Request" in partial["Vary"]


def test_a_first_tap_on_a_number_puts_the_largest_first(client, season):
    """Pts, For, Wins…: a reader taps to see the most first; names sort A to Z, and the
    position 1 first. A second tap turns each round."""
    html = client.get(url("standings-teams", season)).content.decode()
    links = dict(re.findall(r'href="\?sort=([-\w]+)"[^>]*>([^<]+)</a>', html))
    by_header = {header: sort for sort, header in links.items()}
    assert by_header["Pts"] == "-league_points"
    assert by_header["For"] == "-points_for"
    assert by_header["Team"] == "team"
    assert by_header["Pos"] == "-position"  # shown by position already: the tap turns it
    ordered = client.get(url("standings-teams", season), {"sort": "-league_points"})
    html = ordered.content.decode()
    assert 'aria-sort="descending"' in html
    assert 'href="?sort=league_points"' in html
    players = reverse("league:standings-players", args=["clare", "winter-2026"])
    html = client.get(players).content.decode()
    assert 'href="?sort=-win_percent"' in html


def test_a_pub_filter_keeps_positions_and_unknown_choices_are_404(client, season):
    other = PubFactory(league=season.league, name="The Thatch")
    TeamFactory(season=season, pub=other, name="Dealers")
    response = client.get(url("standings-teams", season), {"pub": other.slug})
    assert "Dealers" in response.content.decode()
    assert "Aces" not in response.content.decode()
    assert client.get(url("standings-teams", season), {"pub": "nowhere"}).status_code == 404
    assert client.get(url("standings-teams", season), {"division": "x"}).status_code == 404
    assert client.get(url("standings-teams", season), {"division": "999"}).status_code == 404


def test_the_player_table_ranks_only_players_with_the_minimum_games(client, db):
    season = SeasonFactory(min_games=2)
    a, b = TeamFactory(season=season), TeamFactory(season=season)
    c = TeamFactory(season=season)
    win_game(season=season, winner=a, loser=b)
    win_game(season=season, winner=a, loser=b)
    win_game(season=season, winner=c, loser=a)
    ranked, others = standings.player_rows(season)
    assert {r["name"] for r in ranked} == {p.name for p in [*a.players.all(), *b.players.all()]}
    assert {r["name"] for r in others} == {p.name for p in c.players.all()}
    html = client.get(url("standings-players", season)).content.decode()
    assert "Not yet ranked" in html


def test_pub_and_all_time_tables_add_up_the_seasons(client, season):
    later = SeasonFactory(league=season.league, start_date=season.start_date.replace(year=2027))
    team = season.teams.get(name="Aces")
    again = TeamFactory(season=later, pub=team.pub, players=list(team.players.all()))
    win_game(season=later, winner=again, loser=TeamFactory(season=later))
    ranked, _ = standings.all_time_player_rows(season.league, min_games=0)
    top = next(r for r in ranked if r["id"] == team.players.first().pk)
    assert (top["played"], top["won"]) == (3, 3)
    pubs = standings.pub_rows(None, league=season.league)
    harbour = next(r for r in pubs if r["name"] == "The Harbour Bar")
    assert harbour["teams"] == 4
    for name in ("all-time-players", "all-time-pubs"):
        assert client.get(reverse(f"league:{name}", args=["clare"])).status_code == 200
    assert client.get(url("standings-pubs", season)).status_code == 200


@pytest.mark.parametrize("kind", ["teams", "players", "pubs"])
def test_each_table_downloads_as_csv_and_xlsx_with_the_rows_of_the_page(client, season, kind):
    if kind == "teams":
        expected = [[r["position_label"], r["name"]] for r in standings.team_rows(season)]
    elif kind == "players":
        ranked, others = standings.player_rows(season)  # the files have both: the page's
        expected = [[r["position_label"], r["name"]] for r in [*ranked, *others]]
    else:
        expected = [[r["position_label"], r["name"]] for r in standings.pub_rows(season)]
    response = client.get(url("standings-download", season, kind, "csv"))
    assert response.status_code == 200
    assert f'filename="clare-winter-2026-{kind}.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][0] == "Pos"
    assert [row[:2] for row in rows[1:]] == expected
    response = client.get(url("standings-download", season, kind, "xlsx"))
    assert f"clare-winter-2026-{kind}.xlsx" in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = sheet.iter_rows(min_row=2, values_only=True)
    values = [["" if c is None else str(c) for c in row[:2]] for row in rows]
    assert values == expected


def test_the_team_csv_has_every_column_and_the_tie_break_notes(client, season):
    response = client.get(url("standings-download", season, "teams", "csv"))
    header = next(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert header == [
        "Pos",
        "Team",
        "Pts",
        "P",
        "W",
        "L",
        "Diff",
        "For",
        "Against",
        "Marches",
        "Shutouts",
        "Fixtures won",
        "Pub",
        "Tie-break",
        "Shared",
    ]


def test_an_unknown_download_format_or_table_is_404(client, season):
    assert client.get(url("standings-download", season, "teams", "exe")).status_code == 404
    assert client.get(url("standings-download", season, "cards", "csv")).status_code == 404
    assert client.get(url("standings-print", season, "cards")).status_code == 404
    bad = reverse("league:standings-teams", args=["clare", "no-such-season"])
    assert client.get(bad).status_code == 404


def test_the_print_view_has_the_header_date_tiebreaks_and_a_qr_code(client, season):
    response = client.get(url("standings-print", season, "teams"))
    html = response.content.decode()
    assert response.status_code == 200
    assert season.league.name in html and "Winter 2026" in html
    assert "Printed " in html and "Ranked by league points, then head-to-head" in html
    assert 'src="data:image/svg+xml' in html
    assert "<thead>" in html and "style=" not in html


def test_the_pdf_is_the_table_on_a4_pages_and_is_reused_until_a_result_changes(client, season):
    cache.clear()
    response = client.get(url("standings-pdf", season, "teams"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="clare-winter-2026-teams.pdf"' in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == A4
    text = "".join(page.extract_text() for page in reader.pages)
    for words in ("Winter 2026", "Aces", "Bowers", "Cuts", "Pts", "head-to-head"):
        assert words in text
    again = client.get(url("standings-pdf", season, "teams"))
    assert again.content == response.content

    def pdfs():
        return [key for key in cache._cache if "standings-pdf" in key]

    assert len(pdfs()) == 1
    teams = list(season.teams.order_by("name"))
    win_game(season=season, winner=teams[2], loser=teams[0])
    client.get(url("standings-pdf", season, "teams"))
    assert len(pdfs()) == 2


def test_a_long_table_breaks_across_pages_with_the_header_repeated(client, db):
    season = SeasonFactory()
    teams = [TeamFactory(season=season, name=f"Team number {i:02}") for i in range(70)]
    for home, away in zip(teams, teams[1:], strict=False):
        win_game(season=season, winner=home, loser=away)
    cache.clear()
    response = client.get(url("standings-pdf", season, "teams"))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) >= 2
    assert all("Pts" in page.extract_text() for page in reader.pages[:2])


def test_the_team_and_player_standings_pages_show_the_record(client, season):
    team = season.teams.get(name="Aces")
    response = client.get(reverse("league:standings-team", args=["clare", team.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Position 1 of 3 with 5 league points" in html
    assert "<svg" in html and "<title" in html and "league position by round" in html
    assert "Bowers" in html and "Cuts" in html
    player = team.players.first()
    response = client.get(reverse("league:standings-player", args=["clare", player.pk]))
    html = response.content.decode()
    partner = team.players.exclude(pk=player.pk).get()
    assert f'{partner.name}</a> <span class="muted">2 games together, 2 won' in html
    assert "Winter 2026" in html and "Recent games" in html
    assert client.get(reverse("league:standings-team", args=["clare", 99999])).status_code == 404
    assert client.get(reverse("league:standings-player", args=["x", player.pk])).status_code == 404


def test_a_team_without_a_division_is_placed_among_the_teams_without_one(client, db):
    # The table ranks the teams with no division as a group of their own: the team's
    # page says the same position, out of the same teams, in its words and its chart.
    season = SeasonFactory(league__slug="clare")
    north = DivisionFactory(season=season, name="North")
    n1, n2 = (TeamFactory(season=season, division=north, name=n) for n in ("N1", "N2"))
    loose, other = (TeamFactory(season=season, name=n) for n in ("Loose", "Other"))
    pub = loose.pub
    for round, (winner, loser) in enumerate([(n1, n2), (n1, n2), (loose, other)], start=1):
        fixture = FixtureFactory(season=season, pub=pub, round=round, teams=[winner, loser])
        win_game(season=season, winner=winner, loser=loser, fixture=fixture)
    rows = {row["name"]: row for row in standings.team_rows(season)}
    assert (rows["Loose"]["division"], rows["Loose"]["position"]) == ("", 1)

    html = client.get(reverse("league:standings-team", args=["clare", loose.pk])).text
    assert "Position 1 of 2 with 2 league points" in html
    assert "Now 1 of 2." in html


def query_count(client, path):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "name",
    ["standings-teams", "standings-players", "standings-pubs", "standings-print"],
)
def test_each_standings_page_costs_the_same_queries_at_two_sizes(client, season, name):
    args = ("teams",) if name == "standings-print" else ()
    path = url(name, season, *args)
    TeamFactory(season=season, name="Dregs")  # level with Cuts on 0: head-to-head is read
    small = query_count(client, path)
    grow(season)
    assert query_count(client, path) == small
    assert small <= 8


def test_all_time_team_and_player_pages_cost_the_same_queries_at_two_sizes(client, season):
    team = season.teams.get(name="Aces")
    paths = [
        reverse("league:all-time-players", args=["clare"]),
        reverse("league:all-time-pubs", args=["clare"]),
        reverse("league:standings-team", args=["clare", team.pk]),
        reverse("league:standings-player", args=["clare", team.players.first().pk]),
    ]
    TeamFactory(season=season, name="Dregs")  # level with Cuts on 0: head-to-head is read
    small = [query_count(client, p) for p in paths]
    grow(season)
    later = SeasonFactory(league=season.league, start_date=season.start_date.replace(year=2027))
    grow(later)
    again = TeamFactory(season=later, players=list(team.players.all()))
    win_game(season=later, winner=again, loser=TeamFactory(season=later))
    play_game(season=later, teams=[again, TeamFactory(season=later)], deals=[(2, 3)])
    assert [query_count(client, p) for p in paths] == small


def test_the_season_and_league_pages_link_to_the_standings(client, season):
    teams_url = url("standings-teams", season)
    html = client.get(reverse("league:season", args=["clare", season.slug])).content.decode()
    assert teams_url in html
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
    html = client.get(reverse("league:league", args=["clare"])).content.decode()
    assert teams_url in html


def test_divisions_are_ranked_apart_and_printed_as_tables_of_their_own(client, db):
    season = SeasonFactory()
    north, south = (
        DivisionFactory(season=season, name="North"),
        DivisionFactory(season=season, name="South"),
    )
    n1, n2 = (TeamFactory(season=season, division=north, name=n) for n in ("N1", "N2"))
    s1, s2 = (TeamFactory(season=season, division=south, name=n) for n in ("S1", "S2"))
    win_game(season=season, winner=n2, loser=n1)
    win_game(season=season, winner=s1, loser=s2)
    rows = standings.team_rows(season)
    assert [(r["division"], r["position"], r["name"]) for r in rows] == [
        ("North", 1, "N2"),
        ("North", 2, "N1"),
        ("South", 1, "S1"),
        ("South", 2, "S2"),
    ]
    response = client.get(url("standings-teams", season), {"division": south.pk})
    html = response.content.decode()
    assert "S1" in html and "N1" not in html
    printed = client.get(url("standings-print", season, "teams")).content.decode()
    assert printed.count("<table") == 2
    assert "<h2>North</h2>" in printed and "<h2>South</h2>" in printed


def test_a_printed_tie_break_names_the_division_its_position_is_in(client, db):
    """Found by a walk: with divisions, the printed "Tie-breaks" read "2 N1: …" and "2
    S2: …", each a 2nd place, of which table it did not say."""
    season = SeasonFactory(points_shutout=0)
    for name in ("North", "South"):
        division = DivisionFactory(season=season, name=name)
        one, two = (
            TeamFactory(season=season, division=division, name=f"{name[0]}{n}") for n in (1, 2)
        )
        win_game(season=season, winner=one, loser=two)  # 35–15
        win_game(season=season, winner=two, loser=one, shutout=True, number=2)  # 25–0
    printed = html.unescape(client.get(url("standings-print", season, "teams")).content.decode())
    notes = printed.split("<h2>Tie-breaks</h2>")[1]
    assert "<li>North, 1 N2: level on 2 league points" in notes
    assert "<li>South, 2 S1: level on 2 league points" in notes


def test_with_every_division_shown_each_is_a_table_of_its_own(client, db):
    # All divisions on one page: each under its name, ranked apart, never mixed into
    # one list of 1, 1, 2, 2; the downloads list them division by division.
    season = SeasonFactory()
    north, south = (
        DivisionFactory(season=season, name="North"),
        DivisionFactory(season=season, name="South"),
    )
    n1, n2 = (TeamFactory(season=season, division=north, name=n) for n in ("N1", "N2"))
    s1, s2 = (TeamFactory(season=season, division=south, name=n) for n in ("S1", "S2"))
    TeamFactory(season=season, name="Alone")  # in no division: listed after them
    win_game(season=season, winner=n2, loser=n1)
    win_game(season=season, winner=s1, loser=s2)

    html = client.get(url("standings-teams", season)).text
    table = html.split('id="standings-table"')[1]
    order = ["<h2>North</h2>", ">N2<", ">N1<", "<h2>South</h2>", ">S1<", ">S2<"]
    order += ["<h2>No division</h2>", ">Alone<"]
    places = [table.index(text) for text in order]
    assert places == sorted(places)
    assert table.count("<table") == 3
    sorted_by_name = client.get(url("standings-teams", season), {"sort": "team"}).text
    assert sorted_by_name.count("<table") == 3

    for fmt in ("csv", "xlsx"):
        response = client.get(url("standings-download", season, "teams", fmt))
        if fmt == "csv":
            rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        else:
            sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
            rows = [[str(cell or "") for cell in row] for row in sheet.iter_rows(values_only=True)]
        team = rows[0].index("Team")
        assert [row[team] for row in rows[1:]] == ["N2", "N1", "S1", "S2", "Alone"], fmt


def test_teams_yet_to_play_share_a_place_with_no_tie_break_note(client, db):
    # A new season: every team on nothing. "=1", with no sentence under each team
    # about league points, points difference and marches that are all 0.
    season = SeasonFactory()
    for name in ("Aces", "Bowers", "Cuts"):
        TeamFactory(season=season, name=name)
    rows = standings.team_rows(season)
    assert [(r["position_label"], r["note"]) for r in rows] == [("=1", "")] * 3
    html = client.get(url("standings-teams", season)).text
    assert "tiebreak-note" not in html


def test_all_time_tables_print_and_download_too(client, season):
    cache.clear()
    for kind in ("teams", "players", "pubs"):
        base = ["clare", kind]
        assert client.get(reverse("league:all-time-print", args=base)).status_code == 200
        csv_response = client.get(reverse("league:all-time-download", args=[*base, "csv"]))
        assert f"clare-all-time-{kind}.csv" in csv_response["Content-Disposition"]
    pdf = client.get(reverse("league:all-time-pdf", args=["clare", "pubs"]))
    assert "The Harbour Bar" in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    printed = client.get(reverse("league:all-time-print", args=["clare", "teams"]))
    assert "Aces" in printed.content.decode()
    assert client.get(reverse("league:all-time-pdf", args=["clare", "rooms"])).status_code == 404


def test_an_unknown_tiebreak_key_in_a_season_is_left_out_not_a_server_error(client, season):
    Season.objects.filter(pk=season.pk).update(tiebreaks=["marches", "no-such-key", "points"])
    response = client.get(url("standings-teams", season))
    assert response.status_code == 200
    assert "Ranked by marches, then league points." in response.content.decode()


def test_the_table_comes_from_the_cache_until_the_next_result(client, season, db):
    page = url("standings-teams", season)
    first = client.get(page)
    with CaptureQueriesContext(connection) as again:
        second = client.get(page)
    with CaptureQueriesContext(connection) as fresh_cache:
        cache.clear()
        client.get(page)
    table = lambda response: response.text.split('id="standings-table"')[1]  # noqa: E731
    assert table(second) == table(first)
    assert len(again) < len(fresh_cache)  # the ranking was not read again
    bowers, cuts = (t for t in season.teams.order_by("name") if t.name != "Aces")
    fixture = FixtureFactory(season=season, pub=bowers.pub, teams=[cuts, bowers])
    for number in (1, 2, 3):
        win_game(season=season, winner=cuts, loser=bowers, fixture=fixture, number=number)
    after = client.get(page).text
    assert after != first.text
    row = next(line for line in after.split("<tr") if "Cuts" in line)
    assert ">5<" in row  # Cuts have played five games now


def test_the_print_view_writes_the_difference_as_the_screen_does(client, season):
    # The live table said "+45", the print view and its PDF "45": on the noticeboard a
    # team's plus looked like a question.
    screen = client.get(url("standings-teams", season)).content.decode()
    printed = client.get(url("standings-print", season, "teams")).content.decode()
    diffs = re.findall(r'<td class="num">([+-]\d+)</td>', printed)
    assert diffs and all(d in screen for d in diffs)
    assert any(d.startswith("+") for d in diffs) and any(d.startswith("-") for d in diffs)


@pytest.mark.parametrize(
    ("kind", "rule"),
    [
        ("players", "Ranked by share of games won, then wins, points for and marches."),
        ("pubs", "Ranked by share of games won, then wins."),
    ],
)
def test_the_print_view_of_players_and_pubs_states_their_own_ranking(client, season, kind, rule):
    # Both said the team table's rule, "league points, then head-to-head", on paper.
    printed = client.get(url("standings-print", season, kind)).content.decode()
    assert rule in printed
    assert "head-to-head" not in printed and "league points" not in printed


def test_the_all_time_print_view_states_the_all_time_ranking(client, season):
    page = reverse("league:all-time-print", args=[season.league.slug, "teams"])
    printed = client.get(page).content.decode()
    assert "Ranked by share of games won, then wins, points for and marches." in printed


@pytest.mark.parametrize("kind", ["teams", "players", "pubs"])
@pytest.mark.parametrize("all_time", [False, True])
def test_the_page_and_its_print_view_state_one_ranking(client, season, kind, all_time):
    # Each said it in its own words: "…then points difference. Teams still level share
    # a position." on screen, "…then points difference; teams still level share a
    # position." on paper, each written separately and free to drift apart.
    if all_time:
        args = [season.league.slug]
        page = reverse(f"league:all-time-{kind}", args=args)
        printed = reverse("league:all-time-print", args=[*args, kind])
    else:
        page, printed = url(f"standings-{kind}", season), url("standings-print", season, kind)
    responses = [client.get(address) for address in (page, printed)]
    said = responses[0].context["ranked_by"]
    assert said.startswith("Ranked by ") and said == responses[1].context["ranked_by"]
    for response in responses:
        assert said in html.unescape(response.content.decode())


def test_a_pubs_table_prints_as_it_is_shown(client, season):
    # The page filtered to one pub led to a print view and a PDF of the whole league:
    # a pub printing its teams for its noticeboard got every other pub's too.
    other = PubFactory(league=season.league, name="Nora Cronin's", slug="cronins")
    TeamFactory(season=season, pub=other, name="Jinkers")
    harbour = season.league.pubs.get(name="The Harbour Bar")
    page = client.get(url("standings-teams", season), {"pub": harbour.slug}).content.decode()
    printed_link = f"{url('standings-print', season, 'teams')}?pub={harbour.slug}"
    assert f'href="{printed_link}"' in page
    assert f'href="{url("standings-pdf", season, "teams")}?pub={harbour.slug}"' in page
    printed = client.get(printed_link).content.decode()
    assert "Aces" in printed and "Jinkers" not in printed
    assert "The Harbour Bar" in printed
    pdf = client.get(url("standings-pdf", season, "teams"), {"pub": harbour.slug})
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Aces" in text and "Jinkers" not in text
    assert client.get(printed_link.replace(harbour.slug, "nowhere")).status_code == 404


def test_the_position_chart_ends_where_the_table_has_the_team(client, db):
    """Found by a walk: the chart ranked without head-to-head, so a team placed 2nd on
    it said "Now 1 of 4" beside "Position 2 of 4" above it."""
    season = SeasonFactory(points_shutout=0)
    a, b, c, d = (TeamFactory(season=season, name=n) for n in ("Aces", "Bowers", "Cuts", "Dregs"))
    for round, (winner, loser, shutout) in enumerate(
        [(a, b, False), (c, a, False), (a, d, False), (b, c, True), (b, d, True), (d, c, False)],
        start=1,
    ):
        fixture = FixtureFactory(season=season, pub=winner.pub, round=round, teams=[winner, loser])
        win_game(season=season, winner=winner, loser=loser, fixture=fixture, shutout=shutout)
    # Aces and Bowers level on 4 league points: Aces beat Bowers, who have the better
    # points difference (+30 against +20).
    for team, position in ((a, 1), (b, 2)):
        html = client.get(reverse("league:standings-team", args=[season.league.slug, team.pk])).text
        assert f"Position {position} of 4 with 4 league points" in html
        assert f"Now {position} of 4." in html
