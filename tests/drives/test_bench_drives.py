"""bench/drives.py at a small size: the leaderboard, the wall screen and one result cost
the same queries at the last game as at the first."""

import pytest

from bench import drives as bench_drives
from drives.models import Drive

pytestmark = pytest.mark.django_db


def test_a_small_bench_drive_keeps_its_query_counts_as_it_grows():
    figures = bench_drives.measure(seed=25, pairs=24, games=4, repeats=3)
    assert figures["results"] == 12 * 4 and figures["finished"]
    first, last = figures["leaderboard_queries"]
    assert first == last == 1
    first, last = figures["wall_queries"]
    assert first == last and figures["wall_status"] == [200]
    first, last = figures["result_queries"]
    assert first == last
    verdicts = figures["verdicts"]
    assert verdicts["leaderboard_queries_constant"] and verdicts["wall_queries_constant"]
    assert verdicts["result_queries_constant"] and verdicts["every_result_entered"]
    assert figures["result_ms_median"] > 0 and figures["select1_ms_median"] > 0
    assert not Drive.objects.exists()  # the bench cleans up after itself
