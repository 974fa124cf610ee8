from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import favicon, healthz, service_worker
from league.forms import LoginForm

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("sw.js", service_worker, name="service-worker"),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A forgotten password: Django's own views, the link sent by email.
    path("account/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "account/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "account/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "account/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("games/", include("scoring.urls")),
    path("", include("scoring.data_urls")),
    path("<slug:league_slug>/drives/", include("drives.urls")),
    path("", include("scoring.screen_urls")),
    path("", include("league.urls")),
]

handler403 = "config.views.permission_denied"
