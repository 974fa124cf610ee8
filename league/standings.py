"""
Standings rows, kept in step with the games.

scoring/ describes a finished game as a GameOutcome (plain data, so league/ never
imports scoring/) and calls `standings_game_changed` in the same transaction as the
deal, correction or confirmation that changed it: the old outcome is taken away and
the new one added.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class SideOutcome:
    team_id: int | None
    pub_id: int | None
    player_ids: tuple[int, ...]
    points_for: int
    points_against: int
    won: bool
    marches: int
    shutout_win: bool


@dataclass(frozen=True)
class GameOutcome:
    season_id: int
    fixture_id: int | None
    confirmed: bool
    sides: tuple[SideOutcome, ...]


def standings_game_changed(*, before: GameOutcome | None, after: GameOutcome | None) -> None:
    """Take `before` out of the kept rows and put `after` in."""
    # The kept rows arrive with the standings issue (#6).
