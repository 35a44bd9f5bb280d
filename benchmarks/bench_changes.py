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
import sys

import harness as h
from verdex_cli.commands.context import Workspace

PHASES = ("changes: watch loads", "changes: before", "changes: settle", "changes: capture", "changes: compare")  # the capture includes its sub-phases


def _paired(ctx: Workspace, make_line, runs: int) -> tuple[float, float, float]:
    """(median ms with changes, median ms without, median ms in the changes phases), interleaved so
    drift hits both alike."""
    added, count = h.Samples(), [0]

    def side(show: bool):
        def one(_i: int) -> h.Own:
            ctx.show_changes = show
            count[0] += 1
            ms, out = h.timed(h.run, ctx, make_line(count[0]))
            if show:
                added.append(sum(p["ms"] for p in out.timings if p["phase"] in PHASES))
            else:
                h.run(ctx, "snapshot")  # the next 'with changes' run compares with a current snapshot
            return h.Own(ms)
        return one

    ctx.trace = True
    got = h.alternate({"on": side(True), "off": side(False)}, runs)
    ctx.show_changes, ctx.trace = True, False
    return got["on"].median, got["off"].median, added.median


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint) as ctx:
        h.run(ctx, "open " + server.url(f"table.html?rows={args.rows}"))
        fresh = h.measure(lambda: h.run(ctx, "snapshot --fresh"), args.runs).median
        h.run(ctx, "snapshot")
        click_on, click_off, click_added = _paired(ctx, lambda i: f'click "button:Buy {i}"', args.runs)
        hover_on, hover_off, hover_added = _paired(ctx, lambda i: f'hover "link:Open {i}"', args.runs)
    report = {
        "rows": args.rows, "runs": args.runs, "fresh_snapshot_ms": round(fresh, 1),
        "click_one_change_ms": {"with": round(click_on, 1), "without": round(click_off, 1),
                                "added": round(click_added, 1),
                                "share_of_fresh_snapshot": round(click_added / fresh, 3)},
        "hover_no_change_ms": {"with": round(hover_on, 1), "without": round(hover_off, 1),
                               "added": round(hover_added, 2)},
    }
    if args.json:
        h.write_json(report)
        return 0
    c, hv = report["click_one_change_ms"], report["hover_no_change_ms"]
    print(f"table page, {args.rows} rows, {args.runs} runs; fresh snapshot median {fresh:.1f} ms")
    print(f"click (one change): added {c['added']:.1f} ms = {c['share_of_fresh_snapshot']:.1%} of a fresh "
          f"snapshot (target <= 10%); whole command {c['with']:.1f} ms with changes, {c['without']:.1f} ms without")
    print(f"hover (no change):  added {hv['added']:.2f} ms (target <= 5 ms); whole command {hv['with']:.1f} ms "
          f"with changes, {hv['without']:.1f} ms without")
    return 0


if __name__ == "__main__":
    sys.exit(main())
