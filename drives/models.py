"""
A card drive: one night at one pub, everyone who walks in seated at tables, a fixed
number of games, prizes by games won.

- A **drive** has its format (with a partner, or every player for themselves), table
  size, number of games, movement (drives/movement.py) and prize rules.
- An **entry** is a pair (or a single player waiting for a partner) or, at an individual
  drive, one player; names as given at the door, linked to the league's players where
  the name is one of theirs.
- A **seat** says where an entry sits in one game (table and side), or that it sits out
  (no table); `won` is written with the table's result, so the leaderboard is one count.
- A **result** is the winning side of one table in one game.
- A **tie-break** is a cut or play-off the organiser recorded: who took `place`.
"""

from django.db import models
from django.db.models import Q
from django.urls import reverse

from league.models import League, Player, Pub


class Drive(models.Model):
    class Format(models.TextChoices):
        PARTNERS = "partners", "With a partner"
        INDIVIDUAL = "individual", "Every player for themselves"

    class Movement(models.TextChoices):
        WINNERS_MOVE = "winners_move", "Winners move up a table, losers stay"
        LOSERS_MOVE = "losers_move", "Losers move up a table, winners stay"

    class TieRule(models.TextChoices):
        SPLIT = "split", "Split the prize"
        CUT = "cut", "Cut the deck"
        PLAYOFF = "playoff", "Play-off"

    class Status(models.TextChoices):
        OPEN = "open", "Doors open"
        RUNNING = "running", "Playing"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="drives")
    pub = models.ForeignKey(Pub, on_delete=models.PROTECT, related_name="drives")
    name = models.CharField(max_length=100)
    date = models.DateField()
    format = models.CharField(max_length=12, choices=Format, default=Format.PARTNERS)
    table_size = models.PositiveSmallIntegerField(default=4)
    games = models.PositiveSmallIntegerField(default=20)
    movement = models.CharField(max_length=14, choices=Movement, default=Movement.WINNERS_MOVE)
    seed = models.PositiveIntegerField(default=0)
    places = models.PositiveSmallIntegerField("prizes by games won", default=3)
    jackpot = models.PositiveSmallIntegerField("jackpot at wins", null=True, blank=True)
    booby = models.BooleanField("booby prize for the fewest wins", default=False)
    cookie_jar = models.JSONField("cookie-jar games", default=list, blank=True)
    tie_rule = models.CharField(max_length=8, choices=TieRule, default=TieRule.CUT)
    entry_fee = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    game = models.PositiveSmallIntegerField("game in play", default=0)

    class Meta:
        ordering = ["-date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(games__gte=1, games__lte=60), name="drive_games_between_1_and_60"
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=3, table_size__lte=6), name="drive_table_size_3_to_6"
            ),
            models.CheckConstraint(
                condition=Q(game__lte=models.F("games")), name="drive_game_within_games"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("drives:drive", args=[self.league.slug, self.pk])

    @property
    def individual(self) -> bool:
        return self.format == self.Format.INDIVIDUAL

    @property
    def winner_word(self) -> str:
        """Who wins at a table: a "pair", or a "player" where each plays for themselves
        (single players at tables of an odd number)."""
        return "player" if self.individual and self.table_size % 2 else "pair"


class Entry(models.Model):
    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(max_length=100)
    partner_name = models.CharField(max_length=100, blank=True)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paid = models.BooleanField(default=False)
    # The first game this entry may play (a late arrival joins at the next game).
    joined_game = models.PositiveSmallIntegerField(default=1)
    left_after_game = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.name} & {self.partner_name}" if self.partner_name else self.name

    def get_absolute_url(self):
        return reverse("drives:entry", args=[self.drive.league.slug, self.drive_id, self.pk])


class Seat(models.Model):
    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="seats")
    game = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    table = models.PositiveSmallIntegerField(null=True, blank=True)  # none: sits out
    side = models.PositiveSmallIntegerField(default=0)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "table", "side", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "game", "entry"], name="seat_once_a_game"),
        ]

    def __str__(self):
        return f"game {self.game}: table {self.table or 'out'}"


class Result(models.Model):
    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="results")
    game = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    entered_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["drive", "game", "table"], name="result_once_a_table_a_game"
            ),
        ]

    def __str__(self):
        return f"game {self.game}: table {self.table}, side {self.side + 1}"


class TieBreak(models.Model):
    class Method(models.TextChoices):
        CUT = "cut", "Cut the deck"
        PLAYOFF = "playoff", "Play-off"

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="tiebreaks")
    place = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    method = models.CharField(max_length=8, choices=Method)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["drive", "place"], name="tiebreak_once_a_place"),
        ]

    def __str__(self):
        return f"place {self.place}: {self.get_method_display()}"


class TableLink(models.Model):
    """A table's own scorer link: whoever holds it may enter that table's result for the
    game in play, and nothing else, until the drive is finished. Made on demand."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="table_links")
    table = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ["table"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "table"], name="table_link_once_a_table"),
        ]

    def __str__(self):
        return f"table {self.table}'s scorer link"

    def get_absolute_url(self):
        return reverse("drives:table-scorer", args=[self.drive.league.slug, self.token])
