from django.urls import path

from scoring import screens

app_name = "screens"

urlpatterns = [
    path("<slug:league_slug>/pubs/<slug:pub_slug>/screen/", screens.pub_screen, name="pub"),
]
