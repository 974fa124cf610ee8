"""`{% league_roles league as roles %}`: what the user may do in this league, for the
header's links. One query for a logged-in user, none for anyone else; kept on the
request so a page pays it once."""

from django import template
from django.contrib.auth import get_user_model
from django.db.models import Exists, FilteredRelation, OuterRef, Q

register = template.Library()


@register.simple_tag(takes_context=True)
def league_roles(context, league):
    request = context.get("request")
    user = getattr(request, "user", None)
    if league is None or user is None or not user.is_authenticated:
        return {"secretary": False, "pub_ids": frozenset()}
    cache = request.__dict__.setdefault("_league_roles", {})
    if league.pk not in cache:
        # A row for each pub of this league the user organises (one, with no pub, for
        # none), each saying whether the user is a secretary of the league.
        rows = list(
            get_user_model()
            .objects.filter(pk=user.pk)
            .annotate(
                pub_here=FilteredRelation(
                    "pubs_organised", condition=Q(pubs_organised__league=league)
                ),
                secretary=Exists(league.secretaries.filter(pk=OuterRef("pk"))),
            )
            .values_list("secretary", "pub_here__pk")
        )
        cache[league.pk] = {
            "secretary": any(secretary for secretary, _ in rows),
            "pub_ids": frozenset(pub for _, pub in rows if pub is not None),
        }
    return cache[league.pk]
