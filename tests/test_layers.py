"""Dependencies run one way: scoring/ uses league/, both use rules/; league/ imports
nothing from scoring/ and reads none of its tables (not even by reverse relations).
drives/ uses league/ too, and drives/ and scoring/ import nothing from each other (a
league's data file finds drives' tables through its app config, not by name)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def python_files(app: str) -> list[Path]:
    return [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]


LEAGUE = python_files("league")
# Reverse relations from league's models into scoring's tables.
SCORING_RELATIONS = re.compile(r"\.(games|game_sides|scorer_links)\b|\bgames__|\bgame_sides__")


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def imports_from(paths: list[Path], app: str) -> dict[str, list[str]]:
    """{file: the modules of `app` it imports}, for the files that import any."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if m == app or m.startswith(f"{app}.")
        )
        for path in paths
    }
    return {k: v for k, v in offenders.items() if v}


def test_league_imports_nothing_from_scoring():
    assert imports_from(LEAGUE, "scoring") == {}


def test_drives_imports_nothing_from_scoring():
    assert imports_from(python_files("drives"), "scoring") == {}


def test_scoring_imports_nothing_from_drives():
    assert imports_from(python_files("scoring"), "drives") == {}


def test_league_reads_no_scoring_table_through_a_reverse_relation():
    paths = LEAGUE + list((ROOT / "templates" / "league").glob("*.html"))
    found = {
        str(path.relative_to(ROOT)): SCORING_RELATIONS.findall(path.read_text()) for path in paths
    }
    assert {k: v for k, v in found.items() if v} == {}
