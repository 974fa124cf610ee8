"""
What happens at the table: games, their sides and deals, scorer links and the record
of who entered what.

- A **game** keeps the rules in force when it started, so changing a season's rules
  never rewrites it, and its totals, winner and reason, written with every deal.
- A **deal** is one hand of five tricks: one digit of tricks per side in seat order,
  optionally the winner of each trick in order, optionally the bonus side. A
  correction writes a new version and keeps the old one (`live=False`); undo does
  the same without a successor. Rows are never deleted.
- A **scorer link** lets one person without an account score one game.
"""

import dataclasses

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import cached_property

import rules
from league.models import Fixture, League, Player, Pub, Season, Team
from league.tokens import typeable_token


class GameQuerySet(models.QuerySet):
    def in_play(self):
        return self.filter(status=Game.Status.IN_PLAY)

    def finished(self):
        return self.filter(status=Game.Status.FINISHED)


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PLAY = "in_play", "In play"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    pub = models.ForeignKey(
        Pub, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    number = models.PositiveSmallIntegerField(
        default=1, help_text="The game's number in its match."
    )
    sides = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)

    # The rules in force when the game started.
    ruleset_key = models.CharField(max_length=20)
    target = models.PositiveSmallIntegerField()
    march_bonus = models.PositiveSmallIntegerField(default=0)
    march_wins = models.BooleanField(default=False)

    # Written with every deal, from rules.score_game.
    status = models.CharField(max_length=10, choices=Status, default=Status.IN_PLAY)
    scores = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    shutout = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)

    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Started on a match marked played (more games planned after its result): taken back,
    # the match is played again, as before it was started.
    reopened_match = models.BooleanField(default=False, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(sides__gte=2) & Q(sides__lte=10), name="game_2_to_10_sides"
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__lt=models.F("sides")), name="game_first_dealer_is_a_side"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__lt=models.F("sides")),
                name="game_winner_is_a_side",
            ),
            # Two organisers tapping "Start game 2" at once: the second insert fails here.
            models.UniqueConstraint(
                fields=["fixture", "number"],
                condition=Q(fixture__isnull=False),
                name="game_number_unique_in_fixture",
            ),
        ]

    def __str__(self):
        return " v ".join(side.label for side in self.game_sides.all())

    def get_absolute_url(self):
        return reverse("scoring:game-sheet", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == Game.Status.FINISHED

    @property
    def venue(self) -> Pub | None:
        """Where the game is played: its fixture's pub (a fixture moved to another pub
        takes its games with it), or the friendly's pub. Its organisers score it."""
        return self.fixture.pub if self.fixture_id else self.pub

    @property
    def venue_id(self) -> int | None:
        """The id of `venue`, read without the pub (nor the fixture, where a change read
        its pub's id with the game: `selectors.game_to_change`)."""
        if not self.fixture_id:
            return self.pub_id
        return getattr(self, "fixture_pub_id", None) or self.fixture.pub_id

    @property
    def is_confirmed(self) -> bool:
        known = getattr(self, "confirmed", None)  # read with the game for a change
        return known if known is not None else hasattr(self, "confirmation")

    @property
    def ruleset(self) -> rules.Ruleset:
        preset = rules.RULESETS[self.ruleset_key]
        return dataclasses.replace(
            preset, target=self.target, march_bonus=self.march_bonus, march_wins=self.march_wins
        )


class GameSide(models.Model):
    """A side in seat order: a team (partnership) or, in individual play, one player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="game_sides")
    index = models.PositiveSmallIntegerField()
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="game_sides"
    )
    label = models.CharField(max_length=100)
    players = models.ManyToManyField(Player, blank=True, related_name="game_sides")
    # The pub the side played for when the game started: its team's pub then (a team
    # that moves later takes only its later games with it), or the friendly's pub.
    pub = models.ForeignKey(
        Pub, null=True, blank=True, on_delete=models.PROTECT, related_name="game_sides"
    )

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="side_index_unique_in_game"),
        ]

    def __str__(self):
        return self.label

    @property
    def score(self) -> int:
        return self.game.scores[self.index]


class DealQuerySet(models.QuerySet):
    def live(self):
        return self.filter(live=True)


class Deal(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(help_text="1 for the first deal of the game.")
    version = models.PositiveSmallIntegerField(default=1)
    live = models.BooleanField(default=True)
    dealer = models.PositiveSmallIntegerField()
    tricks = models.CharField(max_length=10, help_text="One digit per side, in seat order.")
    trick_winners = models.CharField(
        max_length=5, blank=True, help_text="The side that won each trick, in order."
    )
    bonus_side = models.PositiveSmallIntegerField(null=True, blank=True)

    # Made when the entry form was drawn: a retry of the same submission finds this row.
    key = models.UUIDField(unique=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_via = models.ForeignKey(
        "ScorerLink", null=True, blank=True, on_delete=models.SET_NULL, related_name="deals"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DealQuerySet.as_manager()

    class Meta:
        ordering = ["number", "version"]
        constraints = [
            # Two phones saving deal 3 at once: the second insert fails here.
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(live=True), name="one_live_deal_per_number"
            ),
            models.UniqueConstraint(
                fields=["game", "number", "version"], name="deal_version_unique"
            ),
            models.CheckConstraint(
                condition=Q(tricks__regex=r"^[0-5]{2,10}$"), name="deal_tricks_0_to_5"
            ),
            models.CheckConstraint(
                condition=Q(trick_winners__regex=r"^[0-9]{0,5}$"), name="deal_trick_winners_digits"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
        ]

    def __str__(self):
        return f"Deal {self.number} of game {self.game_id}"

    @property
    def trick_counts(self) -> tuple[int, ...]:
        return tuple(int(c) for c in self.tricks)

    def as_rules_deal(self) -> rules.Deal:
        return rules.Deal(
            dealer=self.dealer,
            tricks=self.trick_counts,
            trick_winners=tuple(int(c) for c in self.trick_winners) or None,
            bonus_side=self.bonus_side,
        )


def new_token() -> str:
    return typeable_token()


class ScorerLink(models.Model):
    """A private link to score one game without an account. `side` is set when the
    link was handed to one side (so it can confirm the other side's result)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scorer_links")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"Scorer link for game {self.game_id}"

    def get_absolute_url(self):
        return reverse("scoring:link-open", args=[self.token])

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @cached_property
    def number(self) -> int:
        """The link's number in its game, from 1, withdrawn links counted: "Link 1" is the
        game's first. A page listing several sets it for each (`number_links`)."""
        return ScorerLink.objects.filter(game_id=self.game_id, pk__lte=self.pk).count()


def number_links(links) -> None:
    """Set `number` on each of these links, all of one game, in one query."""
    links = [link for link in links if link is not None]
    if not links:
        return
    pks = ScorerLink.objects.filter(game_id=links[0].game_id).order_by("pk")
    numbers = {pk: n for n, pk in enumerate(pks.values_list("pk", flat=True), 1)}
    for link in links:
        link.number = numbers[link.pk]


class Confirmation(models.Model):
    """At most one confirmed result per game, held by the database."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="confirmation")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_via = models.ForeignKey(
        ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Game {self.game_id} confirmed"


class GameEvent(models.Model):
    """The game's record: every entry, correction, undo and confirmation."""

    class Kind(models.TextChoices):
        STARTED = "started", "Game started"
        DEAL = "deal", "Deal entered"
        CORRECTION = "correction", "Deal corrected"
        UNDO = "undo", "Deal undone"
        CONFIRMED = "confirmed", "Result confirmed"
        LINK = "link", "Scorer link made"
        REVOKED = "revoked", "Scorer link withdrawn"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=Kind)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    link = models.ForeignKey(
        ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Whole, however long: disputes are settled from it (a correction's reason and all).
    text = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.created_at:%Y-%m-%d %H:%M})"
