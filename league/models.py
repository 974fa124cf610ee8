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

A season's and a fixture's own rules (dates from 2000 to 2100, a loss worth less than a
win, league points first in the tie-break order, ...) live here, in field validators and
`clean()`: the admin, the services and the league import check a row with `full_clean`,
and the secretary's forms call the same checks for their messages.
"""

import dataclasses
import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Collate, Lower
from django.urls import reverse
from django.utils import timezone

import rules

# Every date of a season or a match night falls in this range: a year outside it is a
# slip of the thumb (1900, 9999), never a league's night.
EARLIEST, LATEST = datetime.date(2000, 1, 1), datetime.date(2100, 12, 31)
OUT_OF_RANGE = "Give a date between 1 January 2000 and 31 December 2100."


class ByName(Collate):
    """A name column in the order a reader expects, for `order_by` and `ordering`: "Áine"
    among the A's and "de Búrca" among the D's, as `league.names.unaccented` sorts in
    Python. PostgreSQL sorts it by the ICU collation `names` (migration 0011); a database
    made with the C locale put both after "Zoe". SQLite (`make run`) has no ICU: there,
    the capitals alone are set aside."""

    def __init__(self, field: str):
        super().__init__(F(field), "names")

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, collation="NOCASE", **extra_context)


def validate_date(value: datetime.date) -> None:
    """A date from EARLIEST to LATEST."""
    if not EARLIEST <= value <= LATEST:
        raise ValidationError(OUT_OF_RANGE, code="out_of_range")


def validate_tiebreaks(keys) -> None:
    """A season's tie-break order: a list of `Season.TIEBREAKS` keys, each once, league
    points first (they always rank the table; the tie-breaks separate only teams level
    on them). An empty list is the default order."""
    if not isinstance(keys, list):
        raise ValidationError(
            f"Give the tie-breaks as a list, from: {', '.join(Season.TIEBREAKS)}.",
            code="not_a_list",
        )
    for number, key in enumerate(keys):
        if not isinstance(key, str) or key not in Season.TIEBREAKS:
            raise ValidationError(
                f"Unknown tie-break “{key}”. Use: {', '.join(Season.TIEBREAKS)}.", code="unknown"
            )
        if key in keys[:number]:
            raise ValidationError(f"“{key}” is in the order twice.", code="twice")
    if keys and keys[0] != "points":
        raise ValidationError(
            "League points always come first: list the tie-breaks after them.",
            code="points_first",
        )


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
        ordering = [ByName("name")]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league:league", args=[self.slug])

    @staticmethod
    def address_taken(slug: str) -> str:
        """What a new league is told when another has its address already."""
        return f"The address “{slug}” is taken by another league; choose another."

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
        ordering = [ByName("name")]
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
        """The season being played: the running one that started last. Else a running
        one not started yet (set running early, as next season is readied), else the
        latest by start date."""
        running = Q(status=Season.Status.RUNNING)
        started = running & Q(start_date__lte=timezone.localdate())
        return self.order_by(
            models.Case(models.When(started, then=0), models.When(running, then=1), default=2),
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
    # How its games are played: each game keeps what it started with.
    GAME_RULES = ("ruleset_key", "target", "march_bonus", "march_wins")
    # What decides a season's tables: none of it changes while the season is closed.
    TABLE_RULES = [
        *GAME_RULES,
        *("points_win", "points_loss", "points_shutout"),
        *("tiebreaks", "min_games", "confirmed_only"),
    ]

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    slug = models.SlugField()
    start_date = models.DateField(validators=[validate_date])
    end_date = models.DateField(null=True, blank=True, validators=[validate_date])
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
    tiebreaks = models.JSONField(default=list, blank=True, validators=[validate_tiebreaks])
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
            models.CheckConstraint(
                condition=Q(points_loss__lt=models.F("points_win")),
                name="season_loss_below_win",
                violation_error_message="A win must be worth more league points than a loss.",
            ),
        ]

    def __str__(self):
        return f"{self.league} {self.name}"

    def get_absolute_url(self):
        return reverse("league:season", args=[self.league.slug, self.slug])

    def clean(self):
        errors = {}
        problem = self.points_problem(win=self.points_win, loss=self.points_loss)
        if problem:
            errors["points_loss"] = problem
        # A closed season that stays closed keeps its table rules (see `closed_problems`).
        stored = Season.objects.filter(pk=self.pk).first() if self.pk else None
        if stored is not None:
            new = {name: getattr(self, name) for name in ["status", *self.TABLE_RULES]}
            errors.update(stored.closed_problems(new))
        if errors:
            raise ValidationError(errors)

    @staticmethod
    def points_problem(*, win: int | None, loss: int | None) -> str | None:
        """Why these league points for a win and a loss are refused, or None. A loss
        worth as much as a win would rank a losing team with a winning one."""
        if win is not None and loss is not None and loss >= win:
            return "A win must be worth more league points than a loss."
        return None

    def closed_problems(self, new: dict) -> dict[str, str]:
        """A message for each table rule that `new` (field → value, "status" among them)
        would change while this season, as stored, is closed and stays closed: its table
        rules stay as they were. Its name and dates may change; set back to running, it is
        open again."""
        if not self.status == new.get("status") == self.Status.FINISHED:
            return {}
        closed = (
            f"{self.name} is finished, so this cannot change. "
            "To change it, reopen the season: set its status to Running."
        )
        problems = {}
        for name in self.TABLE_RULES:
            if name not in new:
                continue
            if name == "tiebreaks":  # an empty order is the default one
                same = (new[name] or self.DEFAULT_TIEBREAKS) == self.tiebreak_order
            else:
                same = new[name] == getattr(self, name)
            if not same:
                problems[name] = closed
        return problems

    def match_night_problem(self, date: datetime.date) -> str | None:
        """Why `date` is refused for a new match night of this season, or None: a match
        night is on or after the day the season starts."""
        start = self.start_date
        if date < start:
            return f"{self.name} starts on {start.day} {start:%B %Y}: give a date from then on."
        return None

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
        ordering = [ByName("name")]
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
        ordering = [ByName("name")]
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
        ordering = [ByName("name")]
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
    date = models.DateField(validators=[validate_date])
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

    def clean(self):
        errors = {}
        problem = self.status_problem(status=self.status, games_planned=self.games_planned)
        if problem:
            errors["status"] = f"{problem} To play more games, raise the games planned."
        # Only a new date must fall in the season: a fixture left before its season's
        # start (the start moved later) keeps its date when something else changes. A
        # date out of range has its own message (`validate_date`).
        date, stored = self.date, None
        if self.pk is not None:
            stored = Fixture.objects.filter(pk=self.pk).values_list("date", flat=True).first()
        if self.season_id is not None and date != stored and date and EARLIEST <= date <= LATEST:
            problem = self.season.match_night_problem(date)
            if problem:
                errors["date"] = problem
        if errors:
            raise ValidationError(errors)

    def status_problem(self, *, status: str, games_planned: int | None) -> str | None:
        """Why this fixture, with the games it has finished, cannot take `status` with
        `games_planned`, or None. Once its planned games are all finished it is played:
        scheduled again, it would show as still to play, with its games counted."""
        finished = self.games_finished
        if status == self.Status.SCHEDULED and games_planned and finished >= games_planned:
            games = (
                "Its 1 game is" if finished == 1 else f"All {finished} games of this fixture are"
            )
            return f"{games} finished, so it stays played."
        return None

    @property
    def all_played(self) -> str:
        """Said once every game of its match is played ("All 1 games" read as a slip)."""
        if self.games_planned == 1:
            return "The match's one game is played."
        return f"All {self.games_planned} games of the match are played."

    @property
    def under_way(self) -> bool:
        """Its match is being played, or is tonight's: a game in play, between games, or
        not yet begun today. Its pages refresh themselves while it is."""
        return self.status == self.Status.SCHEDULED and (
            self.games_started > 0 or self.date == timezone.localdate()
        )

    @property
    def in_play(self) -> bool:
        """Scheduled, with a game started: its match is under way."""
        return self.status == self.Status.SCHEDULED and self.games_started > 0

    @property
    def state_display(self) -> str:
        """The fixture's state in the words every page shows: its status, except that a
        fixture in play says so."""
        return "In play" if self.in_play else self.get_status_display()


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
