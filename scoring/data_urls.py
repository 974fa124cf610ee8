"""A league's data as one file. Included before the league's pages: `account/` is one of
`League.RESERVED_SLUGS`, and `export.zip` is under the league's `manage/`."""

from django.urls import path

from scoring import data_views

app_name = "data"

urlpatterns = [
    path(
        "<slug:league_slug>/manage/export.zip",
        data_views.league_data_export,
        name="league-export",
    ),
    path("account/import-league/", data_views.league_data_import, name="league-import"),
]
