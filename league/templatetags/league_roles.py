"""`{% league_roles league as roles %}`: what the user may do in this league, for the
header's links. One query for a logged-in user (`league.permissions.roles`), none for
anyone else; kept on the request so a page pays it once."""

from django import template

from league.permissions import roles

register = template.Library()


@register.simple_tag(takes_context=True)
def league_roles(context, league):
    request = context.get("request")
    user = getattr(request, "user", None)
    if league is None or user is None or not user.is_authenticated:
        return {"secretary": False, "pub_ids": frozenset()}
    cache = request.__dict__.setdefault("_league_roles", {})
    if league.pk not in cache:
        secretary, pub_ids = roles(user, league)
        cache[league.pk] = {"secretary": secretary, "pub_ids": pub_ids}
    return cache[league.pk]
