"""The table sheet, the match page, scorer links and the game's record.

Who may score a game: the league's secretaries, the organisers of the game's pub, and
anyone holding a live scorer link for that game (opening the link keeps it in their
session, so the sheet's own URLs work for them and for nothing else). Everyone may read.

Every change is a POST to a real form; with htmx the sheet's partial comes back in place
(an error as 422, a lost race as 409), without it the browser is redirected to the sheet.
"""

import datetime
import functools
import hashlib
import uuid
from dataclasses import dataclass

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import prefetch_related_objects
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

import rules
from league.asking import asks_first, fields
from league.models import Fixture, Pub
from league.permissions import ask_to_log_in, keep_roles, request_runs_pub
from league.qr import qr_svg
from league.tokens import get_by_token
from scoring import services
from scoring.forms import CorrectionForm, DealForm, FriendlyForm, LinkForm, StartForm, VersionForm
from scoring.models import Deal, Game, ScorerLink, number_links
from scoring.selectors import (
    SHEET_RELATIONS,
    game_events,
    game_for_sheet,
    game_to_change,
    match_for,
    next_dealer_of,
    roles_in_league,
)
from scoring.wording import link_whose, with_side_names

SESSION_LINKS = "scorer_links"
# " – " between two scores, never broken across lines ("10 –" then "15" below): no-break
# spaces, and a word joiner after the dash, which a line may otherwise break after.
WHOLE_DASH = "\u00a0–\u2060\u00a0"


@dataclass(frozen=True)
class Scorer:
    """Who is asking, for one game: an organiser or secretary, or a scorer link."""

    user: object
    link: ScorerLink | None
    manages: bool
    link_closed: str = ""  # why a scorer link this phone holds for the game no longer works

    @property
    def may_score(self) -> bool:
        return self.manages or self.link is not None


def _scorer(request, game: Game) -> Scorer:
    manages = request_runs_pub(request, game.venue_id, game.league_id)
    link, closed = None, ""
    held = request.session.get(SESSION_LINKS, {})
    token = held.get(str(game.pk))
    if token and not manages:
        if game.is_confirmed:
            closed = "This game is confirmed, so its scorer links are closed."
        else:
            live = ScorerLink.objects.filter(token=token, game=game, revoked_at__isnull=True)
            link = live.first()
            closed = "" if link else "The organiser has withdrawn your scorer link."
    elif held and not manages:
        closed = _link_of_another_game(game, held)
    return Scorer(user=request.user, link=link, manages=manages, link_closed=closed)


def _sheet_tag(game: Game, scorer: Scorer) -> str:
    """What a scoring phone's sheet is drawn from, short of what its deals show: the
    game's version (every deal, undo, correction and confirmation moves it on), who
    scores it and through what, and the match around it (its next game started, more
    games planned). A phone's check for the other phone's saves sends the tag of the
    sheet it shows, and is answered 304 while the tag is the same (`game_sheet`)."""
    fixture = game.fixture
    drawn_from = (
        game.pk,
        game.version,
        scorer.user.pk,
        scorer.manages,
        scorer.link and scorer.link.pk,
        scorer.link_closed,
        fixture
        and (fixture.games_planned, fixture.games_started, fixture.games_finished, fixture.status),
    )
    return hashlib.blake2b(repr(drawn_from).encode(), digest_size=8).hexdigest()


def _link_of_another_game(game: Game, held: dict) -> str:
    """Why a player holding a scorer link has nothing to tap on this game: a finished
    game's sheet leads on to the match's next game, and a link is for one game only, so
    the player who follows it is told which game their link is for, and what to do
    (nothing said on a game of another match)."""
    if not game.fixture_id:
        return ""
    earlier = (
        ScorerLink.objects.filter(token__in=held.values(), game__fixture_id=game.fixture_id)
        .exclude(game=game)
        .select_related("game")
        .order_by("-game__number")
        .first()
    )
    if earlier is None:
        return ""
    return (
        f"Your scorer link is for game {earlier.game.number} only. "
        f"Ask the organiser for the QR code of game {game.number}."
    )


def _refuse(request):
    """Anonymous people are asked to log in; a player scoring through a link is told what
    the link is for; anyone else is refused."""
    if request.user.is_authenticated:
        raise PermissionDenied
    if request.session.get(SESSION_LINKS):
        raise PermissionDenied(
            "Your scorer link is for entering this game's deals on its sheet; this page is "
            "for the pub's organisers."
        )
    return ask_to_log_in(request)


class GameGone(Http404):
    """No game at a game's address: taken back as started by mistake (`game_remove`), or
    never there. A "Not found" anywhere; on the sheet's own addresses, said in words."""


def _game(pk, games=None) -> Game:
    game = (games if games is not None else game_for_sheet()).filter(pk=pk).first()
    if game is None:
        raise GameGone
    return game


def _told_if_gone(view):
    """A sheet's address whose game was taken back: said in the sheet's place (the sheet
    alone for htmx), so a tap on a sheet left open on a second phone, or a deal kept on a
    phone while the Wi-Fi was down, is told, where a bare "Not found" showed nothing."""

    @functools.wraps(view)
    def told(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except GameGone:
            template = "scoring/game_gone.html#gone" if request.htmx else "scoring/game_gone.html"
            context = {"match_url": _match_of_taken_back(request, kwargs["pk"])}
            response = render(request, template, context, status=404)
            patch_vary_headers(response, ["HX-Request"])
            return response

    return told


# Where a game taken back was played (its match, its league), kept a week for the phones
# still showing its sheet: they are led back to the match, not to the front page.
TAKEN_BACK = "scoring:taken-back:{}"


def _match_of_taken_back(request, pk) -> str:
    """The page of the match a game taken back was of: the organiser's, or the public
    one for a scorer link's phone. "" for a game never there, or a friendly."""
    where = cache.get(TAKEN_BACK.format(pk))
    if where is None:
        return ""
    fixture_id, league_slug = where
    if request.user.is_authenticated:
        return reverse("scoring:fixture-play", args=[fixture_id])
    return reverse("league:fixture", args=[league_slug, fixture_id])


def _labels(game: Game) -> list[str]:
    return services.side_labels(game)


def _names(sides) -> dict[int, str]:
    """The teams' names as a game was played (by team id), for its match's lines."""
    return {side.team_id: side.label for side in sides if side.team_id is not None}


# The sheet


def _deal_rows(game: Game, live: list) -> list[dict]:
    """Each live deal with its tricks by side and the running score after it."""
    result = rules.score_game(
        game.ruleset, sides=game.sides, deals=[deal.as_rules_deal() for deal in live]
    )
    labels = _labels(game)
    return [
        {
            "deal": deal,
            "parts": list(zip(labels, deal.trick_counts, strict=False)),
            "dealer": labels[deal.dealer],
            "bonus": labels[deal.bonus_side] if deal.bonus_side is not None else "",
            "totals": WHOLE_DASH.join(map(str, scored.totals)),
        }
        for deal, scored in zip(live, result.deals, strict=True)
    ]


def _abilities(game: Game, scorer: Scorer, live: list, match) -> dict:
    """What this person may do on the sheet now; the views check the same again."""
    confirmed = game.is_confirmed
    # Once the match's next game has started, this one keeps a winner: no undo.
    gone_on = match is not None and match.games[-1].number > game.number
    link = scorer.link
    other_sides_link = (
        link is not None
        and link.side is not None
        and not game.deals.live().filter(entered_via__side=link.side).exists()
    )
    return {
        "can_enter": scorer.may_score and not game.is_finished and not confirmed,
        "can_undo": scorer.may_score and bool(live) and not confirmed and not gone_on,
        "can_correct": scorer.may_score and (scorer.manages or not confirmed),
        "can_confirm": game.is_finished and not confirmed and (scorer.manages or other_sides_link),
    }


def _sheet_context(request, game: Game, scorer: Scorer, **extra) -> dict:
    live = list(game.deals.live().order_by("number"))
    sides = list(game.game_sides.all())
    match = match_for(game.fixture).named(_names(sides)) if game.fixture_id else None
    link = scorer.link
    return {
        "league": game.league,
        "season": game.season,
        "game": game,
        "sides": sides,
        "rows": _deal_rows(game, live),
        "score_whole": WHOLE_DASH.join(map(str, game.scores)),  # Confirm's "Tap again …"
        "deal_number": len(live) + 1,
        "proposed_dealer": next_dealer_of(game, live),
        # Idempotency keys, made now, as the forms are drawn: a retry sends the same one.
        "keys": {"split": uuid.uuid4(), "order": uuid.uuid4(), "count": uuid.uuid4()},
        "scorer": scorer,
        "tag": _sheet_tag(game, scorer),
        "link_side": _labels(game)[link.side] if link and link.side is not None else "",
        **_abilities(game, scorer, live, match),
        "bonus": game.ruleset.highest_trump_bonus > 0,
        "tricks_range": range(6),
        "trick_numbers": range(1, 6),
        "match": match,
        "next_game": bool(
            match and scorer.manages and game.is_finished and match.next_number is not None
        ),
        # Nothing entered yet (a game's version moves on with every entry and undo).
        "may_take_back": scorer.manages and not live and game.version == 1,
        # Kept on the phone to reload with no connection, whoever opens it (base.html).
        "keep_offline": True,
        **extra,
    }


# Where a refusal is shown: beside the form it answers, when that form is on the sheet.
BOX_PLACES = ("split", "count", "order", "undo", "confirm")


def _box_at(context: dict) -> str:
    where = context.get("box_at", "sheet")
    shown = {
        "split": context["can_enter"] and context["game"].sides == 2,
        "count": context["can_enter"] and context["game"].sides != 2,
        "order": context["can_enter"],
        "undo": context["can_undo"],
        "confirm": context["can_confirm"],
    }
    return where if shown.get(where) else "sheet"


def _render_sheet(request, game: Game, scorer: Scorer, *, status: int = 200, **extra):
    template = "scoring/game_sheet.html#sheet" if request.htmx else "scoring/game_sheet.html"
    context = _sheet_context(request, game, scorer, **extra)
    context["box_at"] = _box_at(context)
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _box(request, game: Game, scorer: Scorer, *, status: int, errors, where: str, **extra):
    """A refusal in plain words. With htmx only the box comes back, swapped in beside
    the form that was sent, so every tap the person made stays as it was; without it,
    the whole sheet with the box in place. An undo or a confirmation refused has no taps
    to keep, and may no longer be offered (the match went on, another phone confirmed):
    the whole sheet as it stands comes back, so no button stays that cannot work."""
    where = where if where in BOX_PLACES else "sheet"
    if request.htmx and where not in ("undo", "confirm"):
        # The line about the last change, "Deal 1 saved", goes: this one saved nothing.
        context = {"errors": errors, "box_alone": True, **extra}
        response = render(request, "scoring/game_sheet.html#box", context, status=status)
        response = reswap(retarget(response, f"#box-{where}"), "innerHTML")
        patch_vary_headers(response, ["HX-Request"])
        return response
    return _render_sheet(request, game, scorer, status=status, errors=errors, box_at=where, **extra)


def _link_closed(request, game: Game, scorer: Scorer, *, error: str, todo: str, where: str):
    """A tap on a sheet whose scorer link closed meanwhile: the reason beside what was
    tapped (the taps stay, to tell the organiser), and a button to the game as it stands
    now; the sheet's Save, Undo, Correct and Confirm go (the box partial deletes them).
    Without it the player was left looking at an old score and at buttons that no
    longer do anything, never seeing the result the organiser confirmed."""
    extra = {"sheet_url": game.get_absolute_url()} if request.htmx else {}
    return _box(request, game, scorer, status=403, errors=[error], where=where, todo=todo, **extra)


def _refuse_change(request, game: Game, scorer: Scorer, *, where: str):
    """A change this person may not make, said where they made it: their login ended,
    their scorer link was withdrawn or closed, or they may not score this game."""
    token = request.session.get(SESSION_LINKS, {}).get(str(game.pk))
    if token:
        link = ScorerLink.objects.filter(token=token, game=game).first()
        if game.is_confirmed:
            return _link_closed(
                request,
                game,
                scorer,
                error="This game is confirmed, so its scorer links are closed.",
                todo="If the result is wrong, ask the organiser to correct it.",
                where=where,
            )
        if link is None or not link.is_active:
            return _link_closed(
                request,
                game,
                scorer,
                error="The organiser has withdrawn your scorer link.",
                todo="Ask the organiser for a new link, or tell them the deal to enter.",
                where=where,
            )
        errors = ["Only the other side's own link, or an organiser, can confirm this result."]
        todo = "Ask the other side or the organiser to confirm it."
        return _box(request, game, scorer, status=403, errors=errors, where=where, todo=todo)
    if request.session.get(SESSION_LINKS) and not request.user.is_authenticated:
        return _box(
            request,
            game,
            scorer,
            status=403,
            errors=["Your scorer link is for another game, so you cannot change this one."],
            where=where,
            todo="Ask the organiser for this game's link.",
        )
    if not request.user.is_authenticated:
        sheet = game.get_absolute_url()
        if not request.htmx:
            return ask_to_log_in(request, back=sheet)
        return _box(
            request,
            game,
            scorer,
            status=403,
            errors=["Your login has ended."],
            where=where,
            todo="Log in again: you come back to this sheet with what you entered.",
            login_url=f"{reverse('login')}?{urlencode({'next': sheet})}",
        )
    return _box(
        request,
        game,
        scorer,
        status=403,
        errors=["You are not an organiser of this game's pub, so you cannot change it."],
        where=where,
        todo="Ask the league secretary if you should be.",
    )


def _said(game: Game, done: str) -> str:
    """One line in words after a change: what was done and the score ("Harbour Hearts
    15 – Cronin's Jinkers 10"); when the game ends, who won it and why; when the match
    ends, who won it and by how many games. Only the last reads anything more."""
    labels = _labels(game)
    scores = zip(labels, game.scores, strict=True)
    score = " – ".join(f"{label} {points}" for label, points in scores)
    line = f"{done}: {score}."
    if game.winner is not None:
        line += f" {labels[game.winner]} win game {game.number}: {game.reason}."
        if game.fixture_id:
            match = match_for(game.fixture)
            if match.result_text:  # the match is over: its teams as this game named them
                line += f" {match.named(_names(game.game_sides.all())).result_text}."
    return line


def _after_change(request, saved: Game, scorer: Scorer, done: str):
    """Post/redirect/get, the line in words as a message; with htmx, the fresh sheet in
    place with the line in the sheet's live region, the entry mode kept open. `saved`
    is the game as the service saved it: the line is made from it, not read again."""
    said = _said(saved, done)
    if request.htmx:
        fresh = _game(saved.pk)
        return _render_sheet(request, fresh, scorer, said=said, mode=request.POST.get("mode"))
    messages.success(request, said)
    return redirect(saved)


@require_safe
@_told_if_gone
def game_sheet(request, pk):
    game = _game(pk, Game.objects.select_related(*SHEET_RELATIONS))
    scorer = _scorer(request, game)
    if request.htmx and scorer.may_score:
        # A scoring phone's check for the other phone's saves: no sheet drawn while the
        # one it shows is current.
        tag = f'"{_sheet_tag(game, scorer)}"'
        unchanged = get_conditional_response(request, etag=tag)
        if unchanged is not None:
            unchanged["ETag"] = tag
            return unchanged
    prefetch_related_objects([game], "game_sides")
    # A second phone may score this game (a scorer link is out): each phone's sheet
    # looks for the other's saves and brings itself up to date (static/js/sheet.js).
    watch = (
        not request.htmx
        and scorer.may_score
        and (scorer.link is not None or game.scorer_links.filter(revoked_at__isnull=True).exists())
    )
    return _render_sheet(request, game, scorer, watch=watch)


def _tried(game: Game, form: DealForm) -> str:
    data = form.cleaned_data
    deal = rules.Deal(
        dealer=data["dealer"],
        tricks=data["tricks"],
        trick_winners=data["trick_winners"],
        bonus_side=data.get("bonus_side"),
    )
    return services.describe_deal(game, deal)


def _form_errors(form) -> list[str]:
    return list(dict.fromkeys(error for errors in form.errors.values() for error in errors))


def _attempt(change):
    """Run `change()`: what it returns, or the refusal it raises (a rule broken, a change
    refused), returned rather than raised so that a transaction around the attempt
    ends before the answer is drawn."""
    try:
        return change()
    except (rules.InvalidDeal, services.ScoringError) as refusal:
        return refusal


def _answer(request, game: Game, scorer: Scorer, outcome, *, tried, done, where, **extra):
    """The sheet's answer to what `_attempt` gave: a rule broken or a change refused as
    422 with its message, a stale game as the 409 conflict view showing what was tried
    (`tried()`, worked out only then). Done (a deal or a confirmation, with the game as
    saved), `done(outcome)` says what was done, in words."""
    if isinstance(outcome, rules.InvalidDeal):
        message = with_side_names(str(outcome), _labels(game)) + _trick_to_tap(request, outcome)
        return _box(request, game, scorer, status=422, errors=[message], where=where, **extra)
    if isinstance(outcome, services.StaleGame):
        current = _game(outcome.game.pk)
        return _render_sheet(
            request, current, scorer, status=409, conflict=str(outcome), tried=tried()
        )
    if isinstance(outcome, services.KeyReused):
        # The form itself is spent: a fresh sheet, with fresh forms.
        return _render_sheet(request, game, scorer, status=422, errors=[str(outcome)], **extra)
    if isinstance(outcome, services.ScoringError):
        return _box(request, game, scorer, status=422, errors=[str(outcome)], where=where, **extra)
    return _after_change(request, outcome.game, scorer, done(outcome))


def _trick_to_tap(request, error: rules.InvalidDeal) -> str:
    """Tricks tapped one by one that stop short of 5 where play goes on: the rules say
    the tricks add up to 4, not 5; the sheet says which trick to tap next."""
    tapped = sum(bool(request.POST.get(f"trick_{n}")) for n in range(1, 6))
    short = error.code == "wrong_trick_total" and ", not 5" in error.message
    if request.POST.get("mode") != "order" or not short or tapped >= 5:
        return ""
    return f" Tap who won trick {tapped + 1}."


def _sheet_change(request, game: Game, scorer: Scorer, change, **answer):
    """Run `change()` and answer as `_answer` does."""
    return _answer(request, game, scorer, _attempt(change), **answer)


@require_POST
@_told_if_gone
def deal_record(request, pk):
    try:
        return _deal_record(request, pk)
    except IntegrityError:
        # Lost a race that the database settled: the same key, or the same deal number,
        # saved by another phone a moment earlier. The transaction is rolled back; once
        # more finds what won: this deal saved (a retry), or a sheet gone stale.
        return _deal_record(request, pk)


def _deal_record(request, pk):
    """Record the next deal. The night's busiest POST, so it reads the game once: locked,
    in the transaction that writes the deal, with all the permission check, the form and
    the service need (`game_to_change`); the service writes against that same row
    (`locked=True`). On PostgreSQL 4 queries for an organiser or a secretary: the
    person, the game with their roles, its deals, and the writes as one statement
    (tests/scoring/test_queries.py). The answer is drawn after the commit, the row free
    again."""
    mode = request.POST.get("mode")
    with transaction.atomic():
        game = game_to_change(pk, request.user)
        if game is None:
            raise GameGone
        if hasattr(game, "roles"):  # read with the game (PostgreSQL)
            keep_roles(request, game.league_id, game.roles)
        scorer = _scorer(request, game)
        form = DealForm(request.POST, game=game)
        if scorer.may_score and form.is_valid():
            outcome = _attempt(
                lambda: services.deal_record(
                    game=game,
                    locked=True,
                    user=request.user,
                    link=scorer.link,
                    **form.deal_kwargs(),
                )
            )
    if not scorer.may_score:
        return _refuse_change(request, game, scorer, where=mode or "")
    if not form.is_valid():
        return _box(
            request, game, scorer, status=422, errors=_form_errors(form), where=mode, mode=mode
        )
    return _answer(
        request,
        game,
        scorer,
        outcome,
        tried=lambda: _tried(game, form),
        done=lambda deal: f"Deal {deal.number} saved",
        where=mode,
        mode=mode,
    )


def _as_entered(entered, name: str, stored: int | None) -> int | None:
    """A number as a refused form had it ("" for none), or as stored when it had none."""
    if name not in entered:
        return stored
    value = entered[name]
    return int(value) if value.isdigit() else None


@require_POST
@_told_if_gone
def deal_undo(request, pk):
    game = _game(pk)
    scorer = _scorer(request, game)
    if not scorer.may_score:
        return _refuse_change(request, game, scorer, where="undo")
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _box(
            request, game, scorer, status=422, errors=["Reload and try again."], where="undo"
        )
    version = form.cleaned_data["version"]
    return _sheet_change(
        request,
        game,
        scorer,
        lambda: services.deal_undo(game=game, version=version, user=request.user, link=scorer.link),
        tried=lambda: "Undo the last deal",
        done=lambda deal: f"Deal {deal.number} undone",
        where="undo",
    )


@require_http_methods(["GET", "HEAD", "POST"])
@_told_if_gone
def deal_correct(request, pk, number):
    game = _game(pk)
    scorer = _scorer(request, game)
    if not scorer.may_score or (game.is_confirmed and not scorer.manages):
        return _refuse(request)
    deal = game.deals.live().filter(number=number).first()
    if deal is None:
        return _deal_gone(request, game, number)
    # The form starts from the deal as it is; a refused one shows what was typed.
    entered = request.POST if request.method == "POST" else {}
    context = _correction(game, deal, entered)
    if request.method != "POST":
        return render(request, "scoring/deal_correct.html", context)
    form = CorrectionForm(request.POST, game=game)
    # A later deal corrected with this one, sent once the page has offered it.
    later = _later_deal(game, number, request.POST.get("later-number", ""))
    later_form = later and CorrectionForm(request.POST, game=game, prefix="later")
    if later:
        context["later"] = _correction_fields(game, later, entered, prefix="later-")
    # Sent once the page has said the correction ends the game before the deals after it.
    take_out = request.POST.get("take_out_later") == "yes"
    status, errors = 422, []
    if form.is_valid() and (not later or later_form.is_valid()):
        try:
            deal = services.deal_correct(
                game=game,
                number=number,
                reason=form.cleaned_data["reason"],
                user=request.user,
                link=scorer.link,
                later={"number": later.number, **later_form.deal_kwargs()} if later else None,
                take_out_later=take_out and not later,
                **form.deal_kwargs(),
            )
            said = game.events.filter(deal=deal).values_list("text", flat=True).last()
            messages.success(request, f"Correction saved. {said}. {_said(_game(pk), 'Score')}")
            return redirect(game)
        except rules.InvalidDeal as error:
            message = with_side_names(str(error), _labels(game))
            refused = _later_deal(game, number, str(error.deal_index + 1))
            if refused and not later and error.code != "game_over":
                # Each alone would be refused: the later deal is offered, to save with it.
                context["later"] = _correction_fields(game, refused, {}, prefix="later-")
                errors = [
                    f"With this correction, deal {refused.number} no longer fits. {message}",
                    f"Correct deal {refused.number} below too: the two are saved together.",
                ]
            elif early := _ends_early(game, number, error):
                errors, context["take_out"] = [early[0]], early[1]
            else:
                errors = [message]
        except services.StaleGame as stale:
            # Someone else changed the game: the form starts again from the deal as it
            # now is, so one more tap cannot save over their change unseen; what this
            # person typed is said, to enter again if it is still right.
            tricks = zip(context["sides"], form.cleaned_data["tricks"], strict=True)
            typed = " · ".join(f"{side.label} {count}" for side, count in tricks)
            status, errors = 409, [str(stale), f"You had entered: {typed}."]
            game = _game(stale.game.pk)
            deal = game.deals.live().filter(number=number).first()
            if deal is None:
                return _deal_gone(request, game, number)
            context = _correction(game, deal, {})
        except services.ScoringError as error:
            errors = [str(error)]
    else:
        errors = _form_errors(form) + (_form_errors(later_form) if later else [])
    return render(
        request, "scoring/deal_correct.html", {**context, "errors": errors}, status=status
    )


def _later_deal(game: Game, number: int, later: str) -> Deal | None:
    """The live deal numbered `later` (as sent), if it comes after deal `number`."""
    if not later.isdigit() or int(later) <= number:
        return None
    return game.deals.live().filter(number=int(later)).first()


def _ends_early(game: Game, number: int, error: rules.InvalidDeal) -> tuple[str, str] | None:
    """A correction that would end the game at deal `number`, with deals played after
    it: what to say (the rules speak of the later deal refused), and the deals that the
    next save takes out of the game, in words."""
    if error.code != "game_over" or error.deal_index < number:
        return None
    last = game.deals.live().order_by("-number").values_list("number", flat=True).first()
    if last == number + 1:
        later, played, kept = f"deal {last}", "was", "it stays"
    else:
        later, played, kept = f"deals {number + 1} to {last}", "were", "they stay"
    return (
        f"With this correction the game is over after deal {number}, but {later} {played} "
        f"played after it. Save again to take {later} out of the game with this "
        f"correction: {kept} in the game's record.",
        later,
    )


def _deal_gone(request, game: Game, number: int):
    """No live deal `number`: not found to open, but a correction sent after another
    phone undid the deal goes back to the game saying so."""
    if request.method != "POST":
        raise Http404("No such deal in this game.")
    messages.error(
        request,
        f"Deal {number} is no longer in the game: it was undone meanwhile. Nothing was saved.",
    )
    return redirect(game)


def _correction(game: Game, deal: Deal, entered) -> dict:
    """The correction page's context: the deal as stored (`stored`, what "The deal now
    reads" says), and the form's values, from what was `entered` where it was."""
    return {
        "league": game.league,
        "season": game.season,
        "game": game,
        "sides": list(game.game_sides.all()),
        "stored": deal.trick_counts,
        "bonus": game.ruleset.highest_trump_bonus > 0,
        "reason": entered.get("reason", ""),
        **_correction_fields(game, deal, entered),
    }


def _correction_fields(game: Game, deal: Deal, entered, prefix: str = "") -> dict:
    """One deal's fields on the correction page, named with `prefix`: as `entered`
    where they were sent, else as stored."""
    posted = entered if f"{prefix}mode" in entered else None
    bonus_side = _as_entered(entered, f"{prefix}bonus_side", deal.bonus_side)
    # "No trump played" is ticked only where it was the answer: a deal stopped before
    # trick 5 was never asked, and a form sent with no answer had none.
    if f"{prefix}bonus_side" in entered:
        answered = True
    elif posted is not None:
        answered = False
    else:
        answered = not (deal.trick_winners and len(deal.trick_winners) < 5)
    return {
        "deal": deal,
        "reads": services.describe_deal(game, deal),
        "key": uuid.uuid4(),
        "counts": {
            side: _as_entered(entered, f"{prefix}tricks_{side}", count)
            for side, count in enumerate(deal.trick_counts)
        },
        "dealer": _as_entered(entered, f"{prefix}dealer", deal.dealer),
        "bonus_choice": bonus_side if bonus_side is not None else "" if answered else None,
        # A deal entered trick by trick is corrected trick by trick: its order decides
        # who reached the target, so it is shown and kept.
        "order": _trick_rows(game, posted, deal, prefix),
    }


def _trick_rows(game: Game, posted, deal, prefix="") -> list[tuple[int, list[tuple]]] | None:
    """For a deal entered trick by trick: each trick with every side and whether it is
    the chosen winner (as posted, else as stored), and from trick 2 "Not played", so a
    correction can end a deal where play now stops. None for a deal entered by counts."""
    if not deal.trick_winners:
        return None
    labels = _labels(game)
    rows = []
    for trick in range(1, 6):
        if posted is not None:
            chosen = posted.get(f"{prefix}trick_{trick}", "")
        else:
            chosen = deal.trick_winners[trick - 1] if trick <= len(deal.trick_winners) else ""
        choices = [(i, label, str(i) == chosen) for i, label in enumerate(labels)]
        if trick > 1:  # play stops at the trick that takes a side to the target
            choices.append(("", "Not played", chosen == ""))
        rows.append((trick, choices))
    return rows


@asks_first
def game_remove(request, pk):
    """A game started by mistake taken back by an organiser or secretary, asked first."""
    game = game_for_sheet().filter(pk=pk).first()
    if game is None:  # a second tap, or Back to the question after "Yes": to its match
        messages.info(request, "That game was taken back already.")
        return redirect(_match_of_taken_back(request, pk) or "league:home")
    scorer = _scorer(request, game)
    if not scorer.manages:
        return _refuse(request)
    form = VersionForm(fields(request))
    if not form.is_valid():
        messages.error(request, "Reload and try again.")
        return redirect(game)
    version = form.cleaned_data["version"]
    if request.method != "POST":
        context = {"league": game.league, "season": game.season, "game": game, "version": version}
        return render(request, "scoring/game_remove.html", context)
    try:
        services.game_remove(game=game, version=version)
    except services.ScoringError as error:
        messages.error(request, f"{error} Nothing was changed.")
        return redirect(game)
    messages.success(request, f"Game {game.number} taken back: as if it was never started.")
    if game.fixture_id:
        where = (game.fixture_id, game.league.slug)
        cache.set(TAKEN_BACK.format(pk), where, timeout=7 * 24 * 3600)
        return redirect("scoring:fixture-play", game.fixture_id)
    return redirect("league:tonight", game.league.slug)


@require_POST
@_told_if_gone
def game_confirm(request, pk):
    game = _game(pk)
    scorer = _scorer(request, game)
    if not scorer.manages and (scorer.link is None or scorer.link.side is None):
        return _refuse_change(request, game, scorer, where="confirm")
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    return _sheet_change(
        request,
        game,
        scorer,
        lambda: services.game_confirm(
            game=game, version=version, user=request.user, link=scorer.link
        ),
        tried=lambda: "Confirm the result",
        done=lambda confirmation: "Result confirmed",
        where="confirm",
    )


@require_safe
@_told_if_gone
def game_record(request, pk):
    """Everyone sees who did what by role; those who run the pub see the login too."""
    game = _game(pk)
    events = list(game_events(game))
    deals = list(game.deals.select_related("entered_by", "entered_via"))
    people = {e.user for e in events if e.user} | {d.entered_by for d in deals if d.entered_by}
    roles = roles_in_league(game, {person.pk for person in people})
    manages = request_runs_pub(request, game.venue_id, game.league_id)
    who = {
        person.pk: f"{roles[person.pk]} ({person.username})" if manages else roles[person.pk]
        for person in people
    }
    number_links([event.link for event in events] + [deal.entered_via for deal in deals])
    for event in events:
        event.who = who.get(event.user_id, "")
    for deal in deals:
        deal.who = who.get(deal.entered_by_id, "")
    return render(
        request,
        "scoring/game_record.html",
        {
            "league": game.league,
            "season": game.season,
            "game": game,
            "events": events,
            "versions": [
                (deal, list(zip(_labels(game), deal.trick_counts, strict=False))) for deal in deals
            ],
            "labels": _labels(game),
        },
    )


# Scorer links


def _manager_only(request, game: Game):
    if not request_runs_pub(request, game.venue_id, game.league_id):
        return _refuse(request)
    return None


@require_http_methods(["GET", "HEAD", "POST"])
@_told_if_gone
def game_links(request, pk):
    game = _game(pk)
    refused = _manager_only(request, game)
    if refused:
        return refused
    errors = []
    if request.method == "POST":
        form = LinkForm(request.POST)
        if form.is_valid():
            try:
                link = services.link_create(
                    game=game, side=form.cleaned_data["side"], user=request.user
                )
                return redirect("scoring:link-detail", pk=game.pk, link_pk=link.pk)
            except services.ScoringError as error:
                errors = [str(error)]
        else:
            errors = ["Choose a side, or no side."]
    links = list(game.scorer_links.order_by("pk"))
    for number, link in enumerate(links, 1):
        link.number = number
    links = [link for link in links if link.is_active]
    return render(
        request,
        "scoring/game_links.html",
        {
            "league": game.league,
            "season": game.season,
            "game": game,
            "sides": list(game.game_sides.all()),
            "links": links,
            "errors": errors,
        },
        status=422 if errors else 200,
    )


@require_safe
def link_detail(request, pk, link_pk):
    game = _game(pk)
    refused = _manager_only(request, game)
    if refused:
        return refused
    link = get_object_or_404(game.scorer_links, pk=link_pk)
    url = request.build_absolute_uri(link.get_absolute_url())
    return render(
        request,
        "scoring/link_detail.html",
        {
            "league": game.league,
            "season": game.season,
            "game": game,
            "link": link,
            "url": url,
            "qr": qr_svg(url, title="QR code of the scorer link")
            if link.is_active and not game.is_confirmed
            else "",
            "side_label": link_whose(link.side, _labels(game)),
        },
    )


@asks_first
def link_revoke(request, pk, link_pk):
    """Withdraw a scorer link: the first tap asks (the button sits under the QR code a
    player is scanning, and the player's phone is cut off by it)."""
    game = _game(pk)
    refused = _manager_only(request, game)
    if refused:
        return refused
    link = get_object_or_404(game.scorer_links, pk=link_pk)
    labels = _labels(game)
    named = f"link {link.number} for {link_whose(link.side, labels)}"
    if not link.is_active:  # a second tap, or Back to the question after "Yes"
        messages.info(request, f"{capfirst(named)} is withdrawn already.")
        return redirect("scoring:game-links", pk=game.pk)
    if request.method != "POST":
        context = {
            "league": game.league,
            "season": game.season,
            "game": game,
            "link": link,
            "named": named,
        }
        return render(request, "scoring/link_revoke.html", context)
    services.link_revoke(link=link, user=request.user)
    messages.success(
        request,
        f"{capfirst(named)} withdrawn: the phone that scanned it can no longer enter deals.",
    )
    return redirect("scoring:game-links", pk=game.pk)


@require_safe
@never_cache  # the token is in the URL
def link_open(request, token):
    """A scanned QR code: keep the link in this person's session, then open the sheet.
    An address typed in capitals opens it too (links made since are in small letters;
    older ones, in both, are found as they are)."""
    link = get_by_token(ScorerLink.objects.select_related("game__league"), token)
    token = link.token
    game = _game(link.game_id)
    if not link.is_active or game.is_confirmed:
        why = "was withdrawn" if not link.is_active else "is closed: the game is confirmed"
        return render(
            request,
            "scoring/link_closed.html",
            {"league": game.league, "game": game, "why": why},
            status=403,
        )
    links = dict(request.session.get(SESSION_LINKS, {}))
    links[str(game.pk)] = token
    request.session[SESSION_LINKS] = links
    return redirect(game)


# Starting games


# Why a fixture's next game waits for more than a tap on Start: a postponed fixture
# waits for a new date (game_next refuses it too, under its lock); the first game of a
# fixture of a later day starts only when the organiser also ticks that they mean it, the
# tick carrying the date it was given for (a fixture of today, or a past one caught up,
# starts as it is).
POSTPONED, LATER_DAY = "postponed", "later-day"


def _held(fixture: Fixture, today) -> str | None:
    if fixture.status == Fixture.Status.POSTPONED:
        return POSTPONED
    if fixture.date > today and not fixture.games_started:
        return LATER_DAY
    return None


@require_http_methods(["GET", "HEAD", "POST"])
def fixture_play(request, fixture_pk):
    """A fixture's match: games won so far, the game in play, or start the next one."""
    fixture = get_object_or_404(
        Fixture.objects.select_related("season__league", "pub"), pk=fixture_pk
    )
    manages = request_runs_pub(request, fixture.pub, fixture.season.league)
    today = timezone.localdate()
    held = _held(fixture, today)
    errors, refused = [], False
    if request.method == "POST":
        if not manages:
            return _refuse(request)
        form = StartForm(request.POST)
        ticked = request.POST.get("not_today") == fixture.date.isoformat()
        refused = held == POSTPONED or (held == LATER_DAY and not ticked)
        if not refused and form.is_valid():
            try:
                game = services.game_next(
                    fixture=fixture,
                    number=form.cleaned_data["number"],
                    first_dealer=form.cleaned_data["first_dealer"],
                    user=request.user,
                )
                if game.first_dealer != form.cleaned_data["first_dealer"]:
                    dealer = services.side_labels(game)[game.first_dealer]
                    messages.info(
                        request,
                        f"Game {game.number} was started already, on another phone: "
                        f"{dealer} deals first.",
                    )
                return redirect(game)
            except (services.ScoringError, rules.UnsupportedSides) as error:
                errors = [str(error)]
        elif not refused:
            errors = _form_errors(form)
    match = match_for(fixture)
    prefetch_related_objects(match.games, "game_sides")
    to_confirm = set()
    if fixture.season.confirmed_only:  # the games won and not confirmed yet
        won = Game.objects.filter(fixture=fixture, winner__isnull=False, confirmation=None)
        to_confirm = set(won.values_list("pk", flat=True))
    return render(
        request,
        "scoring/fixture_play.html",
        {
            "league": fixture.season.league,
            "season": fixture.season,
            "fixture": fixture,
            "match": match,
            "to_confirm": to_confirm,
            "manages": manages,
            "held": held,
            "refused": refused,
            "today": today,
            "errors": errors,
            # A reader follows the match: the page refreshes itself until it is over.
            # The organiser's page, with its form to start the next game, is left alone.
            "follow": not manages
            and held != POSTPONED
            and bool(match.next_number or match.in_play),
        },
        status=422 if errors or refused else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def friendly_start(request, pub_pk):
    """Start a friendly at a pub: teams by name, or players for individual play."""
    pub = get_object_or_404(Pub.objects.select_related("league"), pk=pub_pk)
    if not request_runs_pub(request, pub, pub.league):
        return _refuse(request)
    season = pub.league.seasons.current()
    initial = {"ruleset": season.ruleset_key if season else "twenty-five"}
    form = FriendlyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        names = form.cleaned_data["names"]
        # Only the pub's own players are linked to a friendly: any other name is a free
        # text side, so a friendly never reaches the page of another pub's player.
        players = {p.name: p for p in pub.players.filter(name__in=names)}
        sides = [
            services.SideSpec(label=name, players=[players[name]] if name in players else [])
            for name in names
        ]
        with transaction.atomic():
            Pub.objects.select_for_update().filter(pk=pub.pk).first()  # one start at a time
            game = _friendly_just_started(pub, names)
            if game is not None:
                said = f"{' v '.join(names)} was started a moment ago: this is that game."
                messages.info(request, said)
                return redirect(game)
            game = services.game_start(
                season=None,
                league=pub.league,
                pub=pub,
                sides=sides,
                first_dealer=form.cleaned_data["first_dealer"] - 1,
                ruleset=rules.RULESETS[form.cleaned_data["ruleset"]],
                user=request.user,
            )
        return redirect(game)
    in_play = (
        Game.objects.filter(fixture__isnull=True, pub=pub, status=Game.Status.IN_PLAY)
        .prefetch_related("game_sides")
        .order_by("-created_at")[:10]
    )
    return render(
        request,
        "scoring/friendly_start.html",
        {"league": pub.league, "pub": pub, "form": form, "in_play": in_play},
        status=422 if form.errors else 200,
    )


def _friendly_just_started(pub: Pub, names: list[str]) -> Game | None:
    """A friendly of these sides at this pub, started in the last ten minutes, with no
    deal entered yet: the same start sent again (a double tap, or Back to the form still
    filled in and Start again), not a second game."""
    recent = Game.objects.filter(
        fixture__isnull=True,
        pub=pub,
        created_at__gte=timezone.now() - datetime.timedelta(minutes=10),
        deals__isnull=True,
    )
    for game in recent.prefetch_related("game_sides").order_by("-pk"):
        if [side.label for side in game.game_sides.all()] == names:
            return game
    return None


@require_safe
def no_connection(request):
    """What a phone shows, in the browser's own offline page's place, when a page or a
    form sent as a page (Next game, Confirm, Start game) cannot reach the site though the
    phone believes it is online (Wi-Fi with no internet behind it): kept on the phone
    with the sheet, and answered by the service worker (static/js/sw.js)."""
    return render(request, "scoring/no_connection.html")
