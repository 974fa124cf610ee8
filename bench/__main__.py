"""
make bench: build leagues S and M (L with --large) in a database of its own, measure,
write bench.json at the repository root and print the table. See bench/RESULTS.md.

    .venv/bin/python -m bench [--large] [--service-rounds 4] [--repeats 15] [--seconds 10]
"""

import argparse
import datetime
import json
import os
import platform
import secrets
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import db  # noqa: E402

# A busy night (the model the capacity figure is measured against).
PUBS, TABLES, DEAL_EVERY_S = 40, 8, 180
PLAYERS, REFRESH_EVERY_S = 500, 30

# Every Twenty-Five night in Ireland at once: 1,000 venues x 10 tables (a deal per table
# every 3 minutes: 55 deal POSTs/s, each followed by its sheet) and 20,000 players
# refreshing a table every 60 s (330 GETs/s), most of them conditional.
NATIONAL_DEALS_PER_S, NATIONAL_TABLE_GETS_PER_S, NATIONAL_CONDITIONAL_SHARE = 55, 330, 0.8
# The league whose table a national night's redraws are timed on: S, 20 teams, as big as
# a real league's table gets (M's 200 teams in one table is the bench's stress case).
NATIONAL_TABLE_SIZE = "S"

TARGETS = {
    "read_vs_floor": ("<=", 0.05),
    "recompute_vs_floor": ("<=", 1.5),
    "standings_http_vs_hello": (">=", 0.8),
    "conditional_http_vs_hello": (">=", 0.9),
    "deal_post_vs_hello": (">=", 0.1),
    "capacity_vs_busy_night": (">=", 10.0),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[1])
    parser.add_argument("--large", action="store_true", help="also build and measure L")
    parser.add_argument(
        "--service-rounds",
        type=int,
        default=4,
        help="weeks of S also written deal by deal through the services (38 = all of S; 0 = skip)",
    )
    parser.add_argument("--repeats", type=int, default=15, help="in-process repeats")
    parser.add_argument("--seconds", type=float, default=10, help="seconds per HTTP run")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved HTTP rounds")
    parser.add_argument("--keep-db", action="store_true", help="keep twentyfive_bench")
    parser.add_argument(
        "--recompute-repeats", type=int, default=9, help="repeats of the full recompute"
    )
    args = parser.parse_args(argv)

    source_url = os.environ.get("DATABASE_URL", "")
    url = db.use()
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver,127.0.0.1"
    import django

    django.setup()
    try:
        report = run(args, url)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep_db:
            db.drop(source_url or url)
    (ROOT / "bench.json").write_text(json.dumps(report, indent=2, default=str))
    print(table(report))
    print(f"\nWritten: {ROOT / 'bench.json'}")
    return 0


def say(text: str) -> None:
    print(f"[{datetime.datetime.now():%H:%M:%S}] {text}", flush=True)


def run(args, url) -> dict:
    from django.core.management import call_command

    from bench import generate, measure

    report = {"started": datetime.datetime.now(datetime.UTC).isoformat(), "machine": machine()}
    say("migrating the bench database")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    sizes = ["S", "M", *(["L"] if args.large else [])]
    built = {}
    for size in sizes:
        say(f"building {size} (bulk path)")
        built[size] = generate.build_league(size, path="bulk")
    report["leagues"] = {
        size: {
            "teams": b.teams,
            "fixtures": b.fixtures,
            "games": b.games,
            "deals": b.deals,
            "bulk_seconds": round(b.seconds["total"], 2),
        }
        for size, b in built.items()
    }
    if args.service_rounds:
        report["service_path"] = service_check(args.service_rounds)
        s = built["S"]
        report["service_path"]["bulk_deals_per_second"] = round(s.deals / s.seconds["total"], 1)
    # PostgreSQL plans from the tables' statistics, which autovacuum gathers within a
    # minute or so of a real league's writes. Measured straight after the bulk builds,
    # the tables would have none: the floor's plan is then a blind one, some 1.6x slower
    # at M, and every ratio to it flattered.
    say("gathering the tables' statistics (ANALYZE)")
    analyze()
    say("in-process measurements")
    report["in_process"] = {
        size: in_process(b.season, size, args.repeats, args.recompute_repeats)
        for size, b in built.items()
    }
    say("query counts of the public pages")
    counts = {size: measure.query_counts(built[size].league) for size in ("S", "M")}
    report["deal_post_queries"] = {
        size: measure.deal_post_queries(*fresh_game_and_secretary(built[size]))
        for size in ("S", "M")
    }
    report["query_counts"] = {
        page: {"S": counts["S"][page], "M": counts["M"].get(page)} for page in counts["S"]
    }
    say("HTTP measurements (gunicorn, 2 workers)")
    report["http"] = http(built["M"], url, args)
    say("  the team table drawn anew, as the first visit after a change (no cache)")
    report["http"]["redrawn"] = redrawn(url, built, args)
    report["model"] = capacity(report["http"])
    redraws = report["http"]["redrawn"]["rps"]
    report["national_night"] = {
        "one_server": national_night(report["http"]["rps_median"], redraws),
        "two_servers_redis": national_night(report["http"]["two_servers"]["rps"], redraws),
    }
    say("a card drive: 200 players, 20 games, through the services")
    from bench import drives as bench_drives

    report["drive"] = bench_drives.measure(seed=25)
    report["ratios"], report["verdicts"] = verdicts(report)
    report["checks"] = {size: consistent(b.season) for size, b in built.items()}
    report["finished"] = datetime.datetime.now(datetime.UTC).isoformat()
    report["machine"]["load_after"] = os.getloadavg()
    return report


def analyze() -> None:
    from django.apps import apps
    from django.db import connection

    tables = sorted({model._meta.db_table for model in apps.get_models()})
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {', '.join(map(connection.ops.quote_name, tables))}")


def machine() -> dict:
    import django
    import gunicorn
    import psycopg
    from django.db import connection

    from bench import load

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory = next(
        (
            line.split()[1]
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        "0",
    )
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": round(int(memory) / 1024 / 1024, 1),
        "load_before": os.getloadavg(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "postgresql": pg,
        "psycopg": psycopg.__version__,
        "gunicorn": gunicorn.__version__,
        "load_generator": load.tool(),
    }


def service_check(rounds: int) -> dict:
    """The first `rounds` weeks of S written both ways: deal by deal through the services,
    and by the bulk path; every row compared."""
    from bench import generate
    from bench.snapshot import differences, league_snapshot

    say(f"writing {rounds} weeks of S through game_start + deal_record, deal by deal")
    service = generate.build_league("S", path="service", rounds=rounds, slug="check-service")
    built_bulk = generate.build_league("S", path="bulk", rounds=rounds, slug="check-bulk")
    diff = differences(league_snapshot(service.season), league_snapshot(built_bulk.season))
    return {
        "rounds": rounds,
        "games": service.games,
        "deals": service.deals,
        "seconds": round(service.seconds["total"], 1),
        "deals_per_second": round(service.deals / service.seconds["total"], 1),
        "bulk_deals_per_second": None,
        "identical_to_bulk": not diff,
        "differences": diff,
    }


def in_process(season, size, repeats, recompute_repeats) -> dict:
    from bench import measure

    # Each straight after the floor. Besides the read path, for scale and not targets:
    # the kept team rows alone, unranked, and the read path's parts on their own.
    parts = measure.read_path_parts(season)
    items = {
        "read": lambda: measure.read_path(season),
        "kept_rows_only": lambda: measure.kept_rows_only(season),
        **parts,
    }
    floor, medians = measure.each_after(lambda: measure.floor(season), items, repeats)
    medians["floor"] = floor
    name, recompute = measure.recompute_function()
    if recompute is not None and recompute_repeats:
        # A full recount writes every row again: fewer repeats (after one to warm up),
        # against the floor again.
        say(f"  recompute at {size}: {name}")
        again = measure.interleaved(
            {"floor": lambda: measure.floor(season), "recompute": lambda: recompute(season)},
            recompute_repeats,
        )
        medians["recompute"] = again["recompute"]
        medians["floor_for_recompute"] = again["floor"]
    repair_name, repair = measure.repair_function()
    if recompute_repeats:
        # For scale, not a target: the result rows written again from the games (once).
        say(f"  repair at {size}: {repair_name}")
        medians["repair"] = measure.timed(repair, season)
    out = {f"{k}_ms": round(v * 1000, 3) for k, v in medians.items()}
    out["read_vs_floor"] = round(medians["read"] / medians["floor"], 4)
    out["kept_rows_only_vs_floor"] = round(medians["kept_rows_only"] / medians["floor"], 4)
    out["read_parts_vs_floor"] = round(sum(medians[k] for k in parts) / medians["floor"], 4)
    if "recompute" in medians:
        out["recompute"] = name
        out["recompute_repeats"] = recompute_repeats
        out["recompute_vs_floor"] = round(medians["recompute"] / medians["floor_for_recompute"], 3)
    else:
        out["recompute"] = name and f"{name} (not run: --recompute-repeats 0)"
    out["repeats"] = repeats
    return out


def fresh_game_and_secretary(built):
    from django.contrib.auth import get_user_model

    from scoring.models import Game

    user, _ = get_user_model().objects.get_or_create(username=f"bench-{built.league.slug}")
    built.league.secretaries.add(user)
    return Game.objects.get(pk=pool_of_games(built, 1)[0]), user


def each_a_deal(run) -> dict:
    """A deal POST run (`load.post_deals`), with every answer that saved no deal counted
    as unexpected: a redirect to the login page or a refused key is a 302 or a 4xx, not
    a deal, and must not pass for one."""
    from scoring.models import Deal

    before = Deal.objects.count()
    result = run()
    saved = Deal.objects.count() - before
    return {**result, "saved": saved, "bad": result["bad"] + max(0, result["requests"] - saved)}


def pool_of_games(built, count: int) -> list[int]:
    """Games in play (no deal yet) between two of the league's teams, for the POSTs."""
    from league.models import Team
    from scoring.models import Game, GameEvent, GameSide

    teams = list(Team.objects.filter(season=built.season).order_by("pk")[:2])
    games = Game.objects.bulk_create(
        [
            Game(
                league=built.league,
                season=built.season,
                pub=teams[0].pub,
                sides=2,
                ruleset_key="twenty-five",
                target=25,
                scores=[0, 0],
            )
            for _ in range(count)
        ],
        batch_size=5000,
    )
    GameSide.objects.bulk_create(
        [
            GameSide(game=g, index=i, team=t, label=t.name)
            for g in games
            for i, t in enumerate(teams)
        ],
        batch_size=5000,
    )
    GameEvent.objects.bulk_create(
        [GameEvent(game=g, kind=GameEvent.Kind.STARTED, text="bench") for g in games],
        batch_size=5000,
    )
    return [g.pk for g in games]


def http(built, url, args) -> dict:
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from bench import load
    from bench.server import Browser, serving
    from scoring.models import Game

    password = "bench-secretary-25"
    user = get_user_model().objects.create_user("bench-secretary", password=password)
    built.league.secretaries.add(user)
    per_run = int(1000 * args.seconds)
    pool = pool_of_games(built, per_run * args.rounds)
    season = built.season
    standings_path = reverse("league:standings-teams", args=[built.league.slug, season.slug])
    sheet = Game.objects.filter(season=season, fixture__isnull=False).order_by("pk").first()
    sheet_path = reverse("scoring:game-sheet", args=[sheet.pk])
    samples = {
        name: [] for name in ("hello", "standings", "conditional", "sheet", "watch", "deal_post")
    }
    runs = []
    with serving(url, extra_env=redis_env(ONE_SERVER_REDIS)) as base:
        browser = Browser(base)
        browser.login("bench-secretary", password)
        cookie, csrf = browser.cookie_header(), browser.csrf
        status, _ = browser.get(standings_path)
        # A scoring phone's 20 s check for the other phone's saves sends its sheet's tag.
        tag = browser.get(sheet_path)[1].split('data-tag="', 1)[1].split('"', 1)[0]
        watching = {"Cookie": cookie, "HX-Request": "true", "If-None-Match": f'"{tag}"'}
        for round_ in range(args.rounds):
            for name, run_ in (
                ("hello", lambda: load.get(base + "/healthz", args.seconds)),
                (
                    "standings",
                    lambda: load.get(base + standings_path, args.seconds, headers=BROWSER),
                ),
                (
                    "conditional",
                    # The validator of the page as it is now, as a browser holds it from
                    # its last visit (a deal posted in an earlier run may have changed it).
                    lambda: load.get(
                        base + standings_path,
                        args.seconds,
                        headers={**BROWSER, "If-None-Match": load.etag(base + standings_path)},
                    ),
                ),
                (
                    "sheet",
                    lambda: load.get(base + sheet_path, args.seconds, headers={"Cookie": cookie}),
                ),
                ("watch", lambda: load.get(base + sheet_path, args.seconds, headers=watching)),
                (
                    "deal_post",
                    lambda r=round_: each_a_deal(
                        lambda: load.post_deals(
                            base, pool[r * per_run : (r + 1) * per_run], cookie, csrf, args.seconds
                        )
                    ),
                ),
            ):
                load.drain(base)
                result = run_()
                samples[name].append(result["rps"])
                runs.append({"round": round_, "what": name, **result})
                say(f"  {name}: {result['rps']:.0f} req/s ({result['bad']} unexpected)")
    say("  the deal POST's floors (bench/floors.py)")
    floors = deal_post_floors(url, pool_of_games(built, len(FLOORS) * per_run), args)
    say("  one app server without Redis (the version read from PostgreSQL)")
    without = without_redis(url, standings_path, args)
    say("  two app servers on one PostgreSQL and one Redis")
    two = two_servers(url, standings_path, sheet_path, pool_of_games(built, per_run), args)
    deal_runs = [r for r in runs if r["what"] == "deal_post"]
    posted = sum(r["requests"] for r in deal_runs)
    saved = sum(r["saved"] for r in deal_runs)
    # A page that answered nothing in its window counts as one answer in that window.
    floor_rps = 1 / args.seconds
    medians = {name: max(statistics.median(v), floor_rps) for name, v in samples.items()}
    return {
        "tool": load.tool(),
        "connections": load.CONNECTIONS,
        "seconds_per_run": args.seconds,
        "rounds": args.rounds,
        "league": "M",
        "standings_url": standings_path,
        "standings_status": status,
        "sheet_url": sheet_path,
        "rps_median": {k: round(v, 1) for k, v in medians.items()},
        "deal_posts_answered": posted,
        "deals_saved": saved,
        "runs": runs,
        "standings_vs_hello": round(medians["standings"] / medians["hello"], 3),
        "conditional_vs_hello": round(medians["conditional"] / medians["hello"], 3),
        "deal_post_vs_hello": round(medians["deal_post"] / medians["hello"], 3),
        "watch_vs_sheet": round(medians["watch"] / medians["sheet"], 2),
        "two_servers": two,
        "without_redis": without,
        "deal_post_floors": floors,
    }


def deal_post_floors(url, games, args) -> dict:
    """What a deal POST of this design costs at the least (bench/floors.py), each floor
    on a server of its own, as the app's (2 workers, Redis), against that server's hello:
    a logged-in POST that writes nothing, and the deal's own statements written out, as
    seven and as two, and as two with the news of the change to every app server."""
    from bench import load
    from bench.server import Browser, serving

    out = {}
    share = len(games) // len(FLOORS)
    for i, floor in enumerate(FLOORS):
        env = {
            **redis_env(ONE_SERVER_REDIS),
            "DJANGO_SETTINGS_MODULE": "bench.floor_settings",
            "BENCH_FLOOR": floor,
        }
        with serving(url, extra_env=env) as base:
            browser = Browser(base)
            browser.login("bench-secretary", "bench-secretary-25")
            load.drain(base)
            hello = load.get(base + "/healthz", args.seconds)
            load.drain(base)
            posts = load.post_deals(
                base,
                games[i * share : (i + 1) * share],
                browser.cookie_header(),
                browser.csrf,
                args.seconds,
            )
        out[floor] = {
            "rps": round(posts["rps"], 1),
            "bad": posts["bad"],
            "hello_rps": round(hello["rps"], 1),
            "vs_hello": round(posts["rps"] / hello["rps"], 3),
        }
        say(f"  floor {floor}: {posts['rps']:.0f} req/s, {out[floor]['vs_hello']}x its hello")
    return out


# The deal POST's floors, as bench/floors.py names them (its module isn't imported here:
# it loads the app's URLconf).
FLOORS = ("logged-in", "statements", "two-trips", "two-trips-news")


# Every app server the bench starts (but one) shares a Redis, as in production; each
# run starts from an empty one, as the bench database is new.
ONE_SERVER_REDIS = "redis://127.0.0.1:6379/3"
TWO_SERVERS_REDIS = "redis://127.0.0.1:6379/4"
# What a browser sends with a page request that changes the answer: it takes gzip.
BROWSER = {"Accept-Encoding": "gzip"}


def redis_env(redis_url: str) -> dict:
    """The app servers' settings for a shared Redis at `redis_url`, emptied first."""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    return {"REDIS_URL": redis_url, "DJANGO_CACHE_PREFIX": "bench"}


def without_redis(url, standings_path, args) -> dict:
    """The visitor's team table and its 304 from one server (2 workers) with no Redis:
    each worker's own memory, the league's version read from PostgreSQL. Once, for
    scale against the same hello."""
    from bench import load
    from bench.server import serving

    with serving(url) as base:
        etag = load.etag(base + standings_path)
        rps = {}
        for name, headers in (
            ("hello", {}),
            ("standings", BROWSER),
            ("conditional", {**BROWSER, "If-None-Match": etag}),
        ):
            path = "/healthz" if name == "hello" else standings_path
            load.drain(base)
            rps[name] = round(load.get(base + path, args.seconds, headers=headers)["rps"], 1)
            say(f"  without Redis, {name}: {rps[name]:.0f} req/s")
    return {
        "rps": rps,
        "standings_vs_hello": round(rps["standings"] / rps["hello"], 3),
        "conditional_vs_hello": round(rps["conditional"] / rps["hello"], 3),
    }


def two_servers(url, standings_path, sheet_path, games, args) -> dict:
    """The same requests against two gunicorn servers (one worker each) sharing the
    database and a Redis cache, loaded at once: their answers per second added up."""
    from bench import load
    from bench.server import Browser, serving

    # One deployment: the servers share the secret key, as they must in production (a
    # login made on one is ended by the other otherwise, and every POST answered as a
    # redirect to the login page).
    env = {**redis_env(TWO_SERVERS_REDIS), "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    rps, unexpected = {}, {}
    with (
        serving(url, workers=1, extra_env=env) as one,
        serving(url, workers=1, extra_env=env) as two,
    ):
        bases = [one, two]
        browser = Browser(one)
        browser.login("bench-secretary", "bench-secretary-25")
        cookie, csrf = browser.cookie_header(), browser.csrf
        half = len(games) // 2
        kinds = {
            "hello": lambda b, i: load.get(b + "/healthz", args.seconds),
            "standings": lambda b, i: load.get(b + standings_path, args.seconds, headers=BROWSER),
            "conditional": lambda b, i: load.get(
                b + standings_path,
                args.seconds,
                headers={**BROWSER, "If-None-Match": load.etag(b + standings_path)},
            ),
            "sheet": lambda b, i: load.get(
                b + sheet_path, args.seconds, headers={"Cookie": cookie}
            ),
            "deal_post": lambda b, i: load.post_deals(
                b, games[i * half : (i + 1) * half], cookie, csrf, args.seconds
            ),
        }
        for name, run_ in kinds.items():
            for base in bases:
                load.drain(base)

            def run_both(run_=run_):
                results = load.together([lambda b=b, i=i: run_(b, i) for i, b in enumerate(bases)])
                return {key: sum(r[key] for r in results) for key in ("rps", "requests", "bad")}

            result = each_a_deal(run_both) if name == "deal_post" else run_both()
            rps[name] = round(result["rps"], 1)
            unexpected[name] = result["bad"]
            say(f"  two servers, {name}: {rps[name]:.0f} req/s ({result['bad']} unexpected)")
    return {"rps": rps, "unexpected": unexpected, "redis": env["REDIS_URL"]}


def national_night(rps: dict, redrawn: dict) -> dict:
    """The share of this box every Twenty-Five night in Ireland at once would need.

    Every deal changes its league, so the next visit to that league's team table finds
    no page kept at the new version and draws it anew: one table drawn anew per deal,
    costing what a visit with no cache costs (`redrawn`, one server of two workers, for
    either setup), at the size of a real league's table (S, 20 teams); the other table
    GETs are answered from the cache, mostly 304."""
    deals, tables = NATIONAL_DEALS_PER_S, NATIONAL_TABLE_GETS_PER_S
    conditional = tables * NATIONAL_CONDITIONAL_SHARE
    shares = {
        "deal_post": deals / rps["deal_post"],
        "sheet": deals / rps["sheet"],
        "table_drawn": deals / redrawn[NATIONAL_TABLE_SIZE],
        "table_304": conditional / rps["conditional"],
        "table_200": (tables - conditional - deals) / rps["standings"],
    }
    return {
        "share_by_request": {k: round(v, 4) for k, v in shares.items()},
        "box_share": round(sum(shares.values()), 3),
    }


def redrawn(url, built: dict, args) -> dict:
    """The visitor's team table page of each league drawn anew on every visit, as the
    first visit after a change draws it: one server (2 workers) with no cache at all
    (bench/redraw_settings.py), against that server's hello."""
    from django.urls import reverse

    from bench import load
    from bench.server import serving

    env = {"DJANGO_SETTINGS_MODULE": "bench.redraw_settings"}
    rps, bad = {}, {}
    with serving(url, extra_env=env) as base:
        load.drain(base)
        rps["hello"] = round(load.get(base + "/healthz", args.seconds)["rps"], 1)
        for size, b in built.items():
            path = reverse("league:standings-teams", args=[b.league.slug, b.season.slug])
            load.drain(base)
            result = load.get(base + path, args.seconds, headers=BROWSER)
            rps[size], bad[size] = round(result["rps"], 1), result["bad"]
            say(f"  drawn anew at {size}: {rps[size]:.0f} req/s ({bad[size]} unexpected)")
    return {
        "rps": rps,
        "bad": bad,
        **{f"{size}_vs_hello": round(rps[size] / rps["hello"], 4) for size in built},
    }


def capacity(http_report) -> dict:
    """How many busy nights at once the measured server could carry."""
    rps = http_report["rps_median"]
    deals = PUBS * TABLES / DEAL_EVERY_S
    refreshes = PLAYERS / REFRESH_EVERY_S
    # Each deal is a POST and then the sheet it redirects to; each refresh one table page,
    # the first after a deal drawn anew (the league's one table, as big as M's).
    shares = {
        "deal_post": deals / rps["deal_post"],
        "sheet": deals / rps["sheet"],
        "standings_drawn": deals / http_report["redrawn"]["rps"]["M"],
        "standings": (refreshes - deals) / rps["standings"],
    }
    busy = sum(shares.values())
    return {
        "busy_share_by_request": {k: round(v, 4) for k, v in shares.items()},
        "model": (
            f"{PUBS} pubs x {TABLES} tables, a deal per table every {DEAL_EVERY_S // 60} min "
            f"({deals:.2f} deal POSTs/s, each followed by a sheet GET); {PLAYERS} players "
            f"refreshing the team table every {REFRESH_EVERY_S} s ({refreshes:.2f} GETs/s, "
            f"the first after each deal drawn anew)"
        ),
        "deal_posts_per_s": round(deals, 3),
        "standings_gets_per_s": round(refreshes, 3),
        "server_busy_share": round(busy, 4),
        "capacity_vs_busy_night": round(1 / busy, 3),
    }


def consistent(season) -> bool:
    from bench.recount import kept, recount

    return kept(season) == recount(season)


def verdicts(report) -> tuple[dict, dict]:
    ratios = {}
    for size, figures in report["in_process"].items():
        if size != "S":  # the target is at M; at S fixed costs weigh (see table)
            ratios[f"read_vs_floor_{size}"] = figures["read_vs_floor"]
        if figures.get("recompute_vs_floor") is not None:
            ratios[f"recompute_vs_floor_{size}"] = figures["recompute_vs_floor"]
    ratios["standings_http_vs_hello"] = report["http"]["standings_vs_hello"]
    ratios["conditional_http_vs_hello"] = report["http"]["conditional_vs_hello"]
    ratios["deal_post_vs_hello"] = report["http"]["deal_post_vs_hello"]
    ratios["capacity_vs_busy_night"] = report["model"]["capacity_vs_busy_night"]
    out = {}
    for name, value in ratios.items():
        base = next(key for key in TARGETS if name.startswith(key))
        op, target = TARGETS[base]
        met = value <= target if op == "<=" else value >= target
        out[name] = {"value": value, "target": f"{op} {target}", "met": met}
    for name, verdict in report.get("drive", {}).get("verdicts", {}).items():
        out[f"drive_{name}"] = {"value": verdict, "target": "yes", "met": bool(verdict)}
    sizes = report["query_counts"]
    out["query_counts_equal_S_M"] = {
        "value": sum(1 for p in sizes.values() if p["S"] == p["M"]),
        "target": f"== {len(sizes)} pages",
        "met": all(p["S"] == p["M"] for p in sizes.values()),
    }
    if "recompute" not in str(ratios):
        out["recompute_vs_floor"] = {
            "value": None,
            "target": "<= 1.5",
            "met": None,
            "why": "the app has no recompute-from-scratch function to measure",
        }
    return ratios, out


def drive_line(d) -> str:
    if not d:
        return "Card drive: not measured."
    return (
        f"Card drive ({d['players']} players, {d['games']} games, {d['results']:,} table results "
        f"through the services): {d['result_ms_median']} ms a result (median; "
        f"{d['result_vs_select1']}x a SELECT 1), next game {d['next_game_ms_median']} ms; "
        f"queries at game 1 and the last: leaderboard {d['leaderboard_queries']}, wall screen "
        f"{d['wall_queries']}, a result {d['result_queries']}."
    )


def table(report) -> str:
    m = report["machine"]
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB; "
        f"Python {m['python']}, Django {m['django']}, PostgreSQL {m['postgresql']}, "
        f"gunicorn {m['gunicorn']} (2 sync workers, Redis), load by {m['load_generator']}; "
        f"load average before {m['load_before'][0]:.1f}, after {m['load_after'][0]:.1f}",
        "",
        "| League | teams | fixtures | games | deals | bulk build (s) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for size, lg in report["leagues"].items():
        lines.append(
            f"| {size} | {lg['teams']:,} | {lg['fixtures']:,} | {lg['games']:,} "
            f"| {lg['deals']:,} | {lg['bulk_seconds']} |"
        )
    if "service_path" in report:
        sp = report["service_path"]
        lines += [
            "",
            f"Service path (game_start + deal_record, a transaction per deal), first "
            f"{sp['rounds']} weeks of S: {sp['deals']:,} deals in {sp['seconds']} s = "
            f"{sp['deals_per_second']} deals/s; "
            f"bulk path {sp['bulk_deals_per_second']} deals/s (all of S); rows identical: "
            f"{'yes' if sp['identical_to_bulk'] else 'NO'}",
        ]
    lines += [
        "",
        "| In process (median ms) | floor (SQL over all deals) | read path (team_rows) "
        "| team totals only | app recompute (all tables) | repair (rows from games, once) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for size, f in report["in_process"].items():
        lines.append(
            f"| {size} | {f['floor_ms']} | {f['read_ms']} | {f['kept_rows_only_ms']} "
            f"| {f.get('recompute_ms', 'n/a')} | {f.get('repair_ms', 'n/a')} |"
        )
    lines.append("")
    for size, f in report["in_process"].items():
        lines.append(
            f"Read path's parts at {size}, each after the floor (ms): team rows statement "
            f"{f['team_rows_statement_ms']}, head-to-head statement "
            f"{f['head_to_head_statement_ms']}, ranking {f['ranking_ms']}; together "
            f"{f['read_parts_vs_floor']}x the floor (read path {f['read_vs_floor']}x)."
        )
    h = report["http"]["rps_median"]
    w = report["http"]["without_redis"]["rps"]
    lines += [
        "",
        f"| HTTP at M (median req/s, {report['http']['tool']}, "
        f"{report['http']['connections']} connections) | req/s |",
        "|---|---:|",
        f"| /healthz (hello) | {h['hello']:.0f} |",
        f"| team table page (visitor, gzip) | {h['standings']:.0f} |",
        f"| team table page, conditional (304) | {h['conditional']:.0f} |",
        f"| without Redis: hello, page, 304 | {w['hello']:.0f}, {w['standings']:.0f}, "
        f"{w['conditional']:.0f} |",
        f"| team table page drawn anew (no cache), at S and M | "
        f"{report['http']['redrawn']['rps']['S']:.0f}, "
        f"{report['http']['redrawn']['rps']['M']:.0f} |",
        f"| table sheet GET (organiser) | {h['sheet']:.0f} |",
        f"| a scoring phone's check, game unchanged (304) | {h['watch']:.0f} "
        f"({report['http']['watch_vs_sheet']}x the sheet) |",
        f"| deal POST (fresh key) | {h['deal_post']:.0f} |",
        "",
        f"Deal POSTs answered {report['http']['deal_posts_answered']:,}, deals saved "
        f"{report['http']['deals_saved']:,} (one app server; two app servers: "
        f"{report['http']['two_servers']['unexpected']['deal_post']} answers saved no deal).",
        f"Busy night: {report['model']['model']}. Share of the server it needs, by request: "
        + ", ".join(f"{k} {v:.1%}" for k, v in report["model"]["busy_share_by_request"].items())
        + f"; capacity = 1 / {report['model']['server_busy_share']:.3f}.",
        "",
        "Two app servers (1 worker each) on one PostgreSQL and one Redis, loaded at once, "
        "req/s: "
        + ", ".join(f"{k} {v:.0f}" for k, v in report["http"]["two_servers"]["rps"].items())
        + ".",
        "",
        "National night (55 deal POSTs/s each with its sheet, 330 table GETs/s of which "
        f"{NATIONAL_CONDITIONAL_SHARE:.0%} conditional and 55 drawn anew after a deal, at "
        f"{NATIONAL_TABLE_SIZE}), share of this box it needs: "
        f"one app server {report['national_night']['one_server']['box_share']:.1%}, "
        "two app servers with Redis "
        f"{report['national_night']['two_servers_redis']['box_share']:.1%}.",
        "",
        drive_line(report.get("drive")),
        "",
        "Deal POST floors (bench/floors.py; each against its own server's hello): "
        + ", ".join(
            f"{name} {f['rps']:.0f} req/s = {f['vs_hello']}x ({f['bad']} unexpected)"
            for name, f in report["http"]["deal_post_floors"].items()
        )
        + f"; the deal POST {report['http']['deal_post_vs_hello']}x.",
        "",
        "Queries per deal POST (in process): "
        + ", ".join(f"{k} {v[1]} ({v[0]})" for k, v in report["deal_post_queries"].items())
        + ".",
        "",
        "| Target | measured | target | met |",
        "|---|---:|---:|:---:|",
    ]
    for name, v in report["verdicts"].items():
        met = {True: "yes", False: "**no**", None: "n/a"}[v["met"]]
        lines.append(f"| {name} | {v['value']} | {v['target']} | {met} |")
    pages = report["query_counts"]
    lines += ["", "| Public page | queries at S | queries at M |", "|---|---:|---:|"]
    for page, v in pages.items():
        s, mm = v["S"], v["M"]
        lines.append(f"| {page} | {s[1]} ({s[0]}) | {mm[1] if mm else '-'} |")
    lines.append("")
    lines.append(
        "Stored rows equal a recount from the games: "
        + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in report["checks"].items())
    )
    return "\n".join(lines)


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"bench took {time.monotonic() - started:.0f} s")
    sys.exit(code)
