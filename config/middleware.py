"""Project-wide middleware."""

from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from scoring.views import SESSION_LINKS


def no_store_for_people(get_response):
    """`Cache-Control: no-store` on every response to someone logged in or holding a
    scorer link: their pages show what only they may see (a live token, a form, their
    name), which no browser or proxy should keep. Public pages stay cacheable."""

    def middleware(request):
        response = get_response(request)
        user = getattr(request, "user", None)
        holds_link = hasattr(request, "session") and request.session.get(SESSION_LINKS)
        if (user is not None and user.is_authenticated) or holds_link:
            add_never_cache_headers(response)
        return response

    return middleware


def words_for_a_button_address(get_response):
    """An address that only a button posts to (Save, Remove, Withdraw…), opened as a
    page from a bookmark or the history: a page saying so, where Django's 405 is blank."""

    def middleware(request):
        response = get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page

    return middleware
