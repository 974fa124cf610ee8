"""The quick-start database holds up when a pub's phones all save at once."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sixteen_concurrent_writers_on_sqlite_never_see_database_is_locked(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'race.sqlite3'}",
        "DJANGO_DEBUG": "1",
    }
    result = subprocess.run(
        [sys.executable, "-m", "tests.reliability.sqlite_writers"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["errors"] == []
    # Tricks 1–4 twice: side 2 has 20, then 40, so every game ends after two deals.
    assert summary["deals"] == 16 * 2
