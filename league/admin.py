"""Django admin for secretaries: lists with filters and search. No flow depends on it."""

from django.contrib import admin

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


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["secretaries"]


@admin.register(Pub)
class PubAdmin(admin.ModelAdmin):
    list_display = ["name", "town", "league"]
    list_filter = ["league"]
    search_fields = ["name", "town"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    list_select_related = ["league"]


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "status", "ruleset_key", "start_date", "end_date"]
    list_filter = ["league", "status", "ruleset_key"]
    search_fields = ["name"]
    date_hierarchy = "start_date"
    prepopulated_fields = {"slug": ["name"]}
    inlines = [DivisionInline]
    list_select_related = ["league"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "home_pub", "league", "user"]
    list_filter = ["league", "home_pub"]
    search_fields = ["name", "user__username"]
    list_select_related = ["league", "home_pub", "user"]
    raw_id_fields = ["user"]


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    fields = ["player"]
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "pub", "season", "division"]
    list_filter = ["season__league", "season", "pub", "division"]
    search_fields = ["name", "players__name"]
    inlines = [TeamMemberInline]
    list_select_related = ["pub", "season__league", "division"]


class FixtureTeamInline(admin.TabularInline):
    model = FixtureTeam
    extra = 0
    raw_id_fields = ["team"]


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "date", "round", "pub", "season", "status", "games_planned"]
    list_filter = ["season__league", "season", "status", "pub"]
    search_fields = ["fixture_teams__team__name", "pub__name"]
    date_hierarchy = "date"
    inlines = [FixtureTeamInline]
    list_select_related = ["pub", "season__league"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("fixture_teams__team")
