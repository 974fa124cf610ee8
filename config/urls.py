from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import favicon, healthz, service_worker

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("sw.js", service_worker, name="service-worker"),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("games/", include("scoring.urls")),
    path("", include("league.urls")),
]
