"""Reads of a drive: leaderboard, prizes, a player's record. Each a fixed number of queries."""

from django.db.models import Count, Q

from drives import prizes
from drives.models import Drive, Entry, Seat


def leaderboard(drive: Drive) -> list[dict]:
    """Every entry with its games won, best first, ranked "1, 2=, 2=, 4". One query."""
    entries = {
        e.pk: e
        for e in Entry.objects.filter(drive=drive)
        .exclude(partner_name="", drive__format=Drive.Format.PARTNERS)
        .annotate(wins=Count("seats", filter=Q(seats__won=True)))
    }
    wins = {pk: e.wins for pk, e in entries.items()}
    return [
        {"rank": rank, "entry": entries[pk], "wins": won} for rank, pk, won in prizes.ranked(wins)
    ]


def next_tables(drive: Drive) -> dict[int, int | None]:
    """{entry id: table in the game in play (None: sits out)}. One query."""
    return dict(Seat.objects.filter(drive=drive, game=drive.game).values_list("entry_id", "table"))


def drive_prizes(drive: Drive) -> dict:
    rows = leaderboard(drive)
    wins = {r["entry"].pk: r["wins"] for r in rows}
    entries = {r["entry"].pk: r["entry"] for r in rows}
    tiebreaks = dict(drive.tiebreaks.values_list("place", "winner_id"))
    places = prizes.prize_places(
        wins, places=drive.places, tie_rule=drive.tie_rule, tiebreaks=tiebreaks
    )
    for place in places:
        place.names = [entries[e] for e in place.entries]
        place.choices = [entries[e] for e in place.tied]
    winners_by_game: dict[int, list[int]] = {}
    if drive.cookie_jar:
        for game, entry in Seat.objects.filter(
            drive=drive, won=True, game__in=drive.cookie_jar
        ).values_list("game", "entry_id"):
            winners_by_game.setdefault(game, []).append(entry)
    return {
        "places": places,
        "entries": entries,
        "wins": wins,
        "jackpot": [entries[e] for e in prizes.jackpot(wins, drive.jackpot)],
        "booby": [entries[e] for e in prizes.booby(wins)] if drive.booby else [],
        "cookie_jar": [
            (game, [entries[e] for e in won if e in entries])
            for game, won in prizes.cookie_jar(drive.cookie_jar, winners_by_game)
        ],
    }


def player_drive_record(player) -> dict:
    """A league player's all-time record at finished drives: drives played, drives won,
    games won. A drive counts once it is over (its finish moves the league's content
    version on, so the player's cached page shows it)."""
    mine = Entry.objects.filter(
        Q(player=player) | Q(partner=player), drive__status=Drive.Status.FINISHED
    )
    totals = mine.aggregate(
        drives=Count("drive", distinct=True),
        games_won=Count("seats", filter=Q(seats__won=True)),
    )
    won = 0
    for drive in Drive.objects.filter(entries__in=mine).distinct():
        top = prizes.prize_places(
            {r["entry"].pk: r["wins"] for r in leaderboard(drive)},
            places=1,
            tie_rule=drive.tie_rule,
            tiebreaks=dict(drive.tiebreaks.values_list("place", "winner_id")),
        )
        if (
            top
            and top[0].settled
            and any(
                e in top[0].entries for e in mine.filter(drive=drive).values_list("pk", flat=True)
            )
        ):
            won += 1
    return {**totals, "won": won}
