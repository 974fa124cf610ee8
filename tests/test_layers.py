"""Dependencies run one way: scoring/ uses league/, both use rules/; league/ imports
nothing from scoring/ and reads none of its tables (not even by reverse relations)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEAGUE = [p for p in (ROOT / "league").rglob("*.py") if "migrations" not in p.parts]
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


def test_league_imports_nothing_from_scoring():
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if m == "scoring" or m.startswith("scoring.")
        )
        for path in LEAGUE
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_league_reads_no_scoring_table_through_a_reverse_relation():
    paths = LEAGUE + list((ROOT / "templates" / "league").glob("*.html"))
    found = {
        str(path.relative_to(ROOT)): SCORING_RELATIONS.findall(path.read_text()) for path in paths
    }
    assert {k: v for k, v in found.items() if v} == {}
