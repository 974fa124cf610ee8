"""`{% league_roles league as roles %}`: what the user may do in this league, for the
header's links. Two queries for a logged-in user, none for anyone else; kept on the
request so a page pays them once."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def league_roles(context, league):
    request = context.get("request")
    user = getattr(request, "user", None)
    if league is None or user is None or not user.is_authenticated:
        return {"secretary": False, "pub_ids": frozenset()}
    cache = request.__dict__.setdefault("_league_roles", {})
    if league.pk not in cache:
        cache[league.pk] = {
            "secretary": league.secretaries.filter(pk=user.pk).exists(),
            "pub_ids": frozenset(league.pubs.filter(organisers=user).values_list("pk", flat=True)),
        }
    return cache[league.pk]
