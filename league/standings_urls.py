"""Standings pages (tables, exports, print and PDF), included by league/urls.py."""

from django.urls import path

from league import standings_views as views

SEASON = "<slug:league_slug>/seasons/<slug:season_slug>/standings/"
ALL_TIME = "<slug:league_slug>/standings/"

urlpatterns = [
    path(f"{SEASON}teams/", views.season_teams, name="standings-teams"),
    path(f"{SEASON}players/", views.season_players, name="standings-players"),
    path(f"{SEASON}pubs/", views.season_pubs, name="standings-pubs"),
    path(f"{SEASON}<slug:kind>.pdf", views.season_pdf, name="standings-pdf"),
    path(f"{SEASON}<slug:kind>.<slug:fmt>", views.season_download, name="standings-download"),
    path(f"{SEASON}<slug:kind>/print/", views.season_print, name="standings-print"),
    path(f"{ALL_TIME}teams/", views.all_time_teams, name="all-time-teams"),
    path(f"{ALL_TIME}players/", views.all_time_players, name="all-time-players"),
    path(f"{ALL_TIME}pubs/", views.all_time_pubs, name="all-time-pubs"),
    path(f"{ALL_TIME}<slug:kind>.pdf", views.all_time_pdf, name="all-time-pdf"),
    path(f"{ALL_TIME}<slug:kind>.<slug:fmt>", views.all_time_download, name="all-time-download"),
    path(f"{ALL_TIME}<slug:kind>/print/", views.all_time_print, name="all-time-print"),
    path(
        "<slug:league_slug>/teams/<int:pk>/standings/", views.team_standings, name="standings-team"
    ),
    path(
        "<slug:league_slug>/players/<int:pk>/standings/",
        views.player_standings,
        name="standings-player",
    ),
]
