"""`{% league_roles league as roles %}`: what the user may do in this league, for the
header's links. One query for a logged-in user, none for anyone else; kept on the
request, so a page pays it once, its view's own check included
(`league.permissions.request_roles`)."""

from django import template

from league.permissions import request_roles

register = template.Library()


@register.simple_tag(takes_context=True)
def league_roles(context, league):
    request = context.get("request")
    if league is None or getattr(request, "user", None) is None:
        return {"secretary": False, "pub_ids": frozenset()}
    secretary, pub_ids = request_roles(request, league)
    return {"secretary": secretary, "pub_ids": pub_ids}
