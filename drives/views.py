"""
A card drive's pages. Reading is public, like a season's; every change needs the
league's secretary or an organiser of the drive's pub (league/permissions.py), asked for
the drive of the URL, and calls one service in drives/services.py.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from drives import selectors, services
from drives.forms import DriveForm, EntryForm, ResultForm, TableResultForm, TieBreakForm
from drives.models import Drive, Entry, Result, Seat, TableLink
from drives.services import DriveError
from league.models import League
from league.permissions import pubs_run_by, request_runs_pub, require_pub
from league.qr import qr_svg


def _drive(league_slug, pk) -> Drive:
    return get_object_or_404(
        Drive.objects.select_related("league", "pub"), league__slug=league_slug, pk=pk
    )


def _run(request, league_slug, pk) -> Drive:
    drive = _drive(league_slug, pk)
    require_pub(request, drive.pub, drive.league)
    return drive


def _refused(request, drive, error, to="drives:drive"):
    messages.error(request, str(error))
    return redirect(to, drive.league.slug, drive.pk)


def drive_list(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    drives = league.drives.select_related("pub")
    can_create = pubs_run_by(request, league).exists()
    return render(
        request,
        "drives/drive_list.html",
        {"league": league, "drives": drives, "can_create": can_create},
    )


@login_required
def drive_create(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    pubs = pubs_run_by(request, league)
    if not pubs.exists():
        require_pub(request, None, league)
    form = DriveForm(request.POST or None, pubs=pubs, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        try:
            drive = services.drive_create(league=league, **form.cleaned_settings())
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{drive.name} is ready. Check people in at the door.")
            return redirect("drives:door", league.slug, drive.pk)
    return render(request, "drives/drive_form.html", {"league": league, "form": form})


def _board(drive):
    rows = selectors.leaderboard(drive)
    tables = selectors.next_tables(drive) if drive.game else {}
    for row in rows:
        row["table"] = tables.get(row["entry"].pk)
        row["seated"] = row["entry"].pk in tables
    return rows


def drive_detail(request, league_slug, pk):
    drive = _drive(league_slug, pk)
    context = {
        "league": drive.league,
        "drive": drive,
        "rows": _board(drive),
        "may_run": request_runs_pub(request, drive.pub, drive.league),
        "winners": (
            selectors.drive_prizes(drive) if drive.status == Drive.Status.FINISHED else None
        ),
    }
    return render(request, "drives/drive_detail.html", context)


def door(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    form = EntryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_add(drive=drive, **form.cleaned_data)
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            when = f" They play from game {entry.joined_game}." if drive.game else ""
            messages.success(request, f"{entry} checked in.{when}")
            return redirect("drives:door", drive.league.slug, drive.pk)
    entries = drive.entries.all()
    context = {
        "league": drive.league,
        "drive": drive,
        "form": form,
        "entries": entries,
        "singles": sum(1 for e in entries if not e.partner_name and e.left_after_game is None),
        "players": drive.league.players.values_list("name", flat=True),
    }
    return render(request, "drives/door.html", context)


@require_POST
def singles_pair(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    try:
        made = services.singles_pair(drive=drive)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    messages.success(request, f"{made} pair{'s' if made != 1 else ''} made.")
    return redirect("drives:door", drive.league.slug, drive.pk)


@require_POST
def entry_leave(request, league_slug, pk, entry_pk):
    drive = _run(request, league_slug, pk)
    entry = get_object_or_404(Entry, drive=drive, pk=entry_pk)
    try:
        services.entry_leave(drive=drive, entry=entry)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    messages.success(request, f"{entry} has left; their wins stand.")
    return redirect("drives:door", drive.league.slug, drive.pk)


@require_POST
def drive_start(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    try:
        services.drive_start(drive=drive)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    return redirect("drives:grid", drive.league.slug, drive.pk)


def _grid_tables(drive):
    tables: dict[int, list] = {}
    for seat in Seat.objects.filter(
        drive=drive, game=drive.game, table__isnull=False
    ).select_related("entry"):
        sides = tables.setdefault(seat.table, {})
        sides.setdefault(seat.side, []).append(seat.entry)
    won = dict(Result.objects.filter(drive=drive, game=drive.game).values_list("table", "side"))
    return [
        {
            "number": n,
            "sides": [(s, " & ".join(map(str, sides[s]))) for s in sorted(sides)],
            "won": won.get(n),
        }
        for n, sides in sorted(tables.items())
    ]


def grid(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    tables = _grid_tables(drive)
    context = {
        "league": drive.league,
        "drive": drive,
        "tables": tables,
        "waiting": [t["number"] for t in tables if t["won"] is None],
        "sit_outs": Seat.objects.filter(
            drive=drive, game=drive.game, table__isnull=True
        ).select_related("entry"),
    }
    return render(request, "drives/grid.html", context)


def table_links(request, league_slug, pk):
    """Each table's own scorer link and QR, to print or show at the table."""
    drive = _run(request, league_slug, pk)
    rows = []
    if drive.status == Drive.Status.RUNNING:
        tables = Seat.objects.filter(drive=drive, game=drive.game).values("table")
        for link in TableLink.objects.filter(drive=drive, table__in=tables):
            path = link.get_absolute_url()
            url = request.build_absolute_uri(path)
            rows.append(
                {
                    "table": link.table,
                    "path": path,
                    "url": url,
                    "qr": qr_svg(
                        url, title=f"QR code of table {link.table}'s scorer link", scale=5
                    ),
                }
            )
    context = {"league": drive.league, "drive": drive, "rows": rows, "may_run": True}
    return render(request, "drives/table_links.html", context)


@never_cache  # the token is in the URL
def table_scorer(request, league_slug, token):
    """One table's result for the game in play, by whoever holds the table's link."""
    link = get_object_or_404(
        TableLink.objects.select_related("drive__league", "drive__pub"),
        token=token,
        drive__league__slug=league_slug,
    )
    drive, error, status = link.drive, None, 200
    if request.method == "POST":
        form = TableResultForm(request.POST)
        if not form.is_valid():
            error, status = "Choose the pair that won.", 400
        else:
            try:
                services.result_record(drive=drive, table=link.table, **form.cleaned_data)
            except DriveError as refused:
                error, status = str(refused), 409
            else:
                game = form.cleaned_data["game"]
                messages.success(request, f"Table {link.table}, game {game}: result entered.")
                return redirect(link.get_absolute_url())
        drive.refresh_from_db()
    sides, won = [], None
    if drive.status == Drive.Status.RUNNING:
        sides = _grid_tables_of(drive, table=link.table)
        won = (
            Result.objects.filter(drive=drive, game=drive.game, table=link.table)
            .values_list("side", flat=True)
            .first()
        )
    context = {
        "league": drive.league,
        "drive": drive,
        "link": link,
        "sides": sides,
        "won": won,
        "error": error,
    }
    return render(request, "drives/table_scorer.html", context, status=status)


def _grid_tables_of(drive, *, table: int) -> list[tuple[int, str]]:
    """[(side, "A & B")] at one table of the game in play."""
    sides: dict[int, list] = {}
    for seat in Seat.objects.filter(drive=drive, game=drive.game, table=table).select_related(
        "entry"
    ):
        sides.setdefault(seat.side, []).append(seat.entry)
    return [(s, " & ".join(map(str, sides[s]))) for s in sorted(sides)]


@require_POST
def result_record(request, league_slug, pk, game, table):
    drive = _run(request, league_slug, pk)
    form = ResultForm(request.POST)
    error = None
    if not form.is_valid():
        error = "Choose the pair that won."
    else:
        try:
            services.result_record(drive=drive, game=game, table=table, **form.cleaned_data)
        except DriveError as refused:
            error = str(refused)
    if request.htmx:
        row = next((t for t in _grid_tables(drive) if t["number"] == table), None)
        if row is None:
            return HttpResponse(error or "", status=400)
        context = {"league": drive.league, "drive": drive, "table": row, "error": error}
        return render(request, "drives/grid.html#table", context)
    if error:
        messages.error(request, error)
    return redirect("drives:grid", drive.league.slug, drive.pk)


@require_POST
def game_next(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    try:
        seating = services.game_next(drive=drive)
    except DriveError as error:
        return _refused(request, drive, error, "drives:grid")
    if seating is None:
        messages.success(request, "That was the last game. Here are the prizes.")
        return redirect("drives:prizes", drive.league.slug, drive.pk)
    messages.success(request, f"Game {seating.game}: move now. The wall screen shows where.")
    return redirect("drives:grid", drive.league.slug, drive.pk)


def wall(request, league_slug, pk):
    drive = _drive(league_slug, pk)
    context = {"league": drive.league, "drive": drive, "rows": _board(drive)}
    template = "drives/wall.html#board" if request.htmx else "drives/wall.html"
    response = render(request, template, context)
    response["Vary"] = "HX-Request"
    return response


def entry_detail(request, league_slug, pk, entry_pk):
    drive = _drive(league_slug, pk)
    entry = get_object_or_404(Entry, drive=drive, pk=entry_pk)
    row = next((r for r in _board(drive) if r["entry"].pk == entry.pk), None)
    return render(
        request,
        "drives/entry_detail.html",
        {"league": drive.league, "drive": drive, "entry": entry, "row": row},
    )


def _prizes_context(request, drive):
    return {
        "league": drive.league,
        "drive": drive,
        "prizes": selectors.drive_prizes(drive),
        "may_run": request_runs_pub(request, drive.pub, drive.league),
        "printed": timezone.localtime(),
    }


def prize_list(request, league_slug, pk):
    drive = _drive(league_slug, pk)
    return render(request, "drives/prizes.html", _prizes_context(request, drive))


def prize_pdf(request, league_slug, pk):
    import logging

    import weasyprint  # heavy: loaded only when a PDF is asked for
    from django.contrib.staticfiles import finders
    from django.template.loader import render_to_string

    drive = _drive(league_slug, pk)
    context = {**_prizes_context(request, drive), "may_run": False, "pdf": True}
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    html = render_to_string("drives/prizes.html", context, request=request)
    css = [weasyprint.CSS(filename=finders.find(f)) for f in ("css/site.css", "css/drives.css")]
    pdf = weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf(
        stylesheets=css
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="drive-{drive.pk}-prizes.pdf"'
    return response


@require_POST
def tiebreak_record(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    form = TieBreakForm(request.POST)
    if not form.is_valid():
        return _refused(request, drive, "Choose who won the cut or play-off.", "drives:prizes")
    winner = Entry.objects.filter(drive=drive, pk=form.cleaned_data["winner"]).first()
    if winner is None:
        return _refused(request, drive, "Choose who won the cut or play-off.", "drives:prizes")
    try:
        services.tiebreak_record(
            drive=drive,
            place=form.cleaned_data["place"],
            winner=winner,
            method=form.cleaned_data["method"],
        )
    except DriveError as error:
        return _refused(request, drive, error, "drives:prizes")
    messages.success(request, f"{winner} takes place {form.cleaned_data['place']}.")
    return redirect("drives:prizes", drive.league.slug, drive.pk)
