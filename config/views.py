"""Project-wide views that belong to no app."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from league.models import League
from league.permissions import LOGIN_ENDED, come_back_to, page_sent_from


def healthz(request):
    """A bare "ok": the baseline the benchmarks compare pages with, and a liveness check."""
    return HttpResponse("ok", content_type="text/plain")


FAVICON = settings.BASE_DIR / "static" / "icons" / "favicon.ico"


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    """/favicon.ico, where browsers and crawlers look for it whatever the page says."""
    return HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")


SERVICE_WORKER = settings.BASE_DIR / "static" / "js" / "sw.js"


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """/sw.js from the site root, so its scope is the whole site."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


OUT_OF_DATE = (
    "Nothing was saved: that page was opened before you last logged in or out. "
    "It is up to date now: check it and try again."
)


def csrf_failure(request, reason=""):
    """A form sent from a page older than the person's last login or logout (another
    tab, the Back button) fails Django's CSRF check, and nothing is changed. Said in
    words, never as Django's "CSRF verification failed": htmx reloads the page it is on
    and the message is on it (the table sheet keeps the taps); a plain form gets a page
    that leads back to where it came from."""
    if request.htmx:
        # No login any more (cookies cleared, or it ended): say so, not "out of date".
        messages.error(request, OUT_OF_DATE if request.user.is_authenticated else LOGIN_ENDED)
        response = HttpResponse(status=403)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "403_csrf.html", {"back": page_sent_from(request)}, status=403)


def permission_denied(request, exception):
    """A page or a change this person may not have (handler403): why, in the words of
    the refusal, and for someone not logged in (a login that ended) a way to log in and
    come back."""
    context = {"exception": str(exception)}
    if not request.user.is_authenticated:  # the address a login redirect would send them to
        context["login_url"] = redirect_to_login(come_back_to(request))["Location"]
    slug = request.resolver_match and request.resolver_match.kwargs.get("league_slug")
    if slug:  # the league's name in the header, as on its other pages
        context["league"] = League.objects.filter(slug=slug).first()
    return render(request, "403.html", context, status=403)
