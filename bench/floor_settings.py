"""The app's settings, with the deal's address answered by a floor (bench/floors.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floors"
