"""Project-wide views that belong to no app."""

from django.conf import settings
from django.http import HttpResponse
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
