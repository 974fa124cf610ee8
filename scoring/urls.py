from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("<int:pk>/", views.game_sheet, name="game-sheet"),
    path("fixtures/<int:fixture_pk>/play/", views.fixture_play, name="fixture-play"),
]
