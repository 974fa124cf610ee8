"""
Who sits where at a card drive, game by game. Plain Python: no Django, no database.

Words:

- An **entry** is what the door takes in: a pair (a drive "with a partner") or one
  player (a drive "every player for themselves"). Entries are ints (their ids).
- A **side** plays as one at a table: an entry of a partners drive; at an individual
  drive two players who partner each other for this game only (tables of 4 or 6), or one
  player for themselves (tables of 3 or 5).
- A **table** has a number (1, 2, …) and its sides in seat order. A game's **seating** is
  its tables, all full, and its **sit-outs**: entries present but without a seat.
- The **movers** of a table are the winning side ("winners move, losers stay") or every
  other side ("losers move, winners stay"); the others are its **stayers**.

How each movement works, and where it comes from (shared/spec/card-drives.md and
shared/research/drives-offline-caching.md, part A):

1. **Game 1 is seated at random**, from a seeded shuffle, like Wentworth's score cards
   handed out with the table number face down. The same seed gives the same seating.
2. **Progressive, winners move up, losers stay** (Nova Scotia 45s: "winning teams rotate
   around the room, while the losers remain stationary. Winners always deal first"): after
   each game the winning side of table t goes to table t + 1; the winners of the top table
   go to table 1 (the room is a circle, as the 45s "around the room": the top table does
   not keep its winners). At a table of four (two pairs) one pair stays and one arrives;
   at a table of six (three pairs, Confey) the winning pair moves and the other two stay,
   as the spec says. The arriving pair sits first ("winners deal first").
3. **Progressive, losers move, winners stay** (the whist drive's "semi-partner": move
   only when you lose): every losing side of table t goes to table t + 1, the top table's
   to table 1; the winners stay.
4. **Partners** are kept all night at a partners drive. At an **individual** drive with
   tables of 4 or 6 the movers and stayers are then paired afresh at their new table,
   nobody with the partner of the game before (the progressive euchre ladder: "partners
   split at every move"); at tables of 3 or 5 everyone plays for themselves.
5. **Sit-outs** (the bridge "phantom pair": whoever meets it sits out, and a sit-out is
   never given an invented result): the tables are always full; the entries left over sit
   out. Whoever sat out the game before plays the next one, taking the seat of someone
   who then sits out: the one who has missed fewest games so far, a stayer before a
   mover, the lowest table first. A sit-out game counts no win. **Missed** games are the
   games an entry did not play, whatever the reason: sat out, not there yet (a late
   arrival's games before it came) or away (a leaver's, until it came back). So those
   who sit out are those who have *played* the most: a late arrival is not also sat out
   at its first game while someone there from the start, who has played more, plays it.
   However tables close or entries come and go, at equal counts last game's sit-outs
   play; those with no seat after the moves (new arrivals, the last to come in first, a
   closed table's players) sit out before anyone seated; then the order above.
6. **Late arrivals and early leavers** (Swiss tools: "add a late player to the current
   bye"; no restart): between games a leaver's seat is filled first by those waiting
   (last game's sit-outs, then new arrivals). When fewer are present than the tables
   need, the highest tables close and their players fill the holes below; when more come
   than wait, new tables open at the top. Games already played never change.

What a movement promises (tests/drives/test_movement.py checks each with Hypothesis):
every present entry is seated exactly once or sits out; every table is full; movers go
to the next table and stayers stay; nobody sits out a game while someone who has missed
fewer games (before it) plays it; at tables of four, with two tables or more, no two
pairs meet in two games running; at tables of six every table gets a new pair each game;
at an individual drive nobody keeps a partner from one game to the next.
"""

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

WINNERS_MOVE = "winners_move"
LOSERS_MOVE = "losers_move"


@dataclass(frozen=True)
class Plan:
    """How a drive seats people: entries at a table, entries to a side, who moves."""

    per_table: int
    side_size: int = 1
    movers: str = WINNERS_MOVE

    @classmethod
    def for_drive(cls, *, individual: bool, table_size: int, movement: str) -> "Plan":
        if individual:
            return cls(
                per_table=table_size, side_size=2 if table_size % 2 == 0 else 1, movers=movement
            )
        return cls(per_table=table_size // 2, side_size=1, movers=movement)


@dataclass(frozen=True)
class Table:
    number: int
    sides: tuple[tuple[int, ...], ...]

    @property
    def entries(self) -> tuple[int, ...]:
        return tuple(e for side in self.sides for e in side)


@dataclass(frozen=True)
class Seating:
    game: int
    tables: tuple[Table, ...]
    sit_outs: tuple[int, ...] = ()

    def seated(self) -> list[int]:
        return [e for table in self.tables for e in table.entries]

    def table_of(self, entry: int) -> int | None:
        for table in self.tables:
            if entry in table.entries:
                return table.number
        return None


def _sides(members: list[int], plan: Plan, last_partner: Mapping[int, int]) -> tuple:
    """Members of one table as sides; pairs chosen so nobody keeps last game's partner."""
    if plan.side_size == 1:
        return tuple((e,) for e in members)
    best = None
    for pairing in _pairings(members):
        repeats = sum(last_partner.get(a) == b for a, b in pairing)
        if best is None or repeats < best[0]:
            best = (repeats, pairing)
            if repeats == 0:
                break
    return tuple(best[1])


def _pairings(members: list[int]):
    if not members:
        yield []
        return
    first, rest = members[0], members[1:]
    for i, other in enumerate(rest):
        for tail in _pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def first_seating(entries: Iterable[int], *, plan: Plan, seed: int) -> Seating:
    """Game 1: a seeded shuffle; the first full tables play, the rest sit out."""
    order = sorted(entries)
    random.Random(seed).shuffle(order)
    count = len(order) // plan.per_table
    tables = tuple(
        Table(n + 1, _sides(order[n * plan.per_table : (n + 1) * plan.per_table], plan, {}))
        for n in range(count)
    )
    return Seating(1, tables, tuple(order[count * plan.per_table :]))


def next_seating(
    previous: Seating,
    *,
    winners: Mapping[int, int],
    present: Iterable[int],
    plan: Plan,
    missed: Mapping[int, int] | None = None,
) -> Seating:
    """The seating of the game after `previous`.

    `winners` maps each table number to the index of its winning side; `present` is
    everyone there for the next game (late arrivals in, leavers out); `missed` counts
    the games each entry has not played so far, sat out or not there (rule 5: who has
    missed fewest sits out next); an entry not in it has missed none.
    """
    present = set(present)
    missed = missed or {}
    count = len(previous.tables)
    # Movers of table i go to table i + 1 (the top table's to table 1).
    members: list[list[int]] = [[] for _ in range(count)]
    stayers: set[int] = set()
    for i, table in enumerate(previous.tables):
        won = winners[table.number]
        moving = [
            e
            for s, side in enumerate(table.sides)
            for e in side
            if (s == won) == (plan.movers == WINNERS_MOVE)
        ]
        staying = [e for e in table.entries if e not in moving]
        stayers.update(staying)
        members[i] += staying
        members[(i + 1) % count] = moving + members[(i + 1) % count]
    members = [[e for e in table if e in present] for table in members]
    waiting_before = [e for e in previous.sit_outs if e in present]
    known = set(previous.seated()) | set(previous.sit_outs)
    arrivals = sorted(present - known)
    total = sum(map(len, members)) + len(waiting_before) + len(arrivals)
    wanted = total // plan.per_table
    closed = [e for table in members[wanted:] for e in table]
    members = members[:wanted] + [[] for _ in range(wanted - len(members))]
    waiting = waiting_before + closed + arrivals
    for table in members:
        while len(table) < plan.per_table:
            table.append(waiting.pop(0))
    # Who sits out: those who have missed fewest games (rule 5); those still waiting who must
    # play take their seats.
    seats = {e: (n, pos) for n, table in enumerate(members) for pos, e in enumerate(table)}

    def turn(e: int) -> tuple:  # the lower, the sooner they sit out
        n, pos = seats[e] if e in seats else (-1, waiting.index(e))
        if e in arrivals:  # the last to come in first: the door told the first they play
            pos = -pos
        return (missed.get(e, 0), e in waiting_before, e in seats, e not in stayers, n, pos)

    out = set(sorted([*waiting, *seats], key=turn)[: len(waiting)])
    going = sorted((e for e in seats if e in out), key=turn)
    coming = [e for e in waiting if e not in out]
    for entry, leaving in zip(coming, going, strict=True):
        n, pos = seats[leaving]
        members[n][pos] = entry
        waiting[waiting.index(entry)] = leaving
    last_partner = {}
    for table in previous.tables:
        for side in table.sides:
            if len(side) == 2:
                last_partner[side[0]], last_partner[side[1]] = side[1], side[0]
    tables = tuple(
        Table(n + 1, _sides(table, plan, last_partner)) for n, table in enumerate(members)
    )
    return Seating(previous.game + 1, tables, tuple(waiting))


def opponents_and_partners(seatings: Iterable[Seating]):
    """For measuring variety: {entry: set of opponents}, {entry: set of partners}."""
    opponents: dict[int, set[int]] = {}
    partners: dict[int, set[int]] = {}
    for seating in seatings:
        for table in seating.tables:
            for side in table.sides:
                for e in side:
                    partners.setdefault(e, set()).update(x for x in side if x != e)
                    opponents.setdefault(e, set()).update(
                        x for other in table.sides if other is not side for x in other
                    )
    return opponents, partners
