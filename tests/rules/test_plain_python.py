"""rules/ is plain Python: importing it, and every module in it, loads no Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import importlib, pkgutil, sys
import rules
for module in pkgutil.iter_modules(rules.__path__):
    importlib.import_module(f"rules.{module.name}")
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
print(loaded)
"""


def test_importing_rules_in_a_fresh_interpreter_loads_no_django():
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "[]"
