"""
Who may change what. Every view that changes a record asks here, for that object.

- A secretary of a league may change everything in it.
- An organiser may change the fixtures, games, teams and players of the pubs given to them.
- Anyone may read the public pages.
- Someone whose login has ended is asked to log in and brought back to the page they
  were on, not to an address that only takes a form's POST.
"""

from functools import wraps
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import QueryDict
from django.utils.http import url_has_allowed_host_and_scheme

from league.models import League, Pub

SECRETARIES = League.secretaries.through._meta.db_table
ORGANISERS = Pub.organisers.through._meta.db_table


# What a person may do in a league, asked once on every page they see: the pubs of the
# league they organise, and a row with no pub if they are one of its secretaries. Written
# out because the ORM takes several times longer to build it than the database to answer.
# `league` is where the statement finds the league: a parameter, or a column of a query
# that reads the roles with something else (the deal POST's game, `scoring.selectors`).
def roles_sql(league: str) -> str:
    return f"""
        SELECT organiser.pub_id
          FROM {ORGANISERS} organiser
          JOIN {Pub._meta.db_table} pub ON pub.id = organiser.pub_id
         WHERE organiser.user_id = %(user)s AND pub.league_id = {league}
        UNION ALL
        SELECT NULL FROM {SECRETARIES} WHERE user_id = %(user)s AND league_id = {league}
    """


ROLES = roles_sql("%(league)s")


def roles(user, league: League | int) -> tuple[bool, frozenset[int]]:
    """Whether a logged-in user is a secretary of the league, and the ids of its pubs
    they organise (1 query; the league may be given by its id)."""
    with connection.cursor() as cursor:
        cursor.execute(ROLES, {"user": user.pk, "league": getattr(league, "pk", league)})
        return _roles([pub for (pub,) in cursor.fetchall()])


def _roles(pubs) -> tuple[bool, frozenset[int]]:
    """(secretary, pubs organised) from the pubs ROLES reads."""
    return None in pubs, frozenset(pub for pub in pubs if pub is not None)


def keep_roles(request, league_id: int, pubs) -> None:
    """Keep the request's user's roles in a league, read by `roles_sql` with something
    else: the permission checks of the request ask no more."""
    kept = request.__dict__.setdefault("_league_roles", {})
    kept[(request.user.pk, league_id)] = _roles(pubs)


def request_roles(request, league: League | int) -> tuple[bool, frozenset[int]]:
    """`roles` of the request's user, kept on the request: a page that checks who may
    change a game and then draws the header's links asks once. (False, no pubs) for
    anyone not logged in, with no query."""
    user = request.user
    if not user.is_authenticated:
        return False, frozenset()
    kept = request.__dict__.setdefault("_league_roles", {})
    key = (user.pk, getattr(league, "pk", league))  # a login during the request asks again
    if key not in kept:
        kept[key] = roles(user, league)
    return kept[key]


def request_runs_pub(request, pub: Pub | int | None, league: League | int) -> bool:
    """May the request's user enter results and change records at this pub (or at a game
    with no pub)? A secretary of the league may run every pub."""
    secretary, pub_ids = request_roles(request, league)
    return secretary or getattr(pub, "pk", pub) in pub_ids


def pubs_run_by(request, league: League):
    """The pubs of `league` the request's user may run: all of them for a secretary."""
    secretary, pub_ids = request_roles(request, league)
    return league.pubs.all() if secretary else league.pubs.filter(pk__in=pub_ids)


def require_secretary(request, league: League | int) -> None:
    """Refuse (403) anyone but a secretary of this league."""
    secretary, _ = request_roles(request, league)
    if not secretary:
        raise PermissionDenied("Only the league's secretaries may do this.")


def require_pub(request, pub: Pub | int | None, league: League | int) -> None:
    """Refuse (403) anyone who may not run this pub."""
    if not request_runs_pub(request, pub, league):
        raise PermissionDenied(
            "Only the pub's organisers and the league's secretaries may do this."
        )


LOGIN_ENDED = "Your login has ended, so nothing was changed: log in, and try again."


def page_sent_from(request) -> str:
    """The page a form was sent from (its Referer's path, on this site only), else the
    home page."""
    page = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(
        page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return urlsplit(page)._replace(scheme="", netloc="", fragment="").geturl() or "/"
    return "/"


def come_back_to(request) -> str:
    """Where a login should bring this person back to: the page itself, or for a form's
    POST the page the form was on (the address it posts to answers only a POST)."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    return page_sent_from(request)


def ask_to_log_in(request, back: str = ""):
    """Send someone not logged in to log in and come back (to `back`, else
    `come_back_to`); a form they sent is refused in words first."""
    if request.method not in ("GET", "HEAD"):
        messages.info(request, LOGIN_ENDED)
    return redirect_to_login(back or come_back_to(request))


KEPT_FORM = "kept_form"
LOGIN_ENDED_FORM_KEPT = (
    "Your login has ended, so nothing was saved: log in, and what you sent comes back, "
    "to check and save."
)
FORM_KEPT = (
    "Your login had ended, so nothing was saved. What you sent is back below: "
    "check it and save it again."
)


def login_keeps_the_form(view):
    """`login_required` for a page whose form posts to itself. A form sent after the
    login ended saves nothing and asks to log in; after logging in, the page's form is
    filled in as it was sent (`sent`), to check and save. What was sent waits in the
    session for the next such page seen, and is shown only if it is that page. It
    passed the CSRF check, so it came from one of this site's own pages: a form from
    another site fails that check first, and nothing of it is kept."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.kept_form = None
        if not request.user.is_authenticated:
            if request.method == "POST":
                data = {k: v for k, v in request.POST.lists() if k != "csrfmiddlewaretoken"}
                request.session[KEPT_FORM] = {"path": request.path, "data": data}
                messages.info(request, LOGIN_ENDED_FORM_KEPT)
            return redirect_to_login(request.get_full_path())
        # The first of these pages seen after logging in takes it, its own page or not.
        kept = request.session.pop(KEPT_FORM, None) if request.method == "GET" else None
        if kept and kept["path"] == request.path:
            request.kept_form = QueryDict(mutable=True)
            for name, values in kept["data"].items():
                request.kept_form.setlist(name, values)
            messages.info(request, FORM_KEPT)
        return view(request, *args, **kwargs)

    return wrapper


def sent(request) -> QueryDict | None:
    """The data a page's form is bound to: the form sent, or on the page's first visit
    after logging in, the one sent as the login ended (`login_keeps_the_form`); else
    None, for an empty form."""
    if request.method == "POST":
        return request.POST or None
    return getattr(request, "kept_form", None)


def login_then_back(view):
    """`login_required` for an address that only takes a form's POST: someone whose login
    has ended is told so, asked to log in, then brought back to the page the form was on."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return ask_to_log_in(request)
        return view(request, *args, **kwargs)

    return wrapper
