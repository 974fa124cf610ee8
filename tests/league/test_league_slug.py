"""A league's address cannot hide one of the site's own pages."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import URLPattern, URLResolver, get_resolver

from league.models import League


def first_segments():
    """The fixed first path segment of every top-level URL of the project."""
    for pattern in get_resolver().url_patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver) and route == "":
            yield from (
                str(p.pattern).split("/")[0]
                for p in pattern.url_patterns
                if isinstance(p, URLPattern | URLResolver)
            )
        else:
            yield route.split("/")[0]


def test_every_fixed_first_segment_of_the_site_is_reserved():
    fixed = {s for s in first_segments() if s and not s.startswith("<")}
    assert fixed <= League.RESERVED_SLUGS


@pytest.mark.parametrize("slug", sorted(League.RESERVED_SLUGS))
def test_a_league_cannot_take_a_page_of_the_site_as_its_address(slug):
    with pytest.raises(ValidationError, match="is a page of the site"):
        League(name="Games", slug=slug).full_clean()


def test_an_ordinary_address_is_fine():
    League(name="Clare", slug="clare").clean()
