"""
Services that change the league's records. Keyword-only, each in one transaction.

Every refusal is a `LeagueError` whose message a secretary can read; the views show it
next to the form and nothing is saved. Every change that shows on a public page moves
the league's content version on (`content_changed`) in the same transaction, so no
cached page is left stale; the standings are derived from the result rows with the
season's settings as they are, so nothing else needs counting again.

Where the database holds the same rule (unique names, one team per player per season)
an `IntegrityError` from a race is turned into the same kind of message.
"""

import datetime
import secrets
from collections.abc import Sequence
from itertools import chain, zip_longest

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone
from django.utils.text import slugify

import rules
from league.models import (
    Division,
    Fixture,
    FixtureTeam,
    Invite,
    League,
    Player,
    Pub,
    Season,
    Team,
    TeamMember,
)
from league.names import key, loose, name_problem, tidy, unaccented
from league.results import content_changed
from league.selectors import fixtures_with_teams, with_results
from league.standings import standings_derive


class LeagueError(Exception):
    """A change the league's rules refuse, with a message for the person asking."""


class TeamRefused(LeagueError):
    """A team refused for one mistake or more: `problems` holds a sentence for each, for
    a form to list one by one; the message is all of them in one sentence."""

    def __init__(self, problems: list[str]):
        super().__init__(_sentence(problems))
        self.problems = [_sentence([problem]) for problem in problems]


class ImportRefused(LeagueError):
    """An import with bad rows: `errors` holds one message per problem, with its line."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__(f"{len(errors)} row(s) need fixing; nothing was saved.")


def locked(queryset, pk):
    """The record `pk` of `queryset` read again, its row locked until the transaction
    ends: a form saved on top of it (league.forms.KeepsEditsMeanwhile) sees every change
    saved before its own, and no other save comes between."""
    return queryset.select_for_update(of=("self",)).get(pk=pk)


# Seasons and pubs ---------------------------------------------------------------------


def season_create(*, league: League, name: str, divisions: Sequence[str] = (), **fields) -> Season:
    """A new season of `league`. `fields` are Season fields (dates, rules, points, …)."""
    name = _new_name(name, what="season")
    slug = slugify(name)[:50]
    _check_season_fields(fields, start=fields.get("start_date"))
    names = _clean_names(divisions, what="division")
    try:
        with transaction.atomic():
            if league.seasons.filter(slug=slug).exists():
                raise LeagueError(f"This league already has a season called “{name}”.")
            _check_season_name_free(league.seasons.all(), name)
            season = Season(league=league, name=name, slug=slug, **fields)
            season.full_clean()
            season.save()
            Division.objects.bulk_create(Division(season=season, name=n) for n in names)
            content_changed(league_id=league.pk)
    except ValidationError as error:
        raise LeagueError(" ".join(error.messages)) from error
    except IntegrityError as error:
        raise LeagueError(f"This league already has a season called “{name}”.") from error
    return season


def season_update(*, season: Season, **fields) -> Season:
    """Change a season's dates, status, rules, points, tie-breaks and what counts. The
    tables follow at once: they are read with the settings as they are now. Games
    already started keep the rules they started with."""
    _check_season_fields(fields, start=fields.get("start_date", season.start_date))
    with transaction.atomic():
        if "name" in fields:
            fields["name"] = _name(fields["name"], what="season's name")
            _check_season_name_free(season.league.seasons.exclude(pk=season.pk), fields["name"])
        counting = fields.get("confirmed_only", season.confirmed_only) != season.confirmed_only
        for field, value in fields.items():
            setattr(season, field, value)
        try:
            season.full_clean(exclude=["league", "slug"])
        except ValidationError as error:
            raise LeagueError(" ".join(error.messages)) from error
        season.save()
        if counting:  # other games count now: the kept team rows follow
            standings_derive(season_id=season.pk)
        content_changed(league_id=season.league_id)
    return season


def _check_season_name_free(seasons, name: str) -> None:
    """Refuse a name another season has in any case (a renamed season keeps its
    address, so addresses alone do not tell). Compared in Python, as team names are."""
    if any(key(other) == key(name) for other in seasons.values_list("name", flat=True)):
        raise LeagueError(f"This league already has a season called “{name}”.")


def _check_season_fields(fields: dict, *, start) -> None:
    """The rules preset, tie-breaks and dates, checked before anything is saved."""
    ruleset_key = fields.get("ruleset_key", "twenty-five")
    if ruleset_key not in rules.RULESETS:
        raise LeagueError(f"Unknown rules preset “{ruleset_key}”.")
    unknown = [key for key in fields.get("tiebreaks") or [] if key not in Season.TIEBREAKS]
    if unknown:
        raise LeagueError(f"Unknown tie-break “{unknown[0]}”.")
    end = fields.get("end_date")
    if start and end and end < start:
        raise LeagueError("The season cannot end before it starts.")


def _name(text: str, *, what: str) -> str:
    """`text` tidied (see league.names), or a LeagueError saying what is wrong with it."""
    problem = name_problem(text, what=what)
    if problem:
        raise LeagueError(_sentence([problem]))
    return tidy(text)


NAME_MOST = 100  # characters in a league's, pub's or season's name, or a town (columns)


def name_refusal(text: str, *, what: str) -> str | None:
    """Why `text` cannot name a new `what` (league, pub or season), as a sentence, or
    None: hidden characters, too long, or no letter or number to make its web address
    of."""
    refusal = _text_refusal(text, what=f"{what}'s name")
    if refusal is None and not slugify(tidy(text)):
        return f"Give the {what} a name with at least one letter or number."
    return refusal


def town_refusal(town: str) -> str | None:
    """Why `town` cannot be a pub's town, as a sentence, or None."""
    return _text_refusal(town, what="town")


def _text_refusal(text: str, *, what: str) -> str | None:
    problem = name_problem(text, what=what)
    if problem:
        return _sentence([problem])
    if len(tidy(text)) > NAME_MOST:
        return f"The {what} is longer than {NAME_MOST} letters: it has {len(tidy(text))}."
    return None


def _new_name(text: str, *, what: str) -> str:
    """`text` tidied, or a LeagueError saying why it cannot name a new `what`."""
    refusal = name_refusal(text, what=what)
    if refusal:
        raise LeagueError(refusal)
    return tidy(text)


def _town(town: str) -> str:
    refusal = town_refusal(town)
    if refusal:
        raise LeagueError(refusal)
    return tidy(town)


def pub_create(*, league: League, name: str, town: str = "") -> Pub:
    name = _new_name(name, what="pub")
    slug = slugify(name)[:50]
    try:
        with transaction.atomic():
            same = league.pubs.filter(name__iexact=name).first()
            if same is not None:
                raise LeagueError(f"This league already has a pub called “{same.name}”.")
            _check_no_pub_alike(league.pubs.all(), name, tidy(town))
            same = league.pubs.filter(slug=slug).first()
            if same is not None:
                raise LeagueError(
                    f"“{name}” would have the same web address as {same.name}, a pub of the "
                    "league already: add the town to its name to tell the two apart."
                )
            pub = Pub.objects.create(league=league, name=name, slug=slug, town=_town(town))
            content_changed(league_id=league.pk)
            return pub
    except IntegrityError as error:
        raise LeagueError(f"This league already has a pub called “{name}”.") from error


def pub_update(*, pub: Pub, name: str, town: str = "") -> Pub:
    """A pub's name and town put right. Its address stays as it was: the screen on its
    wall and links already printed or shared keep working."""
    name = _name(name, what="pub's name")
    town = _town(town)
    taken = f"This league already has a pub called “{name}”."
    try:
        with transaction.atomic():
            others = pub.league.pubs.exclude(pk=pub.pk)
            same = others.filter(name__iexact=name).first()
            if same is not None:
                raise LeagueError(f"This league already has a pub called “{same.name}”.")
            _check_no_pub_alike(others, name, town)
            pub.name, pub.town = name, town
            pub.save(update_fields=["name", "town"])
            content_changed(league_id=pub.league_id)
    except IntegrityError as error:
        raise LeagueError(taken) from error
    return pub


def _check_no_pub_alike(pubs, name: str, town: str) -> None:
    """Refuse a pub's name that differs from another's only by accents, apostrophes or
    spaces: the two look the same in every menu, and an import row naming either
    would match neither (league.imports)."""
    alike = next((p for p in pubs if loose(p.name) == loose(name)), None)
    if alike is not None:
        raise LeagueError(pub_alike(name, town, alike.name, "a pub of the league already"))


def pub_alike(name: str, town: str, other: str, where: str) -> str:
    """What to say of a pub named like `other` (`where` says where that one is)."""
    example = f"“{name} ({town})”" if town else f"such as “{name} (Ennis)”"
    return (
        f"“{name}” looks like {other}, {where}: add the town to its name to tell the two "
        f"apart, {example}."
    )


# Teams and players --------------------------------------------------------------------


def _clean_names(names: Sequence[str], *, what: str) -> list[str]:
    """Tidied, non-empty names; the same name twice (any case) is refused."""
    cleaned = [_name(n, what=what) for n in names if tidy(n)]
    seen = set()
    for name in cleaned:
        if key(name) in seen:
            raise LeagueError(f"The same {what} “{name}” is named twice.")
        seen.add(key(name))
    return cleaned


def players_by_name(league: League, names: Sequence[str]) -> dict[str, Player]:
    """The league's players with these names (any case), keyed by `names.key`."""
    if not names:
        return {}
    found = Player.objects.filter(league=league, name__in=[tidy(n) for n in names])
    by_name = {key(p.name): p for p in found}
    if any(key(n) not in by_name for n in names):
        # A second look in Python: SQLite compares only ASCII letters without case,
        # and "Seán" must find "SEÁN" on every database.
        for player in Player.objects.filter(league=league):
            by_name.setdefault(key(player.name), player)
    return by_name


def team_problems(
    *,
    season: Season,
    name: str,
    player_names: Sequence[str],
    players: dict[str, Player],
    taken_players: dict[int, str],
) -> list[str]:
    """What is wrong with this team for this season, as messages (empty when all good).

    `players` maps `names.key`s to existing players; `taken_players` maps the ids of
    players already in a team of the season to that team's name."""
    problems = []
    named = [(name, "team's name"), *((n, "player's name") for n in player_names if n)]
    hidden = [problem for text, what in named if (problem := name_problem(text, what=what))]
    if hidden:
        return hidden
    name = tidy(name)
    if not name:
        problems.append("the team has no name")
    elif len(name) > 100:
        problems.append("the team's name is longer than 100 letters")
    names = [tidy(n) for n in player_names if tidy(n)]
    problems += [f"the name “{n[:20]}…” is longer than 100 letters" for n in names if len(n) > 100]
    if len(names) < 2:
        problems.append("a team needs 2 players (or 3 for six-hand)")
    elif len(names) > 3:
        problems.append("a team has at most 3 players")
    folded = [key(n) for n in names]
    for n in names:
        if folded.count(key(n)) > 1:
            known = players.get(key(n))  # named as the league knows them
            problems.append(f"the same player “{known.name if known else n}” is named twice")
            break
    for n in names:
        player = players.get(key(n))
        if player is not None and player.pk in taken_players:
            problems.append(
                f"{player.name} already plays for {taken_players[player.pk]} this season"
            )
        if player is None and (alike := _look_alike(n, players)):
            apart = f"add something to tell two people apart, such as a town: “{n} (Ennis)”"
            if alike.pk in taken_players:  # typing their name would be refused in turn
                problems.append(
                    f"“{n}” looks like {alike.name}, who plays for "
                    f"{taken_players[alike.pk]} this season: if this is someone else, {apart}"
                )
            else:
                problems.append(
                    f"“{n}” looks like {alike.name}, a player of the league already: type "
                    f"“{alike.name}” to mean them, or {apart}"
                )
    return problems


def _look_alike(name: str, players: dict[str, Player]) -> Player | None:
    """A player whose name differs from `name` only by its accents ("Seán Murphy" for
    "Sean Murphy"): most likely the same person, who as a new player would have their
    games split between two lines of the player table. `players` holds the whole
    league's when a name was not found (`players_by_name`)."""
    return next((p for p in players.values() if unaccented(p.name) == unaccented(name)), None)


def _team_name_taken(season: Season, name: str, pub: Pub, *, other_than: Team | None = None) -> str:
    """Why another team of the season has this name, or "": the same name in any case
    (compared in Python: SQLite's case-insensitive match knows only ASCII letters), or
    one that differs from it only by accents, apostrophes or spaces ("Thé Robbers",
    "TheRobbers" beside "The Robbers"), which no one could tell apart on a table."""
    teams = season.teams.exclude(pk=other_than.pk) if other_than else season.teams.all()
    others = list(teams.values_list("name", flat=True))
    if any(key(other) == key(name) for other in others):
        return f"there is already a team called “{name}” this season"
    alike = next((other for other in others if loose(other) == loose(name)), None)
    if alike is not None:
        return (
            f"“{name}” looks like “{alike}”, a team of this season already: add something "
            f"to tell the two apart, such as its pub: “{name} ({pub.name})”"
        )
    return ""


def _taken_players(season: Season) -> dict[int, str]:
    return dict(TeamMember.objects.filter(season=season).values_list("player_id", "team__name"))


def team_create(
    *,
    season: Season,
    name: str,
    pub: Pub,
    player_names: Sequence[str],
    division: Division | None = None,
) -> Team:
    """Enter a team for a season. Players are matched by name in the league, or created
    with this pub as their home pub."""
    name = tidy(name)
    if pub.league_id != season.league_id:
        raise LeagueError("That pub is not in this league.")
    if division is not None and division.season_id != season.pk:
        raise LeagueError("That division is not in this season.")
    try:
        with transaction.atomic():
            _check_still_open_locked(season, kept="no team is added")
            names = [tidy(n) for n in player_names if tidy(n)]
            players = players_by_name(season.league, names)
            problems = team_problems(
                season=season,
                name=name,
                player_names=names,
                players=players,
                taken_players=_taken_players(season),
            )
            if taken := _team_name_taken(season, name, pub):  # said with the rest, all at once
                problems.insert(0, taken)
            if problems:
                raise TeamRefused(problems)
            team = _team_save(
                season=season, name=name, pub=pub, names=names, players=players, division=division
            )
            content_changed(league_id=season.league_id)
            return team
    except IntegrityError as error:
        raise LeagueError(
            "Someone else changed these teams at the same moment; nothing was saved. "
            "Look at the teams again and retry."
        ) from error


def team_update(
    *,
    team: Team,
    name: str,
    pub: Pub,
    player_names: Sequence[str],
    division: Division | None = None,
) -> Team:
    """Rename a team, move it to another pub or division, or change its players.
    Games already played keep the players they were played by, and stay counted for
    the pub the team played for then; the team's later games count for its new pub.

    A player taken off the team who is named nowhere else (no other team, no game, no
    drive, no login), such as a name mistyped then put right, leaves the league's list
    of players; `team.players_gone` names them."""
    name = tidy(name)
    season = team.season
    if pub.league_id != season.league_id:
        raise LeagueError("That pub is not in this league.")
    if division is not None and division.season_id != season.pk:
        raise LeagueError("That division is not in this season.")
    if division != team.division:
        _check_still_open(season, kept="its teams stay in the divisions they finished in")
    try:
        with transaction.atomic():
            names = [tidy(n) for n in player_names if tidy(n)]
            players = players_by_name(season.league, names)
            taken = _taken_players(season)
            for player_id in list(team.members.values_list("player_id", flat=True)):
                taken.pop(player_id, None)
            problems = team_problems(
                season=season, name=name, player_names=names, players=players, taken_players=taken
            )
            if taken := _team_name_taken(season, name, pub, other_than=team):
                problems.insert(0, taken)
            if problems:
                raise TeamRefused(problems)
            team.name, team.pub, team.division = name, pub, division
            team.save()
            before = list(team.players.all())
            team.members.all().delete()
            for player_name in names:
                player = players.get(key(player_name))
                if player is None:
                    player = Player.objects.create(
                        league=season.league, name=player_name, home_pub=pub
                    )
                TeamMember.objects.create(team=team, player=player)
            team.players_gone = [player.name for player in before if _forgotten_if_unnamed(player)]
            content_changed(league_id=season.league_id)
            return team
    except IntegrityError as error:
        raise LeagueError(
            "Someone else changed these teams at the same moment; nothing was saved. "
            "Look at the team again and retry."
        ) from error


def _forgotten_if_unnamed(player: Player) -> bool:
    """Delete `player` if nothing names them: no team, game, drive entry or login. Every
    relation to Player is looked at, the other apps' included, without knowing them."""
    if player.user_id:
        return False
    for relation in Player._meta.get_fields(include_hidden=True):
        if relation.is_relation and relation.auto_created and not relation.concrete:
            rows = relation.related_model._default_manager.filter(**{relation.field.name: player})
            if rows.exists():
                return False
    player.delete()
    return True


def _lock_team_fixtures(team: Team) -> list[Fixture]:
    """The team's fixtures as they are now, locked in one statement (the fixtures alone:
    a game's start locks a fixture and then its season, so holding the season here while
    waiting on a fixture could deadlock with it)."""
    return list(Fixture.objects.select_for_update(of=("self",)).filter(fixture_teams__team=team))


def _lock_team(team: Team) -> None:
    """The team's row, locked after its fixtures (`team_remove`): a fixture being added
    for it (`_lock_teams`) is saved before this, or waits and finds the team gone."""
    Team.objects.select_for_update().filter(pk=team.pk).first()


def _lock_teams(teams: Sequence[Team]) -> set[int]:
    """Keep a match's teams from being removed (`team_remove`) until this transaction
    ends, taken last of a change's locks: the ids of those still there. A key-share lock,
    as the database's own foreign-key check takes one: two matches of a team are added
    at once, only a removal waits."""
    there = Team.objects.filter(pk__in=[team.pk for team in teams]).values_list("pk")
    if connection.vendor != "postgresql":  # SQLite: one writer at a time anyway
        return {pk for (pk,) in there}
    query, params = there.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"{query} FOR KEY SHARE", params)
        return {pk for (pk,) in cursor.fetchall()}


def _check_teams_still_there(teams: Sequence[Team]) -> None:
    there = _lock_teams(teams)
    for team in teams:
        if team.pk not in there:
            raise LeagueError(f"{team.name} was removed meanwhile: nothing was saved.")


def team_kept(team: Team) -> str:
    """Why a team with a game started is not removed (`team_remove`), in words."""
    return f"{team.name} has a game started, so it stays; its players can be changed."


def team_remove(*, team: Team) -> int:
    """A team entered by mistake taken off its season by a secretary, only while its
    season is open and no game of its matches has started; its fixtures go with it (a
    match without one of its teams is no match), its players stay in the league. Its
    fixtures are locked as a game's start locks them, so a game started meanwhile is
    never thrown away. Returns how many fixtures went with it."""
    with transaction.atomic():
        fixtures = _lock_team_fixtures(team)
        if any(fixture.games_started for fixture in fixtures):
            raise LeagueError(team_kept(team))
        # The season as it is now, not locked: a fixture being added holds it, and waits
        # for the team's lock (`_lock_teams`) to find the team gone.
        _check_still_open(Season.objects.get(pk=team.season_id), kept=f"{team.name} stays")
        _lock_team(team)
        if set(team.fixtures.values_list("pk", flat=True)) != {f.pk for f in fixtures}:
            raise LeagueError(
                f"A fixture of {team.name} was added meanwhile, so nothing was removed. "
                "Look at the team again."
            )
        Fixture.objects.filter(pk__in=[fixture.pk for fixture in fixtures]).delete()
        try:
            team.delete()
        except ProtectedError as error:  # a side in a game of no fixture
            raise LeagueError(f"{team.name} has played, so it stays.") from error
        content_changed(league_id=team.season.league_id)
    return len(fixtures)


def player_update(*, player: Player, name: str, home_pub: Pub | None) -> Player:
    """Correct a player's name or home pub."""
    name = _name(name, what="player's name")
    if not name:
        raise LeagueError("Give the player a name.")
    if home_pub is not None and home_pub.league_id != player.league_id:
        raise LeagueError("That pub is not in this league.")
    try:
        with transaction.atomic():
            others = Player.objects.filter(league_id=player.league_id).exclude(pk=player.pk)
            by_name = {key(other.name): other for other in others.only("name")}
            if key(name) in by_name:
                raise LeagueError(f"There is already a player called “{name}” in this league.")
            if alike := _look_alike(name, by_name):
                raise LeagueError(
                    f"“{name}” looks like {alike.name}, a player of the league already: add "
                    f"something to tell two people apart, such as a town: “{name} (Ennis)”."
                )
            player.name, player.home_pub = name, home_pub
            player.save(update_fields=["name", "home_pub"])
            content_changed(league_id=player.league_id)
            return player
    except IntegrityError as error:
        raise LeagueError(f"There is already a player called “{name}” in this league.") from error


def _team_save(*, season, name, pub, names, players, division) -> Team:
    team = Team.objects.create(season=season, name=name, pub=pub, division=division)
    for player_name in names:
        player = players.get(key(player_name))
        if player is None:
            player = Player.objects.create(league=season.league, name=player_name, home_pub=pub)
            players[key(player_name)] = player
        TeamMember.objects.create(team=team, player=player)
    return team


def _sentence(problems: list[str]) -> str:
    text = "; ".join(problems)
    return text[0].upper() + text[1:] + "."


def teams_import(*, season: Season, rows: Sequence[dict]) -> list[Team]:
    """Save every row of an import, or none. `rows` are as `imports.read_table` gives
    them; they are checked again here, inside the transaction, since the teams may have
    changed since the preview."""
    from league.imports import check_rows

    try:
        with transaction.atomic():
            _check_still_open_locked(season, kept="no team is added")
            checked, errors = check_rows(season, rows)
            if errors:
                raise ImportRefused(errors)
            names = [n for row in checked for n in row.players]
            players = players_by_name(season.league, names)
            teams = [
                _team_save(
                    season=season,
                    name=row.team,
                    pub=row.pub,
                    names=list(row.players),
                    players=players,
                    division=row.division,
                )
                for row in checked
            ]
            content_changed(league_id=season.league_id)
            return teams
    except IntegrityError as error:
        raise LeagueError(
            "Someone else changed these teams at the same moment; nothing was saved. "
            "Upload the file again."
        ) from error


# Fixtures -----------------------------------------------------------------------------


def round_robin(teams: list, *, double: bool = False) -> list[list[tuple]]:
    """Rounds of pairings by the circle method: every team meets every other once
    (twice with `double`, home and away swapped). With an odd count one team sits
    out each round (a bye)."""
    slots = list(teams) + ([None] if len(teams) % 2 else [])
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            home, away = slots[i], slots[n - 1 - i]
            if home is None or away is None:
                continue
            # Each other team passes once through every slot, so the left one at home
            # gives everyone an even share; the fixed team alternates round by round.
            if i == 0 and r % 2:
                home, away = away, home
            pairs.append((home, away))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        rounds += [[(away, home) for home, away in pairs] for pairs in rounds]
    return rounds


def _division_groups(teams: list[Team]) -> list[list[Team]]:
    """The teams in round-robin groups: one a division, by name, then the teams with no
    division; all the teams in one group, in their order, when none has a division."""
    groups: dict[int | None, list[Team]] = {}
    for team in teams:
        groups.setdefault(team.division_id, []).append(team)
    for group in groups.values():
        if len(group) == 1:
            (team,) = group
            if team.division_id is None:
                raise LeagueError(
                    f"{team.name} is in no division, and the only team without one, so it "
                    "would have no one to play. Put it in a division."
                )
            raise LeagueError(
                f"{team.division.name} has only one team, {team.name}, so it would have no "
                f"one to play. Add another team to {team.division.name}, or move {team.name} "
                "to another division."
            )

    def by_name(group: list[Team]) -> tuple[bool, str]:
        division = group[0].division
        return (division is None, division.name if division else "")

    return sorted(groups.values(), key=by_name)


RESULTS_STAY = (
    "{season} already has results, so its fixtures are not generated again: a team that "
    "joined since gets its matches one at a time, with Add a fixture."
)


def fixtures_generate(
    *,
    season: Season,
    start: datetime.date,
    double: bool = False,
    games_planned: int = 5,
    teams: list[Team] | None = None,
) -> list[Fixture]:
    """Build a season's round-robin: one fixture a team a week from `start`, at the
    home team's pub. With divisions, a round-robin within each division (the teams with
    no division are a group of their own), every division's round N in week N, so a
    smaller division finishes sooner. Replaces fixtures not yet played; refuses to run
    over results."""
    if not 1 <= games_planned <= 50:
        raise LeagueError("A fixture plans from 1 to 50 games.")
    with transaction.atomic():
        _check_still_open_locked(season, kept=NO_FIXTURE_ADDED)
        existing = Fixture.objects.for_season(season).select_for_update()
        if with_results(existing).exists():
            raise LeagueError(RESULTS_STAY.format(season=season.name))
        teams = list(teams if teams is not None else season.teams.select_related("pub", "division"))
        if len(teams) < 2:
            raise LeagueError("A round-robin needs at least two teams.")
        schedules = [round_robin(group, double=double) for group in _division_groups(teams)]
        existing.delete()
        pairs, fixtures = [], []
        nights = zip_longest(*schedules, fillvalue=[])
        for number, rounds in enumerate(nights, start=1):
            date = start + datetime.timedelta(weeks=number - 1)
            for home, away in chain.from_iterable(rounds):
                pairs.append((home, away))
                fixtures.append(
                    Fixture(
                        season=season,
                        pub=home.pub,
                        date=date,
                        round=number,
                        games_planned=games_planned,
                    )
                )
        # Written in two statements, whatever the size of the league.
        fixtures = Fixture.objects.bulk_create(fixtures)
        FixtureTeam.objects.bulk_create(
            FixtureTeam(fixture=fixture, team=team, seat=seat)
            for fixture, teams in zip(fixtures, pairs, strict=True)
            for seat, team in enumerate(teams)
        )
        content_changed(league_id=season.league_id)
        return fixtures


def _lock_season(season: Season) -> Season:
    """The season as it is now, locked until the transaction ends. Fixtures are added to
    a season one at a time, and moved with their season locked (`_lock_fixture`), so that
    the check for a match entered twice sees every other change."""
    return Season.objects.select_for_update().get(pk=season.pk)


def _check_fixture_teams(season: Season, teams: Sequence[Team]) -> None:
    if len(teams) not in (2, 3):
        raise LeagueError("A fixture is between 2 teams (or 3, for tables of six).")
    if len({t.pk for t in teams}) != len(teams):
        raise LeagueError("A team cannot play against itself.")
    if any(t.season_id != season.pk for t in teams):
        raise LeagueError("Every team must be entered for this season.")


def _lock_fixture(fixture: Fixture) -> Fixture:
    """The fixture as it is now, it and its season locked until the transaction ends,
    in one statement as a game's start locks them (`scoring.services.game_next`): what
    is checked here stays true, and the two never wait on each other crosswise."""
    return Fixture.objects.select_for_update().select_related("season").get(pk=fixture.pk)


def _check_entered_once(
    season: Season, date: datetime.date, team_ids: set[int], fixture: Fixture | None = None
) -> None:
    """The same teams on the same night is the same match (two taps on Add fixture, or one
    added again by hand): refused, naming the one there is."""
    others = season.fixtures.filter(date=date)
    if fixture is not None:
        others = others.exclude(pk=fixture.pk)
    for other in fixtures_with_teams(others):
        if {ft.team_id for ft in other.fixture_teams.all()} == team_ids:
            raise LeagueError(
                f"{other} is already on {date:%A} {date.day} {date:%B %Y}: a match is entered once."
            )


def fixture_create(
    *,
    season: Season,
    pub: Pub,
    date: datetime.date,
    teams: Sequence[Team],
    games_planned: int = 5,
) -> Fixture:
    """One fixture by hand: the home team first, 2 or 3 teams."""
    _check_fixture_teams(season, teams)
    if pub.league_id != season.league_id:
        raise LeagueError("That pub is not in this league.")
    if not 1 <= games_planned <= 50:
        raise LeagueError("A fixture plans from 1 to 50 games.")
    with transaction.atomic():
        _check_still_open_locked(season, kept=NO_FIXTURE_ADDED)
        _check_teams_still_there(teams)
        _check_entered_once(season, date, {team.pk for team in teams})
        last_round = season.fixtures.order_by("-round").values_list("round", flat=True).first()
        fixture = Fixture.objects.create(
            season=season,
            pub=pub,
            date=date,
            round=(last_round or 0) + 1,
            games_planned=games_planned,
        )
        FixtureTeam.objects.bulk_create(
            FixtureTeam(fixture=fixture, team=team, seat=seat) for seat, team in enumerate(teams)
        )
        content_changed(league_id=season.league_id)
    return fixture


def fixture_update(
    *,
    fixture: Fixture,
    date: datetime.date,
    status: str,
    pub: Pub | None = None,
    games_planned: int | None = None,
    teams: Sequence[Team] | None = None,
) -> Fixture:
    """Move a fixture or change its status; a secretary may also re-plan it, move it to
    another pub or re-pair it (`None` keeps what it has). Its teams stay fixed once a
    game is played, and its status follows its games (see `_check_fixture_status`).
    A fixture moved to another pub takes its games with it: they were played (or are
    played) there, and that pub's organisers look after them."""
    pub = pub or fixture.pub
    if pub.league_id != fixture.season.league_id:
        raise LeagueError("That pub is not in this league.")
    if status not in Fixture.Status.values:
        raise LeagueError(f"Unknown fixture status “{status}”.")
    if games_planned is not None and not 1 <= games_planned <= 50:
        raise LeagueError("A fixture plans from 1 to 50 games.")
    with transaction.atomic():
        fixture = _lock_fixture(fixture)
        games_planned = fixture.games_planned if games_planned is None else games_planned
        _check_fixture_status(fixture, status)
        games = fixture.games_started
        if games_planned < games:
            raise LeagueError(
                f"This fixture already has {games} games; it cannot plan fewer ({games_planned})."
            )
        current = list(fixture.fixture_teams.values_list("team_id", flat=True))
        if teams is not None:
            _check_fixture_teams(fixture.season, teams)
        new_teams = current if teams is None else [t.pk for t in teams]
        if games and date != fixture.date and date > timezone.localdate():
            raise LeagueError(
                "A game of this fixture has been played, so its date cannot be after today."
            )
        if date != fixture.date or new_teams != current:
            _check_entered_once(fixture.season, date, set(new_teams), fixture)
        if new_teams != current:
            if games:
                raise LeagueError(
                    "Games have been played in this fixture, so its teams cannot change."
                )
            _check_teams_still_there(teams)
            fixture.fixture_teams.all().delete()
            FixtureTeam.objects.bulk_create(
                FixtureTeam(fixture=fixture, team=team, seat=seat)
                for seat, team in enumerate(teams)
            )
        was_played = fixture.status == Fixture.Status.PLAYED
        fixture.pub, fixture.date = pub, date
        fixture.games_planned, fixture.status = games_planned, status
        fixture.save()
        if games and was_played != (status == Fixture.Status.PLAYED):
            # A fixture counts as won once it is played: its teams' kept rows follow.
            teams = fixture.fixture_teams.values_list("team_id", flat=True)
            standings_derive(season_id=fixture.season_id, team_ids=list(teams))
        content_changed(league_id=fixture.season.league_id)
    return fixture


def _check_fixture_status(fixture: Fixture, status: str) -> None:
    """No "played" without a finished game, no "postponed" once a game is started."""
    if status == fixture.status:
        return
    if status == Fixture.Status.PLAYED and not fixture.games_finished:
        raise LeagueError(
            "This fixture has no finished game yet, so it cannot be marked played; "
            "it is marked played by itself when its games are finished."
        )
    if status == Fixture.Status.POSTPONED and fixture.games_started:
        raise LeagueError(fixture_not_postponed(fixture))


def fixture_not_postponed(fixture: Fixture) -> str:
    """Why a fixture with a game started is not postponed, in words."""
    if fixture.status == Fixture.Status.PLAYED:
        return f"{fixture} has been played, so it cannot be postponed."
    return f"{fixture} has a game started, so it cannot be postponed."


def fixture_postpone(*, fixture: Fixture) -> Fixture:
    if fixture.status == Fixture.Status.PLAYED:
        raise LeagueError(fixture_not_postponed(fixture))
    with transaction.atomic():
        fixture = _lock_fixture(fixture)
        _check_fixture_status(fixture, Fixture.Status.POSTPONED)
        fixture.status = Fixture.Status.POSTPONED
        fixture.save(update_fields=["status"])
        content_changed(league_id=fixture.season.league_id)
    return fixture


def fixture_kept(fixture: Fixture) -> str:
    """Why a fixture with a game started is not removed (`fixture_remove`), in words."""
    return f"{fixture} has a game started, so it stays; it can be moved or re-planned."


def fixture_remove(*, fixture: Fixture) -> None:
    """A fixture entered by mistake taken off its season by a secretary, only while no
    game of it has started: under its lock, which a game's start takes too, so a game
    started meanwhile is never thrown away with it."""
    with transaction.atomic():
        locked = _lock_fixture(fixture)
        if locked.games_started:
            raise LeagueError(fixture_kept(fixture))
        locked.delete()
        content_changed(league_id=fixture.season.league_id)


def fixture_delete(*, fixture: Fixture) -> None:
    """Delete a fixture with its games and their results (the database cascades to
    them); the tables no longer count them."""
    with transaction.atomic():
        season_id, league_id = (
            Fixture.objects.filter(pk=fixture.pk)
            .values_list("season_id", "season__league_id")
            .get()
        )
        teams = list(fixture.fixture_teams.values_list("team_id", flat=True))
        fixture.delete()
        standings_derive(season_id=season_id, team_ids=teams)
        content_changed(league_id=league_id)


# Organisers ---------------------------------------------------------------------------


NOT_IN_LEAGUE = (
    "No one in this league has that username. To make a new login, give an initial "
    "password as well."
)


def _league_accounts(league: League):
    """The logins already in `league`: its secretaries, the organisers of its pubs and
    the logins of its players."""
    return (
        get_user_model()
        .objects.filter(
            Q(leagues_run=league) | Q(pubs_organised__league=league) | Q(player__league=league)
        )
        .distinct()
    )


def organiser_add(*, pub: Pub, username: str, password: str = ""):
    """Give `pub` to a login already in its league (no password), or to a new login made
    with this initial password. Returns the user.

    A login of another league and a name nobody has get the same answer
    (`NOT_IN_LEAGUE`), so a secretary learns nothing about other leagues' logins."""
    User = get_user_model()
    username = username.strip()
    if not username:
        raise LeagueError("Give a username.")
    with transaction.atomic():
        if password:
            if User.objects.filter(username__iexact=username).exists():
                raise LeagueError(
                    f"The username “{username}” is taken. Choose another for a new login, "
                    "or leave the password empty to give the pub to someone of this league."
                )
            user = _user_create(username=username, password=password)
        else:
            user = _league_accounts(pub.league).filter(username__iexact=username).first()
            if user is None:
                raise LeagueError(NOT_IN_LEAGUE)
            if not user.is_active:
                raise LeagueError(f"The account “{user.username}” is switched off.")
        pub.organisers.add(user)
    return user


def _user_create(*, username: str, password: str):
    User = get_user_model()
    try:
        User._meta.get_field("username").run_validators(username)
        validate_password(password, user=User(username=username))
    except ValidationError as error:
        raise LeagueError(" ".join(error.messages)) from error
    try:
        with transaction.atomic():
            return User.objects.create_user(username, password=password)
    except IntegrityError as error:
        raise LeagueError(f"The username “{username}” is taken.") from error


def organiser_remove(*, pub: Pub, user) -> None:
    with transaction.atomic():
        pub.organisers.remove(user)


# Sign-up and a new league ----------------------------------------------------------------


def account_create(*, email: str, password: str):
    """A new login whose username is its email address (lower case). Django's password
    validators decide whether the password will do."""
    User = get_user_model()
    email = User.objects.normalize_email(email.strip()).lower()
    if not email or "@" not in email:
        raise LeagueError("Give your email address.")
    if len(email) > 150:
        raise LeagueError("That email address is longer than 150 characters.")
    try:
        validate_password(password, user=User(username=email, email=email))
    except ValidationError as error:
        raise LeagueError(" ".join(error.messages)) from error
    taken = (
        f"There is already a login for {email}. Log in, or use “Forgotten your password?” "
        "on the login page."
    )
    try:
        with transaction.atomic():
            if User.objects.filter(Q(username__iexact=email) | Q(email__iexact=email)).exists():
                raise LeagueError(taken)
            return User.objects.create_user(email, email=email, password=password)
    except IntegrityError as error:
        raise LeagueError(taken) from error


def league_create(
    *,
    user,
    name: str,
    slug: str,
    pubs: Sequence[tuple[str, str]],
    season: dict,
) -> League:
    """A new league run by `user`, with its first pubs (name, town) and its first season
    (`season` holds season_create's fields). All of it, or nothing."""
    name = _new_name(name, what="league")
    slug = slug.strip().lower()
    if not pubs:
        raise LeagueError("Give at least one pub.")
    taken = League.address_taken(slug)  # checked again here: a league made meanwhile
    try:
        with transaction.atomic():
            if League.objects.filter(slug=slug).exists():
                raise LeagueError(taken)
            league = League(name=name, slug=slug)
            try:
                league.full_clean()
            except ValidationError as error:
                raise LeagueError(" ".join(error.messages)) from error
            league.save()
            league.secretaries.add(user)
            for pub_name, town in pubs:
                pub_create(league=league, name=pub_name, town=town)
            season_create(league=league, **season)
    except IntegrityError as error:
        raise LeagueError(taken) from error
    return league


# Invitations and roles -------------------------------------------------------------------


INVITE_REFUSED = {
    "missing": "This invitation link is not valid. Ask the secretary for a new one.",
    "other_league": "This invitation is for another league. Ask the secretary for a new one.",
    "used": "This invitation has been used already. Ask the secretary for a new one.",
    "revoked": "The secretary has withdrawn this invitation. Ask them for a new one.",
    "expired": "This invitation is more than 7 days old and no longer works. "
    "Ask the secretary for a new one.",
}


def invite_create(
    *, league: League, created_by, role: str, pubs: Sequence[Pub] = (), email: str = ""
) -> Invite:
    """A single-use link that gives `role` in `league` (for these pubs, for an organiser)
    to whoever accepts it within 7 days; only to `email`'s login when it is set."""
    if role not in Invite.Role.values:
        raise LeagueError("Choose organiser or secretary.")
    pubs = list(pubs)
    if any(pub.league_id != league.pk for pub in pubs):
        raise LeagueError("Choose pubs of this league.")
    if role == Invite.Role.ORGANISER and not pubs:
        raise LeagueError("Choose at least one pub for the organiser.")
    if role == Invite.Role.SECRETARY:
        pubs = []
    now = timezone.now()
    with transaction.atomic():
        invite = Invite.objects.create(
            league=league,
            role=role,
            email=email.strip().lower(),
            token=secrets.token_urlsafe(24),
            created_by=created_by,
            created_at=now,
            expires_at=now + Invite.LIFETIME,
        )
        invite.pubs.set(pubs)
    return invite


def invite_email(*, invite: Invite, url: str) -> None:
    """Send the invitation's link to its email address."""
    what = (
        "organise " + ", ".join(pub.name for pub in invite.pubs.all())
        if invite.role == Invite.Role.ORGANISER
        else "be a secretary"
    )
    send_mail(
        subject=f"You are invited to {what} in the {invite.league.name}",
        message=(
            f"Hello,\n\nYou are invited to {what} in the {invite.league.name}.\n\n"
            f"Open this link to accept (it works once, for 7 days):\n\n{url}\n\n"
            "If you have no login yet, the page lets you make one with this email address.\n"
        ),
        from_email=None,
        recipient_list=[invite.email],
    )


def _invite_refusal(invite, *, league_slug: str, now) -> str | None:
    if invite is None:
        return INVITE_REFUSED["missing"]
    if invite.league.slug != league_slug:
        return INVITE_REFUSED["other_league"]
    state = invite.state(now)
    return None if state == "open" else INVITE_REFUSED[state]


def invite_check(*, token: str, league_slug: str) -> tuple[Invite | None, str | None]:
    """The invitation behind a link and, when it cannot be accepted, why (a read)."""
    invite = Invite.objects.select_related("league").filter(token=token).first()
    return invite, _invite_refusal(invite, league_slug=league_slug, now=timezone.now())


def invite_accept(*, token: str, league_slug: str, user) -> Invite:
    """Give the invitation's role to `user`, once. The invitation row is locked so two
    people accepting the same link at once cannot both get the role."""
    with transaction.atomic():
        invite = (
            Invite.objects.select_for_update(of=("self",))
            .select_related("league")
            .filter(token=token)
            .first()
        )
        refusal = _invite_refusal(invite, league_slug=league_slug, now=timezone.now())
        if refusal:
            raise LeagueError(refusal)
        if invite.email and invite.email != (user.email or "").lower():
            raise LeagueError(
                f"This invitation was sent to {invite.email}, and you are logged in as "
                f"{user.get_username()}. Log out, then open the link again and log in or "
                "sign up with that address."
            )
        if invite.role == Invite.Role.SECRETARY:
            invite.league.secretaries.add(user)
        else:
            for pub in invite.pubs.all():
                pub.organisers.add(user)
        invite.used_at = timezone.now()
        invite.used_by = user
        invite.save(update_fields=["used_at", "used_by"])
    return invite


def invite_revoke(*, invite: Invite) -> Invite:
    with transaction.atomic():
        invite = Invite.objects.select_for_update().get(pk=invite.pk)
        if invite.used_at:
            raise LeagueError("This invitation has been accepted already; remove the role instead.")
        if not invite.revoked_at:
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
    return invite


def secretary_remove(*, league: League, user) -> None:
    """Take `user`'s secretary role away; a league always keeps one secretary."""
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)
        if not league.secretaries.filter(pk=user.pk).exists():
            raise LeagueError(f"{user.get_username()} is not a secretary of this league.")
        if league.secretaries.count() == 1:
            raise LeagueError("A league needs a secretary: invite another before you go.")
        league.secretaries.remove(user)


# Closing a season and its divisions --------------------------------------------------------


def season_close(*, season: Season) -> Season:
    """The season is over: its status becomes finished (its tables stay as they are)."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.status == Season.Status.FINISHED:
            raise LeagueError(f"{season.name} is closed already.")
        season.status = Season.Status.FINISHED
        season.save(update_fields=["status"])
        content_changed(league_id=season.league_id)
    return season


NO_FIXTURE_ADDED = "no fixture is added"


def closed_refusal(season: Season, *, kept: str) -> str:
    """What a closed season says to a change that would reshape its final table."""
    return (
        f"{season.name} is finished, so its final table stands: {kept}. To change it, "
        f"set {season.name} back to Running on its Edit page, then to Finished again."
    )


def _check_still_open(season: Season, *, kept: str) -> None:
    """A closed season's final table stands: what would reshape it (its divisions, its
    teams, a team moved between divisions) waits until the secretary sets the season
    running again."""
    if season.status == Season.Status.FINISHED:
        raise LeagueError(closed_refusal(season, kept=kept))


def _check_still_open_locked(season: Season, *, kept: str) -> None:
    """`_check_still_open` on the season as it is now, locked until the transaction ends:
    a close in another tab (`season_close`) waits for this change, or this sees it."""
    _check_still_open(_lock_season(season), kept=kept)


def division_create(*, season: Season, name: str) -> Division:
    _check_still_open(season, kept="no division is added")
    name = _name(name, what="division's name")
    if len(name) > 50:
        raise LeagueError("A division name has at most 50 characters.")
    taken = f"{season.name} already has a division called “{name}”."
    try:
        with transaction.atomic():
            if any(key(d.name) == key(name) for d in season.divisions.all()):
                raise LeagueError(taken)
            division = Division.objects.create(season=season, name=name)
            content_changed(league_id=season.league_id)
    except IntegrityError as error:
        raise LeagueError(taken) from error
    return division


def division_delete(*, division: Division) -> None:
    """Remove a division; its teams stay in the season without one."""
    _check_still_open(division.season, kept=f"the division {division.name} stays")
    with transaction.atomic():
        league_id = division.season.league_id
        division.delete()
        content_changed(league_id=league_id)
