"""
What a league secretary sets up: the league, its pubs, seasons, players, teams and
fixtures, and who may change what.

- A **league** is the tenant: one install can host several, and nothing crosses
  between them.
- A **season** carries its rules (a preset key from `rules.RULESETS` plus house rules),
  the league points for a result, the tie-break order and the player-table minimum.
- A **player** is one identity across pubs, partners and seasons; a **team** is a
  partnership of 2 (or 3) players entered for one season at a home pub.
- A **fixture** is a match night between 2 (or 3) teams at a pub on a date.
"""

import dataclasses
import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse

import rules


class League(models.Model):
    # The site's own first path segments: a league called one of these would be hidden.
    RESERVED_SLUGS = {
        *("account", "admin", "games", "healthz", "login", "logout", "static", "welcome"),
        *("favicon.ico", "sw.js"),  # files at the root; never slugs, listed for the test
    }

    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="leagues_run"
    )
    # Goes up with every change that shows on a public page (a result, a name, a
    # setting): cached pages and tables are kept under it, so none is ever stale.
    content_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league:league", args=[self.slug])

    def clean(self):
        if self.slug in self.RESERVED_SLUGS:
            raise ValidationError({"slug": f"“{self.slug}” is a page of the site; choose another."})


class Pub(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="pubs")
    name = models.CharField(max_length=100)
    slug = models.SlugField()
    town = models.CharField(max_length=100, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="pubs_organised"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="pub_slug_unique_in_league"),
            models.UniqueConstraint(
                Lower("name"), "league", name="pub_name_unique_in_league_any_case"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league:pub", args=[self.league.slug, self.slug])


class SeasonQuerySet(models.QuerySet):
    def current(self):
        """The running season, else the latest by start date."""
        return self.order_by(
            models.Case(models.When(status=Season.Status.RUNNING, then=0), default=1),
            "-start_date",
        ).first()


class Season(models.Model):
    class Status(models.TextChoices):
        PLANNING = "planning", "Planning"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    TIEBREAKS = {
        "points": "league points",
        "head_to_head": "head-to-head",
        "difference": "points difference",
        "points_for": "points for",
        "marches": "marches",
    }
    DEFAULT_TIEBREAKS = ["points", "head_to_head", "difference", "points_for", "marches"]

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    slug = models.SlugField()
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.PLANNING)

    # The rules: a preset from rules.RULESETS plus the house rules it allows.
    ruleset_key = models.CharField(
        "rules",
        max_length=20,
        choices=[(key, r.name) for key, r in rules.RULESETS.items()],
        default="twenty-five",
    )
    target = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Leave blank for the preset's target."
    )
    march_bonus = models.PositiveSmallIntegerField(default=0)
    march_wins = models.BooleanField("a march wins the game outright", default=False)

    points_win = models.PositiveSmallIntegerField("league points for a win", default=2)
    points_loss = models.PositiveSmallIntegerField("league points for a loss", default=0)
    points_shutout = models.PositiveSmallIntegerField(
        "extra league points for a shutout win", default=1
    )
    tiebreaks = models.JSONField(default=list, blank=True)
    min_games = models.PositiveSmallIntegerField("minimum games for the player table", default=5)
    confirmed_only = models.BooleanField("only confirmed games count", default=False)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique_in_league"),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=models.F("start_date")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self):
        return f"{self.league} {self.name}"

    def get_absolute_url(self):
        return reverse("league:season", args=[self.league.slug, self.slug])

    @property
    def ruleset(self) -> rules.Ruleset:
        """The preset with this season's house rules applied."""
        preset = rules.RULESETS[self.ruleset_key]
        return dataclasses.replace(
            preset,
            target=self.target or preset.target,
            march_bonus=self.march_bonus,
            march_wins=self.march_wins,
        )

    @property
    def tiebreak_order(self) -> list[str]:
        return self.tiebreaks or self.DEFAULT_TIEBREAKS


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=50)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_unique_in_season"),
        ]

    def __str__(self):
        return self.name


class Player(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    home_pub = models.ForeignKey(
        Pub, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            # "Seán Ó Briain" and "SEÁN Ó BRIAIN" are one player (see league/names.py).
            models.UniqueConstraint(
                Lower("name"), "league", name="player_name_unique_in_league_any_case"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league:player", args=[self.league.slug, self.pk])


class Team(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100)
    pub = models.ForeignKey(Pub, on_delete=models.PROTECT, related_name="teams")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="teams"
    )
    players = models.ManyToManyField(Player, through="TeamMember", related_name="teams")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "season", name="team_name_unique_in_season_any_case"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league:team", args=[self.season.league.slug, self.pk])


class TeamMember(models.Model):
    """A player's place in a team. `season` repeats the team's so the database can
    refuse a second team for the same player in one season."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"], name="player_in_one_team_per_season"
            ),
        ]

    def __str__(self):
        return f"{self.player} in {self.team}"

    def save(self, *args, **kwargs):
        self.season_id = self.team.season_id
        super().save(*args, **kwargs)


class FixtureQuerySet(models.QuerySet):
    def for_season(self, season):
        return self.filter(season=season)

    def played(self):
        return self.filter(status=Fixture.Status.PLAYED)

    def upcoming(self):
        return self.filter(status=Fixture.Status.SCHEDULED)


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYED = "played", "Played"
        POSTPONED = "postponed", "Postponed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    pub = models.ForeignKey(Pub, on_delete=models.PROTECT, related_name="fixtures")
    date = models.DateField()
    round = models.PositiveSmallIntegerField(default=1)
    games_planned = models.PositiveSmallIntegerField(default=5)
    status = models.CharField(max_length=10, choices=Status, default=Status.SCHEDULED)
    teams = models.ManyToManyField(Team, through="FixtureTeam", related_name="fixtures")
    # How many of its games have started and finished: told by scoring/ through
    # `league.results.fixture_progress`, so league/ never reads scoring/'s tables.
    games_started = models.PositiveSmallIntegerField(default=0, editable=False)
    games_finished = models.PositiveSmallIntegerField(default=0, editable=False)

    objects = FixtureQuerySet.as_manager()

    class Meta:
        ordering = ["date", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(games_planned__gte=1) & Q(games_planned__lte=50),
                name="fixture_games_planned_1_to_50",
            ),
        ]

    def __str__(self):
        return " v ".join(ft.team.name for ft in self.fixture_teams.all()) or f"Fixture {self.pk}"

    def get_absolute_url(self):
        return reverse("league:fixture", args=[self.season.league.slug, self.pk])

    @property
    def state_display(self) -> str:
        """The fixture's state in the words every page shows: its status, except that a
        scheduled fixture with a game started is "In play"."""
        if self.status == self.Status.SCHEDULED and self.games_started:
            return "In play"
        return self.get_status_display()


class FixtureTeam(models.Model):
    """A team's seat in a fixture: seat 0 is the home team."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="fixture_teams")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="fixture_teams")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "team"], name="team_once_per_fixture"),
            models.UniqueConstraint(fields=["fixture", "seat"], name="seat_once_per_fixture"),
            models.CheckConstraint(condition=Q(seat__lte=2), name="fixture_at_most_three_teams"),
        ]

    def __str__(self):
        return f"{self.team} (seat {self.seat + 1})"


# ---------------------------------------------------------------------------
# Results: one row per side per finished game, written only by
# `league.results.results_record`, which scoring/ calls in the same transaction as
# the deal, undo, correction or confirmation that changed the game. Every table
# (team, player, pub; per season and all-time) is an aggregate of these rows, read
# with the season's settings as they are now, so nothing else is kept that could
# drift from the games.
# ---------------------------------------------------------------------------


class SideResultQuerySet(models.QuerySet):
    def counted(self):
        """The rows the standings count: a season's games, and only confirmed ones where
        the season counts only confirmed games."""
        return self.filter(season__isnull=False).filter(
            Q(confirmed=True) | Q(season__confirmed_only=False)
        )

    def counted_in(self, season):
        """The rows of this season the standings count, with its setting already read
        (the same rows as `counted()`, without joining the season: the derive's scans)."""
        rows = self.filter(season=season)
        return rows.filter(confirmed=True) if season.confirmed_only else rows


class SideResult(models.Model):
    """One side's result in one finished game.

    `game_id` and `side` name the game and the side's seat in it (scoring/'s rows).
    `pub` is the pub the side played for when the game was played: a team that moves
    later takes only its later games with it. Where a fixture's game was played is its
    fixture's pub, so a fixture moved to another pub takes its games with it. A
    friendly has no season and never counts.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    game_id = models.PositiveIntegerField()
    game_number = models.PositiveSmallIntegerField(default=1)
    side = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=100)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    pub = models.ForeignKey(
        Pub, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    players = models.ManyToManyField(Player, blank=True, related_name="results")
    # The side's players' ids, sorted, as "3-17": the same partnership across seasons.
    partnership = models.CharField(max_length=100, blank=True)
    points_for = models.IntegerField()
    points_against = models.IntegerField()
    won = models.BooleanField()
    shutout = models.BooleanField(help_text="Won while every other side still had 0 points.")
    marches = models.PositiveSmallIntegerField(default=0)
    confirmed = models.BooleanField(default=False)
    finished_at = models.DateTimeField()
    # Why the game was won, in words with the sides' names ("Bees reached 25 first
    # (non-dealers counted first)"): a 25–25 game is not a draw.
    reason = models.CharField(max_length=200, blank=True)

    objects = SideResultQuerySet.as_manager()

    class Meta:
        ordering = ["-finished_at", "-game_id", "side"]
        constraints = [
            models.UniqueConstraint(fields=["game_id", "side"], name="one_result_per_side"),
            models.CheckConstraint(
                condition=Q(won=True) | Q(shutout=False), name="result_shutout_only_a_win"
            ),
        ]
        indexes = [
            models.Index(fields=["season", "team"], name="result_season_team"),
            models.Index(fields=["game_id"], name="result_game"),
            models.Index(fields=["partnership"], name="result_partnership"),
        ]

    def __str__(self):
        return f"{self.label} in game {self.game_id}: {self.points_for}"


# ---------------------------------------------------------------------------
# Invitations: nobody is attached to a league without accepting. A secretary makes a
# link (single use, 7 days, revocable) for an organiser of some pubs or a co-secretary;
# `league.services.invite_accept` gives the role to whoever accepts it, once.
# ---------------------------------------------------------------------------


class Invite(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        SECRETARY = "secretary", "Secretary"

    LIFETIME = datetime.timedelta(days=7)

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=10, choices=Role)
    pubs = models.ManyToManyField(Pub, blank=True, related_name="invites")
    # Set when the invitation was emailed: only a login with this address may accept it.
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invites_accepted",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=models.F("created_at")),
                name="invite_expires_after_it_is_made",
            ),
        ]

    def __str__(self):
        return f"{self.get_role_display()} of {self.league}"

    def get_absolute_url(self):
        return reverse("league:invite-accept", args=[self.league.slug, self.token])

    def state(self, now) -> str:
        """ "used", "revoked", "expired" or "open"."""
        if self.used_at:
            return "used"
        if self.revoked_at:
            return "revoked"
        if now >= self.expires_at:
            return "expired"
        return "open"


class TeamStanding(models.Model):
    """A team's counted games of its season, summed: the team table's fast path.

    Derived, never counted by hand: `league.standings.standings_derive` writes these rows
    again from the result rows, for the teams of a game when it changes and for the
    whole season when what counts changes (see league/results.py and league/services.py).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="standing")
    played = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    shutout_wins = models.IntegerField(default=0)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    marches = models.IntegerField(default=0)
    fixtures_won = models.IntegerField(default=0)

    def __str__(self):
        return f"{self.team_id}: {self.won}/{self.played}"


class TeamPairStanding(models.Model):
    """A team's counted games of its season against one other team, summed: head-to-head,
    kept so that ranking teams level on points reads only the pairs within their group.

    Derived like `TeamStanding`, by `league.standings.standings_derive`, for every two
    teams of a changed game and for the whole season when what counts changes. A season
    has thousands of these rows, all written again at once when what counts changes, so
    their references are not checked by the database row by row (`db_constraint=False`):
    only that code writes them, and deleting a team or season still deletes them.
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    opponent = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    shutout_wins = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "opponent"], name="one_pair_row"),
        ]

    def __str__(self):
        return f"{self.team_id} v {self.opponent_id}: {self.won}/{self.won + self.lost}"
