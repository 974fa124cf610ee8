from django.conf import settings


def league(request):
    """The league the page belongs to, for the header, when the view set one."""
    return {"site_name": "Twenty-Five League", "debug": settings.DEBUG}
