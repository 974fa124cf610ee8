"""Django admin for the site's operators: lists with filters and search. No flow
depends on it.

Whatever a change here shows on a public page goes through the same path as the app's
own pages: every save moves the league's content version on (`ContentAdmin`), a
fixture is deleted by `services.fixture_delete`, and a team or fixture that has results
keeps the season and teams they were played in (read-only here). A save is checked by
the models' own rules (`full_clean`: dates, league points, tie-break order, a closed
season's table rules, a played fixture; see league/models.py), as the app's pages are.
"""

from django.contrib import admin
from django.db import transaction

from league import services
from league.models import (
    Division,
    Fixture,
    FixtureTeam,
    League,
    Player,
    Pub,
    Season,
    Team,
    TeamMember,
)
from league.results import content_changed, pages_changed
from league.standings import standings_derive


class ContentAdmin(admin.ModelAdmin):
    """Saves and deletes move the league's content version on, so no cached page keeps
    showing what was there before."""

    def league_id_of(self, obj) -> int:
        raise NotImplementedError

    def save_related(self, request, form, formsets, change):
        # Last of a save, inside the admin's own transaction.
        super().save_related(request, form, formsets, change)
        content_changed(league_id=self.league_id_of(form.instance))

    def delete_model(self, request, obj):
        league_id = self.league_id_of(obj)
        with transaction.atomic():
            super().delete_model(request, obj)
            content_changed(league_id=league_id)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.delete_model(request, obj)


@admin.register(League)
class LeagueAdmin(ContentAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["secretaries"]

    def league_id_of(self, obj):
        return obj.pk

    def get_readonly_fields(self, request, obj=None):
        # A league's address never changes once made: printed QR codes and links keep
        # working, and its published pages stay under the one address (league/results.py).
        return ["slug"] if obj is not None else []

    def get_prepopulated_fields(self, request, obj=None):
        return self.prepopulated_fields if obj is None else {}

    def delete_model(self, request, obj):
        with transaction.atomic():
            obj.delete()
            pages_changed(obj.slug)  # none of its pages is served again


@admin.register(Pub)
class PubAdmin(ContentAdmin):
    list_display = ["name", "town", "league"]
    list_filter = ["league"]
    search_fields = ["name", "town"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    list_select_related = ["league"]

    def league_id_of(self, obj):
        return obj.league_id


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(ContentAdmin):
    list_display = ["name", "league", "status", "ruleset_key", "start_date", "end_date"]
    list_filter = ["league", "status", "ruleset_key"]
    search_fields = ["name"]
    date_hierarchy = "start_date"
    prepopulated_fields = {"slug": ["name"]}
    inlines = [DivisionInline]
    list_select_related = ["league"]

    def league_id_of(self, obj):
        return obj.league_id

    def get_readonly_fields(self, request, obj=None):
        return ["league"] if obj is not None else []

    def save_related(self, request, form, formsets, change):
        # "Only confirmed games count" may have changed: the kept team rows follow.
        standings_derive(season_id=form.instance.pk)
        super().save_related(request, form, formsets, change)


@admin.register(Player)
class PlayerAdmin(ContentAdmin):
    list_display = ["name", "home_pub", "league", "user"]
    list_filter = ["league", "home_pub"]
    search_fields = ["name", "user__username"]
    list_select_related = ["league", "home_pub", "user"]
    raw_id_fields = ["user"]

    def league_id_of(self, obj):
        return obj.league_id


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    fields = ["player"]
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Team)
class TeamAdmin(ContentAdmin):
    list_display = ["name", "pub", "season", "division"]
    list_filter = ["season__league", "season", "pub", "division"]
    search_fields = ["name", "players__name"]
    inlines = [TeamMemberInline]
    list_select_related = ["pub", "season__league", "division"]

    def league_id_of(self, obj):
        return Season.objects.values_list("league_id", flat=True).get(pk=obj.season_id)

    def get_readonly_fields(self, request, obj=None):
        # A team plays its fixtures in its season: it cannot move to another one.
        return ["season"] if obj is not None else []


class FixtureTeamInline(admin.TabularInline):
    model = FixtureTeam
    extra = 0
    raw_id_fields = ["team"]

    def _started(self, obj) -> bool:
        return obj is not None and obj.games_started > 0

    def get_readonly_fields(self, request, obj=None):
        return ["team", "seat"] if self._started(obj) else []

    def has_add_permission(self, request, obj=None):
        return not self._started(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self._started(obj) and super().has_delete_permission(request, obj)


@admin.register(Fixture)
class FixtureAdmin(ContentAdmin):
    list_display = ["__str__", "date", "round", "pub", "season", "status", "games_planned"]
    list_filter = ["season__league", "season", "status", "pub"]
    search_fields = ["fixture_teams__team__name", "pub__name"]
    date_hierarchy = "date"
    inlines = [FixtureTeamInline]
    list_select_related = ["pub", "season__league"]

    readonly_fields = ["games_started", "games_finished"]

    def league_id_of(self, obj):
        return Season.objects.values_list("league_id", flat=True).get(pk=obj.season_id)

    def get_readonly_fields(self, request, obj=None):
        # Its games were played in its season: a fixture cannot move to another one.
        return [*self.readonly_fields, *(["season"] if obj is not None else [])]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("fixture_teams__team")

    def delete_model(self, request, obj):
        services.fixture_delete(fixture=obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A fixture counts as won once it is played: its teams' kept rows follow its status.
        fixture = form.instance
        if fixture.games_finished:
            teams = fixture.fixture_teams.values_list("team_id", flat=True)
            standings_derive(season_id=fixture.season_id, team_ids=list(teams))
