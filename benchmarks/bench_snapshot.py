"""Side-by-side snapshot benchmark: verdex vs Playwright's aria_snapshot(mode="ai").

Both drive the same Chromium binary, each its own browser, in one process run, taking turns
snapshot by snapshot (the side that goes first alternates), on the demo site's
generated table page (default 2000 rows: a text cell, a link, a button, an
input and a long text span per row, about 20,000 elements).

    python benchmarks/bench_snapshot.py [--rows 2000] [--runs 7] [--json]

Reports the median wall time of a fresh full snapshot (capture and render) and
the character count of each tool's text, and the ratios verdex/Playwright; then the median time of
an unchanged re-snapshot answered from verdex's snapshot cache, as a ratio to Playwright's (target
<= 0.02; Playwright has no cache, its every call is a full snapshot).
Targets (issue 3): time ratio <= 0.35, size ratio <= 0.6, every interactive
element with a ref.  Playwright is an optional bench extra:
``pip install -e '.[bench]'`` (it uses the system Chromium, no download).
"""

from __future__ import annotations

import argparse
import re
import sys
from contextlib import ExitStack, suppress

import harness as h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    ap.add_argument("--no-playwright", action="store_true",
                    help="verdex alone (a loaded machine times Playwright's 2000-row snapshot out)")
    args = ap.parse_args()
    chrome_path = h.launch.find_chrome(args.chrome)
    with ExitStack() as stack:
        server = stack.enter_context(h.served())
        proc = stack.enter_context(h.chrome(chrome_path))
        session = stack.enter_context(h.session(proc.http_endpoint))
        pw_page = None
        if not args.no_playwright:
            with suppress(ImportError):
                pw_page = stack.enter_context(h.playwright(chrome_path))
        url = server.url(f"table.html?rows={args.rows}")
        page = session.page
        page.navigate(url)

        last = []

        def verdex(_i: int = 0) -> h.Own:  # a fresh store and a reset ref registry each run: nothing cached
            last[:] = [h.fresh_snapshot(page)]
            return last[0]

        if pw_page is None:
            ours = h.measure(verdex, args.runs)
        else:
            pw_page.goto(url)
            both = h.pair(verdex, lambda _i: h.pw_snapshot(pw_page), args.runs, warmup=0)
            ours, theirs = both.verdex, both.playwright
        snap, state = last[0].value, last[0].state
        cached = h.Samples()  # the unchanged page again: answered from the snapshot cache (one check per frame)
        for _ in range(max(args.runs, 20)):
            ms, (again, hit) = h.timed(state.snapshot, page)
            cached.append(ms)
            assert hit and again is snap, "the unchanged page was captured again"
        expected = page.evaluate("document.querySelectorAll('a[href], button, input').length")
    ours_report = {"median_s": ours.median / 1000, "times_s": [t / 1000 for t in ours], "chars": len(snap.text),
                   "cached_median_s": cached.median / 1000, "refs": sum(1 for r in snap.refs.values() if r.shown),
                   "interactive_elements": expected}
    ref = None if pw_page is None else {
        "median_s": theirs.median / 1000, "times_s": [t / 1000 for t in theirs], "chars": len(theirs.last),
        "refs": len(re.findall(r"\[ref=", theirs.last))}
    ours = ours_report
    report = {"rows": args.rows, "runs": args.runs, "verdex": ours, "playwright": ref}
    if ref:
        report["time_ratio"] = ours["median_s"] / ref["median_s"]
        report["size_ratio"] = ours["chars"] / ref["chars"]
        report["cached_time_ratio"] = ours["cached_median_s"] / ref["median_s"]
    if args.json:
        h.write_json(report)
        return 0
    print(f"table page, {args.rows} rows, {args.runs} runs each, browser {chrome_path}")
    print(f"verdex:     median {ours['median_s'] * 1000:7.1f} ms  {ours['chars']:>9,} chars  "
          f"{ours['refs']:,} refs for {ours['interactive_elements']:,} interactive elements")
    if ref is None:
        print("playwright: left out (--no-playwright) or not installed (pip install -e '.[bench]'); no ratios")
        return 0
    print(f"playwright: median {ref['median_s'] * 1000:7.1f} ms  {ref['chars']:>9,} chars")
    print(f"time ratio {report['time_ratio']:.3f} (target <= 0.35)   size ratio {report['size_ratio']:.3f} "
          f"(target <= 0.6)")
    print(f"unchanged re-snapshot (cache): median {ours['cached_median_s'] * 1000:.2f} ms, "
          f"ratio to playwright {report['cached_time_ratio']:.4f} (target <= 0.02)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
