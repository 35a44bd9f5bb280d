"""What showing an action's changes costs, on the demo table page (2000 rows, about 20,000 elements).

    python benchmarks/bench_changes.py [--rows 2000] [--runs 9] [--json]

Runs real commands through the command runner (the REPL's path), alternating the same action with
changes on and off (`--no-changes`), and reports medians:
- a fresh snapshot (`snapshot --fresh`), the yardstick;
- `click` on a row's Buy button: it changes one node (the status line) and moves focus; the added
  cost of its changes, as a share of the fresh snapshot (issue target <= 10%);
- `hover` on a row's link: changes nothing; the added cost in ms (issue target <= 5 ms).
Each action's added cost is median(with changes) - median(without); both runs do the same
action on a different row, so the page is in the same state.
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
from verdex_cli.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402


def _run(ctx: Workspace, line: str) -> float:
    start = time.perf_counter()
    out = execute(ctx, line)
    elapsed = (time.perf_counter() - start) * 1000.0
    assert out.ok, f"{line}: {out.message}"
    return elapsed


def _paired(ctx: Workspace, make_line, runs: int) -> tuple[float, float]:
    """(median ms with changes, median ms without), interleaved so drift hits both alike."""
    on, off = [], []
    for i in range(runs):
        for show, sink in ((True, on), (False, off)) if i % 2 == 0 else ((False, off), (True, on)):
            ctx.show_changes = show
            sink.append(_run(ctx, make_line(len(on) + len(off) + 1)))
            if not show:
                _run(ctx, "snapshot")  # the next 'with changes' run compares with a current snapshot
    ctx.show_changes = True
    return statistics.median(on), statistics.median(off)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    server = serve()
    proc = launch.launch()
    try:
        opts = Options(connect=proc.http_endpoint, timeout=60)
        ctx = Workspace(lambda: Session.start(opts, init_script=bridge_source()))
        _run(ctx, "open " + server.url(f"table.html?rows={args.rows}"))
        fresh = statistics.median(_run(ctx, "snapshot --fresh") for _ in range(args.runs))
        _run(ctx, "snapshot")
        click_on, click_off = _paired(ctx, lambda i: f'click "button:Buy {i}"', args.runs)
        hover_on, hover_off = _paired(ctx, lambda i: f'hover "link:Open {i}"', args.runs)
        ctx.close()
    finally:
        proc.stop()
        server.stop()
    report = {
        "rows": args.rows, "runs": args.runs, "fresh_snapshot_ms": round(fresh, 1),
        "click_one_change_ms": {"with": round(click_on, 1), "without": round(click_off, 1),
                                "added": round(click_on - click_off, 1),
                                "share_of_fresh_snapshot": round((click_on - click_off) / fresh, 3)},
        "hover_no_change_ms": {"with": round(hover_on, 1), "without": round(hover_off, 1),
                               "added": round(hover_on - hover_off, 1)},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    c, h = report["click_one_change_ms"], report["hover_no_change_ms"]
    print(f"table page, {args.rows} rows, {args.runs} runs; fresh snapshot median {fresh:.1f} ms")
    print(f"click (one change): {c['with']:.1f} ms with changes, {c['without']:.1f} ms without: "
          f"+{c['added']:.1f} ms = {c['share_of_fresh_snapshot']:.1%} of a fresh snapshot (target <= 10%)")
    print(f"hover (no change):  {h['with']:.1f} ms with changes, {h['without']:.1f} ms without: "
          f"+{h['added']:.1f} ms (target <= 5 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
