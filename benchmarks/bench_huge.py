"""A huge page: the demo table with 20,000 rows (about 200,000 elements), snapshot in compact mode.

    python benchmarks/bench_huge.py [--rows 20000] [--runs 3] [--json]

Reports the page's element count, the median wall time of a fresh full snapshot (capture and render,
ref registry reset between runs), the size of the bridge's JSON for the frame, the text size and the
number of refs shown and issued.
"""

from __future__ import annotations

import argparse
import sys

import harness as h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None)
    args = ap.parse_args()
    with h.served() as server, h.chrome(args.chrome) as proc, h.session(proc.http_endpoint, timeout=120) as session:
        page = session.page
        page.navigate(server.url(f"table.html?rows={args.rows}"))
        elements = page.evaluate("document.getElementsByTagName('*').length")
        samples = h.measure(lambda: h.fresh_snapshot(page), args.runs)
        snap = samples.last
        json_chars = h.world_value(page, page.frames.main, "__verdex.bridge.snapshot().length", timeout=120)["value"]
    times = [ms / 1000.0 for ms in samples]
    report = {"rows": args.rows, "elements": elements, "runs": args.runs, "median_s": samples.median / 1000.0,
              "times_s": times, "compact": snap.compact, "text_chars": len(snap.text), "bridge_json_chars": json_chars,
              "refs_shown": sum(1 for r in snap.refs.values() if r.shown), "refs_issued": len(snap.refs),
              "notes": snap.notes}
    if args.json:
        h.write_json(report)
        return 0
    print(f"table page, {args.rows:,} rows, {elements:,} elements, {args.runs} runs")
    print(f"snapshot: median {report['median_s'] * 1000:,.0f} ms (runs: "
          f"{', '.join(f'{t * 1000:,.0f}' for t in times)}), compact={snap.compact}")
    print(f"size: text {len(snap.text):,} chars, bridge JSON {json_chars:,} chars, "
          f"{report['refs_shown']:,} refs shown of {report['refs_issued']:,} issued")
    for n in snap.notes:
        print("note:", n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
