"""
Ask-first actions (remove a team, postpone a match, take a game back, start the next game
of a drive…): the first tap asks on a page of its own, and its "Yes" (a form field
`confirm=yes`) acts.

The question is a plain page, answered to a GET. A first tap sent as a POST is sent on
to it (303 See Other), its fields in the address. So Back to the question after "Yes"
draws it again from things as they are now (or says it is done already), where the
browser would otherwise stop at "Confirm Form Resubmission", a page that offers to
"repeat any action this page previously performed".
"""

from functools import wraps

from django.http import HttpResponseNotAllowed, HttpResponseRedirect


def asks_first(view):
    """For a view that asks on a GET and acts on a POST with `confirm=yes`."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST" and request.POST.get("confirm") != "yes":
            sent = request.POST.copy()
            sent.pop("csrfmiddlewaretoken", None)
            question = f"{request.path}?{sent.urlencode()}" if sent else request.path
            return HttpResponseRedirect(question, status=303)
        if request.method not in ("GET", "HEAD", "POST"):
            return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
        return view(request, *args, **kwargs)

    return wrapper


def fields(request):
    """The fields a question or its "Yes" came with."""
    return request.POST if request.method == "POST" else request.GET
