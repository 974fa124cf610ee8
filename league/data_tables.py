"""
How a table of a league's data file (scoring/league_data.py) is described, so that an
app scoring must not import (drives) can still put its tables in the file.

- A **table** is one CSV: its model, its columns, and the league's rows of it.
- A **column** has a kind, which says how a value is written and read back, or is a
  **reference** (`R`) to a row of a table above it, by that row's number.
- An app adds tables by naming a tuple of them on its AppConfig:
  `league_data_tables = "drives.league_data.TABLES"`. They follow the league's own
  tables in the file, in INSTALLED_APPS order.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.apps import apps
from django.db import models
from django.utils.module_loading import import_string

# The kinds of column: how a value is written, and read back.
TEXT, INT, BOOL, DATE, TIME, JSON, PERSON = "text", "int", "bool", "date", "time", "json", "person"
DECIMAL = "decimal"


@dataclass(frozen=True)
class Column:
    name: str  # the CSV column and, unless `ref`, the model's field
    kind: str = TEXT
    ref: str = ""  # the table a reference points into ("pubs"), else ""
    null: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    model: type[models.Model]
    columns: tuple[Column, ...]
    rows: Callable  # league -> QuerySet in the order the rows were made
    # What the file does not hold, for the import to add:
    league: bool = False  # the row's `league` is the new league
    fill: Callable[[], dict] | None = None  # fields made afresh for each row (new secrets)
    stamped: tuple[str, ...] = ()  # times `auto_now` sets on insert: the file's put back
    # What the import checks beyond columns and references:
    checked: bool = False  # each row against its model's own rules, as the admin does
    check: Callable[[dict], str | None] | None = None  # the row's problem in words, or None
    since: int = 1  # the first format version whose files hold this table

    @property
    def file(self) -> str:
        return f"{self.name}.csv"

    @property
    def header(self) -> list[str]:
        return ["id", *(c.name for c in self.columns)]


def C(name, kind=TEXT, **extra) -> Column:
    return Column(name, kind, **extra)


def R(name, table, null=False) -> Column:
    return Column(name, INT, ref=table, null=null)


def app_tables() -> tuple[Table, ...]:
    """The tables installed apps add to a league's data file (see above)."""
    return tuple(
        table
        for config in apps.get_app_configs()
        if getattr(config, "league_data_tables", None)
        for table in import_string(config.league_data_tables)
    )
