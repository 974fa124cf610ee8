from django.urls import path

from league import views
from league.standings_urls import urlpatterns as standings_urlpatterns

app_name = "league"

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:league_slug>/", views.league_home, name="league"),
    path("<slug:league_slug>/seasons/<slug:season_slug>/", views.season_detail, name="season"),
    path("<slug:league_slug>/pubs/<slug:pub_slug>/", views.pub_detail, name="pub"),
    path("<slug:league_slug>/players/<int:pk>/", views.player_detail, name="player"),
    path("<slug:league_slug>/teams/<int:pk>/", views.team_detail, name="team"),
    path("<slug:league_slug>/fixtures/<int:pk>/", views.fixture_detail, name="fixture"),
]

urlpatterns += standings_urlpatterns
