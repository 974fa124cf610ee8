from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from league import views
from league.standings_urls import urlpatterns as standings_urlpatterns

app_name = "league"

manage = "<slug:league_slug>/manage"
manage_season = f"{manage}/seasons/<slug:season_slug>"

urlpatterns = [
    path("", views.home, name="home"),
    path("welcome/", views.after_login, name="after-login"),
    # Before the league's pages, so no league slug can hide them.
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(
            success_url=reverse_lazy("league:password-change-done")
        ),
        name="password-change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path("account/signup/", views.signup, name="signup"),
    path("account/new-league/", views.league_create, name="league-create"),
    path("<slug:league_slug>/", views.league_home, name="league"),
    path("<slug:league_slug>/join/<str:token>/", views.invite_accept, name="invite-accept"),
    path("<slug:league_slug>/seasons/", views.seasons, name="seasons"),
    path("<slug:league_slug>/seasons/<slug:season_slug>/", views.season_detail, name="season"),
    path("<slug:league_slug>/pubs/<slug:pub_slug>/", views.pub_detail, name="pub"),
    path("<slug:league_slug>/players/<int:pk>/", views.player_detail, name="player"),
    path("<slug:league_slug>/teams/<int:pk>/", views.team_detail, name="team"),
    path("<slug:league_slug>/fixtures/<int:pk>/", views.fixture_detail, name="fixture"),
    path(
        "<slug:league_slug>/seasons/<slug:season_slug>/fixtures/print/",
        views.fixtures_print,
        name="season-fixtures-print",
    ),
    # Organisers (for their pubs) and secretaries.
    path("<slug:league_slug>/tonight/", views.tonight, name="tonight"),
    path("<slug:league_slug>/fixtures/<int:pk>/edit/", views.fixture_edit, name="fixture-edit"),
    path(
        "<slug:league_slug>/fixtures/<int:pk>/reschedule/",
        views.fixture_reschedule,
        name="fixture-reschedule",
    ),
    path(
        "<slug:league_slug>/fixtures/<int:pk>/postpone/",
        views.fixture_postpone,
        name="fixture-postpone",
    ),
    path(
        "<slug:league_slug>/fixtures/<int:pk>/remove/",
        views.fixture_remove,
        name="fixture-remove",
    ),
    path("<slug:league_slug>/teams/<int:pk>/edit/", views.team_edit, name="team-edit"),
    path("<slug:league_slug>/teams/<int:pk>/remove/", views.team_remove, name="team-remove"),
    path("<slug:league_slug>/players/<int:pk>/edit/", views.player_edit, name="player-edit"),
    # Secretaries.
    path(f"{manage}/", views.manage_home, name="manage"),
    path(f"{manage}/first-run/", views.first_run, name="manage-first-run"),
    path(f"{manage}/pubs/new/", views.pub_create, name="manage-pub-create"),
    path(f"{manage}/pubs/<slug:pub_slug>/edit/", views.pub_edit, name="manage-pub-edit"),
    path(f"{manage}/seasons/new/", views.season_create, name="manage-season-create"),
    path(f"{manage}/organisers/", views.organisers, name="manage-organisers"),
    path(f"{manage}/invites/", views.invites, name="manage-invites"),
    path(f"{manage}/invites/<int:pk>/", views.invite_detail, name="manage-invite"),
    path(f"{manage}/invites/<int:pk>/revoke/", views.invite_revoke, name="manage-invite-revoke"),
    path(
        f"{manage}/secretaries/<int:user_pk>/remove/",
        views.secretary_remove,
        name="manage-secretary-remove",
    ),
    path(
        f"{manage}/organisers/<slug:pub_slug>/<int:user_pk>/remove/",
        views.organiser_remove,
        name="manage-organiser-remove",
    ),
    path(f"{manage}/teams-example.csv", views.import_example, name="manage-import-example"),
    path(f"{manage_season}/", views.season_manage, name="manage-season"),
    path(f"{manage_season}/edit/", views.season_edit, name="manage-season-edit"),
    path(f"{manage_season}/close/", views.season_close, name="manage-season-close"),
    path(f"{manage_season}/divisions/", views.divisions, name="manage-divisions"),
    path(
        f"{manage_season}/divisions/<int:pk>/delete/",
        views.division_delete,
        name="manage-division-delete",
    ),
    path(f"{manage_season}/teams/new/", views.team_create, name="manage-team-create"),
    path(f"{manage_season}/import/", views.teams_import, name="manage-teams-import"),
    path(
        f"{manage_season}/fixtures/generate/",
        views.fixtures_generate,
        name="manage-fixtures-generate",
    ),
    path(f"{manage_season}/fixtures/new/", views.fixture_create, name="manage-fixture-create"),
]

urlpatterns += standings_urlpatterns
