"""
A card drive in the bench: 100 pairs (200 players) at tables of four, 20 games, about
1,000 table results, every one entered through `drives.services.result_record` and every
next game seated through `drives.services.game_next`, as the organiser's phone would.

Measured in the same run, so the figures are ratios on any machine:

- each result's time (median and 95th percentile), against a bare `SELECT 1` round
  trip and against one read of the leaderboard;
- the leaderboard read at the first and the last game (the drive grows by a game's
  seats each game: the read may grow a little in time, never in queries);
- the queries of the leaderboard read, the wall screen page (in process, by the test
  client) and one result, at the first and the last game: they must be equal.

Call `measure()` after django.setup() in a database of its own (it builds a league).
"""

import datetime
import random
import statistics
import time
import uuid

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from drives import selectors, services
from drives.models import Drive
from league.models import League, Pub

# Targets: ratios, so the verdicts hold on a slow laptop and a fast server alike.
# One result is a locked transaction of 11 queries plus the ORM's Python: measured at
# about 90 bare round trips (2026-12, 2 shared cores); 150 leaves room for noise.
RESULT_VS_SELECT1_AT_MOST = 150.0
LEADERBOARD_LAST_VS_FIRST_AT_MOST = 3.0  # 20 games of seats, still one query


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _median_of(function, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _select_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _queries(function) -> int:
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured.captured_queries)


def _build(seed: int, pairs: int, games: int) -> Drive:
    tag = uuid.uuid4().hex[:8]
    league = League.objects.create(name=f"Drive bench {tag}", slug=f"drive-bench-{tag}")
    pub = Pub.objects.create(league=league, name="The Parish Hall", slug="parish-hall")
    drive = services.drive_create(
        league=league,
        pub=pub,
        name="Bench drive",
        date=datetime.date(2026, 12, 1),
        preset="progressive",
        games=games,
        jackpot=None,
    )
    Drive.objects.filter(pk=drive.pk).update(seed=seed)  # the same seating every run
    for n in range(pairs):
        services.entry_add(drive=drive, name=f"Player {n}a", partner_name=f"Player {n}b")
    drive.refresh_from_db()
    return drive


def measure(seed: int = 25, *, pairs: int = 100, games: int = 20, repeats: int = 15) -> dict:
    """Run a whole drive through the services and return its figures and verdicts."""
    rng = random.Random(seed)
    drive = _build(seed, pairs, games)
    wall_url = reverse("drives:wall", args=[drive.league.slug, drive.pk])
    client = Client(raise_request_exception=False)
    services.drive_start(drive=drive)

    result_times, next_times = [], []
    counts = {"leaderboard": [], "wall": [], "result": []}
    leaderboard_ms = []
    wall_status = set()
    try:
        for game in range(1, games + 1):
            drive.refresh_from_db()
            tables = services.tables_waiting(drive)
            for index, table in enumerate(tables):
                side = rng.randrange(2)

                def record(game=game, table=table, side=side):
                    services.result_record(drive=drive, game=game, table=table, side=side)

                if index == 0 and game in (1, games):
                    counts["result"].append(_queries(record))
                    continue
                started = time.perf_counter()
                record()
                result_times.append(time.perf_counter() - started)
            if game in (1, games):
                counts["leaderboard"].append(_queries(lambda: selectors.leaderboard(drive)))
                response = client.get(wall_url)
                wall_status.add(response.status_code)
                counts["wall"].append(_queries(lambda: client.get(wall_url)))
                leaderboard_ms.append(_median_of(lambda: selectors.leaderboard(drive), repeats))
            started = time.perf_counter()
            services.game_next(drive=drive)
            next_times.append(time.perf_counter() - started)

        drive.refresh_from_db()
        select1 = _median_of(_select_one, max(repeats, 50))
        result = statistics.median(result_times)
        result_p95 = (
            statistics.quantiles(result_times, n=20)[-1] if len(result_times) > 1 else result
        )
        first, last = leaderboard_ms[0], leaderboard_ms[-1]
        figures = {
            "pairs": pairs,
            "players": pairs * 2,
            "games": games,
            "results": drive.results.count(),
            "finished": drive.status == Drive.Status.FINISHED,
            "result_ms_median": _ms(result),
            "result_ms_p95": _ms(result_p95),
            "next_game_ms_median": _ms(statistics.median(next_times)),
            "select1_ms_median": _ms(select1),
            "leaderboard_ms_first": _ms(first),
            "leaderboard_ms_last": _ms(last),
            "result_vs_select1": round(result / select1, 2),
            "result_vs_leaderboard": round(result / last, 2),
            "leaderboard_last_vs_first": round(last / first, 2),
            "leaderboard_queries": counts["leaderboard"],
            "wall_queries": counts["wall"],
            "result_queries": counts["result"],
            "wall_status": sorted(wall_status),
        }
    finally:
        league = drive.league
        drive.delete()
        league.delete()

    figures["verdicts"] = {
        "every_result_entered": figures["finished"] and figures["results"] == (pairs // 2) * games,
        "leaderboard_queries_constant": len(set(counts["leaderboard"])) == 1,
        "wall_queries_constant": len(set(counts["wall"])) == 1 and wall_status == {200},
        "result_queries_constant": len(set(counts["result"])) == 1,
        "result_vs_select1": figures["result_vs_select1"] <= RESULT_VS_SELECT1_AT_MOST,
        "leaderboard_last_vs_first": figures["leaderboard_last_vs_first"]
        <= LEADERBOARD_LAST_VS_FIRST_AT_MOST,
    }
    figures["ok"] = all(figures["verdicts"].values())
    return figures


if __name__ == "__main__":  # a quick look: python -m bench.drives (in a scratch database)
    import json
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    print(json.dumps(measure(), indent=2))
