"""The snapshot cache is never stale (issue 30): on random schedules of the page's own work (timers,
intervals, animation frames, messages, fetches, chains; changes in the page and in same- and
cross-origin frames) interleaved with verdex commands, a plain `snapshot` equals `snapshot --fresh`
after every step (tests/cache_schedules.py).

CI runs VERDEX_CACHE_SCHEDULES schedules (default 12, about a minute); the full run is
`VERDEX_CACHE_SCHEDULES=1000 pytest tests/test_cache_property.py` (VERDEX_CACHE_SEED: the first seed)."""

from __future__ import annotations

import os

import pytest

from cache_schedules import Runner
from settle_server import SettleServer

SCHEDULES = int(os.environ.get("VERDEX_CACHE_SCHEDULES", "12"))
FIRST_SEED = int(os.environ.get("VERDEX_CACHE_SEED", "3000"))


@pytest.fixture(scope="module")
def site():
    srv = SettleServer()
    yield srv
    srv.stop()


def test_a_plain_snapshot_always_equals_a_fresh_one(driver, site):
    runner = Runner(driver, site.url("schedule.html"))
    refs = None
    for k, seed in enumerate(range(FIRST_SEED, FIRST_SEED + SCHEDULES)):
        if k % 25 == 0:
            refs = runner.open()  # a new document now and then; in between, each schedule goes on from the last
        runner.run(seed, refs=refs)
    print(f"{SCHEDULES} schedules, {runner.compared} comparisons ({runner.at_once} while work was under way)")
    assert runner.compared >= SCHEDULES * 6
