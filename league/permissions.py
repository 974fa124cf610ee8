"""
Who may change what. Every view that changes a record asks here, for that object.

- A secretary of a league may change everything in it.
- An organiser may change the fixtures, games, teams and players of the pubs given to them.
- Anyone may read the public pages.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q

from league.models import League, Pub


def is_secretary(user, league: League) -> bool:
    return user.is_authenticated and league.secretaries.filter(pk=user.pk).exists()


def is_organiser(user, pub: Pub | None) -> bool:
    if pub is None or not user.is_authenticated:
        return False
    return pub.organisers.filter(pk=user.pk).exists()


def can_run_pub(user, pub: Pub | int | None, league: League | int) -> bool:
    """May this user enter results and change records at this pub? (1 query; the pub
    and the league may be given by their ids)"""
    if not user.is_authenticated:
        return False
    runs = Q(leagues_run=league)
    if pub is not None:
        runs |= Q(pubs_organised=pub)
    return get_user_model().objects.filter(runs, pk=user.pk).exists()


def pubs_run_by(user, league: League):
    """The pubs of `league` this user may run: all of them for a secretary."""
    if not user.is_authenticated:
        return Pub.objects.none()
    if is_secretary(user, league):
        return league.pubs.all()
    return league.pubs.filter(organisers=user)


def require_secretary(user, league: League) -> None:
    """Refuse (403) anyone but a secretary of this league."""
    if not is_secretary(user, league):
        raise PermissionDenied("Only the league's secretaries may do this.")


def require_pub(user, pub: Pub, league: League) -> None:
    """Refuse (403) anyone who may not run this pub."""
    if not can_run_pub(user, pub, league):
        raise PermissionDenied("Only the pub's organisers and the league's secretaries may.")
