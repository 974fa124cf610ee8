"""Names as people type them on phones: one form for the same letters, and nothing hidden.

- `tidy`: Unicode NFC (so "Seán" typed with a combining accent is the same "Seán"),
  no spaces at the ends, single spaces inside.
- `name_problem`: a name holding invisible characters (zero-width spaces, joiners,
  bidirectional controls and other format or control characters) is refused: it would
  look the same as another name while being a different one, or reorder what a page
  shows around it.
- The same name in any case ("ÁINE TEAM", "áine team") is the same name: the services
  compare `key`s, and the database holds unique constraints on `Lower(name)`.
"""

import unicodedata

HIDDEN = ("Cf", "Cc", "Co", "Cs")


def tidy(text: str | None) -> str:
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def key(text: str) -> str:
    """The form two names are compared in: tidied, then case-folded."""
    return tidy(text).casefold()


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
