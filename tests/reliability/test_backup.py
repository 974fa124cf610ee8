"""
Backups and moves keep the standings.

- `pg_dump` taken while a pub's phones keep saving deals, restored into an empty
  database, gives a season whose standings equal a recount of its games (a consistent
  snapshot, never half a deal); taken again once the writing stops, it gives exactly
  the standings of the live database.
- Moving an install from SQLite to PostgreSQL with the documented commands (README):

      DATABASE_URL=sqlite:////path/db.sqlite3 python manage.py dumpdata \\
          --natural-foreign --natural-primary \\
          -e contenttypes -e auth.permission -e sessions -e admin.logentry -e axes \\
          -o league.json
      DATABASE_URL=postgres://… python manage.py migrate
      DATABASE_URL=postgres://… python manage.py loaddata league.json

  gives the same games, deals and standings.
"""

import json
import os
import subprocess
import threading
import time
import uuid

import pytest
from django.db import connection

from bench.generate import build_league
from scoring.models import Deal, Game
from scoring.services import SideSpec, deal_record, game_start
from tests.reliability.conftest import database_url, libpq_env, run_python, scratch_database

pytestmark = pytest.mark.django_db(transaction=True)

PLAY_ONE_DEAL = """
import uuid
from league.models import League, Pub
from scoring.services import SideSpec, deal_record, game_start
pub = Pub.objects.create(league=League.objects.create(name="New", slug="new"), name="P", slug="p")
game = game_start(season=None, pub=pub, sides=[SideSpec("A"), SideSpec("B")])
deal_record(game=game, dealer=0, tricks=[2, 3], key=uuid.uuid4(), version=game.version)
"""
DUMP_EXCLUDES = ["contenttypes", "auth.permission", "sessions", "admin.logentry", "axes"]


def report(url: str, slug: str) -> dict:
    env = {"DATABASE_URL": url, "DJANGO_DEBUG": "1"}
    return json.loads(run_python(["-m", "tests.reliability.db_report", slug], env))


def dump_and_restore(dump_path, target_url: str) -> None:
    env = {**os.environ, **libpq_env()}
    subprocess.run(
        ["pg_dump", "-Fc", "-f", str(dump_path), connection.settings_dict["NAME"]],
        env=env,
        check=True,
        timeout=120,
    )
    target = target_url.rsplit("/", 1)[1]
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "-d", target, str(dump_path)],
        env=env,
        check=True,
        timeout=120,
    )


class Writer(threading.Thread):
    """A pub's phones: new games between the season's teams, deal after deal."""

    def __init__(self, season, teams):
        super().__init__(daemon=True)
        self.season, self.teams = season, teams
        self.stop = threading.Event()
        self.deals = 0
        self.error = None

    def run(self):
        from django.db import connection as own

        try:
            sides = [
                SideSpec(label=t.name, team=t, players=list(t.players.all())) for t in self.teams
            ]
            while not self.stop.is_set():
                game = game_start(season=self.season, pub=self.teams[0].pub, sides=sides)
                version, first = game.version, 4
                while not self.stop.is_set():
                    deal_record(
                        game=game,
                        dealer=(version - 1) % 2,
                        tricks=[first, 5 - first],
                        key=uuid.uuid4(),
                        version=version,
                    )
                    version, first, self.deals = version + 1, 1 if first == 4 else 4, self.deals + 1
                    if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
                        break
        except Exception as exc:  # the test reports it
            self.error = exc
        finally:
            own.close()


def test_a_pg_dump_taken_while_deals_are_written_restores_to_identical_standings(tmp_path):
    built = build_league("S", seed=3, rounds=2, slug="backup")
    teams = list(built.season.teams.order_by("pk")[:2])
    writer = Writer(built.season, teams)
    writer.start()
    try:
        while writer.deals < 5 and writer.is_alive():
            time.sleep(0.05)
        before = Deal.objects.count()
        with scratch_database("restore") as restored:
            dump_and_restore(tmp_path / "busy.dump", restored)
            during = Deal.objects.count()
            busy = report(restored, "backup")["seasons"]["season"]
        assert during > before, "deals were being written while pg_dump ran"
    finally:
        writer.stop.set()
        writer.join(timeout=30)
    assert writer.error is None, writer.error

    live = report(database_url(), "backup")["seasons"]["season"]
    assert busy["equal_to_recount"] and live["equal_to_recount"]
    assert set(busy["deals"]) < set(live["deals"])  # a snapshot: every deal it has is real

    with scratch_database("restore") as restored:
        dump_and_restore(tmp_path / "quiet.dump", restored)
        quiet = report(restored, "backup")["seasons"]["season"]
    assert quiet == live


def test_moving_an_install_from_sqlite_to_postgresql_keeps_its_standings(tmp_path):
    sqlite = f"sqlite:///{tmp_path / 'pub.sqlite3'}"
    fixture = tmp_path / "league.json"
    dev = {"DJANGO_DEBUG": "1"}
    run_python(["manage.py", "migrate", "-v0"], {**dev, "DATABASE_URL": sqlite})
    run_python(["manage.py", "load_demo"], {**dev, "DATABASE_URL": sqlite})
    excludes = [arg for app in DUMP_EXCLUDES for arg in ("-e", app)]
    run_python(
        ["manage.py", "dumpdata", "--natural-foreign", "--natural-primary", *excludes]
        + ["-o", str(fixture)],
        {**dev, "DATABASE_URL": sqlite},
    )
    with scratch_database("move") as postgres:
        run_python(["manage.py", "migrate", "-v0"], {**dev, "DATABASE_URL": postgres})
        run_python(["manage.py", "loaddata", str(fixture)], {**dev, "DATABASE_URL": postgres})
        moved = report(postgres, "clare")
        # The sequences moved on past the loaded ids: new rows save as usual.
        run_python(["manage.py", "shell", "-c", PLAY_ONE_DEAL], {**dev, "DATABASE_URL": postgres})
    original = report(sqlite, "clare")

    assert original["seasons"], "the demo league has a season"
    for season in original["seasons"].values():
        assert season["equal_to_recount"]
        assert season["standings"]["results"]
    assert moved == original
