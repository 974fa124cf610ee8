"""
Public pages for visitors, answered whole from the cache.

A visitor (no session cookie: no login, no scorer link) asking for a public page of a
league (its home, seasons, pubs, players, teams, fixtures, standings and their files,
game sheets and records) gets the response kept under the page's address (only the
query parameters the page knows) and its htmx target, if it was drawn at the league's
current content version, which every change that shows on a public page moves on
(`league.results`). With Redis the current version is published in the cache, and a
visit costs one round trip to it, no query and no rendering; without, one query reads
it from the database. A new result is never hidden behind an old page.

The response carries nothing per person, a strong `ETag` and `Last-Modified`, is
answered `304 Not Modified` when the visitor's copy is current, goes out gzipped when
the browser accepts it, and lets a proxy or CDN in front keep it for a few seconds
(`s-maxage`, `stale-while-revalidate`). Such a proxy must pass requests that carry the
session cookie straight through: those are people logged in, never served from cache.
"""

import functools
import gzip
import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_etags

from league.models import League
from league.results import published_key, published_version

# Query parameters that change what a public page shows; any other is ignored.
PARAMETERS = ("pub", "division", "sort", "page")
# Response headers kept with the page (the rest are added on the way out).
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")
CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=30"
TIMEOUT = 60 * 60 * 24


# The public pages, by URL name: those under a league's address, and a game's pages.
PAGES = {
    *(
        f"league:{name}"
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
    ),
    "screens:pub",
}
GAME_PAGES = {"scoring:game-sheet", "scoring:game-record"}


def page_cache(get_response):
    def middleware(request):
        slug = _league_of(request)
        if slug is None:
            return get_response(request)
        key = _key(request)
        version, entry = _version_and_entry(slug, key)
        if version is None:  # no such league: the app answers
            return get_response(request)
        if entry is None or entry["version"] != version:
            response = get_response(request)
            if not _keepable(response):
                return response
            entry = _entry(response, version)
            cache.set(key, entry, TIMEOUT)
        return _answer(request, entry)

    return middleware


def _league_of(request) -> str | None:
    """The league's address when this request is a visitor's GET of a public page of a
    league; else None (the app answers as usual)."""
    if request.method not in ("GET", "HEAD"):
        return None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    page = _page_of(request.path_info)
    if page is None:
        return None
    slug, game_pk = page
    return slug if game_pk is None else _league_of_game(game_pk)


@functools.lru_cache(maxsize=4096)
def _page_of(path: str) -> tuple[str | None, int | None] | None:
    """(league address, None) for a public page under a league's address, (None, game
    id) for a game's page, None for any other path. Kept for the paths seen most, as
    resolving a path against every pattern costs more than the rest of a cached visit."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name in PAGES:
        return match.kwargs["league_slug"], None
    if match.view_name in GAME_PAGES:
        return None, match.kwargs["pk"]
    return None


def _league_of_game(pk: int) -> str | None:
    """The address of a game's league; kept, as neither ever changes (1 query, once)."""
    key = f"game-league:{pk}"
    slug = cache.get(key)
    if slug is None:
        slug = League.objects.filter(games__pk=pk).values_list("slug", flat=True).first()
        if slug is not None:
            cache.set(key, slug, TIMEOUT)
    return slug


def _version_and_entry(slug: str, key: str) -> tuple:
    """The league's current version (None: no such league) and the page kept under
    `key`, if any: from the shared cache in one round trip where versions are published
    there, else the version from the database (1 query)."""
    if settings.PUBLISHED_VERSIONS:
        found = cache.get_many([published_key(slug), key])
        version = found.get(published_key(slug)) or published_version(slug)
        return version, found.get(key)
    version = League.objects.filter(slug=slug).values_list("content_version", flat=True).first()
    return version, cache.get(key)


def _key(request) -> str:
    chosen = [(name, request.GET.get(name, "")) for name in PARAMETERS]
    target = (request.headers.get("HX-Request", ""), request.headers.get("HX-Target", ""))
    text = repr((request.path_info, chosen, target))
    return f"page:{hashlib.sha256(text.encode()).hexdigest()}"


def _keepable(response) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and "no-store" not in response.get("Cache-Control", "")
    )


def _entry(response, version) -> dict:
    body = response.content
    return {
        "version": version,
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
