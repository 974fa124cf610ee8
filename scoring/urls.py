from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("<int:pk>/", views.game_sheet, name="game-sheet"),
    path("<int:pk>/deals/", views.deal_record, name="deal-record"),
    path("<int:pk>/deals/undo/", views.deal_undo, name="deal-undo"),
    path("<int:pk>/deals/<int:number>/correct/", views.deal_correct, name="deal-correct"),
    path("<int:pk>/confirm/", views.game_confirm, name="game-confirm"),
    path("<int:pk>/take-back/", views.game_remove, name="game-remove"),
    path("<int:pk>/record/", views.game_record, name="game-record"),
    path("<int:pk>/links/", views.game_links, name="game-links"),
    path("<int:pk>/links/<int:link_pk>/", views.link_detail, name="link-detail"),
    path("<int:pk>/links/<int:link_pk>/revoke/", views.link_revoke, name="link-revoke"),
    path("s/<str:token>/", views.link_open, name="link-open"),
    path("fixtures/<int:fixture_pk>/play/", views.fixture_play, name="fixture-play"),
    path("pubs/<int:pub_pk>/friendly/", views.friendly_start, name="friendly-start"),
    path("no-connection/", views.no_connection, name="no-connection"),
]
