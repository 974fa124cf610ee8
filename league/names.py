"""Names as people type them on phones: one form for the same letters, and nothing hidden.

- `tidy`: Unicode NFC (so "Seán" typed with a combining accent is the same "Seán"),
  no spaces at the ends, single spaces inside.
- `name_problem`: a name holding invisible characters (zero-width spaces, joiners,
  bidirectional controls and other format or control characters) is refused: it would
  look the same as another name while being a different one, or reorder what a page
  shows around it.
- `as_named_now`: a game keeps the names its sides were played under (its sheet and
  record); the league's own lists of results (a fixture's games, a team's or player's
  recent games) name each side by its team's name now, beside tables that do, so a
  renamed team is never two teams on one page.
- The same name in any case ("ÁINE TEAM", "áine team") is the same name: the services
  compare `key`s, and the database holds unique constraints on `Lower(name)`. Lists
  sort by `unaccented` names, so a fada does not send a name to the end; the database
  sorts them alike (`league.models.ByName`).
"""

import re
import unicodedata

HIDDEN = ("Cf", "Cc", "Co", "Cs")


def tidy(text: str | None) -> str:
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def key(text: str) -> str:
    """The form two names are compared in: tidied, then case-folded."""
    return tidy(text).casefold()


def unaccented(text: str) -> str:
    """A name's `key` without its accents, to compare or sort by: "Áine" sits with the
    A's, not after "Tomás", and "Sean" is like "Seán"."""
    decomposed = unicodedata.normalize("NFD", key(text))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def loose(name: str) -> str:
    """A name as a phone or a spreadsheet may mangle it: no accents, no apostrophes of
    any kind (' ’ `), no spaces. "Nora Cronin’s" and "Nora Cronins" are "noracronins"."""
    return "".join(c for c in unaccented(name) if c.isalnum())


def name_problem(text: str, *, what: str = "name") -> str | None:
    """Why `text` cannot be a name, as a phrase ("the team's name “…” holds …"), or
    None."""
    visible = "".join(c for c in text if unicodedata.category(c) not in HIDDEN)
    if visible != text:
        return (
            f"the {what} “{tidy(visible)}” holds hidden characters (such as a zero-width "
            "space or a text-direction mark): type it again"
        )
    return None


def as_named_now(rows) -> dict[str, str]:
    """For one game's result rows (`SideResult`, each with its `team`), each side's name
    when the game was played (`label`) → its team's name now (the label itself for a
    side of no team, in a friendly)."""
    return {row.label: row.team.name if row.team_id else row.label for row in rows}


def renamed(text: str, names: dict[str, str]) -> str:
    """`text` (a game's reason, "Harbour Hearts reached 25") with each old name in
    `names` put as its new one: in one pass over every name, the longest first, so that
    a name inside another ("Aces" in "Aces High") is never taken for it, and none is
    changed twice."""
    olds = sorted((old for old, new in names.items() if old), key=len, reverse=True)
    if all(names[old] == old for old in olds):
        return text
    # Whole names only: "Aces" is not the start of "Races".
    pattern = r"(?<!\w)(?:" + "|".join(re.escape(old) for old in olds) + r")(?!\w)"
    return re.sub(pattern, lambda found: names[found.group(0)], text)
