"""
The league's pages. The public ones need no login to read; the set-up pages ask
league/permissions.py for every object and call one service in league/services.py.
"""

from collections import Counter

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.validators import slug_re
from django.db import transaction
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from league import services, standings
from league.asking import asks_first, fields
from league.forms import (
    DivisionForm,
    FixtureForm,
    FixturesGenerateForm,
    ImportConfirmForm,
    ImportForm,
    InviteForm,
    LeagueCreateForm,
    OrganiserForm,
    PlayerForm,
    PubForm,
    SeasonForm,
    SignUpForm,
    TeamForm,
    tiebreaks_in_words,
)
from league.imports import (
    EXAMPLE_CSV,
    MAX_BYTES,
    check_rows,
    read_table,
    sign_rows,
    unsign_rows,
)
from league.models import (
    ByName,
    Fixture,
    FixtureTeam,
    Invite,
    League,
    Player,
    Pub,
    Season,
    SideResult,
    Team,
)
from league.names import key as name_key
from league.permissions import (
    login_keeps_the_form,
    login_then_back,
    pubs_run_by,
    request_roles,
    request_runs_pub,
    require_pub,
    require_secretary,
    sent,
)
from league.qr import qr_svg
from league.selectors import (
    WAITING_SHOWN,
    also_playing,
    fixture_games,
    fixture_result,
    fixtures_with_teams,
    games_to_confirm,
    paged,
    season_fixtures,
    season_teams,
    teams_with_players,
    usual_games,
    with_results,
)
from league.services import ImportRefused, LeagueError

HOME_LIMIT = 100  # leagues listed at once; the search finds the others


def after_login(request):
    """Where a login lands: an organiser (or secretary) of one league on its Tonight
    page, everyone else on the home page."""
    if request.user.is_authenticated:
        leagues = League.objects.filter(
            Q(pubs__organisers=request.user) | Q(secretaries=request.user)
        ).distinct()[:2]
        if len(leagues) == 1:
            return redirect("league:tonight", leagues[0].slug)
    return redirect("league:home")


def home(request):
    """The leagues this site hosts, searchable by name, address, pub or town, and how to
    start one."""
    query = "".join(ch for ch in request.GET.get("q", "") if ch.isprintable())[:100].strip()
    leagues = League.objects.all()
    if query:
        pubs = Pub.objects.filter(Q(name__icontains=query) | Q(town__icontains=query))
        leagues = leagues.filter(
            Q(name__icontains=query) | Q(slug__icontains=query) | Q(pk__in=pubs.values("league_id"))
        )
    leagues = list(leagues.annotate(pub_count=Count("pubs", distinct=True))[:HOME_LIMIT])
    # Leagues of one name (a league imported from its data file keeps its name) are
    # told apart by their address.
    names = Counter(league.name.casefold() for league in leagues)
    for league in leagues:
        league.name_shared = names[league.name.casefold()] > 1
    return render(request, "league/home.html", {"leagues": leagues, "query": query})


def _teams_with_games_won():
    """A fixture's teams in seat order, each with the games it won (`won`)."""
    won = (
        SideResult.objects.filter(fixture=OuterRef("fixture"), team=OuterRef("team"), won=True)
        .values("fixture")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return FixtureTeam.objects.select_related("team").annotate(won=Coalesce(Subquery(won), 0))


def league_home(request, league_slug):
    league = get_object_or_404(
        League.objects.annotate(season_count=Count("seasons")), slug=league_slug
    )
    season = league.seasons.current()
    context = {"league": league, "season": season, "pubs": league.pubs.all()}
    if season:
        fixtures = fixtures_with_teams(Fixture.objects.for_season(season))
        context["latest"] = (
            Fixture.objects.for_season(season)
            .played()
            .select_related("pub", "season__league")
            .prefetch_related(Prefetch("fixture_teams", queryset=_teams_with_games_won()))
            .order_by("-date", "-pk")[:8]
        )
        context["next"] = fixtures.upcoming().order_by("date", "pk")[:8]
    return render(request, "league/league_home.html", context)


def seasons(request, league_slug):
    """Every season of the league, newest first, so a closed season's final table stays
    one link away from the league's pages."""
    league = get_object_or_404(League, slug=league_slug)
    context = {
        "league": league,
        "season": league.seasons.current(),  # the header links to it; the list marks it
        "seasons": league.seasons.order_by("-start_date", "-pk"),
    }
    return render(request, "league/seasons.html", context)


def season_detail(request, league_slug, season_slug):
    season = get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )
    context = {
        "league": season.league,
        "season": season,
        "teams": season_teams(season),
        "fixtures": paged(request, season_fixtures(season)),
    }
    return render(request, "league/season_detail.html", context)


def pub_detail(request, league_slug, pub_slug):
    pub = get_object_or_404(
        Pub.objects.select_related("league"), league__slug=league_slug, slug=pub_slug
    )
    season = pub.league.seasons.current()
    context = {
        "league": pub.league,
        "pub": pub,
        "season": season,
        "teams": season_teams(season).filter(pub=pub) if season else [],
        # Counted for this pub in the pub table, though no longer here.
        "moved_away": standings.pub_teams_moved_away(season, pub) if season else [],
        "fixtures": paged(request, season_fixtures(season).filter(pub=pub)) if season else [],
    }
    return render(request, "league/pub_detail.html", context)


def player_detail(request, league_slug, pk):
    player = get_object_or_404(
        Player.objects.select_related("league", "home_pub"), league__slug=league_slug, pk=pk
    )
    # Teams they are on, and teams they played for before they were taken off.
    played_for = Q(players=player) | Q(results__players=player)
    teams = teams_with_players(Team.objects.filter(played_for).distinct()).order_by(
        "-season__start_date", "name"
    )
    return render(
        request,
        "league/player_detail.html",
        {
            "league": player.league,
            "season": player.league.seasons.current(),  # the header's way to the tables
            "player": player,
            "teams": teams,
        },
    )


def team_detail(request, league_slug, pk):
    team = get_object_or_404(
        Team.objects.select_related("season__league", "pub", "division").prefetch_related(
            "players"
        ),
        season__league__slug=league_slug,
        pk=pk,
    )
    fixtures = paged(request, season_fixtures(team.season).filter(fixture_teams__team=team))
    return render(
        request,
        "league/team_detail.html",
        {"league": team.season.league, "season": team.season, "team": team, "fixtures": fixtures},
    )


def fixture_detail(request, league_slug, pk):
    fixture = get_object_or_404(
        fixtures_with_teams(Fixture.objects.all()), season__league__slug=league_slug, pk=pk
    )
    games = fixture_games(fixture)
    return render(
        request,
        "league/fixture_detail.html",
        {
            "league": fixture.season.league,
            "season": fixture.season,
            "fixture": fixture,
            "games": games,
            "result": fixture_result(fixture, games),
            "waiting": sum(not game["counted"] for game in games),
        },
    )


# Set-up pages: secretaries under /<league>/manage/, organisers at /<league>/tonight/.
# Every view loads its objects within the league of the URL, then asks permissions.py.


def _season(league_slug, season_slug) -> Season:
    return get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )


def _secretary_league(request, league_slug) -> League:
    league = get_object_or_404(League, slug=league_slug)
    require_secretary(request, league)
    return league


def _secretary_season(request, league_slug, season_slug) -> Season:
    season = _season(league_slug, season_slug)
    require_secretary(request, season.league)
    return season


@login_required
def manage_home(request, league_slug):
    league = _secretary_league(request, league_slug)
    seasons = league.seasons.annotate(
        team_count=Count("teams", distinct=True), fixture_count=Count("fixtures", distinct=True)
    )
    pubs = league.pubs.prefetch_related("organisers")
    context = {"league": league, "seasons": seasons, "pubs": pubs, "pub_form": PubForm()}
    return render(request, "league/manage_home.html", context)


@login_keeps_the_form
def pub_create(request, league_slug):
    league = _secretary_league(request, league_slug)
    form = PubForm(sent(request))
    if request.method == "POST" and form.is_valid():
        try:
            pub = services.pub_create(league=league, **form.cleaned_data)
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{pub.name} added.")
            return redirect("league:manage", league.slug)
    return render(request, "league/pub_form.html", {"league": league, "form": form})


@login_keeps_the_form
def pub_edit(request, league_slug, pub_slug):
    league = _secretary_league(request, league_slug)
    pub = get_object_or_404(league.pubs, slug=pub_slug)

    def form_for(data, pub):
        return PubForm(data, initial={"name": pub.name, "town": pub.town})

    form = form_for(sent(request), pub)
    if request.method == "POST":
        with transaction.atomic():
            pub = services.locked(league.pubs, pub.pk)
            form = form.on_top_of(lambda data: form_for(data, pub))
            if form.is_valid():
                try:
                    services.pub_update(pub=pub, **form.cleaned_data)
                except LeagueError as error:
                    form.add_error(None, str(error))
                else:
                    messages.success(request, f"{pub.name} saved.{_theirs_kept(form)}")
                    return redirect("league:manage", league.slug)
    context = {"league": league, "form": form, "pub": pub}
    return render(request, "league/pub_form.html", context)


def _require_pub_of(request, pub, league, what: str) -> None:
    """`require_pub`, saying where the record is now to one of the league's organisers
    who sends a form of it: a page opened before it moved to another pub."""
    organiser = request.method == "POST" and request_roles(request, league)[1]
    if organiser and pub is not None and not request_runs_pub(request, pub, league):
        raise PermissionDenied(
            f"This {what} is at {pub.name} now, whose organisers look after it. Nothing was saved."
        )
    require_pub(request, pub, league)


def _refusal_into(form, error: LeagueError) -> None:
    """A refusal on the form's page: each of its mistakes on a line of its own."""
    for problem in getattr(error, "problems", [str(error)]):
        form.add_error(None, problem)


def _theirs_kept(form) -> str:
    """What someone else saved while this person had the form open, kept beside their
    own changes (see league.forms.KeepsEditsMeanwhile), said after "saved"."""
    if not form.kept_theirs:
        return ""
    return (
        " Someone else saved a change while you had the page open, and it is kept: "
        f"{', '.join(f'“{label}”' for label in form.kept_theirs)}."
    )


@login_keeps_the_form
def season_create(request, league_slug):
    league = _secretary_league(request, league_slug)
    form = SeasonForm(sent(request))
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(league=league, **form.cleaned_data)
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{season.name} created. Now enter its teams.")
            _say_running_too(request, season)
            return redirect("league:manage-season", league.slug, season.slug)
    return render(request, "league/season_form.html", {"league": league, "form": form})


@login_keeps_the_form
def season_edit(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)

    def form_for(data, season):
        initial = SeasonForm.initial_for(season)
        return SeasonForm(data, initial=initial, season=season, with_divisions=False)

    form = form_for(sent(request), season)
    if request.method == "POST":
        with transaction.atomic():
            season = services.locked(Season.objects.select_related("league"), season.pk)
            form = form.on_top_of(lambda data: form_for(data, season))
            if form.is_valid():
                played_by = [getattr(season, name) for name in Season.GAME_RULES]
                tiebreaks_were = season.tiebreak_order
                try:
                    services.season_update(season=season, **form.cleaned_data)
                except LeagueError as error:
                    form.add_error(None, str(error))
                else:
                    said = f"{season.name} saved.{_theirs_kept(form)}"
                    if not form.cleaned_data["tiebreaks"]:
                        usual = tiebreaks_in_words(Season.DEFAULT_TIEBREAKS)
                        how = (
                            "the usual order is kept"
                            if tiebreaks_were == Season.DEFAULT_TIEBREAKS
                            else "the tie-breaks are back in the usual order"
                        )
                        said += f" The tie-break box was empty, so {how}: {usual}."
                    if played_by != [getattr(season, name) for name in Season.GAME_RULES]:
                        said += _started_games_keep_their_rules(season)
                    messages.success(request, said)
                    _say_running_too(request, season)
                    return redirect("league:manage-season", season.league.slug, season.slug)
    context = {"league": season.league, "season": season, "form": form}
    return render(request, "league/season_form.html", context)


def _started_games_keep_their_rules(season) -> str:
    """Said when a season's rules change: a game keeps the rules it started with."""
    started = season.fixtures.aggregate(games=Sum("games_started"))["games"] or 0
    if not started:
        return ""
    if started == 1:
        kept = "the 1 game already started keeps the rules it started with"
    else:
        kept = f"the {started} games already started keep the rules they started with"
    return f" The new rules are for the games started from now on: {kept}."


def _say_running_too(request, season) -> None:
    """Two seasons running at once is allowed (the old one's last matches are played as
    the new one starts), but the secretary is told which one the public pages show, and
    that the older one is to be closed once its last match is played."""
    if season.status != Season.Status.RUNNING:
        return
    running = season.league.seasons.filter(status=Season.Status.RUNNING).exclude(pk=season.pk)
    shown = season.league.seasons.current()
    for other in running.order_by("start_date", "pk"):
        old, new = sorted([season, other], key=lambda s: (s.start_date, s.pk))
        if new.start_date > timezone.localdate():
            pages = f"show {old.name} until {new.name} starts on {new.start_date:%-d %B %Y}"
        else:
            pages = f"show {shown.name}, the one that started last"
        messages.warning(
            request,
            f"{old.name} and {new.name} are both running. The home page, the team table and "
            f"the pub screens {pages}. Close {old.name} when its last match is played.",
        )


@login_required
def season_manage(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    context = {
        "league": season.league,
        "season": season,
        "teams": season_teams(season),
        "fixtures": season_fixtures(season),
        **_waiting(season),
        "closed": _closed(
            season,
            kept="no team or fixture is added, and no team removed. Names and players can "
            "still be put right, and the fixtures still to play still count when played",
        ),
    }
    return render(request, "league/season_manage.html", context)


def _waiting(season, *, pubs=None) -> dict:
    """For league/_waiting.html: the games waiting for confirmation (at `pubs`)."""
    count, by_fixture = games_to_confirm(season, pubs=pubs)
    return {"waiting_count": count, "waiting": by_fixture, "waiting_shown": WAITING_SHOWN}


def _closed(season, *, kept="no team is added") -> str:
    """Why a finished season takes no new team or fixture, or loses no team; "" while it
    is open. The pages say it before the services would refuse (`services.team_create`,
    `services.fixture_create`)."""
    if season.status != Season.Status.FINISHED:
        return ""
    return services.closed_refusal(season, kept=kept)


@login_keeps_the_form
def team_create(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    form = TeamForm(sent(request), season=season, pubs=season.league.pubs.all())
    closed = _closed(season)
    if request.method == "POST" and not closed and form.is_valid():
        try:
            team = services.team_create(season=season, **form.team_fields())
        except LeagueError as error:
            _refusal_into(form, error)
        else:
            messages.success(request, f"{team.name} entered.")
            return redirect("league:manage-season", season.league.slug, season.slug)
    players = season.league.players.values_list("name", flat=True)
    context = {
        "league": season.league,
        "season": season,
        "form": form,
        "players": players,
        "closed": closed,
    }
    return render(request, "league/team_form.html", context)


@login_keeps_the_form
def team_edit(request, league_slug, pk):
    team = (
        teams_with_players(Team.objects.all())
        .filter(season__league__slug=league_slug, pk=pk)
        .first()
    )
    if team is None:
        return _removed_meanwhile(request, league_slug, Team, pk, "That team was removed")
    season, league = team.season, team.season.league
    _require_pub_of(request, team.pub, league, "team")
    secretary, _ = request_roles(request, league)
    pubs = pubs_run_by(request, league)

    def form_for(data, team):
        initial = _team_initial(team)
        return TeamForm(data, season=season, pubs=pubs, may_place=secretary, initial=initial)

    form = form_for(sent(request), team)
    if request.method == "POST":
        with transaction.atomic():
            team = services.locked(teams_with_players(Team.objects.all()), team.pk)
            _require_pub_of(request, team.pub, league, "team")  # moved meanwhile?
            form = form.on_top_of(lambda data: form_for(data, team))
            if form.is_valid():
                data = form.cleaned_data
                old_pub = team.pub
                try:
                    team = services.team_update(team=team, **form.team_fields())
                except LeagueError as error:
                    _refusal_into(form, error)
                else:
                    said = f"{data['name']} saved"
                    if data["pub"] != old_pub:
                        said += f": its home pub is now {data['pub'].name}" + _fixtures_staying(
                            team, old_pub, data["pub"]
                        )
                    said += f".{_players_gone(team.players_gone)}{_theirs_kept(form)}"
                    messages.success(request, said)
                    return redirect("league:team", league.slug, team.pk)
    names = league.players.values_list("name", flat=True)
    context = {
        "league": league,
        "season": season,
        "team": team,
        "form": form,
        "players": names,
        "may_remove": secretary
        and not _closed(season)
        and not team.fixtures.filter(games_started__gt=0).exists(),
    }
    return render(request, "league/team_form.html", context)


def _players_gone(names: list[str]) -> str:
    """Players taken off a team and named nowhere else, who left the league's list."""
    if not names:
        return ""
    who = " and ".join(f"“{name}”" for name in names)
    return (
        f" {who}, in no other team and with no game played, "
        f"{'is' if len(names) == 1 else 'are'} no longer in the league's list of players."
    )


def _team_initial(team) -> dict:
    # The players in the order they were entered, each in the box it was typed in: by
    # name, one renamed player could move the others a box, and two tabs then clash.
    members = team.members.select_related("player").order_by("pk")
    players = [member.player.name for member in members] + ["", "", ""]
    initial = {"name": team.name, "pub": team.pub, "division": team.division}
    initial.update({f"player_{n}": players[n - 1] for n in (1, 2, 3)})
    return initial


def _fixtures_staying(team, old_pub, new_pub) -> str:
    """A team moved to another pub: its fixtures still to play stay where they were set
    (the other team, and that pub, expect it there), and the secretary is told so."""
    staying = team.fixtures.filter(pub=old_pub).exclude(status=Fixture.Status.PLAYED).count()
    if not staying:
        return ""
    if staying == 1:
        return (
            f". Its 1 fixture still to play at {old_pub.name} stays there: move it on its "
            f"page if it is to be played at {new_pub.name}"
        )
    return (
        f". Its {staying} fixtures still to play at {old_pub.name} stay there: move each "
        f"on its page if it is to be played at {new_pub.name}"
    )


@login_then_back
@asks_first
def team_remove(request, league_slug, pk):
    """A team entered by mistake, taken off by a secretary before any game of it."""
    league = _secretary_league(request, league_slug)
    team = Team.objects.filter(season__league=league, pk=pk).select_related("season").first()
    if team is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, "Already removed: that team is no longer in the season.")
        return redirect("league:manage", league.slug)
    season = team.season
    if request.method != "POST":  # the first tap asks, naming its fixtures
        fixtures = fixtures_with_teams(team.fixtures.order_by("date", "pk"))
        refusal = _closed(season, kept=f"{team.name} stays")
        if any(fixture.games_started for fixture in fixtures):  # Back, or an old tab
            refusal = services.team_kept(team)
        if refusal:
            messages.error(request, refusal)
            return redirect("league:team-edit", league.slug, team.pk)
        context = {"league": league, "team": team, "fixtures": fixtures}
        return render(request, "league/team_remove.html", context)
    try:
        gone = services.team_remove(team=team)
    except LeagueError as error:
        messages.error(request, str(error))
        return redirect("league:team-edit", league.slug, team.pk)
    with_fixtures = f", with its {gone} fixture{pluralize(gone)}" if gone else ""
    messages.success(request, f"{team.name} removed from {season.name}{with_fixtures}.")
    return redirect("league:manage-season", league.slug, season.slug)


@login_keeps_the_form
def player_edit(request, league_slug, pk):
    player = (
        Player.objects.select_related("league", "home_pub")
        .filter(league__slug=league_slug, pk=pk)
        .first()
    )
    if player is None:  # taken off their team, and named nowhere else
        return _removed_meanwhile(
            request,
            league_slug,
            Player,
            pk,
            "That player was taken off the league's list of players",
        )
    league = player.league
    _require_pub_of(request, player.home_pub, league, "player")
    pubs = pubs_run_by(request, league)

    def form_for(data, player):
        return PlayerForm(
            data, pubs=pubs, initial={"name": player.name, "home_pub": player.home_pub}
        )

    form = form_for(sent(request), player)
    if request.method == "POST":
        with transaction.atomic():
            player = services.locked(league.players.select_related("home_pub"), player.pk)
            _require_pub_of(request, player.home_pub, league, "player")  # moved meanwhile?
            form = form.on_top_of(lambda data: form_for(data, player))
            if form.is_valid():
                try:
                    services.player_update(player=player, **form.cleaned_data)
                except LeagueError as error:
                    form.add_error(None, str(error))
                else:
                    messages.success(request, f"{player.name} saved.{_theirs_kept(form)}")
                    return redirect(player)
    context = {"league": league, "player": player, "form": form}
    return render(request, "league/player_form.html", context)


@login_required
def teams_import(request, league_slug, season_slug):
    """Upload → preview (every bad row by line) → confirm saves all rows or none."""
    season = _secretary_season(request, league_slug, season_slug)
    context = {"league": season.league, "season": season, "form": ImportForm()}
    if closed := _closed(season):
        context["closed"] = closed
    elif request.method == "POST" and "rows" in request.POST:
        try:
            rows = unsign_rows(season, request.POST["rows"])
            teams = services.teams_import(season=season, rows=rows)
        except ImportRefused as refused:
            context["errors"] = refused.errors
        except LeagueError as error:
            context["errors"] = [str(error)]
        else:
            messages.success(request, f"{len(teams)} team{pluralize(len(teams))} imported.")
            return redirect("league:manage-season", season.league.slug, season.slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                rows = read_table(upload.name, upload.read(MAX_BYTES + 1))
            except LeagueError as error:
                form.add_error("file", str(error))
            else:
                good, errors = check_rows(season, rows)
                context.update(rows=good, errors=errors)
                if not errors:
                    context["confirm"] = ImportConfirmForm(
                        initial={"rows": sign_rows(season, rows)}
                    )
    return render(request, "league/teams_import.html", context)


@login_required
def import_example(request, league_slug):
    _secretary_league(request, league_slug)
    response = HttpResponse(EXAMPLE_CSV, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="teams-example.csv"'
    return response


@login_keeps_the_form
def fixtures_generate(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    form = FixturesGenerateForm(
        sent(request),
        season=season,
        initial={"start": season.start_date, "games_planned": usual_games(season)},
    )
    # Over results the service refuses: said at once, with what to do instead, no form.
    has_results = with_results(season.fixtures.all()).exists()
    closed = _closed(season, kept=services.NO_FIXTURE_ADDED)
    if not has_results and not closed and request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        existing = season.fixtures.count()
        if existing and not data.get("replace"):
            form.add_error(
                "replace",
                f"This season already has {existing} fixtures. Tick this box to replace them.",
            )
        else:
            try:
                fixtures = services.fixtures_generate(
                    season=season,
                    start=data["start"],
                    double=data["double"],
                    games_planned=data["games_planned"],
                )
            except LeagueError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"{len(fixtures)} fixtures made.")
                return redirect("league:manage-season", season.league.slug, season.slug)
    context = {"league": season.league, "season": season, "form": form, "closed": closed}
    if has_results:
        context["results_stay"] = services.RESULTS_STAY.format(season=season.name)
    return render(request, "league/fixtures_generate.html", context)


@login_keeps_the_form
def fixture_create(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    form = FixtureForm(
        sent(request),
        season=season,
        pubs=season.league.pubs.all(),
        with_status=False,
        initial={"games_planned": usual_games(season)},
    )
    closed = _closed(season, kept=services.NO_FIXTURE_ADDED)
    if request.method == "POST" and not closed and form.is_valid():
        data = form.cleaned_data
        try:
            fixture = services.fixture_create(
                season=season,
                pub=data["pub"],
                date=data["date"],
                teams=data["teams"],
                games_planned=data["games_planned"],
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{fixture} on {fixture.date.day} {fixture.date:%B} added.")
            _say_about_the_night(request, fixture)
            return redirect("league:manage-season", season.league.slug, season.slug)
    context = {"league": season.league, "season": season, "form": form, "closed": closed}
    return render(request, "league/fixture_form.html", context)


def _say_about_the_night(request, fixture: Fixture) -> None:
    """A team may play twice on a catch-up night, and a match put off may be played after
    the season's last date: allowed, but the one who set it is told, in case it was not
    meant."""
    for team, other in also_playing(fixture):
        messages.warning(request, f"{team} also plays that night: {other} at {other.pub}.")
    season, end = fixture.season, fixture.season.end_date
    if end and fixture.date > end:
        messages.warning(
            request,
            f"That night is after {season.name} ends on {end.day} {end:%B %Y}; "
            "a secretary can move the season's end date.",
        )


def _pub_fixture(request, league_slug, pk) -> Fixture:
    """A fixture of this league that the user may run, else 404 or 403."""
    fixture = _league_fixture(league_slug, pk)
    require_pub(request, fixture.pub, fixture.season.league)
    return fixture


def _removed_meanwhile(request, league_slug, model, pk, gone: str):
    """The form of a team, fixture or player removed meanwhile (in another tab, or by
    someone else), sent by one of the league's secretaries or organisers: said in words
    (`gone`: "That team was removed"), with nothing saved. A team's or fixture's page
    sends its season (a hidden `season`), and leads back to where they were working:
    that season's teams and fixtures, on its Manage page for a secretary, its own page
    for an organiser; else (a player, or a page from before) Manage or Tonight. Anyone
    else, a GET, or one of another league's, finds no such page."""
    league = League.objects.filter(slug=league_slug).first()
    secretary, pubs = request_roles(request, league) if league else (False, frozenset())
    if request.method != "POST" or not (secretary or pubs) or model.objects.filter(pk=pk).exists():
        raise Http404
    sent_season = request.POST.get("season", "")
    season = None
    # A record of a season (not a player), and a slug: junk never reaches the query.
    if hasattr(model, "season") and slug_re.match(sent_season):
        season = league.seasons.filter(slug=sent_season).first()
    if season is None:
        where = ("league:manage" if secretary else "league:tonight", league.slug)
    else:
        gone += f" from {season.name}"
        where = ("league:manage-season" if secretary else "league:season", league.slug, season.slug)
    messages.error(request, f"{gone} while you had the page open. Nothing was saved.")
    return redirect(*where)


def _fixture_or_none(league_slug, pk) -> Fixture | None:
    """The league's fixture, with its teams; None when there is none (removed, say)."""
    fixtures = Fixture.objects.filter(season__league__slug=league_slug, pk=pk)
    return fixtures_with_teams(fixtures).first()


def _league_fixture(league_slug, pk) -> Fixture:
    return get_object_or_404(
        fixtures_with_teams(Fixture.objects.all()), season__league__slug=league_slug, pk=pk
    )


@login_keeps_the_form
def fixture_edit(request, league_slug, pk):
    """A secretary changes everything; an organiser of its pub, the date and status."""
    fixture = _fixture_or_none(league_slug, pk)
    if fixture is None:
        return _removed_meanwhile(request, league_slug, Fixture, pk, "That fixture was removed")
    league, season = fixture.season.league, fixture.season
    _require_pub_of(request, fixture.pub, league, "fixture")
    secretary, _ = request_roles(request, league)

    def form_for(data, fixture):
        return FixtureForm(
            data,
            season=season,
            pubs=league.pubs.all(),
            fixture=fixture,
            initial=_fixture_initial(fixture),
            secretary=secretary,
        )

    form = form_for(sent(request), fixture)
    if request.method == "POST":
        with transaction.atomic():
            fixture = services.locked(fixtures_with_teams(season.fixtures), fixture.pk)
            _require_pub_of(request, fixture.pub, league, "fixture")  # moved meanwhile?
            form = form.on_top_of(lambda data: form_for(data, fixture))
            if form.is_valid():
                data = form.cleaned_data
                pub_before = fixture.pub
                try:
                    fixture = services.fixture_update(
                        fixture=fixture,
                        date=data["date"],
                        status=data["status"],
                        pub=data.get("pub"),
                        games_planned=data.get("games_planned"),
                        teams=data["teams"],
                    )
                except LeagueError as error:
                    form.add_error(None, str(error))
                else:
                    messages.success(request, _fixture_saved(form, fixture, pub_before))
                    _say_about_the_night(request, fixture)
                    return redirect(fixture)
    context = {
        "league": league,
        "season": season,
        "fixture": fixture,
        "form": form,
        "may_remove": secretary and not fixture.games_started,
    }
    return render(request, "league/fixture_form.html", context)


def _fixture_initial(fixture) -> dict:
    seats = [ft.team for ft in fixture.fixture_teams.all()] + [None, None]
    return {
        "date": fixture.date,
        "pub": fixture.pub,
        "games_planned": fixture.games_planned,
        "status": fixture.status,
        "home": seats[0],
        "away": seats[1],
        "third": seats[2],
    }


def _fixture_saved(form, fixture, pub_before) -> str:
    said = "Fixture saved."
    planned, finished = fixture.games_planned, fixture.games_finished
    if fixture.status == Fixture.Status.PLAYED and form.initial["games_planned"] < planned:
        # More games planned for a match already played: it is played on, not reopened.
        said = (
            f"Fixture saved, with {planned} games planned. Its result stands as played "
            f"until game {finished + 1} is started; then the match is in play again until "
            f"game {planned} is finished."
        )
    elif form.played_as_planned:
        games = f"{planned} planned game{pluralize(planned)}"
        said = f"Fixture saved: its {games} {'is' if planned == 1 else 'are all'} finished, "
        said += "so it is played."
    elif form.initial["status"] != fixture.status == Fixture.Status.PLAYED and finished < planned:
        # Marked played before its games are finished: the hall closed, say.
        stands = "the game finished" if finished == 1 else f"the {finished} games finished"
        said = (
            f"Fixture saved: the match is played, after {finished} of its {planned} games. "
            f"Its result stands on {stands}."
        )
    if fixture.pub != pub_before and fixture.games_started:
        games = fixture.games_started
        said += (
            f" {'Its game goes' if games == 1 else f'Its {games} games go'} with it to "
            f"{fixture.pub}: the organisers there look after "
            f"{'it' if games == 1 else 'them'} now, not {pub_before}'s."
        )
    return said + _theirs_kept(form)


@login_keeps_the_form
def fixture_reschedule(request, league_slug, pk):
    """A postponed fixture's new date, in one step: it goes back on the schedule."""
    fixture = _fixture_or_none(league_slug, pk)
    if fixture is None:
        return _removed_meanwhile(request, league_slug, Fixture, pk, "That fixture was removed")
    require_pub(request, fixture.pub, fixture.season.league)
    if fixture.status != Fixture.Status.POSTPONED:
        return redirect("league:fixture-edit", league_slug, fixture.pk)
    season = fixture.season
    form = FixtureForm(
        sent(request),
        season=season,
        pubs=season.league.pubs.all(),
        fixture=fixture,
        with_status=False,
        secretary=False,
    )
    form.fields["date"].label = "New date"
    if request.method == "POST" and form.is_valid():
        date = form.cleaned_data["date"]
        try:
            fixture = services.fixture_update(
                fixture=fixture, date=date, status=Fixture.Status.SCHEDULED
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{fixture} is now on {date:%A} {date.day} {date:%B %Y}.")
            _say_about_the_night(request, fixture)
            return redirect(fixture)
    context = {"league": season.league, "season": season, "fixture": fixture, "form": form}
    return render(request, "league/fixture_reschedule.html", context)


@login_then_back
@asks_first
def fixture_postpone(request, league_slug, pk):
    fixture = _pub_fixture(request, league_slug, pk)
    back = _next_or(request, fixture.get_absolute_url())
    if fixture.status == Fixture.Status.POSTPONED:  # Back to the question after "Yes"
        messages.info(request, f"{fixture} is postponed already: give it a new date on its page.")
        return redirect(back)
    if request.method != "POST":  # the first tap asks: a list has one on every line
        if fixture.games_started:  # an old page: refused at once, not after "Yes"
            messages.error(request, services.fixture_not_postponed(fixture))
            return redirect(back)
        context = {"league": fixture.season.league, "fixture": fixture, "next": back}
        return render(request, "league/fixture_postpone.html", context)
    try:
        services.fixture_postpone(fixture=fixture)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"{fixture} on {fixture.date.day} {fixture.date:%B} is postponed."
        )
    return redirect(back)


@login_then_back
@asks_first
def fixture_remove(request, league_slug, pk):
    """A fixture entered by mistake, taken off by a secretary before any game of it."""
    league = _secretary_league(request, league_slug)
    fixture = fixtures_with_teams(Fixture.objects.filter(season__league=league, pk=pk)).first()
    if fixture is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, "Already removed: that fixture is no longer on the list.")
        return redirect("league:manage", league.slug)
    season = fixture.season
    if request.method != "POST":  # the first tap asks
        if fixture.games_started:  # Back, or an old tab
            messages.error(request, services.fixture_kept(fixture))
            return redirect(fixture)
        context = {"league": season.league, "fixture": fixture}
        return render(request, "league/fixture_remove.html", context)
    try:
        services.fixture_remove(fixture=fixture)
    except LeagueError as error:
        messages.error(request, str(error))
        return redirect(fixture)
    messages.success(request, f"{fixture} on {fixture.date.day} {fixture.date:%B} removed.")
    return redirect("league:manage-season", season.league.slug, season.slug)


def _next_or(request, fallback: str) -> str:
    """The `next` field of the form when it is a page of this site, else `fallback`."""
    target = fields(request).get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@login_keeps_the_form
def organisers(request, league_slug):
    league = _secretary_league(request, league_slug)
    form = OrganiserForm(sent(request), pubs=league.pubs.all())
    if request.method == "POST" and form.is_valid():
        pub = form.cleaned_data["pub"]
        try:
            user = services.organiser_add(
                pub=pub,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{user.username} now organises {pub.name}.")
            return redirect("league:manage-organisers", league.slug)
    pubs = league.pubs.prefetch_related("organisers")
    context = {
        "league": league,
        "pubs": pubs,
        "form": form,
        "secretaries": list(league.secretaries.order_by("username")),
    }
    return render(request, "league/organisers.html", context)


@login_then_back
@asks_first
def organiser_remove(request, league_slug, pub_slug, user_pk):
    """An organiser's pub taken from them, asked first: on a match night a mis-tap left
    the pub with nobody to start its games."""
    league = _secretary_league(request, league_slug)
    pub = get_object_or_404(league.pubs, slug=pub_slug)
    user = pub.organisers.filter(pk=user_pk).first()
    if user is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, f"Already removed: they no longer organise {pub.name}.")
        return redirect("league:manage-organisers", league.slug)
    if request.method != "POST":
        return _ask_to_remove(
            request,
            league,
            question=f"Remove {user.username} as an organiser of {pub.name}?",
            then=f"They can no longer start games or enter results at {pub.name}. "
            "To give it back, invite them again.",
        )
    services.organiser_remove(pub=pub, user=user)
    messages.success(request, f"{user.username} no longer organises {pub.name}.")
    return redirect("league:manage-organisers", league.slug)


@login_required
def tonight(request, league_slug):
    """The organiser's evening: tonight's fixtures at their pubs, ready to play, and
    the teams and players of those pubs."""
    league = get_object_or_404(League, slug=league_slug)
    pubs = list(pubs_run_by(request, league))
    if not pubs:
        raise PermissionDenied("You do not organise a pub in this league.")
    today = timezone.localdate()
    at_my_pubs = fixtures_with_teams(Fixture.objects.filter(season__league=league, pub__in=pubs))
    season = league.seasons.current()
    context = {
        "league": league,
        "season": season,
        "pubs": pubs,
        "today": today,
        **_waiting(season, pubs=pubs),
        "fixtures": at_my_pubs.filter(date=today).order_by(ByName("pub__name"), "pk"),
        "next": at_my_pubs.upcoming().filter(date__gt=today).order_by("date", "pk")[:6],
        "teams": season_teams(season).filter(pub__in=pubs) if season else [],
    }
    return render(request, "league/tonight.html", context)


# Sign-up, a new league and its first run ---------------------------------------------


def signup(request):
    """A visitor makes a login (email and password), then goes on to `next` (an
    invitation) or to start a league."""
    target = _next_or(request, "") or request.GET.get("next", "")
    if target and not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and not request.user.is_authenticated and form.is_valid():
        try:
            user = services.account_create(
                email=form.cleaned_data["email"], password=form.cleaned_data["password1"]
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            auth_login(request, user, backend="league.auth.UserBackend")
            messages.success(request, f"Welcome. You are logged in as {user.username}.")
            return redirect(target or "league:league-create")
    return render(request, "league/signup.html", {"form": form, "next": target})


@login_keeps_the_form
def league_create(request):
    form = LeagueCreateForm(sent(request), user=request.user)
    if request.method == "POST":
        league = _league_sent_again(request)
        if league is None and form.is_valid():
            data = form.cleaned_data
            try:
                league = services.league_create(
                    user=request.user,
                    name=data["name"],
                    slug=data["slug"],
                    pubs=data["pubs"],
                    season=form.season(),
                )
            except LeagueError as error:
                league = _league_sent_again(request)  # two taps at once: the other made it
                if league is None:
                    form.add_error(None, str(error))
            else:
                messages.success(request, f"{league.name} is ready. Here is what comes next.")
                return redirect("league:manage-first-run", league.slug)
        if league is not None:
            messages.info(
                request,
                f"{league.name} is made already, with you as its secretary. "
                "Here is what comes next.",
            )
            return redirect("league:manage-first-run", league.slug)
    return render(request, "league/league_create.html", {"form": form})


def _league_sent_again(request) -> League | None:
    """The league this form made already, sent again (Back, then Create; or a tap sent
    twice): of this name, at this address, with this person its secretary."""
    slug = request.POST.get("slug", "").strip().lower()
    if not slug_re.match(slug):  # not an address at all (a NUL byte would be a 500)
        return None
    league = League.objects.filter(slug=slug, secretaries=request.user).first()
    if league is not None and name_key(league.name) == name_key(request.POST.get("name", "")):
        return league
    return None


@login_required
def first_run(request, league_slug):
    """The secretary's first steps, each ticked off when done."""
    league = _secretary_league(request, league_slug)
    season = league.seasons.current()
    pub_count = league.pubs.count()
    team_count = season.teams.count() if season else 0
    fixture_count = season.fixtures.count() if season else 0
    context = {
        "league": league,
        "season": season,
        "pub_count": pub_count,
        "team_count": team_count,
        "fixture_count": fixture_count,
    }
    return render(request, "league/first_run.html", context)


def fixtures_print(request, league_slug, season_slug):
    """The season's fixture list on A4, for every pub's noticeboard."""
    season = _season(league_slug, season_slug)
    context = {
        "league": season.league,
        "season": season,
        "fixtures": season_fixtures(season),
        "printed": timezone.localdate(),
    }
    return render(request, "league/fixtures_print.html", context)


# Invitations and roles ---------------------------------------------------------------


@login_keeps_the_form
def invites(request, league_slug):
    """Invite an organiser or a co-secretary; the invitations still open."""
    league = _secretary_league(request, league_slug)
    form = InviteForm(sent(request), pubs=league.pubs.all())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            invite = services.invite_create(
                league=league,
                created_by=request.user,
                role=data["role"],
                pubs=data["pubs"] or [],
                email=data["email"],
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            if invite.email:
                services.invite_email(
                    invite=invite, url=request.build_absolute_uri(invite.get_absolute_url())
                )
                messages.success(request, f"The invitation is on its way to {invite.email}.")
            else:
                messages.success(request, "Invitation made. Show its link or QR code.")
            return redirect("league:manage-invite", league.slug, invite.pk)
    now = timezone.now()
    pending = league.invites.prefetch_related("pubs").filter(
        used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    )
    context = {"league": league, "form": form, "invites": pending}
    return render(request, "league/invites.html", context)


def _secretary_invite(request, league_slug, pk) -> Invite:
    league = _secretary_league(request, league_slug)
    return get_object_or_404(league.invites.select_related("league"), pk=pk)


@login_required
def invite_detail(request, league_slug, pk):
    invite = _secretary_invite(request, league_slug, pk)
    url = request.build_absolute_uri(invite.get_absolute_url())
    state = invite.state(timezone.now())
    context = {
        "league": invite.league,
        "invite": invite,
        "url": url,
        "state": state,
        "qr": qr_svg(url, title="QR code of the invitation link") if state == "open" else "",
    }
    return render(request, "league/invite_detail.html", context)


@login_then_back
@require_POST
def invite_revoke(request, league_slug, pk):
    invite = _secretary_invite(request, league_slug, pk)
    try:
        services.invite_revoke(invite=invite)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Invitation withdrawn: its link no longer works.")
    return redirect("league:manage-invites", league_slug)


@login_then_back
@asks_first
def secretary_remove(request, league_slug, user_pk):
    """A secretary's role taken from them (their own too), asked first."""
    league = _secretary_league(request, league_slug)
    user = league.secretaries.filter(pk=user_pk).first()
    if user is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, "Already removed: they are no longer a secretary.")
        return redirect("league:manage-organisers", league.slug)
    if request.method != "POST":
        return _ask_to_remove(
            request,
            league,
            question=f"Remove {user.get_username()} as a secretary of {league.name}?",
            then="They can no longer manage the league. To give it back, invite them again.",
        )
    try:
        services.secretary_remove(league=league, user=user)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{user.get_username()} is no longer a secretary.")
    return redirect("league:manage-organisers", league.slug)


def _ask_to_remove(request, league, *, question: str, then: str):
    """The question before a role is taken from someone (`asks_first`)."""
    context = {"league": league, "question": question, "then": then}
    return render(request, "league/role_remove.html", context)


def invite_accept(request, league_slug, token):
    """An invitation's link: who it is for and what it gives; accept (logged in), or
    sign up or log in first. A refusal is told in plain words and changes nothing."""
    invite, refusal = services.invite_check(token=token, league_slug=league_slug)
    if refusal and _accepted_by(invite, request.user, league_slug):
        return render(request, "league/invite_accept.html", {"accepted": invite})
    league = invite.league if invite and not refusal else None
    if request.method == "POST" and not refusal:
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            invite = services.invite_accept(token=token, league_slug=league_slug, user=request.user)
        except LeagueError as error:
            refusal = str(error)
        else:
            if invite.role == Invite.Role.SECRETARY:
                messages.success(request, f"You are now a secretary of {invite.league.name}.")
                return redirect("league:manage", invite.league.slug)
            names = ", ".join(pub.name for pub in invite.pubs.all())
            messages.success(request, f"You now organise {names}.")
            return redirect("league:tonight", invite.league.slug)
    context = {
        "invite": invite if not refusal else None,
        "league": league,
        "refusal": refusal,
        "pubs": list(invite.pubs.all()) if invite and not refusal else [],
    }
    return render(request, "league/invite_accept.html", context, status=410 if refusal else 200)


def _accepted_by(invite, user, league_slug) -> bool:
    """Whether `user` is the one who accepted this invitation of this league. They open
    the link again (from the email next week, or a second tap on Accept): telling them
    "used already, ask for a new one" would send them to the secretary for nothing.
    Only while they still hold the role: one since removed is refused as before."""
    if not (invite and user.is_authenticated and invite.used_by_id == user.pk):
        return False
    if invite.league.slug != league_slug:
        return False
    if invite.role == Invite.Role.SECRETARY:
        return invite.league.secretaries.filter(pk=user.pk).exists()
    return invite.pubs.filter(organisers=user).exists()


# Closing a season; divisions ------------------------------------------------------------


@login_required
def season_close(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    error = ""
    # Fixtures still to play: their games count when entered, so the tables may change.
    unplayed = Fixture.objects.for_season(season).exclude(status=Fixture.Status.PLAYED).count()
    if request.method == "POST":
        try:
            services.season_close(season=season)
        except LeagueError as refused:
            error = str(refused)
        else:
            if unplayed:
                fixtures = f"{unplayed} fixture{pluralize(unplayed)}"
                said = f"{season.name} is closed, with {fixtures} not played yet: "
                said += "their games still count in its tables when they are entered."
            else:
                said = f"{season.name} is closed. Its tables are final."
            messages.success(request, said)
            return redirect("league:manage-season", season.league.slug, season.slug)
    context = {"league": season.league, "season": season, "error": error, "unplayed": unplayed}
    return render(request, "league/season_close.html", context)


@login_keeps_the_form
def divisions(request, league_slug, season_slug):
    season = _secretary_season(request, league_slug, season_slug)
    form = DivisionForm(sent(request))
    closed = _closed(season, kept="no division is added or removed, and no team moved between them")
    if request.method == "POST" and not closed and form.is_valid():
        try:
            division = services.division_create(season=season, name=form.cleaned_data["name"])
        except LeagueError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, f"“{division.name}” added.")
            return redirect("league:manage-divisions", season.league.slug, season.slug)
    context = {
        "league": season.league,
        "season": season,
        "form": form,
        "closed": closed,
        "divisions": season.divisions.annotate(team_count=Count("teams")),
    }
    return render(request, "league/divisions.html", context)


@login_then_back
@asks_first
def division_delete(request, league_slug, season_slug, pk):
    season = _secretary_season(request, league_slug, season_slug)
    division = season.divisions.filter(pk=pk).first()
    if division is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, "Already removed: that division is no longer in the season.")
        return redirect("league:manage-divisions", season.league.slug, season.slug)
    if request.method != "POST":  # the first tap asks, naming its teams
        context = {
            "league": season.league,
            "season": season,
            "division": division,
            "teams": division.teams.all(),
        }
        return render(request, "league/division_delete.html", context)
    try:
        services.division_delete(division=division)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"“{division.name}” removed; its teams have none now.")
    return redirect("league:manage-divisions", season.league.slug, season.slug)
