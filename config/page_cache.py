"""
Public pages for visitors, answered whole from the cache.

A visitor (no session cookie: no login, no scorer link) asking for a public page of a
league (its home, seasons, pubs, players, teams, fixtures, standings and their files,
game sheets and records) gets the response kept under the page's address (only the
query parameters the page knows), its htmx target, and the league's content version,
which every change that shows on a public page moves on (`league.results`). So a
visit costs one query (the version) and no rendering, and a new result is never
hidden behind an old page.

The response carries nothing per person, a strong `ETag` and `Last-Modified`, is
answered `304 Not Modified` when the visitor's copy is current, goes out gzipped when
the browser accepts it, and lets a proxy or CDN in front keep it for a few seconds
(`s-maxage`, `stale-while-revalidate`). Such a proxy must pass requests that carry the
session cookie straight through: those are people logged in, never served from cache.
"""

import gzip
import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_etags

from league.models import League

# Query parameters that change what a public page shows; any other is ignored.
PARAMETERS = ("pub", "division", "sort", "page")
# Response headers kept with the page (the rest are added on the way out).
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")
CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=30"
TIMEOUT = 60 * 60 * 24


def _by_slug(kwargs) -> Q:
    return Q(slug=kwargs["league_slug"])


def _by_game(kwargs) -> Q:
    return Q(games__pk=kwargs["pk"])


# The public pages, by URL name, and how each finds its league.
PAGES = {
    **{
        f"league:{name}": _by_slug
        for name in (
            "league",
            "season",
            "pub",
            "player",
            "team",
            "fixture",
            "standings-teams",
            "standings-players",
            "standings-pubs",
            "standings-pdf",
            "standings-download",
            "standings-print",
            "all-time-teams",
            "all-time-players",
            "all-time-pubs",
            "all-time-pdf",
            "all-time-download",
            "all-time-print",
            "standings-team",
            "standings-player",
        )
    },
    "screens:pub": _by_slug,
    "scoring:game-sheet": _by_game,
    "scoring:game-record": _by_game,
}


def page_cache(get_response):
    def middleware(request):
        league = _league_of(request)
        if league is None:
            return get_response(request)
        key = _key(request, league)
        entry = cache.get(key)
        if entry is None:
            response = get_response(request)
            if not _keepable(response):
                return response
            entry = _entry(response)
            cache.set(key, entry, TIMEOUT)
        return _answer(request, entry)

    return middleware


def _league_of(request) -> tuple[int, int] | None:
    """(league id, content version) when this request is a visitor's GET of a public
    page of a league that exists; else None (the app answers as usual)."""
    if request.method not in ("GET", "HEAD"):
        return None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    lookup = PAGES.get(match.view_name)
    if lookup is None:
        return None
    return League.objects.filter(lookup(match.kwargs)).values_list("pk", "content_version").first()


def _key(request, league: tuple[int, int]) -> str:
    chosen = [(name, request.GET.get(name, "")) for name in PARAMETERS]
    target = (request.headers.get("HX-Request", ""), request.headers.get("HX-Target", ""))
    text = repr((request.path_info, chosen, target))
    return f"page:{league[0]}:{league[1]}:{hashlib.sha256(text.encode()).hexdigest()}"


def _keepable(response) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and "no-store" not in response.get("Cache-Control", "")
    )


def _entry(response) -> dict:
    body = response.content
    return {
        "body": body,
        "gzip": gzip.compress(body, 6, mtime=0) if len(body) > 200 else None,
        "headers": {h: response[h] for h in KEPT_HEADERS if h in response},
        "etag": f'"{hashlib.sha256(body).hexdigest()[:32]}"',
        "modified": time.time(),
    }


def _answer(request, entry: dict) -> HttpResponse:
    if entry["etag"] in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        accepts_gzip = "gzip" in request.headers.get("Accept-Encoding", "")
        body = entry["gzip"] if accepts_gzip and entry["gzip"] else entry["body"]
        response = HttpResponse(body)
        for header, value in entry["headers"].items():
            response[header] = value
        if body is entry["gzip"]:
            response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(body))
    response["ETag"] = entry["etag"]
    response["Last-Modified"] = http_date(entry["modified"])
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Accept-Encoding", "HX-Request", "HX-Target"])
    return response
