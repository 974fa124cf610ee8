"""
Public pages for visitors, answered whole from the cache.

A visitor (no session cookie: no login, no scorer link) asking for a public page of a
league (its home, seasons, pubs, players, teams, fixtures, standings and their files,
game sheets and records) gets the response kept under the page's address (only the
query parameters the page knows), its htmx target and the day (pages say "tonight"),
if it was drawn at the league's current content version, which every change that shows
on a public page moves on (`league.results`). With Redis the current version is
published in the cache, and a visit costs at most one round trip to it, no query and no
rendering; mostly none at all, as each app server process also keeps the versions and
the pages it answered in its own memory (`HERE`) and answers from there for as long as
it has heard of no change (`cache.heard`, config/redis_cache.py: a change saved through
any server reaches every other before that change's own answer goes out). Without
Redis, one query reads the version from the database. A new result is never hidden
behind an old page.

The response carries nothing per person, the security headers it was drawn with (this
middleware sits outside the policy's, so a visit does not build them again), a strong
`ETag` and `Last-Modified`, is answered `304 Not Modified` when the visitor's copy is
current, goes out gzipped when the browser accepts it, and lets a proxy or CDN in front
keep it for a few seconds (`s-maxage`, `stale-while-revalidate`). Such a proxy must pass
requests that carry the session cookie straight through: those are people logged in,
never served from cache.
"""

import functools
import gzip
import hashlib
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.csp import CSP, build_policy
from django.utils.http import http_date, parse_etags

from league.models import League
from league.results import PUBLISHED_FOR, published_key, published_version

# Query parameters that change what a public page shows; any other is ignored.
PARAMETERS = ("pub", "division", "sort", "page")
# Response headers set on every answer from the cache; the page's others are kept with it.
OWN_HEADERS = {"ETag", "Last-Modified", "Cache-Control", "Vary", "Content-Length"}
CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=30"
TIMEOUT = 60 * 60 * 24


# A page is kept with the security headers of the middleware inside this one (the
# Content-Security-Policy, X-Frame-Options); their settings are part of its key, so a
# release that changes them does not answer with the old ones.
def header_settings() -> str:
    policies = (settings.SECURE_CSP, settings.SECURE_CSP_REPORT_ONLY, settings.X_FRAME_OPTIONS)
    return hashlib.sha256(repr(policies).encode()).hexdigest()[:12]


HEADER_SETTINGS = header_settings()


# The public pages, by URL name: those under a league's address, and a game's pages.
PAGES = {
    *(
        f"league:{name}"
        for name in (
            "league",
            "seasons",
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
        key, encoding = _key(request), _encoding(request)
        # A conditional GET is mostly answered 304: the page's body is fetched only if not.
        validators = request.META.get("HTTP_IF_NONE_MATCH", "")
        version, entry, body = _kept(slug, key, encoding, with_body=not validators)
        if version is None:  # no such league: the app answers
            return get_response(request)
        if entry is not None and entry["version"] == version:
            if validators and entry["etag"] in parse_etags(validators):
                return _validated(HttpResponseNotModified(headers=entry["headers"]), entry)
            if body is None and validators:
                body = cache.get(f"{key}:{encoding}")
                if body is not None:
                    HERE.keep(key, entry, encoding, body)
            if body is not None:
                return _answer(entry, body, encoding)
        response = get_response(request)
        if not _keepable(response):
            return response
        entry, bodies = _entry(response, version)
        cache.set_many(
            {key: entry, **{f"{key}:{name}": body for name, body in bodies.items()}}, TIMEOUT
        )
        HERE.keep(key, entry, encoding, bodies[encoding])
        return _answer(entry, bodies[encoding], encoding)

    return middleware


class Here:
    """The pages this process answered lately, as they were kept: (entry, {encoding:
    body}) by the page's key, the most recently used `most` of them. Only with Redis,
    where `cache.heard` tells when the version they were drawn at is still current."""

    def __init__(self, most: int):
        self.most = most
        self._pages = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str):
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def keep(self, key: str, entry: dict, encoding: str, body: bytes) -> None:
        if _heard() is None:
            return
        with self._lock:
            page = self._pages.pop(key, None)
            same = page is not None and page[0]["etag"] == entry["etag"]
            self._pages[key] = (entry, {**(page[1] if same else {}), encoding: body})
            if len(self._pages) > self.most:
                self._pages.popitem(last=False)


# About 25 MB at most in each app server process, for the M league's largest pages.
HERE = Here(most=400)


def _heard():
    """This process's copies of the published versions, dropped as soon as a change is
    announced (config/redis_cache.py), where the cache is Redis; else None."""
    return getattr(cache, "heard", None) if settings.PUBLISHED_VERSIONS else None


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


def _kept(slug: str, key: str, encoding: str, *, with_body: bool) -> tuple:
    """The league's current version (None: no such league) and what is kept of the page:
    its entry and, `with_body`, its body in `encoding` (each None if not kept).

    With Redis, from this process's own memory when it holds the page at the version it
    knows is current (`_heard()`: no round trip at all); else in one round trip to the
    shared cache, where versions are published. Without Redis, the version from the
    database (1 query) and the page from this process's cache."""
    body_key = f"{key}:{encoding}"
    keys = [key, body_key] if with_body else [key]
    if not settings.PUBLISHED_VERSIONS:
        versions = League.objects.filter(slug=slug).values_list("content_version", flat=True)
        version, found = versions.first(), cache.get_many(keys)
        return version, found.get(key), found.get(body_key)
    heard, version_key = _heard(), published_key(slug)
    ticket = heard.look() if heard is not None else None
    version = heard.get(version_key) if ticket is not None else None
    page = HERE.get(key) if version is not None else None
    if page is not None and page[0]["version"] == version:
        entry, bodies = page
        if encoding in bodies or not with_body:
            return version, entry, bodies.get(encoding)
    found = cache.get_many([version_key, *keys])
    version = found.get(version_key) or published_version(slug)
    entry, body = found.get(key), found.get(body_key)
    if heard is not None:
        heard.keep(version_key, version, ticket, PUBLISHED_FOR)
        if entry is not None and body is not None and entry["version"] == version:
            HERE.keep(key, entry, encoding, body)
    return version, entry, body


def _key(request) -> str:
    # Read from the request's environment directly: the cheapest way, on every visit.
    query = request.GET if request.META.get("QUERY_STRING") else {}
    chosen = [(name, query.get(name, "")) for name in PARAMETERS]
    target = (request.META.get("HTTP_HX_REQUEST", ""), request.META.get("HTTP_HX_TARGET", ""))
    # The day is part of it: pages say "tonight" and the next fixtures, and a pub's screen
    # names the day, though no result changed overnight.
    text = repr((request.path_info, chosen, target, timezone.localdate().toordinal()))
    return f"page:{HEADER_SETTINGS}:{hashlib.sha256(text.encode()).hexdigest()}"


def _keepable(response) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and "no-store" not in response.get("Cache-Control", "")
    )


def _encoding(request) -> str:
    return "gzip" if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "") else "plain"


def _entry(response, version) -> tuple[dict, dict]:
    """What is kept of a page: what to answer with, and its body as is and gzipped."""
    body = response.content
    entry = {
        "version": version,
        "headers": _kept_headers(response),
        "etag": f'"{hashlib.sha256(body).hexdigest()[:32]}"',
        "modified": http_date(time.time()),
    }
    return entry, {"plain": body, "gzip": gzip.compress(body, 6, mtime=0)}


def _kept_headers(response) -> dict:
    """The page's headers but the cache's own. A nonce is for one answer: the policy of a
    page kept for everyone names none (its scripts are the site's own files, which the
    policy allows without one), so a nonce read from a kept page opens nothing."""
    headers = {h: v for h, v in response.items() if h not in OWN_HEADERS}
    for header, policy in (
        (CSP.HEADER_ENFORCE, settings.SECURE_CSP),
        (CSP.HEADER_REPORT_ONLY, settings.SECURE_CSP_REPORT_ONLY),
    ):
        if header in headers:
            headers[header] = build_policy(policy)
    return headers


def _answer(entry: dict, body: bytes, encoding: str) -> HttpResponse:
    response = HttpResponse(body, headers=entry["headers"])
    if encoding == "gzip":
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(body))
    return _validated(response, entry)


def _validated(response, entry: dict):
    response["ETag"] = entry["etag"]
    response["Last-Modified"] = entry["modified"]
    response["Cache-Control"] = CACHE_CONTROL
    response["Vary"] = "Accept-Encoding, HX-Request, HX-Target"
    return response
