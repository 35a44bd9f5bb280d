"""A pool of remote browsers serving several verdex runs at once: Selenium Grid (and Browserless).

Starts Selenium Grid 4.48.0 standalone (``--max-sessions N --override-max-sessions true``) and, when
installed, Browserless 2.42.0 (``./dev services`` installs both), and the demo site. Then, per service:
one ``verdex run --connect URL`` alone, and ``--concurrent`` (default 4) at once, each its own process
doing open + wait + snapshot + click in the demo's nested cross-origin frame + snapshot. For Grid each
run first gets its own session (``POST /session``, timed apart) and connects to its ``se:cdp`` URL;
for Browserless each run's socket starts its own browser (counted in the run's time).

    python benchmarks/bench_pool.py [--concurrent 4] [--runs 3] [--grid-only | --browserless-only]

Prints wall time per run and in total (medians over --runs rounds), and the machine's limits.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import harness as h
from remote_services import Browserless, Grid, available

ROOT = h.ROOT

FAILURES: list[str] = []  # runs that did not end with the leaf clicked (kept out of nothing: timed too)
COMMANDS = ['wait button:"Leaf button"', "snapshot", 'click button:"Leaf button"', "snapshot"]


def one_run(url: str, page: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "verdex_cli", "run", "--json", "--timeout", "60", "--connect",
                           url, page, *COMMANDS], capture_output=True, text=True, env=env, timeout=600)
    took = time.monotonic() - start
    last = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    if proc.returncode != 0 or "Leaf clicked" not in last.get("result", {}).get("text", ""):
        failed = [json.loads(line) for line in proc.stdout.splitlines() if '"ok": false' in line]
        what = f"{failed[0]['command']}: {failed[0]['error']['message']}" if failed else proc.stderr[-200:]
        FAILURES.append(f"{took:.1f} s, {what}")
    return took


def round_of(n: int, urls: list[str], page: str) -> tuple[list[float], float]:
    start = time.monotonic()
    with ThreadPoolExecutor(n) as pool:
        times = list(pool.map(lambda u: one_run(u, page), urls))
    return times, time.monotonic() - start


def grid_round(grid: Grid, n: int, page: str) -> tuple[list[float], float, float]:
    """n Grid sessions created at once (timed), then n verdex runs at once; sessions deleted after."""
    start = time.monotonic()
    with ThreadPoolExecutor(n) as pool:
        made = list(pool.map(lambda _: grid.new_session(), range(n)))
    create = time.monotonic() - start
    try:
        times, total = round_of(n, [url for _, url in made], page)
    finally:
        for sid, _ in made:
            grid.delete_session(sid)
    return times, total, create


def report(name: str, alone: list[float], per_run: list[list[float]], totals: list[float], n: int,
           extra: str = "") -> None:
    one = statistics.median(alone)
    flat = sorted(t for r in per_run for t in r)
    total = statistics.median(totals)
    failed, FAILURES[:] = list(FAILURES), []
    if failed:
        extra += f"; FAILED runs ({len(failed)}): " + " | ".join(failed)
    print(f"{name}: one run alone {one:.2f} s; {n} at once: per run {flat[0]:.2f}-{flat[-1]:.2f} s "
          f"(median {statistics.median(flat):.2f}), all {n} done in {total:.2f} s "
          f"= {total / one:.2f}x one run for {n}x the work{extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--concurrent", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--grid-only", action="store_true")
    ap.add_argument("--browserless-only", action="store_true")
    args = ap.parse_args()
    n = args.concurrent
    print(f"machine: {os.cpu_count()} cores; {n} concurrent verdex runs, {args.runs} rounds; "
          f"each: open frames.html, {', '.join(COMMANDS)}")
    with h.served() as demo:
        pools(args, demo.url("frames.html"))


def pools(args, page: str) -> None:
    """Grid, then Browserless: each skipped with the reason when it is not installed."""
    n = args.concurrent
    why = available("grid") or ("not asked for" if args.browserless_only else None)
    if why:
        print("Selenium Grid skipped:", why)
    else:
        grid = Grid(max_sessions=n)
        try:
            grid_round(grid, 1, page)  # warm-up (JIT, page cache)
            alone, creates1 = [], []
            for _ in range(args.runs):
                times, _, create = grid_round(grid, 1, page)
                alone += times
                creates1.append(create)
            per_run, totals, creates = [], [], []
            for _ in range(args.runs):
                times, total, create = grid_round(grid, n, page)
                per_run.append(times)
                totals.append(total)
                creates.append(create)
            report(f"Selenium Grid 4.48.0 (--max-sessions {n})", alone, per_run, totals, n,
                   f"; POST /session: {statistics.median(creates1):.2f} s for one, "
                   f"{statistics.median(creates):.2f} s for {n} at once (not in the run times)")
        finally:
            grid.stop()
    why = available("browserless")
    if args.grid_only:
        return
    if why:
        print("Browserless skipped:", why)
        return
    # room for browsers that outlive their socket (Browserless 2.42 keeps some until TIMEOUT)
    service = Browserless("bench-token", concurrent=4 * n)
    try:
        one_run(service.url(), page)  # warm-up
        alone = [one_run(service.url(), page) for _ in range(args.runs)]
        per_run, totals = [], []
        for _ in range(args.runs):
            times, total = round_of(n, [service.url()] * n, page)
            per_run.append(times)
            totals.append(total)
        time.sleep(2)
        report("Browserless 2.42.0 (a browser per socket, its start in each run)", alone, per_run, totals, n,
               f"; browsers still running 2 s after the last run: {len(service.browsers())} "
               f"of {args.runs * (n + 1) + 1}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()
