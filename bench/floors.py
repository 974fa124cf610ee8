"""Floors for the deal POST: what a POST of this design costs at the least, measured on
the same server and load as the app's own (`bench.floor_settings` serves this URLconf).

`BENCH_FLOOR` picks what answers the deal's address, `/games/<id>/deals/`:

- `logged-in`: a POST by someone logged in that writes nothing: their session and user
  read, the CSRF token checked, a message and a redirect, as the deal POST answers.
- `statements`: that, the deal form read and the deal scored by the rules, and the deal
  POST's own seven statements, written out by hand and run in one transaction: the game
  locked, who may score it, its deals and the key, the deal written, the game's totals,
  the league's version, the record's line. No model objects, no checks between them.
- `two-trips`: as `statements`, with those seven in two: one read (the game locked, who
  may score it, its deals and the key) and one write (the deal, the game's totals, the
  league's version and the record's line as one PostgreSQL `WITH`). The fewest trips to
  the database a deal scored in Python can take, at the price of the write in SQL that
  only PostgreSQL runs.
- `two-trips-news`: as `two-trips`, and the news of the change as the app gives it
  (`league.results.pages_changed`: once committed, the league's new published version
  set in Redis and announced to every app server, before the answer goes out). A deal
  POST of this design must give it: the visitor's pages (1.2x hello) and their 304s are
  answered from each server's memory only because every change is announced. So this is
  the fewest trips any deal POST of this design can take.

None is ever part of the app: the bench's server alone loads this module.
"""

import os

from django.contrib import messages
from django.db import connection, transaction
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_POST

import rules
from config.urls import urlpatterns as app_urlpatterns
from league.models import Fixture, League
from league.permissions import ORGANISERS, ROLES, SECRETARIES
from league.results import pages_changed
from scoring.forms import DealForm
from scoring.models import Deal, Game, GameEvent

GAME, DEAL, EVENT = Game._meta.db_table, Deal._meta.db_table, GameEvent._meta.db_table
LOCKED_GAME = f"""
    SELECT game.league_id, game.pub_id, fixture.pub_id, game.version, game.sides
      FROM {GAME} game LEFT JOIN {Fixture._meta.db_table} fixture ON fixture.id = game.fixture_id
     WHERE game.id = %s FOR UPDATE OF game
"""
DEALS = f"SELECT id, number, live, dealer, tricks, key FROM {DEAL} WHERE game_id = %s OR key = %s"
NEW_DEAL = f"""
    INSERT INTO {DEAL} (game_id, number, version, live, dealer, tricks, trick_winners, key,
                        entered_by_id, created_at)
    VALUES (%s, 1, 1, true, %s, %s, '', %s, %s, now()) RETURNING id
"""
TOTALS = f"UPDATE {GAME} SET scores = %s, version = version + 1 WHERE id = %s"
VERSION = f"""
    UPDATE {League._meta.db_table} SET content_version = content_version + 1
     WHERE id = %s RETURNING slug
"""
LINE = f"""
    INSERT INTO {EVENT} (game_id, kind, user_id, deal_id, text, created_at)
    VALUES (%s, 'deal', %s, %s, %s, now())
"""

# The same seven, as two statements.
READ = f"""
    SELECT game.league_id, game.version, game.sides,
           EXISTS (SELECT 1 FROM {SECRETARIES}
                    WHERE league_id = game.league_id AND user_id = %(user)s)
        OR EXISTS (SELECT 1 FROM {ORGANISERS}
                    WHERE pub_id = coalesce(fixture.pub_id, game.pub_id) AND user_id = %(user)s),
           ARRAY(SELECT concat_ws(' ', deal.number, deal.live, deal.dealer, deal.tricks, deal.key)
                   FROM {DEAL} deal WHERE deal.game_id = game.id OR deal.key = %(key)s)
      FROM {GAME} game LEFT JOIN {Fixture._meta.db_table} fixture ON fixture.id = game.fixture_id
     WHERE game.id = %(game)s FOR UPDATE OF game
"""
WRITE = f"""
    WITH deal AS (
        INSERT INTO {DEAL} (game_id, number, version, live, dealer, tricks, trick_winners,
                            key, entered_by_id, created_at)
        VALUES (%(game)s, 1, 1, true, %(dealer)s, %(tricks)s, '', %(key)s, %(user)s, now())
        RETURNING id
    ), totals AS (
        UPDATE {GAME} SET scores = %(scores)s, version = version + 1 WHERE id = %(game)s
    ), content AS (
        UPDATE {League._meta.db_table} SET content_version = content_version + 1
         WHERE id = %(league)s RETURNING slug
    )
    INSERT INTO {EVENT} (game_id, kind, user_id, deal_id, text, created_at)
    SELECT %(game)s, 'deal', %(user)s, deal.id, %(text)s, now() FROM deal
    RETURNING (SELECT slug FROM content)
"""


class _TwoSides:
    sides = 2


def _posted_deal(request) -> tuple:
    """The logged-in user, the key and the deal of a deal POST, read by the app's form."""
    user = request.user
    assert user.is_authenticated
    form = DealForm(request.POST, game=_TwoSides())
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    return user, str(data["key"]), rules.Deal(dealer=data["dealer"], tricks=tuple(data["tricks"]))


@require_POST
def logged_in(request, pk):
    assert request.user.is_authenticated
    messages.success(request, "Deal 1 saved: Harbour Hearts 15 – The Robbers 10.")
    return redirect(f"/games/{pk}/")


@require_POST
def statements(request, pk):
    user, key, deal = _posted_deal(request)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(LOCKED_GAME, [pk])
        league_id, pub_id, fixture_pub_id, _version, sides = cursor.fetchone()
        cursor.execute(ROLES, {"user": user.pk, "league": league_id})
        assert {None, fixture_pub_id or pub_id} & {pub for (pub,) in cursor.fetchall()}
        cursor.execute(DEALS, [pk, key])
        cursor.fetchall()
        result = rules.score_game(rules.RULESETS["twenty-five"], sides=sides, deals=[deal])
        tricks = "".join(str(t) for t in deal.tricks)
        cursor.execute(NEW_DEAL, [pk, deal.dealer, tricks, key, user.pk])
        deal_id = cursor.fetchone()[0]
        cursor.execute(TOTALS, [f"[{result.scores[0]}, {result.scores[1]}]", pk])
        cursor.execute(VERSION, [league_id])
        cursor.fetchone()
        cursor.execute(LINE, [pk, user.pk, deal_id, f"Deal 1: {tricks}"])
    messages.success(request, "Deal 1 saved: Harbour Hearts 15 – The Robbers 10.")
    return redirect(f"/games/{pk}/")


def _two_trips(request, pk) -> str:
    """The deal written in two trips; the league's address."""
    user, key, deal = _posted_deal(request)
    with connection.cursor() as cursor:
        cursor.execute(READ, {"game": pk, "user": user.pk, "key": key})
        league_id, _version, sides, may_score, _deals = cursor.fetchone()
        assert may_score
        result = rules.score_game(rules.RULESETS["twenty-five"], sides=sides, deals=[deal])
        tricks = "".join(str(t) for t in deal.tricks)
        cursor.execute(
            WRITE,
            {
                "game": pk,
                "dealer": deal.dealer,
                "tricks": tricks,
                "key": key,
                "user": user.pk,
                "scores": f"[{result.scores[0]}, {result.scores[1]}]",
                "league": league_id,
                "text": f"Deal 1: {tricks}",
            },
        )
        return cursor.fetchone()[0]


@require_POST
def two_trips(request, pk):
    with transaction.atomic():
        _two_trips(request, pk)
    messages.success(request, "Deal 1 saved: Harbour Hearts 15 – The Robbers 10.")
    return redirect(f"/games/{pk}/")


@require_POST
def two_trips_news(request, pk):
    with transaction.atomic():
        pages_changed(_two_trips(request, pk))
    messages.success(request, "Deal 1 saved: Harbour Hearts 15 – The Robbers 10.")
    return redirect(f"/games/{pk}/")


FLOORS = {
    "logged-in": logged_in,
    "statements": statements,
    "two-trips": two_trips,
    "two-trips-news": two_trips_news,
}

urlpatterns = [
    path("games/<int:pk>/deals/", FLOORS[os.environ.get("BENCH_FLOOR", "logged-in")]),
    *app_urlpatterns,
]
