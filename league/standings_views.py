"""
Standings pages: the team, player and pub tables of a season (and all-time for a
league), their CSV/XLSX downloads, an A4 print view and its PDF, and the standings
sections of a team and a player. Every page reads only the result rows
(`league.standings`), never the games themselves.
"""

import hashlib
import json
import logging

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django_tables2 import RequestConfig

from league import charts, exports, standings
from league.models import League, Pub, Season, Team
from league.ranking import LABELS, Totals
from league.tables import AllTimeTeamTable, PlayerTable, PubTable, TeamTable

KINDS = {"teams": "Teams", "players": "Players", "pubs": "Pubs"}
FORMATS = ("csv", "xlsx")


def _season(league_slug, season_slug) -> Season:
    return get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )


def _int_or_404(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404("No such choice.") from None


def _filters(request, season):
    """The pub and division chosen in the query string; unknown ones are a 404."""
    pubs = list(Pub.objects.filter(league=season.league))
    divisions = list(season.divisions.all())
    pub = division = None
    if request.GET.get("pub"):
        pub = next((p for p in pubs if p.slug == request.GET["pub"]), None)
        if pub is None:
            raise Http404("No such pub.")
    if request.GET.get("division"):
        wanted = _int_or_404(request.GET["division"])
        division = next((d for d in divisions if d.pk == wanted), None)
        if division is None:
            raise Http404("No such division.")
    return {"pubs": pubs, "divisions": divisions, "pub": pub, "division": division}


def _tables(
    league: League, season: Season | None, kind: str, filters: dict, *, everyone=False
) -> dict:
    """The table for one kind, and the unranked players below it; `everyone`, the
    downloads', with them in it after the ranked, with no position. A season's team
    table with divisions is one table, division by division (the downloads), and a
    table of each division under its name (`sections`, for the page)."""
    if kind == "teams" and season is None:
        rows = standings.all_time_team_rows(league)
        return {"table": AllTimeTeamTable(rows, order_by="position"), "others": []}
    if kind == "teams":
        rows = standings.team_rows(
            season,
            division_id=filters["division"].pk if filters.get("division") else None,
            pub_id=filters["pub"].pk if filters.get("pub") else None,
        )
        if not any(row["division"] for row in rows):
            table = TeamTable(rows, exclude=("division",), order_by="position")
            return {"table": table, "others": []}
        return {
            "table": TeamTable(rows),  # division by division, as team_rows gives them
            "sections": _division_tables(rows),
            "others": [],
        }
    if kind == "players":
        if season is None:
            min_games = _min_games(league, None)
            ranked, others = standings.all_time_player_rows(league, min_games=min_games)
        else:
            ranked, others = standings.player_rows(season)
        if everyone:
            ranked, others = [*ranked, *others], []
        return {"table": PlayerTable(ranked, order_by="position"), "others": others}
    if kind == "pubs":
        rows = standings.pub_rows(season, league=league)
        return {"table": PubTable(rows, order_by="position"), "others": []}
    raise Http404("No such table.")


def _min_games(league: League, season: Season | None) -> int:
    """The games a player needs to be ranked: the season's minimum, or all-time the
    current season's, the same on the page, its print view and its PDF."""
    current = season or league.seasons.current()
    return current.min_games if current else 0


def _division_tables(rows) -> list[tuple[str, TeamTable]]:
    """Each division's teams as a table of their own, under its name, in the order
    `team_rows` gives them."""
    sections = []
    for name in dict.fromkeys(row["division"] for row in rows):
        title = name or "No division"
        table = TeamTable(
            [row for row in rows if row["division"] == name],
            exclude=("division",),
            order_by="position",
        )
        table.region_label = f"Standings table: {title}"
        sections.append((title, table))
    return sections


def _file_name(league: League, season: Season | None, kind: str) -> str:
    return f"{league.slug}-{season.slug if season else 'all-time'}-{kind}"


def _urls(league, season, kind) -> dict:
    if season:
        args = [league.slug, season.slug]
        return {
            "page": reverse(f"league:standings-{kind}", args=args),
            "csv": reverse("league:standings-download", args=[*args, kind, "csv"]),
            "xlsx": reverse("league:standings-download", args=[*args, kind, "xlsx"]),
            "print": reverse("league:standings-print", args=[*args, kind]),
            "pdf": reverse("league:standings-pdf", args=[*args, kind]),
            "tabs": {k: reverse(f"league:standings-{k}", args=args) for k in KINDS},
        }
    return {
        "page": reverse(f"league:all-time-{kind}", args=[league.slug]),
        "csv": reverse("league:all-time-download", args=[league.slug, kind, "csv"]),
        "xlsx": reverse("league:all-time-download", args=[league.slug, kind, "xlsx"]),
        "print": reverse("league:all-time-print", args=[league.slug, kind]),
        "pdf": reverse("league:all-time-pdf", args=[league.slug, kind]),
        "tabs": {k: reverse(f"league:all-time-{k}", args=[league.slug]) for k in KINDS},
    }


def _page(request, league, season, kind):
    filters = _filters(request, season) if season and kind == "teams" else {}
    context = {
        "league": league,
        "season": season,
        "kind": kind,
        "kind_label": KINDS[kind],
        "filters": filters,
        "min_games": _min_games(league, season) if kind == "players" else None,
        "ranked_by": _ranked_by(season, kind),
        "table_key": PubTable.KEY if kind == "pubs" else "",
        "urls": _urls(league, season, kind),
    }
    context["table_html"] = _table_html(request, league, season, kind, context)
    if request.htmx.target == "standings-table":
        response = HttpResponse(context["table_html"])
    else:
        response = render(request, "league/standings_page.html", context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


# The query parameters that change what a table shows; any other is ignored, so a
# made-up parameter never makes a new cache entry.
TABLE_PARAMETERS = ("pub", "division", "sort")


def _table_html(request, league, season, kind, context) -> str:
    """The rendered table, kept in the cache until the league's next change (its content
    version). Ranking and drawing a long table is most of a page's cost."""
    chosen = [(name, request.GET.get(name, "")) for name in TABLE_PARAMETERS]
    key = (
        "standings-table:"
        + hashlib.sha256(
            json.dumps(
                [league.pk, league.content_version, season.pk if season else None, kind, chosen]
            ).encode()
        ).hexdigest()
    )
    html = cache.get(key)
    if html is None:
        tables = _tables(league, season, kind, context["filters"])
        tables.setdefault("sections", [("", tables["table"])])
        for _, table in tables["sections"]:
            RequestConfig(request, paginate=False).configure(table)
        html = render_to_string(
            "league/standings_page.html#table", {**context, **tables}, request=request
        )
        cache.set(key, html, timeout=60 * 60)
    return mark_safe(html)  # rendered by our own template above


def season_teams(request, league_slug, season_slug):
    season = _season(league_slug, season_slug)
    return _page(request, season.league, season, "teams")


def season_players(request, league_slug, season_slug):
    season = _season(league_slug, season_slug)
    return _page(request, season.league, season, "players")


def season_pubs(request, league_slug, season_slug):
    season = _season(league_slug, season_slug)
    return _page(request, season.league, season, "pubs")


def all_time_teams(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    return _page(request, league, None, "teams")


def all_time_players(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    return _page(request, league, None, "players")


def all_time_pubs(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    return _page(request, league, None, "pubs")


# Downloads --------------------------------------------------------------------


def _download(request, league, season, kind, fmt):
    if fmt not in FORMATS or kind not in KINDS:
        raise Http404("No such download.")
    filters = _filters(request, season) if season and kind == "teams" else {}
    table = _tables(league, season, kind, filters, everyone=True)["table"]
    RequestConfig(request, paginate=False).configure(table)
    filename = f"{_file_name(league, season, kind)}.{fmt}"
    if fmt == "csv":
        return exports.csv_response(table, filename=filename)
    return exports.xlsx_response(table, filename=filename, title=KINDS[kind])


def season_download(request, league_slug, season_slug, kind, fmt):
    season = _season(league_slug, season_slug)
    return _download(request, season.league, season, kind, fmt)


def all_time_download(request, league_slug, kind, fmt):
    league = get_object_or_404(League, slug=league_slug)
    return _download(request, league, None, kind, fmt)


# Print and PDF ----------------------------------------------------------------


def _ranked_by(season, kind) -> str:
    """How a table is ranked, in the words its page and its print view both use."""
    if kind == "teams" and season is not None:
        keys = ", then ".join(LABELS[k] for k in standings.tiebreak_keys(season))
        return f"Ranked by {keys}. Teams still level share a position."
    if kind == "pubs":
        return "Ranked by share of games won, then wins."
    return "Ranked by share of games won, then wins, points for and marches."


def _print_context(request, league, season, kind, *, pdf=False) -> dict:
    """Every division's table (teams), or the one table, as plain values."""
    if kind not in KINDS:
        raise Http404("No such table.")
    sections, shown = [], ""
    if kind == "teams" and season is not None:
        # As the page was filtered (a pub's teams, one division): printed as shown.
        filters = _filters(request, season)
        pub, division = filters["pub"], filters["division"]
        rows = standings.team_rows(
            season,
            division_id=division.pk if division else None,
            pub_id=pub.pk if pub else None,
        )
        shown = " · ".join(chosen.name for chosen in (pub, division) if chosen)
        divided = any(row["division"] for row in rows)
        if divided:
            for title, table in _division_tables(rows):
                sections.append({"title": title, "table": table})
        else:
            table = TeamTable(rows, exclude=("division",), order_by="position")
            sections.append({"title": "", "table": table})
        # With divisions, each position is said with its table: "North, 2".
        notes = [
            (
                f"{r['division'] or 'No division'}, {r['position_label']}"
                if divided
                else r["position_label"],
                r["name"],
                r["note"],
            )
            for r in rows
            if r["note"]
        ]
        others = []
    else:
        tables = _tables(league, season, kind, {})
        sections.append({"title": "", "table": tables["table"]})
        notes, others = [], tables["others"]
    for section in sections:
        values = list(section["table"].as_values(exclude_columns=("note",)))
        section["headers"], section["rows"] = values[0], values[1:]
        signed = section["headers"].index("Diff") if "Diff" in section["headers"] else None
        section["cells"] = [
            [
                (f"{cell:+d}" if index == signed else cell, isinstance(cell, int) or index == 0)
                for index, cell in enumerate(row)
            ]
            for row in section["rows"]
        ]
    page = _urls(league, season, kind)["page"]
    if shown:
        page += "?" + request.GET.urlencode()
    live = request.build_absolute_uri(page)
    import segno  # small, but only print views need it

    return {
        "league": league,
        "season": season,
        "kind_label": KINDS[kind],
        "shown": shown,
        "sections": sections,
        "notes": notes,
        "others": others,
        "ranked_by": _ranked_by(season, kind),
        "table_key": PubTable.KEY if kind == "pubs" else "",
        "printed": timezone.localdate(),
        "live_url": live,
        "qr": segno.make(live, error="m").svg_data_uri(scale=3, border=2),
        "pdf": pdf,
        "min_games": _min_games(league, season) if kind == "players" else None,
    }


def season_print(request, league_slug, season_slug, kind):
    season = _season(league_slug, season_slug)
    context = _print_context(request, season.league, season, kind)
    return render(request, "league/print_table.html", context)


def all_time_print(request, league_slug, kind):
    league = get_object_or_404(League, slug=league_slug)
    return render(request, "league/print_table.html", _print_context(request, league, None, kind))


def _pdf(request, league, season, kind):
    context = _print_context(request, league, season, kind, pdf=True)
    # The PDF is made again only when what it shows changes: the key is the page it is
    # drawn from, whole (the league's and season's names, the sentences under the title,
    # the day printed, the rows), so a rename or a new minimum of games is never printed
    # under the old one.
    html = render_to_string("league/print_table.html", context, request=request)
    digest = hashlib.sha256(html.encode()).hexdigest()
    key = f"standings-pdf:{league.pk}:{season.pk if season else 'all'}:{kind}:{digest}"
    pdf = cache.get(key)
    if pdf is None:
        pdf = render_pdf(request, html)
        cache.set(key, pdf, 60 * 60 * 24)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = _file_name(league, season, kind)
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response


def render_pdf(request, html: str) -> bytes:
    """The print view's page (`html`) through WeasyPrint, with the site's print styles."""
    import weasyprint  # heavy: loaded only when a PDF is asked for
    from django.contrib.staticfiles import finders

    # WeasyPrint warns about every SVG and screen-only property in the site's stylesheet.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    css = weasyprint.CSS(filename=finders.find("css/site.css"))
    return weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf(
        stylesheets=[css]
    )


def season_pdf(request, league_slug, season_slug, kind):
    season = _season(league_slug, season_slug)
    return _pdf(request, season.league, season, kind)


def all_time_pdf(request, league_slug, kind):
    league = get_object_or_404(League, slug=league_slug)
    return _pdf(request, league, None, kind)


# A team's and a player's standings ----------------------------------------------


def team_standings(request, league_slug, pk):
    team = get_object_or_404(
        Team.objects.select_related("season__league", "pub", "division"),
        season__league__slug=league_slug,
        pk=pk,
    )
    season = team.season
    rows = standings.team_rows(season, division_id=team.division_id)
    mine = next(row for row in rows if row["id"] == team.pk)
    # A team with no division in a season that has some is ranked among the teams with
    # none, as the table ranks it.
    rows = [row for row in rows if row["division"] == mine["division"]]
    division_teams = [Totals(id=r["id"], name=r["name"]) for r in rows]
    by_round = charts.positions_by_round(
        teams=division_teams,
        fixture_rows=standings.team_round_rows(season, [t.id for t in division_teams]),
        order=standings.tiebreak_keys(season),
        points=standings.season_points(season),
    )
    positions = [(rnd, places[team.pk]) for rnd, places in by_round.items()]
    if positions:
        # After the last round played, the table as it stands, head-to-head and all.
        positions[-1] = (positions[-1][0], mine["position"])
    context = {
        "league": season.league,
        "season": season,
        "team": team,
        "row": mine,
        "teams_count": len(rows),
        "chart": charts.position_chart(
            team_name=team.name, positions=positions, teams=len(division_teams)
        ),
        "opponents": standings.team_opponents(team),
        "recent": standings.recent_games(team.results.all()),
    }
    return render(request, "league/standings_team.html", context)


def player_standings(request, league_slug, pk):
    league = get_object_or_404(League, slug=league_slug)
    player = get_object_or_404(league.players.select_related("home_pub"), pk=pk)
    context = {
        "league": league,
        "player": player,
        "seasons": standings.player_seasons(player),
        "partners": standings.player_partners(player),
        "recent": standings.recent_games(player.results.all()),
    }
    return render(request, "league/standings_player.html", context)
