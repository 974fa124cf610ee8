"""Reads of a drive: leaderboard, prizes, a player's record. Each a fixed number of queries."""

from collections import defaultdict

from django.db.models import Count, OuterRef, Q, Subquery

from drives import prizes
from drives.models import Drive, Entry, Seat, TieBreak
from league.names import unaccented

DECIDED = {TieBreak.Method.CUT: "cut", TieBreak.Method.PLAYOFF: "play-off"}


def _standing(entries):
    """The entries that stand in a drive's placings (not a single still waiting for a
    partner at a partners' drive), each with its games won (`wins`) and the games it
    sat at a table (`played`)."""
    return entries.exclude(partner_name="", drive__format=Drive.Format.PARTNERS).annotate(
        wins=Count("seats", filter=Q(seats__won=True)),
        played=Count("seats", filter=Q(seats__table__isnull=False)),
    )


def leaderboard(drive: Drive) -> list[dict]:
    """Every entry with its games won, best first, ranked "1, 2=, 2=, 4" (those sharing a
    place by name); an entry that took a place by a cut or play-off ranks alone there
    (`decided`: "cut" or "play-off").
    An entry that has not sat at a table (`played` False) comes last, its place blank.
    One query."""
    tiebreak = TieBreak.objects.filter(winner=OuterRef("pk"))
    entries = {
        e.pk: e
        for e in _standing(Entry.objects.filter(drive=drive)).annotate(
            took_place=Subquery(tiebreak.values("place")[:1]),
            took_by=Subquery(tiebreak.values("method")[:1]),
        )
    }
    wins = {pk: e.wins for pk, e in entries.items()}
    took = {pk: e.took_place for pk, e in entries.items() if e.took_place}
    played = {pk for pk, e in entries.items() if e.played}
    ranked = prizes.ranked(wins, took=took, played=played)
    # Entries sharing a place ("2=") are listed by name, as a player looks for theirs on
    # the wall and the leaderboard (not in the order they came in at the door).
    first = {}
    for row, (rank, _, _) in enumerate(ranked):
        first.setdefault(rank, row)
    ranked.sort(key=lambda r: (first[r[0]], unaccented(str(entries[r[1]])), r[1]))
    return [
        {
            "rank": rank,
            "entry": entries[pk],
            "wins": won,
            "decided": DECIDED.get(entries[pk].took_by),
            "played": pk in played,
        }
        for rank, pk, won in ranked
    ]


def singles_waiting(drive: Drive) -> list[Entry]:
    """At a partners' drive, the players checked in alone who have no partner yet, in the
    order they came: they sit out every game until paired. One query (none at an
    individual drive)."""
    if drive.individual:
        return []
    return list(drive.entries.filter(partner_name="", left_after_game__isnull=True))


def next_tables(drive: Drive) -> dict[int, int | None]:
    """{entry id: table in the game in play (None: sits out)}. One query."""
    return dict(Seat.objects.filter(drive=drive, game=drive.game).values_list("entry_id", "table"))


def drive_prizes(drive: Drive) -> dict:
    rows = leaderboard(drive)
    wins = {r["entry"].pk: r["wins"] for r in rows}
    entries = {r["entry"].pk: r["entry"] for r in rows}
    played = {r["entry"].pk for r in rows if r["played"]}
    tiebreaks, methods = {}, {}
    for place, winner, method in drive.tiebreaks.values_list("place", "winner_id", "method"):
        tiebreaks[place], methods[place] = winner, DECIDED[method]
    places = prizes.prize_places(
        wins, places=drive.places, tie_rule=drive.tie_rule, tiebreaks=tiebreaks
    )
    for place in places:
        place.names = [entries[e] for e in place.entries]
        place.choices = [entries[e] for e in place.tied]
        place.decided = methods.get(place.place) if place.tied and place.settled else None
    booby = prizes.booby(wins, places, played=played) if drive.booby else None
    if booby:
        booby.names = [entries[e] for e in booby.entries]
    winners_by_game: dict[int, list[int]] = {}
    if drive.cookie_jar:
        for game, entry in Seat.objects.filter(
            drive=drive, won=True, game__in=drive.cookie_jar
        ).values_list("game", "entry_id"):
            winners_by_game.setdefault(game, []).append(entry)
    given = prizes.places_given(places)
    return {
        "places": places,
        # Places nobody took, too few having won a game: (first, last), or None.
        "not_given": (given + 1, drive.places) if given < drive.places else None,
        "did_not_play": [r["entry"] for r in rows if not r["played"]],
        "entries": entries,
        "wins": wins,
        "jackpot": [entries[e] for e in prizes.jackpot(wins, drive.jackpot)],
        "booby": booby,
        "cookie_jar": [
            (game, [entries[e] for e in won if e in entries])
            for game, won in prizes.cookie_jar(drive.cookie_jar, winners_by_game)
        ],
    }


def tiebreaks_going(drive: Drive, place: int) -> list[TieBreak]:
    """The cut or play-off recorded for `place` and the later ones of the same tie, which
    were decided after it (among the pairs it left): undoing it undoes them all. Each
    with `how` ("cut" or "play-off"). Empty when no cut or play-off settled `place`."""
    decided = {p.place: p.tied for p in drive_prizes(drive)["places"] if p.tied and p.settled}
    if place not in decided:
        return []
    going = list(
        drive.tiebreaks.filter(place__gte=place, winner__in=decided[place])
        .select_related("winner")
        .order_by("place")
    )
    for tiebreak in going:
        tiebreak.how = DECIDED[tiebreak.method]
    return going


def player_drive_record(player) -> dict:
    """A league player's all-time record at finished drives: drives played, drives won,
    games won. A drive counts once it is over (its finish moves the league's content
    version on, so the player's cached page shows it). Three queries however many drives
    the player has played (one for a player who has played none)."""
    mine = Entry.objects.filter(
        Q(player=player) | Q(partner=player), drive__status=Drive.Status.FINISHED
    )
    totals = mine.aggregate(
        # A drive checked into but never sat at a table (too late) was not played.
        drives=Count("drive", distinct=True, filter=Q(seats__table__isnull=False)),
        games_won=Count("seats", filter=Q(seats__won=True)),
    )
    if not totals["drives"]:
        return {**totals, "won": 0}
    # Every placed entry of those drives with its games won, and the cuts recorded.
    drives = mine.values("drive")
    wins, tie_rules, entries_of_mine = defaultdict(dict), {}, set()
    for drive, tie_rule, entry, player_id, partner_id, won in _standing(
        Entry.objects.filter(drive__in=drives)
    ).values_list("drive", "drive__tie_rule", "pk", "player", "partner", "wins"):
        wins[drive][entry] = won
        tie_rules[drive] = tie_rule
        if player.pk in (player_id, partner_id):
            entries_of_mine.add(entry)
    tiebreaks = defaultdict(dict)
    for drive, place, winner in TieBreak.objects.filter(drive__in=drives).values_list(
        "drive", "place", "winner"
    ):
        tiebreaks[drive][place] = winner
    won = 0
    for drive, entries in wins.items():
        top = prizes.prize_places(
            entries, places=1, tie_rule=tie_rules[drive], tiebreaks=tiebreaks[drive]
        )
        if top and top[0].settled and entries_of_mine & set(top[0].entries):
            won += 1
    return {**totals, "won": won}
