"""The long truth-fuzzer run: seeded actions over generated sites, each judged by the pages' oracle.

    .venv/bin/python benchmarks/truth_fuzz.py --actions 5000 [--seed N] [--chunk 500] [--timeout 1.5]

The actions run in chunks (seed N, N+1, ...: each chunk a fresh tab on a fresh generated site), in
one launched headless Chromium. Prints the counts of correct / refused correctly / wrong record /
false ok / false failure / false refusal / hang / unverified and of ref strings that named two elements, then every
case that is not correct (seed, action index, command, result summary and the page's log lines: its
events with the record each reached, and its settled state), each chunk's as it ends.
`--seed N --actions K --chunk K` replays one chunk exactly as the CI test runs it.
The generator, oracle and judge live in tests/fuzz/ (see README, "Truth fuzzer").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fuzz"))

from fuzz_check import CORRECT, REFUSED_OK, VERDICTS  # noqa: E402
from fuzz_run import Fuzzer  # noqa: E402
from fuzz_server import FuzzServer  # noqa: E402

from verdex_cli.browser import launch  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--actions", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=500, help="actions per seed (a fresh tab and site each)")
    ap.add_argument("--timeout", type=float, default=1.5, help="verdex --timeout for every command")
    ap.add_argument("--quiet", action="store_true", help="counts only, no case list")
    args = ap.parse_args()
    chrome = launch.launch(headless=True, debug_port=True)
    server = FuzzServer()
    total: Counter = Counter({v: 0 for v in VERDICTS})
    reissued: list[str] = []
    cases = []
    try:
        left, seed = args.actions, args.seed
        while left > 0:
            n = min(args.chunk, left)
            report = Fuzzer(chrome.http_endpoint, server, seed, n, timeout=args.timeout).run()
            print(report.summary(), flush=True)
            total.update(report.counts())
            reissued += report.reissued
            mine = [c for c in report.cases if c.verdict not in (CORRECT, REFUSED_OK)]
            if not args.quiet:  # as each chunk ends: a long run's log shows its cases early
                print("\n".join(case.describe(seed) for case in mine), flush=True)
            cases += [(seed, c) for c in mine]
            left -= n
            seed += 1
    finally:
        server.stop()
        chrome.stop()
    print("\nTOTAL " + ", ".join(f"{k} {total[k]}" for k in VERDICTS)
          + f"; ref strings naming two elements {len(reissued)}")
    if not args.quiet:
        for seed, case in cases:  # one line each at the end (the full cases are above)
            print(f"seed {seed} action {case.index}: {case.line!r} -> {case.verdict}: {case.detail[:200]}")
        for r in reissued:
            print("ref string named two elements:", r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
