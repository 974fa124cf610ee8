"""The pure ranking: tie-breaks one by one, in the season's order, each explained."""

from hypothesis import given
from hypothesis import strategies as st

from league.models import Season
from league.ranking import (
    Pair,
    Points,
    Totals,
    rank_players,
    rank_pubs,
    rank_teams,
)

DEFAULT = Season.DEFAULT_TIEBREAKS
POINTS = Points(win=2, loss=0, shutout=1)


def team(id, name, *, won=0, lost=0, shutouts=0, pf=0, pa=0, marches=0):
    return Totals(
        id=id,
        name=name,
        played=won + lost,
        won=won,
        lost=lost,
        shutout_wins=shutouts,
        points_for=pf,
        points_against=pa,
        marches=marches,
    )


def table(placed):
    return [(p.position_label, p.totals.name) for p in placed]


def test_more_league_points_ranks_higher_with_no_note():
    placed = rank_teams(
        [team(1, "A", won=1, lost=2), team(2, "B", won=3)], order=DEFAULT, points=POINTS
    )
    assert table(placed) == [("1", "B"), ("2", "A")]
    assert [p.league_points for p in placed] == [6, 2]
    assert [p.note for p in placed] == ["", ""]


def test_a_shutout_win_earns_the_extra_point():
    placed = rank_teams(
        [team(1, "A", won=2), team(2, "B", won=2, shutouts=1)], order=DEFAULT, points=POINTS
    )
    assert table(placed) == [("1", "B"), ("2", "A")]
    assert [p.league_points for p in placed] == [5, 4]


def test_level_on_points_head_to_head_decides_and_says_so():
    a = team(1, "A", won=2, lost=1, pf=90, pa=60)
    b = team(2, "B", won=2, lost=1, pf=100, pa=50)
    pairs = {(1, 2): Pair(won=1, lost=0), (2, 1): Pair(won=0, lost=1)}
    placed = rank_teams([a, b], order=DEFAULT, points=POINTS, pairs=pairs)
    assert table(placed) == [("1", "A"), ("2", "B")]
    assert (
        placed[0].note
        == "level on 4 league points; ahead with 2 league points in the games between them"
    )
    assert (
        placed[1].note
        == "level on 4 league points; behind with 0 league points in the games between them"
    )


def test_level_on_points_and_head_to_head_the_difference_decides():
    a = team(1, "A", won=2, pf=70, pa=40)
    b = team(2, "B", won=2, pf=80, pa=30)
    pairs = {(1, 2): Pair(won=1, lost=1), (2, 1): Pair(won=1, lost=1)}
    placed = rank_teams([a, b], order=DEFAULT, points=POINTS, pairs=pairs)
    assert table(placed) == [("1", "B"), ("2", "A")]
    assert placed[0].note == (
        "level on 4 league points, 2 league points in the games between them; "
        "ahead with a points difference of +50"
    )


def test_points_for_then_marches_break_later_ties():
    a = team(1, "A", won=1, pf=50, pa=40, marches=1)
    b = team(2, "B", won=1, pf=60, pa=50, marches=0)
    c = team(3, "C", won=1, pf=60, pa=50, marches=2)
    placed = rank_teams([a, b, c], order=DEFAULT, points=POINTS)
    assert table(placed) == [("1", "C"), ("2", "B"), ("3", "A")]
    assert placed[0].note.endswith("ahead with 2 marches")
    assert placed[2].note.endswith("behind with 50 points scored")


def test_a_team_between_others_level_is_not_called_ahead():
    # Five teams level on points, split by marches: the one with 3 is behind the one
    # with 5, so its note says where it came among them, not "ahead".
    teams = [
        team(1, "A", won=2, lost=2, marches=3),
        team(2, "B", won=2, lost=2, marches=1),
        team(3, "C", won=2, lost=2, marches=0),
        team(4, "D", won=2, lost=2, marches=1),
        team(5, "E", won=2, lost=2, marches=5),
    ]
    placed = rank_teams(teams, order=["points", "marches"], points=POINTS)
    assert table(placed) == [("1", "E"), ("2", "A"), ("=3", "B"), ("=3", "D"), ("5", "C")]
    assert [p.note for p in placed] == [
        "level on 4 league points; ahead with 5 marches",
        "level on 4 league points; 2nd of the 5, with 3 marches",
        "level on 4 league points, 1 march; nothing separates them: shared position",
        "level on 4 league points, 1 march; nothing separates them: shared position",
        "level on 4 league points; behind with 0 marches",
    ]


def test_places_among_many_level_teams_read_as_ordinals():
    teams = [team(i, f"T{i:02}", won=1, pf=i) for i in range(1, 13)]
    placed = rank_teams(teams, order=["points", "points_for"], points=POINTS)
    notes = [p.note.split("; ")[1] for p in placed]
    assert notes[0] == "ahead with 12 points scored"
    assert notes[1:4] == [
        "2nd of the 12, with 11 points scored",
        "3rd of the 12, with 10 points scored",
        "4th of the 12, with 9 points scored",
    ]
    assert notes[10] == "11th of the 12, with 2 points scored"
    assert notes[11] == "behind with 1 point scored"


def test_three_teams_level_head_to_head_counts_only_games_among_them():
    # A beat B, B beat C, C beat A, and A beat C again: A has 4 h2h points, B 2, C 2.
    # D, level on points too but not in the tie group's games, does not count.
    teams = [
        team(1, "A", won=3, lost=1, pf=100, pa=90),
        team(2, "B", won=3, lost=1, pf=100, pa=80),
        team(3, "C", won=3, lost=1, pf=100, pa=95),
        team(4, "D", won=1, lost=3),
    ]
    pairs = {
        (1, 2): Pair(won=1),
        (2, 1): Pair(lost=1),
        (2, 3): Pair(won=1),
        (3, 2): Pair(lost=1),
        (3, 1): Pair(won=1, lost=1),
        (1, 3): Pair(won=1, lost=1),
        (2, 4): Pair(won=5),  # lots of h2h points, but against a team not level
    }
    placed = rank_teams(teams, order=DEFAULT, points=POINTS, pairs=pairs)
    assert table(placed) == [("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")]
    assert (
        placed[0].note
        == "level on 6 league points; ahead with 4 league points in the games between them"
    )
    assert placed[1].note == (
        "level on 6 league points, 2 league points in the games between them; "
        "ahead with a points difference of +20"
    )
    assert placed[2].note == (
        "level on 6 league points, 2 league points in the games between them; "
        "behind with a points difference of +5"
    )
    assert placed[3].note == ""


def test_a_tie_nothing_breaks_shares_the_position():
    a = team(1, "A", won=1, lost=1, pf=50, pa=50, marches=1)
    b = team(2, "B", won=1, lost=1, pf=50, pa=50, marches=1)
    c = team(3, "C", won=0, lost=2)
    placed = rank_teams([b, c, a], order=DEFAULT, points=POINTS)
    assert table(placed) == [("=1", "A"), ("=1", "B"), ("3", "C")]
    assert placed[0].note.endswith("nothing separates them: shared position")
    assert placed[0].note.startswith("level on 2 league points, a points difference of +0")
    assert "head-to-head not used: they have not all met" in placed[0].note


def test_the_seasons_own_order_is_followed():
    a = team(1, "A", won=1, pf=30, pa=20, marches=3)
    b = team(2, "B", won=2, pf=60, pa=10, marches=0)
    placed = rank_teams([a, b], order=["marches", "points"], points=POINTS)
    assert table(placed) == [("1", "A"), ("2", "B")]


def test_players_below_the_minimum_are_listed_unranked():
    players = [
        Totals(id=1, name="Ann", played=5, won=3),
        Totals(id=2, name="Bob", played=4, won=4),
        Totals(id=3, name="Cat", played=6, won=3),
    ]
    ranked, others = rank_players(players, min_games=5)
    assert [(p.position_label, p.totals.name) for p in ranked] == [("1", "Ann"), ("2", "Cat")]
    assert [o.name for o in others] == ["Bob"]


def test_names_with_a_fada_sort_with_their_letter_not_after_z():
    # "Áine Griffin" was listed after "Tomás Hehir": sorted by the characters' codes.
    players = [
        Totals(id=n, name=name, played=1) for n, name in enumerate(["Tomás", "Áine", "Bríd"])
    ]
    ranked, others = rank_players(players, min_games=5)
    assert [o.name for o in others] == ["Áine", "Bríd", "Tomás"]
    ranked, _ = rank_players(players, min_games=1)
    assert [p.totals.name for p in ranked] == ["Áine", "Bríd", "Tomás"]  # level: by name
    teams = [team(n, name) for n, name in enumerate(["Óg", "Ace", "Zed"])]
    placed = rank_teams(teams, order=DEFAULT, points=POINTS)
    assert [p.totals.name for p in placed] == ["Ace", "Óg", "Zed"]


def test_pubs_rank_by_share_of_wins_and_share_a_tie():
    pubs = [
        Totals(id=1, name="X", played=4, won=2),
        Totals(id=2, name="Y", played=2, won=1),
        Totals(id=3, name="Z", played=3, won=3),
    ]
    placed = rank_pubs(pubs)
    assert placed[0].totals.name == "Z"
    # X (2 of 4) and Y (1 of 2): same share, X has more wins.
    assert [p.totals.name for p in placed] == ["Z", "X", "Y"]


team_totals = st.builds(
    lambda id, won, lost, s, pf, pa, m: team(
        id, f"T{id}", won=won, lost=lost, shutouts=min(s, won), pf=pf, pa=pa, marches=m
    ),
    st.integers(1, 10**6),
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 2),
    st.integers(0, 100),
    st.integers(0, 100),
    st.integers(0, 2),
)


@given(st.lists(team_totals, min_size=1, max_size=8, unique_by=lambda t: t.id))
def test_positions_never_go_down_the_table_and_points_never_go_up(teams):
    placed = rank_teams(teams, order=DEFAULT, points=POINTS)
    assert sorted(p.totals.id for p in placed) == sorted(t.id for t in teams)
    positions = [p.position for p in placed]
    assert positions == sorted(positions)
    assert positions[0] == 1
    points = [p.league_points for p in placed]
    assert points == sorted(points, reverse=True)
    for index, p in enumerate(placed):
        # A position is the count of teams above it, plus one.
        assert p.position == 1 + sum(1 for q in placed[:index] if q.position < p.position)


def test_head_to_head_counts_only_when_every_team_level_has_met_every_other():
    # A, B and C level on points; A and B met (A won), C met neither.
    teams = [
        team(1, "A", won=1, pf=50, pa=40),
        team(2, "B", won=1, pf=60, pa=40),
        team(3, "C", won=1, pf=55, pa=40),
    ]
    pairs = {(1, 2): Pair(won=1), (2, 1): Pair(lost=1)}
    placed = rank_teams(teams, order=DEFAULT, points=POINTS, pairs=pairs)
    # Head-to-head is skipped for the whole group: the difference decides.
    assert table(placed) == [("1", "B"), ("2", "C"), ("3", "A")]
    assert "head-to-head not used" in placed[0].note


# Names that read the same once unaccented, and level teams among them: nothing but the
# names themselves may decide their order, never the order the teams were read in.
named_alike = st.builds(
    lambda id, name, won, pf: team(id, name, won=won, lost=2 - won, pf=pf, pa=10),
    st.integers(1, 10**6),
    st.sampled_from(["Cafe", "Café", "CAFE", "Óg", "Og", "Ogs"]),
    st.integers(0, 2),
    st.sampled_from([10, 20]),
)


@given(
    st.lists(named_alike, min_size=2, max_size=6, unique_by=lambda t: t.id),
    st.randoms(use_true_random=False),
    st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 2))),
)
def test_the_table_is_the_same_whatever_order_the_teams_are_read_in(teams, random, met):
    # The team table reads its teams in no order (league.standings.kept_team_rows).
    ids = [t.id for t in teams]
    pairs = {
        (ids[a], ids[b]): Pair(won=won, lost=2 - won)
        for a, b, won in met
        if a != b and max(a, b) < len(ids)
    }
    shuffled = random.sample(teams, len(teams))
    assert rank_teams(shuffled, order=DEFAULT, points=POINTS, pairs=pairs) == rank_teams(
        teams, order=DEFAULT, points=POINTS, pairs=pairs
    )
