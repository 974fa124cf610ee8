"""
Login throttling with two limits, on django-axes' database handler:

- **a pair**: AXES_FAILURE_LIMIT failures for one username from one address lock that
  pair (axes itself, AXES_LOCKOUT_PARAMETERS);
- **an address**: AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the
  usernames, lock the address (one password tried against every username). It is
  higher, since a pub's organisers share its address.

Both last AXES_COOLOFF_TIME. axes has one failure limit for all its lockout
parameters, hence this handler for the second one.
"""

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


class PairAndAddressHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        """The pair's failures; an address over its own limit counts as a pair at the
        limit, so axes locks it (and answers the attempt that reached it with 429)."""
        failures = super().get_failures(request, credentials)
        if self.address_failures(request) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(failures, get_failure_limit(request, credentials))
        return failures

    def address_failures(self, request) -> int:
        attempts = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address,
            attempt_time__gte=get_cool_off_threshold(request),
        )
        return attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
