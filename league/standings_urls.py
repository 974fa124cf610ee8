"""Standings pages (tables, exports, print and PDF), included by league/urls.py."""

urlpatterns = []
