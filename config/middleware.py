"""Project-wide middleware."""

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
