"""Is this checkout slower than another commit? Two verdex versions command by command, in one run.

    git worktree add --detach /tmp/base 07810b5
    python benchmarks/bench_pair.py /tmp/base [--line "snapshot --fresh"] [--url table.html?rows=2000] [--pairs 60]
    python benchmarks/bench_pair.py /tmp/base --url "table.html?rows=20" --line 'click "button:Buy {n}"'

Each side is the REPL of its own checkout (``python -m verdex_cli --json --connect``, its package
from its folder: only the public command line is used, so any commit works) on a Chromium of its
own, both on the same page of the demo site. The two take turns one command at a time, the side
that goes first drawn at random per pair, so that load on the machine falls on both alike; a
separate round per side (the way earlier figures were taken) swung ±30% here between rounds of the
same code. For each command: the wall time from sending the line to its JSON answer, and the CPU
time its browser's processes and its verdex process spent meanwhile (the scheduler's count per thread,
in nanoseconds: /proc's clock tick of 10 ms made single commands' CPU figures 0, 10 or 20 ms).

Prints each side's medians and the median of the per-pair ratios (this checkout / the other), with
a 95% bootstrap interval: a ratio whose interval lies inside 0.95–1.05 is within 5%.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import harness as h

WHAT = ("wall", "browser cpu", "verdex cpu")


def cpu_ms(pgid: int | None = None, pid: int | None = None) -> float:
    """CPU time of every live thread of every process in the process group ``pgid``, or of ``pid``, in ms
    (/proc/PID/task/TID/schedstat: nanoseconds)."""
    total = 0
    for each in os.listdir("/proc") if pid is None else [str(pid)]:
        if not each.isdigit():
            continue
        try:
            if pid is None and os.getpgid(int(each)) != pgid:
                continue
            for tid in os.listdir(f"/proc/{each}/task"):
                with open(f"/proc/{each}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
        except OSError:
            continue
    return total / 1e6


class Side:
    """One checkout's REPL on its own browser."""

    def __init__(self, checkout: Path, endpoint: str, pgid: int, url: str):
        env = dict(os.environ, PYTHONPATH=str(checkout))
        self.name, self.pgid = str(checkout), pgid
        self.proc = subprocess.Popen([sys.executable, "-m", "verdex_cli", "--json", "--connect", endpoint, url],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, cwd=checkout)
        self.answer()  # the open of the URL
        self.times: dict[str, list[float]] = {what: [] for what in WHAT}

    def answer(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name}: the REPL ended")
        out = json.loads(line)
        if not out.get("ok"):
            raise SystemExit(f"{self.name}: {out.get('command')!r} failed: {out.get('error')}")
        return out

    def run(self, line: str, keep: bool = True) -> None:
        browser0, verdex0, t0 = cpu_ms(self.pgid), cpu_ms(pid=self.proc.pid), time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        self.answer()
        wall = (time.perf_counter() - t0) * 1000
        if keep:
            for what, value in zip(WHAT, (wall, cpu_ms(self.pgid) - browser0, cpu_ms(pid=self.proc.pid) - verdex0)):
                self.times[what].append(value)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(30)


def ratio_interval(new: list[float], old: list[float], rounds: int = 2000) -> tuple[float, float, float]:
    """The median of the per-pair ratios new/old, and its 95% bootstrap interval."""
    ratios = [a / b for a, b in zip(new, old) if b > 0]
    rng = random.Random(1)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(rounds))
    return statistics.median(ratios), meds[int(rounds * 0.025)], meds[int(rounds * 0.975)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="the other checkout (e.g. a `git worktree add --detach` of a commit)")
    ap.add_argument("--line", default="snapshot --fresh",
                    help="the command timed; {n} in it counts 2, 3, ... up to --cycle and over again")
    ap.add_argument("--cycle", type=int, default=19)
    ap.add_argument("--url", default="table.html?rows=2000", help="the demo site's page both sides open")
    ap.add_argument("--pairs", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if not (args.other / "verdex_cli").is_dir():
        raise SystemExit(f"{args.other}: not a verdex checkout")
    rng = random.Random(7)
    with h.served() as server, h.chrome() as mine_browser, h.chrome() as other_browser:
        url = server.url(args.url)
        mine = Side(h.ROOT, mine_browser.http_endpoint, os.getpgid(mine_browser.pid), url)
        other = Side(args.other.resolve(), other_browser.http_endpoint, os.getpgid(other_browser.pid), url)
        try:
            for i in range(args.warmup + args.pairs):
                for side in rng.sample([mine, other], 2):
                    side.run(args.line.replace("{n}", str(2 + i % args.cycle)), keep=i >= args.warmup)
        finally:
            mine.close()
            other.close()
    result = {"line": args.line, "url": args.url, "pairs": args.pairs, "load": h.load(), "other": str(args.other)}
    for what in WHAT:
        new, old = mine.times[what], other.times[what]
        med, low, high = ratio_interval(new, old)
        result[what] = {"this_ms": round(statistics.median(new), 1), "other_ms": round(statistics.median(old), 1),
                        "ratio": round(med, 3), "interval": [round(low, 3), round(high, 3)]}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.line!r} on {args.url}, {args.pairs} pairs, load {result['load']}")
        for what in WHAT:
            r = result[what]
            print(f"  {what:11}  this {r['this_ms']:8.1f} ms   other {r['other_ms']:8.1f} ms   ratio {r['ratio']:.3f}"
                  f"  (95%: {r['interval'][0]:.3f}-{r['interval'][1]:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
