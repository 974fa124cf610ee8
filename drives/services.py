"""
Services that run a card drive. Keyword-only, each in one transaction, the drive's row
locked first so two phones never compute the same game twice.

Every refusal is a `DriveError` whose message an organiser can read; nothing is saved.
"""

import datetime
import random
from collections import Counter
from collections.abc import Iterable

from django.db import IntegrityError, transaction

from drives import movement
from drives.models import Drive, Entry, Result, Seat, TableLink, TieBreak
from league.models import League, Player, Pub
from league.names import key, name_problem, tidy, unaccented
from league.results import content_changed
from league.tokens import typeable_token

PRESETS = {
    "progressive": {
        "label": "Progressive 25, partners, tables of 4, 20 games",
        "format": Drive.Format.PARTNERS,
        "table_size": 4,
        "games": 20,
        "movement": Drive.Movement.WINNERS_MOVE,
        "places": 3,
        "jackpot": 14,
        "tie_rule": Drive.TieRule.CUT,
    },
    "six": {
        "label": "Tables of six, three pairs",
        "format": Drive.Format.PARTNERS,
        "table_size": 6,
        "games": 20,
        "movement": Drive.Movement.WINNERS_MOVE,
        "places": 3,
        "jackpot": 14,
        "tie_rule": Drive.TieRule.CUT,
    },
    "45s": {
        "label": "45s: winners move, losers stay",
        "format": Drive.Format.PARTNERS,
        "table_size": 4,
        "games": 25,
        "movement": Drive.Movement.WINNERS_MOVE,
        "places": 3,
        "jackpot": None,
        "booby": True,
        "tie_rule": Drive.TieRule.PLAYOFF,
    },
}


class DriveError(Exception):
    """A refusal an organiser can read."""


def listed(words: list[str]) -> str:
    """ "A", "A and B", "A, B and C": names in a sentence."""
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else words[0]


def _name(text: str, *, what: str) -> str:
    problem = name_problem(text or "", what=what)
    if problem:
        raise DriveError(problem)
    if not tidy(text):
        raise DriveError(f"Type the {what}: it is empty.")
    return tidy(text)


def _locked(drive: Drive) -> Drive:
    return Drive.objects.select_for_update().get(pk=drive.pk)


def plan_for(drive: Drive) -> movement.Plan:
    return movement.Plan.for_drive(
        individual=drive.individual, table_size=drive.table_size, movement=drive.movement
    )


def check_settings(fields: dict) -> None:
    """A drive's settings against the set-up form's rules: a DriveError in its words.
    Also checks a drive brought in from a league's data file (drives/league_data.py)."""
    individual = fields.get("format") == Drive.Format.INDIVIDUAL
    size = fields.get("table_size")
    if individual and size not in (3, 4, 5, 6):
        raise DriveError("Tables for every player for themselves seat 3 to 6.")
    if not individual and size not in (4, 6):
        raise DriveError("With partners, tables seat 4 (two pairs) or 6 (three pairs).")
    if not 1 <= (fields.get("games") or 0) <= 60:
        raise DriveError("A drive has between 1 and 60 games.")
    if not 1 <= (fields.get("places") or 0) <= 10:
        raise DriveError("Give between 1 and 10 prizes by games won.")
    jackpot = fields.get("jackpot")
    if jackpot is not None and not 1 <= jackpot <= fields["games"]:
        raise DriveError(
            f"The jackpot at {jackpot} wins is more than the {fields['games']} games: "
            "lower it, or leave it empty for no jackpot."
        )
    for game in fields.get("cookie_jar") or []:
        if not 1 <= game <= fields["games"]:
            raise DriveError(f"Cookie-jar game {game} is not one of the drive's games.")


def drive_create(*, league: League, pub: Pub, name: str, date: datetime.date, **fields) -> Drive:
    if pub.league_id != league.pk:
        raise DriveError("That pub is not in this league.")
    preset = PRESETS.get(fields.pop("preset", "") or "", {})
    settings = {k: v for k, v in preset.items() if k != "label"}
    settings.update({k: v for k, v in fields.items() if v is not None or k == "jackpot"})
    check_settings(settings)
    with transaction.atomic():
        return Drive.objects.create(
            league=league,
            pub=pub,
            name=_name(name, what="drive's name"),
            date=date,
            seed=random.SystemRandom().randrange(2**31),
            **settings,
        )


# What stays as it was set once game 1 has started: the seating and the moves follow it.
FIXED_ONCE_STARTED = ("format", "table_size", "movement", "pub")
FIXED_IN_WORDS = "the format, the seats at a table, the movement and the venue"
CHECKED = ("format", "table_size", "games", "places", "jackpot", "cookie_jar")  # check_settings


def drive_update(*, drive: Drive, **fields) -> Drive:
    """A drive's settings put right (the set-up form's fields). Before game 1, anything
    but the format once someone is checked in (they came as pairs, or alone); while it
    plays, all but `FIXED_ONCE_STARTED`, and never fewer games than the one in play;
    once finished, nothing: its prizes were given by them."""
    with transaction.atomic():
        drive = _locked(drive)
        if drive.status == Drive.Status.FINISHED:
            raise DriveError("This drive has finished: its settings stay as they were played.")
        if "pub" in fields and fields["pub"].league_id != drive.league_id:
            raise DriveError("That pub is not in this league.")
        if "name" in fields:
            fields["name"] = _name(fields["name"], what="drive's name")
        changed = {k: v for k, v in fields.items() if getattr(drive, k) != v}
        if drive.status == Drive.Status.RUNNING:
            if any(k in changed for k in FIXED_ONCE_STARTED):
                raise DriveError(f"Game 1 has started: {FIXED_IN_WORDS} stay as they were set.")
            if changed.get("games", drive.games) < drive.game:
                raise DriveError(
                    f"Game {drive.game} is in play: the drive has at least {drive.game} games."
                )
        elif "format" in changed and drive.entries.exists():
            raise DriveError(
                "People are checked in already, as pairs or on their own: the format stays. "
                "Remove them first, or set up another drive."
            )
        for name, value in changed.items():
            setattr(drive, name, value)
        check_settings({k: getattr(drive, k) for k in CHECKED})
        drive.save()
        content_changed(league_id=drive.league_id)  # players' drive records
    return drive


def drive_remove(*, drive: Drive) -> None:
    """A drive set up by mistake, taken off before game 1 with whoever was checked in."""
    with transaction.atomic():
        drive = _locked(drive)
        if drive.status != Drive.Status.OPEN:
            raise DriveError("Game 1 has started: the drive stays, with its results.")
        drive.delete()


def _refuse_look_alike(entry: Entry, typed: Iterable[str]) -> None:
    """A name typed at the door that differs from one checked in only by its accents
    ("Sean Murphy" after "Seán Murphy"): most likely the same person typed again, who
    would be seated twice. Two people of those names are told apart by what is added."""
    for name in filter(None, typed):
        for theirs in filter(None, (entry.name, entry.partner_name)):
            if unaccented(name) == unaccented(theirs):
                raise DriveError(
                    f"“{name}” looks like “{theirs}”, who is checked in already ({entry}). "
                    f"If they are two people, add something to tell them apart, such as a "
                    f"town: “{name} (Ennis)”."
                )


def _player(league: League, name: str) -> Player | None:
    """The league's player of that name, however its capitals and fadas were typed
    ("micheal lynch" is Mícheál Lynch): the league holds no two players whose names
    differ only so (`league.services` refuses the second)."""
    if not name:
        return None
    found = Player.objects.filter(league=league, name__iexact=name).first()
    if found is None:
        wanted = unaccented(name)
        found = next(
            (p for p in Player.objects.filter(league=league) if unaccented(p.name) == wanted),
            None,
        )
    return found


def entry_add(*, drive: Drive, name: str, partner_name: str = "", paid: bool = False) -> Entry:
    """Check someone in at the door. While the drive is playing they join at the next game.

    The same pair (or player) checked in again, as by a double tap on the button, gives
    back their entry: one entry, no refusal. Anyone already in another entry is refused."""
    name = _name(name, what="name")
    partner_name = tidy(partner_name or "")
    if partner_name:
        partner_name = _name(partner_name, what="partner's name")
        if drive.individual:
            raise DriveError("Every player plays for themselves tonight: check in one name.")
        if key(partner_name) == key(name):
            raise DriveError("A pair needs two different people.")
    # Players of the league are checked in as the league spells them.
    player, partner = _player(drive.league, name), _player(drive.league, partner_name)
    name = player.name if player else name
    partner_name = partner.name if partner else partner_name
    with transaction.atomic():
        drive = _locked(drive)
        if drive.status == Drive.Status.FINISHED:
            raise DriveError("This drive has finished.")
        entries = list(drive.entries.all())
        wanted = {key(n) for n in (name, partner_name) if n}
        for entry in entries:
            people = {key(n) for n in (entry.name, entry.partner_name) if n}
            if not people & wanted:
                _refuse_look_alike(entry, (name, partner_name))
                continue
            if entry.left_after_game is not None:
                raise DriveError(
                    f"{entry} left after game {entry.left_after_game}: "
                    "tap “Back again” on their line to bring them back."
                )
            if people == wanted:
                # The same check-in again (a double tap on the button): one entry.
                if paid and not entry.paid:
                    entry.paid = True
                    entry.save(update_fields=["paid"])
                return entry
            person = next(p for p in (entry.name, entry.partner_name) if p and key(p) in wanted)
            raise DriveError(f"“{person}” is already checked in.")
        return Entry.objects.create(
            drive=drive,
            name=name,
            partner_name=partner_name,
            player=player,
            partner=partner,
            paid=paid,
            joined_game=drive.game + 1,
        )


def singles_pair(*, drive: Drive) -> list[Entry]:
    """Pair the singles waiting for a partner, in the order they came in. Returns the
    pairs made (an odd one out still waits)."""
    with transaction.atomic():
        drive = _locked(drive)
        if drive.individual:
            raise DriveError("Every player plays for themselves tonight: nobody needs a partner.")
        singles = [
            e for e in drive.entries.all() if not e.partner_name and e.left_after_game is None
        ]
        made = []
        for first, second in zip(singles[::2], singles[1::2], strict=False):
            first.partner_name, first.partner = second.name, second.player
            first.joined_game = max(first.joined_game, second.joined_game)
            first.save(update_fields=["partner_name", "partner", "joined_game"])
            second.delete()
            made.append(first)
        return made


def entry_rename(*, drive: Drive, entry: Entry, name: str, partner_name: str = "") -> Entry:
    """Put right a name typed wrong at the door, at any time: the entry keeps its seats,
    wins and place. A pair keeps two names, a single one. As at the door, a player of the
    league is named as the league spells them and linked to their records, and the name
    of someone else checked in is refused."""
    name = _name(name, what="name")
    if entry.partner_name:
        partner_name = _name(partner_name, what="partner's name")
        if key(partner_name) == key(name):
            raise DriveError("A pair needs two different people.")
    else:
        partner_name = ""
    player, partner = _player(drive.league, name), _player(drive.league, partner_name)
    name = player.name if player else name
    partner_name = partner.name if partner else partner_name
    with transaction.atomic():
        drive = _locked(drive)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, drive=drive)
        wanted = {key(n) for n in (name, partner_name) if n}
        for other in drive.entries.exclude(pk=entry.pk):
            theirs = [n for n in (other.name, other.partner_name) if n]
            person = next((n for n in theirs if key(n) in wanted), None)
            if person:
                raise DriveError(f"“{person}” is checked in already ({other}).")
            _refuse_look_alike(other, (name, partner_name))
        entry.name, entry.partner_name = name, partner_name
        entry.player, entry.partner = player, partner
        entry.save(update_fields=["name", "partner_name", "player", "partner"])
        content_changed(league_id=drive.league_id)  # players' drive records
    return entry


def entry_leave(*, drive: Drive, entry: Entry) -> Entry:
    """An early leaver: they play no more games; their wins so far stand. Before they
    have had a seat (the drive not started, or a late arrival waiting for the next game)
    they are removed instead: the returned entry then has no pk."""
    with transaction.atomic():
        drive = _locked(drive)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, drive=drive)
        if entry.left_after_game is not None:  # a second tap on "Yes": one leaving
            return entry
        if drive.status == Drive.Status.FINISHED:
            raise DriveError("This drive has finished.")
        if drive.status == Drive.Status.OPEN or not entry.seats.exists():
            entry.delete()
            return entry
        entry.left_after_game = drive.game
        entry.save(update_fields=["left_after_game"])
        return entry


def entry_return(*, drive: Drive, entry: Entry) -> Entry:
    """A pair that left (or was let go by a mis-tap) comes back: they play from the next
    game, seated like a late arrival; the games they missed count no win. Coming back
    twice (a double tap) is coming back once."""
    with transaction.atomic():
        drive = _locked(drive)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, drive=drive)
        if drive.status == Drive.Status.FINISHED:
            raise DriveError("This drive has finished.")
        if entry.left_after_game is None:  # a second tap on "Back again": back once
            return entry
        entry.left_after_game = None
        entry.save(update_fields=["left_after_game"])
        return entry


def entry_paid(*, drive: Drive, entry: Entry, paid: bool) -> Entry:
    """Mark an entry paid (or not) after check-in. Saying the same twice changes nothing."""
    with transaction.atomic():
        drive = _locked(drive)
        if drive.entry_fee is None:
            raise DriveError("There is no entry fee tonight.")
        entry = Entry.objects.select_for_update().get(pk=entry.pk, drive=drive)
        if entry.paid != paid:
            entry.paid = paid
            entry.save(update_fields=["paid"])
        return entry


def _present(drive: Drive, game: int) -> list[int]:
    """Entries who may play `game`: checked in by then, not gone, with a partner if needed."""
    return [
        e.pk
        for e in drive.entries.all()
        if e.joined_game <= game
        and e.left_after_game is None
        and (drive.individual or e.partner_name)
    ]


def newcomers_sit_out(drive: Drive) -> tuple[int, int] | None:
    """Whether someone checked in now, who has played no game, would sit out the next
    game if it started as things stand: (how many sit it out, how many of those there
    have played a game), or None when they get a seat. Those who have played most sit out
    first (drives/movement.py, rule 5), so a newcomer sits out only when fewer have
    played a game than must sit out. Reads only."""
    present = _present(drive, drive.game + 1)
    per_table = plan_for(drive).per_table
    out = len(present) % per_table if len(present) >= per_table else len(present)
    played = (
        Seat.objects.filter(drive=drive, entry__in=present, table__isnull=False)
        .values("entry")
        .distinct()
        .count()
    )
    return (out, played) if played < out else None


def _save_seating(drive: Drive, seating: movement.Seating) -> None:
    rows = [
        Seat(drive=drive, game=seating.game, entry_id=e, table=t.number, side=s)
        for t in seating.tables
        for s, side in enumerate(t.sides)
        for e in side
    ]
    rows += [Seat(drive=drive, game=seating.game, entry_id=e) for e in seating.sit_outs]
    Seat.objects.bulk_create(rows)
    table_links(drive=drive, tables=[t.number for t in seating.tables])


def seating_of(drive: Drive, game: int) -> movement.Seating:
    tables: dict[int, dict[int, list[int]]] = {}
    sit_outs = []
    for seat in Seat.objects.filter(drive=drive, game=game).order_by("table", "side", "pk"):
        if seat.table is None:
            sit_outs.append(seat.entry_id)
        else:
            tables.setdefault(seat.table, {}).setdefault(seat.side, []).append(seat.entry_id)
    return movement.Seating(
        game,
        tuple(
            movement.Table(n, tuple(tuple(tables[n][s]) for s in sorted(tables[n])))
            for n in sorted(tables)
        ),
        tuple(sit_outs),
    )


def _refuse_singles(drive: Drive) -> None:
    """At a partners drive nobody is left out without a word: a club finds a partner for
    anyone who comes alone (Confey), so game 1 waits until every single has one."""
    if drive.individual:
        return
    singles = [e.name for e in drive.entries.all() if not e.partner_name]
    if not singles:
        return
    if len(singles) == 1:
        raise DriveError(
            f"{singles[0]} has no partner yet: check in someone to partner them and tap "
            f"“Pair the singles”, or remove {singles[0]}. Nothing was started."
        )
    raise DriveError(
        f"{listed(singles)} have no partner yet: tap “Pair the singles”, or remove them. "
        "Nothing was started."
    )


def _first_seating(drive: Drive) -> movement.Seating:
    if drive.status != Drive.Status.OPEN:
        raise DriveError("This drive has already started.")
    _refuse_singles(drive)
    seating = movement.first_seating(_present(drive, 1), plan=plan_for(drive), seed=drive.seed)
    if not seating.tables:
        need = drive.table_size if drive.individual else drive.table_size // 2
        what = "players" if drive.individual else "pairs"
        raise DriveError(f"A table needs {need} {what}: check more in first.")
    return seating


def drive_start_check(*, drive: Drive) -> movement.Seating:
    """What "Start game 1" would seat (the seed makes it the same seating), or the
    DriveError it would be refused with. Saves nothing: the organiser is asked first."""
    return _first_seating(drive)


def drive_start(*, drive: Drive) -> movement.Seating:
    with transaction.atomic():
        drive = _locked(drive)
        seating = _first_seating(drive)
        _save_seating(drive, seating)
        drive.status, drive.game = Drive.Status.RUNNING, 1
        drive.save(update_fields=["status", "game"])
        return seating


def result_record(
    *, drive: Drive, game: int, table: int, side: int, seen: int | None = None
) -> Result:
    """Which side won this table in this game. `seen` is the winning side the page showed
    when it was tapped (None: no result yet). A result already stored is changed only
    from a page that showed it, so a second phone is told, never silently obeyed."""
    with transaction.atomic():
        drive = _locked(drive)
        if drive.status == Drive.Status.FINISHED:
            raise DriveError("This drive has finished: no more results.")
        if drive.status != Drive.Status.RUNNING or game != drive.game:
            raise DriveError(
                f"Game {game} is not the game in play, so nothing was saved: results go to "
                f"game {drive.game}."
            )
        seats = list(
            Seat.objects.filter(drive=drive, game=game, table=table).select_related("entry")
        )
        if not seats:
            raise DriveError(f"There is no table {table} in game {game}.")
        if side not in {s.side for s in seats}:
            raise DriveError(f"Table {table} has no side {side + 1}.")
        result = Result.objects.filter(drive=drive, game=game, table=table).first()
        if result is not None and result.side not in (side, seen):
            names = " & ".join(str(s.entry) for s in seats if s.side == result.side)
            raise DriveError(
                f"Table {table} is already entered: {names} won. Nothing was changed. "
                "If that is wrong, tap the winners again."
            )
        if result is None:
            try:
                with transaction.atomic():
                    result = Result.objects.create(drive=drive, game=game, table=table, side=side)
            except IntegrityError as error:  # two phones at once: the other one's is kept
                raise DriveError(f"Table {table}'s result was entered at the same time.") from error
        else:
            result.side = side
            result.save(update_fields=["side", "entered_at"])
        for seat in seats:
            seat.won = seat.side == side
        Seat.objects.bulk_update(seats, ["won"])
        return result


def tables_waiting(drive: Drive) -> list[int]:
    """Tables of the game in play with no result yet."""
    tables = set(
        Seat.objects.filter(drive=drive, game=drive.game, table__isnull=False).values_list(
            "table", flat=True
        )
    )
    done = set(Result.objects.filter(drive=drive, game=drive.game).values_list("table", flat=True))
    return sorted(tables - done)


def _refuse_next(drive: Drive) -> None:
    if drive.status != Drive.Status.RUNNING:
        raise DriveError("This drive is not being played.")
    waiting = tables_waiting(drive)
    if waiting:
        listed = ", ".join(map(str, waiting))
        raise DriveError(
            f"Game {drive.game}: no result yet from "
            f"table{'s' if len(waiting) > 1 else ''} {listed}."
        )


def game_next_check(*, drive: Drive) -> None:
    """The DriveError "Start game N" (or "Finish") would be refused with, if any. Saves
    nothing: the organiser is asked first."""
    _refuse_next(drive)


def game_next(*, drive: Drive, closing: int | None = None) -> movement.Seating | None:
    """Close the game in play and seat the next one (None when the last game is over).
    `closing`: the game the organiser was asked about; if another is in play now (a
    second "Yes", or another phone's), nothing is started."""
    with transaction.atomic():
        drive = _locked(drive)
        if closing is not None:
            if drive.status == Drive.Status.FINISHED or drive.game > closing:
                raise DriveError(
                    f"Game {closing}'s results are closed already. Nothing more was started."
                )
            if drive.game != closing:
                raise DriveError(f"Game {closing} is not the game in play. Nothing was started.")
        _refuse_next(drive)
        if drive.game == drive.games:
            drive.status = Drive.Status.FINISHED
            drive.save(update_fields=["status"])
            content_changed(league_id=drive.league_id)  # players' drive records
            return None
        previous = seating_of(drive, drive.game)
        winners = dict(
            Result.objects.filter(drive=drive, game=drive.game).values_list("table", "side")
        )
        # Games missed so far: sat out, or not there (a late arrival's games before it
        # came count as sat out, so it is not also sat out at its first game).
        played = Counter(
            Seat.objects.filter(drive=drive, table__isnull=False).values_list("entry_id", flat=True)
        )
        present = _present(drive, drive.game + 1)
        seating = movement.next_seating(
            previous,
            winners=winners,
            present=present,
            plan=plan_for(drive),
            missed={e: drive.game - played[e] for e in present},
        )
        _save_seating(drive, seating)
        drive.game += 1
        drive.save(update_fields=["game"])
        return seating


def tiebreak_record(*, drive: Drive, place: int, winner: Entry, method: str) -> TieBreak:
    """The organiser's record of a cut or play-off: `winner` takes `place`."""
    from drives.selectors import drive_prizes

    with transaction.atomic():
        drive = _locked(drive)
        if drive.status != Drive.Status.FINISHED:
            raise DriveError("Ties are settled once the last game is over.")
        if method not in TieBreak.Method.values:
            raise DriveError("Say whether the tie was settled by a cut or a play-off.")
        open_ties = {p.place: p.tied for p in drive_prizes(drive)["places"] if not p.settled}
        if place not in open_ties:
            settled = drive.tiebreaks.filter(place=place).select_related("winner").first()
            if settled is not None:  # by another phone, a moment ago
                raise DriveError(
                    f"Place {place} was settled already: {settled.winner} took it. "
                    "Nothing was changed."
                )
            raise DriveError(f"Place {place} has no tie to settle.")
        if winner.pk not in open_ties[place]:
            raise DriveError(f"{winner} is not in the tie for place {place}.")
        tiebreak = TieBreak.objects.create(drive=drive, place=place, winner=winner, method=method)
        content_changed(league_id=drive.league_id)  # players' drive records
        return tiebreak


def tiebreak_undo(*, drive: Drive, place: int, seen: list[int] | None = None) -> list[TieBreak]:
    """Put right a cut or play-off recorded wrongly: the place is a tie to settle again.
    Later places settled within the same tie rest on this one, so they go too. `seen`:
    the tie-breaks the organiser was asked about; if those going now are others (another
    phone recorded or undid one meanwhile), nothing is undone. Returns those undone."""
    from drives.selectors import tiebreaks_going

    with transaction.atomic():
        drive = _locked(drive)
        going = tiebreaks_going(drive, place)
        if not going:
            raise DriveError(f"No cut or play-off is recorded for place {place}.")
        if seen is not None and sorted(t.pk for t in going) != sorted(seen):
            raise DriveError(
                f"The cuts or play-offs that rest on place {place} have changed since "
                "that page was opened. Nothing was undone: check the prize list and "
                "tap “Undo” again."
            )
        TieBreak.objects.filter(pk__in=[t.pk for t in going]).delete()
        content_changed(league_id=drive.league_id)  # players' drive records
        return going


def table_links(*, drive: Drive, tables: Iterable[int]) -> list[TableLink]:
    """Each table's own scorer link, made the first time the table is seated."""
    wanted = sorted(set(tables))
    have = set(
        TableLink.objects.filter(drive=drive, table__in=wanted).values_list("table", flat=True)
    )
    TableLink.objects.bulk_create(
        [TableLink(drive=drive, table=t, token=typeable_token()) for t in wanted if t not in have],
        ignore_conflicts=True,  # two phones at once: the first one's links are kept
    )
    return list(TableLink.objects.filter(drive=drive, table__in=wanted).order_by("table"))
