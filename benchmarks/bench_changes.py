"""What showing an action's changes costs, on the demo table page (2000 rows, about 20,000 elements).

    python benchmarks/bench_changes.py [--rows 2000] [--runs 9] [--json]

Runs real commands through the command runner (the REPL's path), alternating the same action with
changes on and off (`--no-changes`), and reports medians:
- a fresh snapshot (`snapshot --fresh`), the yardstick;
- `click` on a row's Buy button: it changes one node (the status line) and moves focus; the added
  cost of its changes, as a share of the fresh snapshot (issue target <= 10%);
- `hover` on a row's link: changes nothing; the added cost in ms (issue target <= 5 ms).
The added cost is the median of the time the command spent in its changes phases (watching the
page's requests, settle, capture, compare: `--trace` shows them), measured inside the same runs; the
medians of whole commands with and without changes are printed too, but the actions themselves vary
by tens of ms on a loaded machine, so their difference is a noisy estimate of the same thing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.commands.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402


PHASES = ("changes: watch loads", "changes: settle", "changes: capture", "changes: compare")  # the capture includes its sub-phases


def _run(ctx: Workspace, line: str, added: list | None = None) -> float:
    start = time.perf_counter()
    out = execute(ctx, line)
    elapsed = (time.perf_counter() - start) * 1000.0
    assert out.ok, f"{line}: {out.message}"
    if added is not None:
        added.append(sum(p["ms"] for p in out.timings if p["phase"] in PHASES))
    return elapsed


def _paired(ctx: Workspace, make_line, runs: int) -> tuple[float, float, float]:
    """(median ms with changes, median ms without, median ms in the changes phases), interleaved so
    drift hits both alike."""
    on, off, added = [], [], []
    ctx.trace = True
    for i in range(runs):
        for show, sink in ((True, on), (False, off)) if i % 2 == 0 else ((False, off), (True, on)):
            ctx.show_changes = show
            sink.append(_run(ctx, make_line(len(on) + len(off) + 1), added if show else None))
            if not show:
                _run(ctx, "snapshot")  # the next 'with changes' run compares with a current snapshot
    ctx.show_changes, ctx.trace = True, False
    return statistics.median(on), statistics.median(off), statistics.median(added)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    server = serve()
    proc = launch.launch(debug_port=True)
    try:
        opts = Options(connect=proc.http_endpoint, timeout=60)
        ctx = Workspace(lambda: Session.start(opts, init_script=bridge_source()))
        _run(ctx, "open " + server.url(f"table.html?rows={args.rows}"))
        fresh = statistics.median(_run(ctx, "snapshot --fresh") for _ in range(args.runs))
        _run(ctx, "snapshot")
        click_on, click_off, click_added = _paired(ctx, lambda i: f'click "button:Buy {i}"', args.runs)
        hover_on, hover_off, hover_added = _paired(ctx, lambda i: f'hover "link:Open {i}"', args.runs)
        ctx.close()
    finally:
        proc.stop()
        server.stop()
    report = {
        "rows": args.rows, "runs": args.runs, "fresh_snapshot_ms": round(fresh, 1),
        "click_one_change_ms": {"with": round(click_on, 1), "without": round(click_off, 1),
                                "added": round(click_added, 1),
                                "share_of_fresh_snapshot": round(click_added / fresh, 3)},
        "hover_no_change_ms": {"with": round(hover_on, 1), "without": round(hover_off, 1),
                               "added": round(hover_added, 2)},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    c, h = report["click_one_change_ms"], report["hover_no_change_ms"]
    print(f"table page, {args.rows} rows, {args.runs} runs; fresh snapshot median {fresh:.1f} ms")
    print(f"click (one change): added {c['added']:.1f} ms = {c['share_of_fresh_snapshot']:.1%} of a fresh "
          f"snapshot (target <= 10%); whole command {c['with']:.1f} ms with changes, {c['without']:.1f} ms without")
    print(f"hover (no change):  added {h['added']:.2f} ms (target <= 5 ms); whole command {h['with']:.1f} ms "
          f"with changes, {h['without']:.1f} ms without")
    return 0


if __name__ == "__main__":
    sys.exit(main())
