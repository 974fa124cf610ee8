"""
Run as a script against a fresh SQLite file: 16 threads, each with its own connection,
record deals at the same moment. Prints a JSON summary of deals saved and errors.

    DATABASE_URL=sqlite:////tmp/x.sqlite3 python -m tests.reliability.sqlite_writers
"""

import json
import os
import threading
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from league.models import League, Pub  # noqa: E402
from scoring.models import Deal  # noqa: E402
from scoring.services import SideSpec, deal_record, game_start  # noqa: E402

WRITERS = 16
DEALS_EACH = 5


def main():
    call_command("migrate", verbosity=0)
    league = League.objects.create(name="Race", slug="race")
    pub = Pub.objects.create(league=league, name="The Lock", slug="lock")
    games = [
        game_start(season=None, pub=pub, sides=[SideSpec("A"), SideSpec("B")])
        for _ in range(WRITERS)
    ]
    connection.close()
    barrier = threading.Barrier(WRITERS)
    errors = []

    def write(game):
        try:
            barrier.wait()
            for _ in range(DEALS_EACH):
                game.refresh_from_db()
                if game.winner is not None:
                    break
                deal_record(
                    game=game, dealer=0, tricks=[1, 4], key=uuid.uuid4(), version=game.version
                )
        except Exception as exc:  # every error counts, "database is locked" above all
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"deals": Deal.objects.count(), "errors": errors}))


if __name__ == "__main__":
    main()
