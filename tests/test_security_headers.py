"""Every response carries the Content-Security-Policy, nonce and all."""

import re

import pytest

from tests.factories import SeasonFactory, UserFactory


@pytest.mark.django_db
def test_a_page_has_a_csp_with_a_nonce_on_its_htmx_script(client):
    """For someone logged in, drawn for them alone. (A visitor's page, kept for everyone,
    names no nonce: tests/test_page_cache.py.)"""
    season = SeasonFactory()
    client.force_login(UserFactory())
    response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy
    for directive in ("object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"):
        assert directive in policy
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert f'nonce="{nonce}"' in response.text
    assert "htmx" in response.text


@pytest.mark.django_db
def test_a_404_also_carries_the_csp(client):
    response = client.get("/no-such-league/")
    assert response.status_code == 404
    assert "object-src 'none'" in response["Content-Security-Policy"]
