"""
A card drive's pages. Reading is public, like a season's; every change needs the
league's secretary or an organiser of the drive's pub (league/permissions.py), asked for
the drive of the URL, and calls one service in drives/services.py.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from drives import selectors, services
from drives.forms import (
    DriveForm,
    EntryForm,
    EntryNameForm,
    PresetForm,
    ResultForm,
    TableResultForm,
    TieBreakForm,
)
from drives.models import Drive, Entry, Result, Seat, TableLink
from drives.services import DriveError
from league.asking import asks_first, fields
from league.models import League
from league.names import tidy
from league.permissions import (
    login_keeps_the_form,
    login_then_back,
    pubs_run_by,
    request_runs_pub,
    require_pub,
    sent,
)
from league.qr import qr_svg
from league.tokens import get_by_token


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


@login_keeps_the_form
def drive_create(request, league_slug):
    league = get_object_or_404(League, slug=league_slug)
    pubs = pubs_run_by(request, league)
    if not pubs.exists():
        require_pub(request, None, league)
    # A kind of night only fills the form in (a GET): what is saved is what the form held.
    kind = PresetForm(request.GET or None)
    preset = kind.chosen()
    initial = {"date": timezone.localdate(), **DriveForm.initial_for(preset)}
    form = DriveForm(sent(request), pubs=pubs, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            drive = services.drive_create(league=league, **form.cleaned_data)
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{drive.name} is ready. Check people in at the door.")
            return redirect("drives:door", league.slug, drive.pk)
    context = {"league": league, "form": form, "kind": kind, "preset": preset}
    return render(request, "drives/drive_form.html", context)


@login_keeps_the_form
def drive_edit(request, league_slug, pk):
    """The drive's settings put right (drives.services.drive_update says which, when)."""
    drive = _run(request, league_slug, pk)
    if drive.status == Drive.Status.FINISHED:
        error = "This drive has finished: its settings stay as they were played."
        return _refused(request, drive, error)
    form = DriveForm(
        sent(request),
        pubs=pubs_run_by(request, drive.league),
        initial=DriveForm.settings_of(drive),
        started=drive.status == Drive.Status.RUNNING,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.drive_update(drive=drive, **form.cleaned_data)
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The drive's settings are saved.")
            return redirect("drives:door", drive.league.slug, drive.pk)
    context = {"league": drive.league, "drive": drive, "form": form}
    return render(request, "drives/drive_form.html", context)


@login_then_back
@asks_first
def drive_remove(request, league_slug, pk):
    """A drive set up by mistake, taken off before game 1: the first tap asks."""
    league = get_object_or_404(League, slug=league_slug)
    drive = league.drives.select_related("league", "pub").filter(pk=pk).first()
    if drive is None:  # a second tap, or Back to the question after "Yes"
        messages.info(request, "Already removed: that drive is no longer on the list.")
        return redirect("drives:list", league.slug)
    require_pub(request, drive.pub, league)
    try:
        if request.method != "POST":
            if drive.status != Drive.Status.OPEN:
                raise DriveError("Game 1 has started: the drive stays, with its results.")
            context = {"league": league, "drive": drive, "entries": drive.entries.count()}
            return render(request, "drives/drive_remove.html", context)
        services.drive_remove(drive=drive)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    messages.success(
        request, f"{drive.name} on {drive.date:%A} {drive.date.day} {drive.date:%B} removed."
    )
    return redirect("drives:list", league.slug)


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
        "singles": selectors.singles_waiting(drive),
        "may_run": request_runs_pub(request, drive.pub, drive.league),
        "winners": (
            selectors.drive_prizes(drive) if drive.status == Drive.Status.FINISHED else None
        ),
    }
    return render(request, "drives/drive_detail.html", context)


def door(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    # "No" on the "Start game 1?" page comes back with the names typed but not checked in.
    typed = {f: request.GET.get(f, "")[:100] for f in ("name", "partner_name")}
    form = EntryForm(request.POST or None, initial=typed)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_add(drive=drive, **form.cleaned_data)
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            _say_once(request, _checked_in(drive, entry))
            return redirect("drives:door", drive.league.slug, drive.pk)
    # `played`: has had a seat, so "Leaves now" (their wins stand); else "Remove".
    entries = list(drive.entries.annotate(played=Exists(Seat.objects.filter(entry=OuterRef("pk")))))
    singles = [e for e in entries if not e.partner_name and e.left_after_game is None]
    context = {
        "league": drive.league,
        "drive": drive,
        "form": form,
        "entries": entries,
        "singles": 0 if drive.individual else len(singles),
        "players": drive.league.players.values_list("name", flat=True),
    }
    return render(request, "drives/door.html", context)


def _say_once(request, text: str) -> None:
    """A success message, unless the same one waits to be shown (a double tap's first
    answer was never seen: its message comes with the second's page)."""
    waiting = messages.get_messages(request)
    seen = any(str(m) == text for m in waiting)
    waiting.used = False  # looking is not showing: they stay for the next page
    if not seen:
        messages.success(request, text)


def _checked_in(drive, entry) -> str:
    said = f"{entry} checked in."
    if not drive.individual and not entry.partner_name:
        return (
            f"{said} {entry.name} needs a partner to play: "
            "check in another single and tap “Pair the singles”."
        )
    if not drive.game:
        return said
    if entry.joined_game > drive.games:
        return f"{said} Game {drive.game} is the last: there is no game left for them to play."
    out = services.newcomers_sit_out(drive)
    if out:  # fewer have played a game than must sit out: a promise would be wrong
        need, played = out
        what = "player" if drive.individual else "pair"
        return (
            f"{said} They join at game {entry.joined_game} but, as things stand, may sit "
            f"it out: {need} {what}{pluralize(need)} must sit out and only {played} there "
            f"{'has' if played == 1 else 'have'} played a game (who has played most sits "
            "out first)."
        )
    return f"{said} They play from game {entry.joined_game}."


@require_POST
def singles_pair(request, league_slug, pk):
    drive = _run(request, league_slug, pk)
    try:
        made = services.singles_pair(drive=drive)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    said = f"{len(made)} pair{pluralize(made)} made"
    said += f": {services.listed([str(e) for e in made])}." if made else "."
    for single in selectors.singles_waiting(drive):  # the odd one out
        said += (
            f" {single.name} is still waiting for a partner: check in someone to partner "
            "them and tap “Pair the singles”."
        )
    messages.success(request, said)
    return redirect("drives:door", drive.league.slug, drive.pk)


def _sits_out_until_paired(singles) -> str:
    """What the organiser is told when a game starts with singles still on their own."""
    names = services.listed([e.name for e in singles])
    if len(singles) == 1:
        return (
            f"{names} is waiting for a partner and sits out until paired: check in someone "
            "to partner them and tap “Pair the singles” at the door."
        )
    return (
        f"{names} are waiting for a partner and sit out until paired: "
        f"tap “Pair the {len(singles)} singles” at the door."
    )


@login_keeps_the_form
def entry_name(request, league_slug, pk, entry_pk):
    """Put right a name typed wrong at the door: the entry keeps its seats and wins."""
    drive = _run(request, league_slug, pk)
    entry = get_object_or_404(Entry, drive=drive, pk=entry_pk)
    initial = {"name": entry.name, "partner_name": entry.partner_name}
    form = EntryNameForm(sent(request), pair=bool(entry.partner_name), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_rename(drive=drive, entry=entry, **form.cleaned_data)
        except DriveError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Name put right: {entry}.")
            return redirect("drives:door", drive.league.slug, drive.pk)
    context = {
        "league": drive.league,
        "drive": drive,
        "entry": entry,
        "form": form,
        "players": drive.league.players.values_list("name", flat=True),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "drives/entry_name.html", context, status=status)


@asks_first
def entry_leave(request, league_slug, pk, entry_pk):
    """ "Leaves now" (or "Remove", before they have played): the first tap asks, on the
    entry's own page; "Yes" does it. A pair let go by mistake can come back (entry_return)."""
    drive = _run(request, league_slug, pk)
    entry = Entry.objects.filter(drive=drive, pk=entry_pk).first()
    if entry is None:  # a second tap on "Yes, remove": the first one removed them
        messages.info(request, "Already removed: they are no longer on the list.")
        return redirect("drives:door", drive.league.slug, drive.pk)
    if request.method != "POST":
        if entry.left_after_game is not None:  # Back to the question after "Yes"
            messages.info(request, f"{entry} left after game {entry.left_after_game} already.")
            return redirect("drives:door", drive.league.slug, drive.pk)
        context = {
            "league": drive.league,
            "drive": drive,
            "entry": entry,
            "asking": True,
            "removing": drive.status == Drive.Status.OPEN or not entry.seats.exists(),
        }
        return render(request, "drives/entry_detail.html", context)
    try:
        gone = services.entry_leave(drive=drive, entry=entry)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    if gone.pk is None:
        messages.success(request, f"{gone} removed.")
    else:
        left = gone.left_after_game
        messages.success(request, f"{gone} left after game {left}; their wins stand.")
    return redirect("drives:door", drive.league.slug, drive.pk)


@require_POST
def entry_return(request, league_slug, pk, entry_pk):
    """ "Back again": a pair that left plays on from the next game."""
    drive = _run(request, league_slug, pk)
    entry = get_object_or_404(Entry, drive=drive, pk=entry_pk)
    try:
        entry = services.entry_return(drive=drive, entry=entry)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    verb = "are" if entry.partner_name else "is"
    messages.success(request, f"{entry} {verb} back: they play from game {drive.game + 1}.")
    return redirect("drives:door", drive.league.slug, drive.pk)


@require_POST
def entry_paid(request, league_slug, pk, entry_pk):
    """Mark an entry paid, or not paid, from its line at the door."""
    drive = _run(request, league_slug, pk)
    entry = get_object_or_404(Entry, drive=drive, pk=entry_pk)
    paid = {"1": True, "0": False}.get(request.POST.get("paid", ""))
    if paid is None:
        return _refused(request, drive, "Tap “Mark paid” or “Mark not paid”.", "drives:door")
    try:
        entry = services.entry_paid(drive=drive, entry=entry, paid=paid)
    except DriveError as error:
        return _refused(request, drive, error, "drives:door")
    if paid:
        messages.success(request, f"{entry} paid €{drive.entry_fee}.")
    else:
        messages.success(request, f"{entry} marked not paid.")
    return redirect("drives:door", drive.league.slug, drive.pk)


@asks_first
def drive_start(request, league_slug, pk):
    """ "Start game 1": the first tap asks, saying how many play at how many tables, who
    sits out, and any names typed at the door but not checked in (the button sits under
    "Check in" and sends its boxes); "Yes" starts. A second "Yes", or Back to the
    question, finds the drive started and says so."""
    drive = _run(request, league_slug, pk)
    if drive.status != Drive.Status.OPEN:
        if not _about_to_say(request, "Game 1 has started"):  # a double tap's first answer
            messages.info(request, "Game 1 has already started: nothing more was started.")
        return redirect("drives:grid", drive.league.slug, drive.pk)
    try:
        if request.method != "POST":
            return _start_asked(request, drive, services.drive_start_check(drive=drive))
        services.drive_start(drive=drive)
    except DriveError as error:
        messages.error(request, str(error))
        return redirect(_door_with_typed(request, drive))  # the names typed stay typed
    messages.success(
        request, "Game 1 has started: everyone to their table. The wall screen shows where."
    )
    return redirect("drives:grid", drive.league.slug, drive.pk)


def _typed(request) -> list[str]:
    """The names typed at the door but not checked in, sent with "Start game 1"."""
    typed = [tidy(request.GET.get(f, ""))[:100] for f in ("name", "partner_name")]
    return [name for name in typed if name]


def _door_with_typed(request, drive) -> str:
    """The door, its boxes filled in with the names typed there but not checked in."""
    door = reverse("drives:door", args=[drive.league.slug, drive.pk])
    if typed := _typed(request):
        door += "?" + urlencode(dict(zip(("name", "partner_name"), typed, strict=False)))
    return door


def _start_asked(request, drive, seating):
    typed = _typed(request)
    back = _door_with_typed(request, drive)
    entries = drive.entries.in_bulk(seating.sit_outs)
    sit_outs = [str(entries[e]) for e in seating.sit_outs]
    context = {
        "league": drive.league,
        "drive": drive,
        "playing": len(seating.seated()) + len(seating.sit_outs),
        "tables": len(seating.tables),
        "sit_outs": services.listed(sit_outs) if sit_outs else "",
        "sit_out_count": len(sit_outs),
        "typed": " & ".join(typed),
        "back": back,
    }
    return render(request, "drives/drive_start.html", context)


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
    if request.htmx and "game" in request.GET:
        response = _grid_changes(request, drive)
    else:
        tables = _grid_tables(drive)
        context = {
            "league": drive.league,
            "drive": drive,
            "tables": tables,
            "waiting": [t["number"] for t in tables if t["won"] is None],
            # After a refused "Start game N+1": the waiting line says so until they are in.
            "not_yet": "not_yet" in request.GET,
            "sit_outs": Seat.objects.filter(
                drive=drive, game=drive.game, table__isnull=True
            ).select_related("entry"),
            "singles": selectors.singles_waiting(drive),
        }
        response = render(request, "drives/grid.html", context)
    response["Vary"] = "HX-Request"
    return response


def _grid_changes(request, drive):
    """The grid asks every 10 s, sending the result each table showed (`table-3=1`, or
    empty): back come the tables whose result is another now (entered at a table's phone,
    or by another organiser) and the waiting line. Once another game is in play, the page
    reloads itself."""
    if drive.status != Drive.Status.RUNNING or request.GET.get("game") != str(drive.game):
        return _reload()
    tables = _grid_tables(drive)
    now = {t["number"]: "" if t["won"] is None else str(t["won"]) for t in tables}
    changed = [t for t in tables if request.GET.get(f"table-{t['number']}", "") != now[t["number"]]]
    return _grid_fragments(request, drive, tables, changed, main=None)


def _reload() -> HttpResponse:
    """Tells htmx to load the whole page again."""
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


def _grid_fragments(request, drive, tables, changed, *, main, error=None):
    """`main` (a table, swapped where it was tapped), then `changed` tables and the
    waiting line, each swapped by its id (htmx's out-of-band swaps)."""
    context = {"league": drive.league, "drive": drive}

    def part(name, **more):
        return render_to_string(f"drives/grid.html#{name}", {**context, **more}, request)

    parts = [part("table", table=main, error=error)] if main is not None else []
    parts += [part("table", table=table, oob=True) for table in changed]
    waiting = [t["number"] for t in tables if t["won"] is None]
    parts.append(part("waiting", waiting=waiting, oob=True))
    return HttpResponse("".join(parts))


def _seen(request) -> int | None:
    """The winning side the tapped page showed: a number, or none yet (empty or missing)."""
    seen = request.POST.get("seen", "")
    return int(seen) if seen.isdigit() and len(seen) < 3 else None


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
    link = get_by_token(
        TableLink.objects.select_related("drive__league", "drive__pub"),
        token,
        drive__league__slug=league_slug,
    )
    drive, error, status = link.drive, None, 200
    if request.method == "POST":
        form = TableResultForm(request.POST)
        if not form.is_valid():
            error, status = f"Choose the {drive.winner_word} that won.", 400
        else:
            try:
                services.result_record(
                    drive=drive, table=link.table, seen=_seen(request), **form.cleaned_data
                )
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
        error = f"Choose the {drive.winner_word} that won."
    else:
        try:
            services.result_record(
                drive=drive, game=game, table=table, seen=_seen(request), **form.cleaned_data
            )
        except DriveError as refused:
            error = str(refused)
    if request.htmx:
        if error:
            drive.refresh_from_db()  # another phone may have started the next game meanwhile
            if drive.status != Drive.Status.RUNNING or game != drive.game:
                # A page of an older game: the whole grid of the game in play, message
                # and all, never one table of it under the old game's heading.
                messages.error(request, error)
                return _reload()
        tables = _grid_tables(drive)
        row = next((t for t in tables if t["number"] == table), None)
        if row is None:
            return HttpResponse(error or "", status=400)
        return _grid_fragments(request, drive, tables, [], main=row, error=error)
    if error:
        messages.error(request, error)
    return redirect("drives:grid", drive.league.slug, drive.pk)


def _already_closed(request, drive, closing: int):
    """A second "Yes" (Back and send again, or another phone's first): the game it
    closes is closed already. Says so and shows the game in play; None otherwise."""
    if drive.status == Drive.Status.FINISHED:
        if not _about_to_say(request, "That was the last game."):
            messages.info(request, "The drive has already finished: here are the prizes.")
        return redirect("drives:prizes", drive.league.slug, drive.pk)
    if drive.status == Drive.Status.RUNNING and drive.game > closing:
        if not _about_to_say(request, f"Game {drive.game}: move now."):
            messages.info(
                request, f"Game {drive.game} has already started: nothing more was started."
            )
        return redirect("drives:grid", drive.league.slug, drive.pk)
    return None


def _about_to_say(request, start: str) -> bool:
    """Whether a message beginning `start` waits to be shown: a double tap's first
    answer, whose page the browser never drew. It is said alone, not beside "already"."""
    waiting = messages.get_messages(request)
    said = any(str(message).startswith(start) for message in waiting)
    waiting.used = False  # looked at, still to be shown
    return said


@asks_first
def game_next(request, league_slug, pk):
    """ "Start game N" (or "Finish: show the prizes"): the first tap asks, saying which
    game's results close; "Yes", sent with that game's number, starts the next. A second
    "Yes", or Back to the question, starts nothing more and says so. A tap while tables
    are still to come is refused at once, as before."""
    drive = _run(request, league_slug, pk)
    closing = fields(request).get("game", "")
    closing = int(closing) if closing.isdigit() and len(closing) < 3 else None
    confirmed = request.method == "POST"
    if closing is not None and (done := _already_closed(request, drive, closing)):
        return done
    if confirmed and closing != drive.game:  # a Yes of no game in play asks again
        return redirect("drives:next", drive.league.slug, drive.pk)
    try:
        if not confirmed:
            services.game_next_check(drive=drive)
            context = {"league": drive.league, "drive": drive}
            return render(request, "drives/game_next.html", context)
        seating = services.game_next(drive=drive, closing=closing)
    except DriveError as error:
        if confirmed:
            drive.refresh_from_db()  # another phone's "Yes" came first
            if done := _already_closed(request, drive, closing):
                return done
        if services.tables_waiting(drive):
            # Said on the grid's waiting line, which follows the tables as they come in
            # (a message at the top would stay after they are in).
            response = redirect("drives:grid", drive.league.slug, drive.pk)
            response["Location"] += "?not_yet=1"
            return response
        return _refused(request, drive, error, "drives:grid")
    if seating is None:
        messages.success(request, "That was the last game. Here are the prizes.")
        return redirect("drives:prizes", drive.league.slug, drive.pk)
    messages.success(
        request,
        f"Game {seating.game}: move now. The wall screen shows where. "
        f"Game {seating.game - 1}'s results are closed.",
    )
    # The room is not held up for someone who came alone (Confey finds them a partner
    # while the others play): the game starts, and the organiser is told who waits.
    singles = selectors.singles_waiting(drive)
    if singles:
        messages.warning(request, _sits_out_until_paired(singles))
    return redirect("drives:grid", drive.league.slug, drive.pk)


def wall(request, league_slug, pk):
    drive = _drive(league_slug, pk)
    context = {
        "league": drive.league,
        "drive": drive,
        "rows": _board(drive),
        "singles": selectors.singles_waiting(drive),
    }
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
        {
            "league": drive.league,
            "drive": drive,
            "entry": entry,
            "row": row,
            "may_run": request_runs_pub(request, drive.pub, drive.league),
        },
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
    verb = "take" if winner.partner_name else "takes"  # "Liam & Máire take place 3"
    messages.success(request, f"{winner} {verb} place {form.cleaned_data['place']}.")
    return redirect("drives:prizes", drive.league.slug, drive.pk)


@asks_first
def tiebreak_undo(request, league_slug, pk):
    """A cut or play-off recorded wrongly: the first tap asks, naming every later cut of
    the same tie that goes with it; "Yes" undoes them, and the places are ties to settle
    again. A second "Yes" finds them gone and says so."""
    drive = _run(request, league_slug, pk)
    place = fields(request).get("place", "")
    if not (place.isdigit() and len(place) < 3):
        return _refused(
            request, drive, "Choose the place whose cut or play-off to undo.", "drives:prizes"
        )
    place = int(place)
    if request.method != "POST":
        going = selectors.tiebreaks_going(drive, place)
        if not going:
            error = f"No cut or play-off is recorded for place {place}."
            return _refused(request, drive, error, "drives:prizes")
        context = {
            "league": drive.league,
            "drive": drive,
            "first": going[0],
            "later": going[1:],
            "cuts": [t.pk for t in going],
            "places": services.listed([str(t.place) for t in going]),
        }
        return render(request, "drives/tiebreak_undo.html", context)
    sent = request.POST.getlist("cuts")
    seen = [int(pk) for pk in sent if pk.isdigit() and len(pk) < 10]
    if seen and not drive.tiebreaks.filter(pk__in=seen).exists():
        messages.info(request, "Already undone: the prize list shows the places as they stand now.")
        return redirect("drives:prizes", drive.league.slug, drive.pk)
    try:
        undone = services.tiebreak_undo(drive=drive, place=place, seen=seen)
    except DriveError as error:
        return _refused(request, drive, error, "drives:prizes")
    first, later = undone[0], undone[1:]
    said = f"The {first.how} for place {first.place} is undone"
    if later:
        listed = services.listed([f"the {t.how} for place {t.place}" for t in later])
        said += f", and with it {listed}: record them again."
    else:
        said += ": record it again."
    messages.success(request, said)
    return redirect("drives:prizes", drive.league.slug, drive.pk)
