"""The bench's redraw run (bench/redraw_settings.py) draws a visitor's page anew on every
visit, as the first visit after a change draws it: nothing is kept, not even the page of
a moment ago. The app's own settings keep it (tests/test_page_cache.py)."""

import pytest
from django.urls import reverse

from bench.server import Browser, serving
from league.models import Team
from tests.factories import LeagueFactory, PubFactory, SeasonFactory, TeamFactory
from tests.reliability.conftest import database_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("settings_module", "drawn_anew"),
    [("bench.redraw_settings", True), ("config.settings", False)],
)
def test_every_visit_draws_the_table_anew_only_in_the_redraw_run(settings_module, drawn_anew):
    league = LeagueFactory(slug="redraw")
    season = SeasonFactory(league=league)
    team = TeamFactory(season=season, pub=PubFactory(league=league), name="Old Name")
    path = reverse("league:standings-teams", args=[league.slug, season.slug])
    env = {"DJANGO_SETTINGS_MODULE": settings_module, "REDIS_URL": ""}
    with serving(database_url(), workers=1, extra_env=env) as base:
        visitor = Browser(base)
        assert "Old Name" in visitor.get(path)[1]
        # Renamed behind the app's back: no new content version, so a kept page stays.
        Team.objects.filter(pk=team.pk).update(name="New Name")
        page = visitor.get(path)[1]
    assert ("New Name" in page) is drawn_anew
