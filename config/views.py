"""Project-wide views that belong to no app."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


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
        messages.error(request, OUT_OF_DATE)
        response = HttpResponse(status=403)
        response["HX-Refresh"] = "true"
        return response
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("league:home")
    return render(request, "403_csrf.html", {"back": back}, status=403)
