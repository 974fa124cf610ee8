"""Three demo drives at a league's first pub: one at the door, one in play, one finished
with a tie for first still to cut. Used by the security walk (tests/security)."""

import datetime

from drives import services
from drives.models import Drive


def drives_demo_load(*, league, today: datetime.date | None = None) -> list[Drive]:
    pub = league.pubs.order_by("name").first()
    today = today or datetime.date.today()
    made = []
    for name, pairs in (("Door drive", 5), ("Playing drive", 9), ("Finished drive", 4)):
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
        )
        for n in range(pairs):
            services.entry_add(drive=drive, name=f"{name} {n}a", partner_name=f"{name} {n}b")
        made.append(drive)
    door, playing, finished = made
    services.entry_add(drive=door, name="Single One")
    services.entry_add(drive=door, name="Single Two")
    services.drive_start(drive=playing)
    services.result_record(drive=playing, game=1, table=1, side=0)
    services.drive_start(drive=finished)
    for game in (1, 2):
        for table in (1, 2):
            services.result_record(drive=finished, game=game, table=table, side=0)
        services.game_next(drive=finished)
    return made
