"""Project-wide views that belong to no app."""

from django.http import HttpResponse


def healthz(request):
    """A bare "ok": the baseline the benchmarks compare pages with, and a liveness check."""
    return HttpResponse("ok", content_type="text/plain")
