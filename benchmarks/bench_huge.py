"""A huge page: the demo table with 20,000 rows (about 200,000 elements), snapshot in compact mode.

    python benchmarks/bench_huge.py [--rows 20000] [--runs 3] [--json]

Reports the page's element count, the median wall time of a fresh full snapshot (capture and render,
ref registry reset between runs), the size of the bridge's JSON for the frame, the text size and the
number of refs shown and issued.
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
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None)
    args = ap.parse_args()
    server = serve()
    proc = launch.launch(launch.find_chrome(args.chrome), debug_port=True)
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=120), init_script=bridge_source())
        page = session.page
        page.navigate(server.url(f"table.html?rows={args.rows}"))
        elements = page.evaluate("document.getElementsByTagName('*').length")
        times, snap = [], None
        for _ in range(args.runs):
            page.frames.reset_refs(keep_counter=False)
            state = PageState(page.prefix, page.frames.numbers)
            t0 = time.perf_counter()
            snap, _ = state.snapshot(page, fresh=True)
            times.append(time.perf_counter() - t0)
        json_chars = page.frames.eval(page.frames.main, "__verdex.bridge.snapshot().length", timeout=120)["value"]
        session.close()
    finally:
        proc.stop()
        server.stop()
    report = {"rows": args.rows, "elements": elements, "runs": args.runs, "median_s": statistics.median(times),
              "times_s": times, "compact": snap.compact, "text_chars": len(snap.text), "bridge_json_chars": json_chars,
              "refs_shown": sum(1 for r in snap.refs.values() if r.shown), "refs_issued": len(snap.refs),
              "notes": snap.notes}
    if args.json:
        print(json.dumps(report))
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
