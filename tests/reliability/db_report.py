"""
Run as a script against any database: print, as JSON, what a league's season stores
(games, deals, the result rows by name) and whether those rows equal a recount
from the games. The backup and move tests compare two databases with it.

    DATABASE_URL=postgres://… python -m tests.reliability.db_report <league-slug>
"""

import json
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.recount import kept, recount  # noqa: E402
from bench.snapshot import standings_snapshot  # noqa: E402
from league.models import League, Season  # noqa: E402
from scoring.models import Deal, Game  # noqa: E402


def report(slug: str) -> dict:
    league = League.objects.get(slug=slug)
    out = {"seasons": {}}
    for season in Season.objects.filter(league=league).order_by("slug"):
        out["seasons"][season.slug] = {
            "games": Game.objects.filter(season=season).count(),
            "deals": sorted(Deal.objects.filter(game__season=season).values_list("key", flat=True)),
            "standings": standings_snapshot(season),
            "equal_to_recount": kept(season) == recount(season),
        }
    return out


if __name__ == "__main__":
    print(json.dumps(report(sys.argv[1]), default=str))
