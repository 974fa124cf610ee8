"""Hypothesis's stateful testing: any sequence of what a night and a season bring (deals
by split and trick by trick, undo, corrections (some ending the game early), a game
taken back, confirmations, renames, a team moved to another pub or division, a fixture
moved to another pub, a fixture deleted, the season's points, tie-breaks and "only
confirmed games count" changed) leaves every table equal to a recount of the raw deals,
the public CSV saying the same, and the team table in the order the ranking gives the
recount, after every step."""

import contextlib
import csv
import io
import itertools
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

import rules
from bench.recount import kept, recount
from league import services as league_services
from league import standings
from league.models import Fixture, Season
from league.ranking import Pair, Totals, rank_teams
from scoring import services
from scoring.models import Game
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PubFactory,
    SeasonFactory,
    TeamFactory,
)

PAIRS = list(itertools.combinations(range(4), 2))
REFUSED = (services.ScoringError, rules.InvalidDeal, league_services.LeagueError)


class Night(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.league = LeagueFactory()
        self.pubs = [PubFactory(league=self.league) for _ in range(3)]
        self.season = SeasonFactory(league=self.league)
        self.teams = [TeamFactory(season=self.season, pub=self.pubs[i % 2]) for i in range(4)]
        self.divisions = [DivisionFactory(season=self.season) for _ in range(2)] + [None]
        self.fixtures: dict[tuple[int, int], Fixture] = {}
        self.names = itertools.count()

    # What the table brings ---------------------------------------------------------

    def _game(self, pair) -> Game | None:
        """The pair's game in play, starting the next one of their fixture if none is."""
        fixture = self.fixtures.get(pair)
        if fixture is None:
            home, away = (self.teams[i] for i in pair)
            fixture = FixtureFactory(
                season=self.season, pub=home.pub, teams=[home, away], games_planned=3
            )
            self.fixtures[pair] = fixture
        games = Game.objects.filter(fixture=fixture).order_by("number")
        in_play = games.filter(status=Game.Status.IN_PLAY).first()
        if in_play is not None:
            return in_play
        try:
            return services.game_next(fixture=fixture, number=games.count() + 1, first_dealer=0)
        except REFUSED:
            return None

    def _last_game(self, pair) -> Game | None:
        fixture = self.fixtures.get(pair)
        if fixture is None:
            return None
        return Game.objects.filter(fixture=fixture).order_by("-number").first()

    def _dealer(self, game) -> int:
        last = game.deals.live().order_by("-number").first()
        return (last.dealer + 1) % game.sides if last else game.first_dealer

    @rule(pair=st.sampled_from(PAIRS), first=st.integers(0, 5))
    def deal_by_split(self, pair, first):
        game = self._game(pair)
        if game is None:
            return
        with contextlib.suppress(REFUSED):
            services.deal_record(
                game=game,
                dealer=self._dealer(game),
                tricks=[first, 5 - first],
                key=uuid.uuid4(),
                version=game.version,
            )

    @rule(pair=st.sampled_from(PAIRS), winners=st.lists(st.integers(0, 1), min_size=1, max_size=5))
    def deal_trick_by_trick(self, pair, winners):
        game = self._game(pair)
        if game is None:
            return
        with contextlib.suppress(REFUSED):  # a short deal where play could not have stopped
            services.deal_record(
                game=game,
                dealer=self._dealer(game),
                tricks=[winners.count(0), winners.count(1)],
                trick_winners=winners,
                key=uuid.uuid4(),
                version=game.version,
            )

    @rule(pair=st.sampled_from(PAIRS))
    def undo(self, pair):
        game = self._last_game(pair)
        if game is not None:
            with contextlib.suppress(REFUSED):
                services.deal_undo(game=game, version=game.version)

    @rule(
        pair=st.sampled_from(PAIRS),
        number=st.integers(1, 3),
        first=st.integers(0, 5),
        take_out_later=st.booleans(),  # the game now ends there: the later deals go
    )
    def correct(self, pair, number, first, take_out_later):
        game = self._last_game(pair)
        if game is None:
            return
        old = game.deals.live().filter(number=number).first()
        if old is None:
            return
        with contextlib.suppress(REFUSED):
            services.deal_correct(
                game=game,
                number=number,
                dealer=old.dealer,
                tricks=[first, 5 - first],
                key=uuid.uuid4(),
                version=game.version,
                reason="a secretary's odd edit",
                take_out_later=take_out_later,
            )

    @rule(pair=st.sampled_from(PAIRS))
    def take_back(self, pair):
        """ "Started by mistake? Take this game back", on a game with no deal yet."""
        game = self._last_game(pair)
        if game is not None:
            with contextlib.suppress(REFUSED):
                services.game_remove(game=game, version=game.version)

    @rule(pair=st.sampled_from(PAIRS))
    def confirm(self, pair):
        game = self._last_game(pair)
        if game is not None:
            with contextlib.suppress(REFUSED):
                services.game_confirm(game=game)

    # What the secretary brings ----------------------------------------------------

    @rule(
        index=st.integers(0, 3),
        pub=st.integers(0, 2),
        rename=st.booleans(),
        division=st.integers(0, 2),  # the last: none
    )
    def edit_team(self, index, pub, rename, division):
        team = self.teams[index]
        team.refresh_from_db()
        league_services.team_update(
            team=team,
            name=f"Team {next(self.names)}" if rename else team.name,
            pub=self.pubs[pub],
            player_names=[p.name for p in team.players.all()],
            division=self.divisions[division],
        )

    @rule(pair=st.sampled_from(PAIRS), pub=st.integers(0, 2))
    def move_fixture(self, pair, pub):
        fixture = self.fixtures.get(pair)
        if fixture is None:
            return
        fixture.refresh_from_db()
        league_services.fixture_update(
            fixture=fixture,
            pub=self.pubs[pub],
            date=fixture.date,
            games_planned=fixture.games_planned,
            status=fixture.status,
        )

    @rule(pair=st.sampled_from(PAIRS))
    def delete_fixture(self, pair):
        fixture = self.fixtures.pop(pair, None)
        if fixture is not None:
            league_services.fixture_delete(fixture=fixture)

    @rule(
        win=st.integers(1, 5),
        confirmed_only=st.booleans(),
        # League points always rank first; the tie-breaks after them in any order.
        order=st.permutations(Season.DEFAULT_TIEBREAKS[1:]).map(lambda rest: ["points", *rest]),
    )
    def change_settings(self, win, confirmed_only, order):
        self.season.refresh_from_db()
        league_services.season_update(
            season=self.season, points_win=win, confirmed_only=confirmed_only, tiebreaks=order
        )

    # After every step -------------------------------------------------------------

    @invariant()
    def the_tables_equal_a_recount_and_the_csv_says_so(self):
        self.season.refresh_from_db()
        truth = recount(self.season)
        assert kept(self.season) == truth
        url = reverse(
            "league:standings-download",
            args=[self.league.slug, self.season.slug, "teams", "csv"],
        )
        text = Client().get(url).content.decode("utf-8-sig")
        shown = {
            row["Team"]: (row["P"], row["W"], row["Pts"])
            for row in csv.DictReader(io.StringIO(text))
        }
        points = standings.season_points(self.season)
        for team in self.season.teams.all():
            counts = truth.get(("team", team.pk), {})
            played, won = counts.get("played", 0), counts.get("won", 0)
            league_points = points.of(
                won=won, lost=counts.get("lost", 0), shutout_wins=counts.get("shutout_wins", 0)
            )
            assert shown[team.name] == (str(played), str(won), str(league_points))

    @invariant()
    def the_team_table_is_in_the_order_the_ranking_gives_the_recount(self):
        """The read path ranks from the kept rows and reads head-to-head only for the
        teams the database finds level: the same order as ranking every team's recount
        with every pair's."""
        self.season.refresh_from_db()
        truth = recount(self.season)
        pairs = {key[1]: Pair(**counts) for key, counts in truth.items() if key[0] == "pair"}
        divisions = {}
        for team in self.season.teams.select_related("division").order_by("name"):
            counts = truth.get(("team", team.pk), {})
            totals = Totals(team.pk, team.name, **{k: counts.get(k, 0) for k in KEPT_COUNTS})
            divisions.setdefault(team.division.name if team.division else "", []).append(totals)
        expected = [
            (p.totals.id, p.position, p.shared, p.note if p.totals.played else "")
            for name in sorted(divisions, key=lambda name: (name == "", name))  # none last
            for p in rank_teams(
                divisions[name],
                order=standings.tiebreak_keys(self.season),
                points=standings.season_points(self.season),
                pairs=pairs,
            )
        ]
        shown = [
            (row["id"], row["position"], row["shared"], row["note"])
            for row in standings.team_rows(self.season)
        ]
        assert shown == expected


KEPT_COUNTS = ("played", "won", "lost", "shutout_wins", "points_for", "points_against", "marches")


@pytest.mark.django_db
def test_no_sequence_of_actions_makes_a_table_differ_from_a_recount():
    run_state_machine_as_test(
        Night,
        settings=settings(
            max_examples=15,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        ),
    )
