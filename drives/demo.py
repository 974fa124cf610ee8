"""Four demo drives at a league's first pub: one at the door (with a fee), one in play
(a pair gone home), one finished with a tie for first still to cut, and one whose cut is
recorded. Used by the security walk (tests/security)."""

import datetime

from drives import services
from drives.models import Drive
from drives.selectors import drive_prizes


def drives_demo_load(*, league, today: datetime.date | None = None) -> list[Drive]:
    pub = league.pubs.order_by("name").first()
    today = today or datetime.date.today()
    made = []
    drives = (("Door drive", 5), ("Playing drive", 9), ("Finished drive", 4), ("Cut drive", 4))
    for name, pairs in drives:
        drive = services.drive_create(
            league=league,
            pub=pub,
            name=name,
            date=today,
            preset="progressive",
            games=2,
            jackpot=None,
            places=1,
            cookie_jar=[1],
            entry_fee=5 if name == "Door drive" else None,
        )
        for n in range(pairs):
            services.entry_add(drive=drive, name=f"{name} {n}a", partner_name=f"{name} {n}b")
        made.append(drive)
    door, playing, *finished = made
    services.entry_add(drive=door, name="Single One")
    services.entry_add(drive=door, name="Single Two")
    services.drive_start(drive=playing)
    services.result_record(drive=playing, game=1, table=1, side=0)
    services.entry_leave(drive=playing, entry=playing.entries.order_by("pk").last())
    for drive in finished:
        services.drive_start(drive=drive)
        for game in (1, 2):
            for table in (1, 2):
                services.result_record(drive=drive, game=game, table=table, side=0)
            services.game_next(drive=drive)
    cut = finished[-1]
    tie = next(p for p in drive_prizes(cut)["places"] if not p.settled)
    winner = cut.entries.get(pk=min(tie.tied))
    services.tiebreak_record(drive=cut, place=tie.place, winner=winner, method="cut")
    return made
