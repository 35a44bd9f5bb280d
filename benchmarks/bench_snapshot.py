"""Side-by-side snapshot benchmark: verdex vs Playwright's aria_snapshot(mode="ai").

Both drive the same Chromium binary, in one process run, on the demo site's
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
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402


def bench_verdex(url: str, runs: int, chrome_path: str) -> dict:
    proc = launch.launch(chrome_path, debug_port=True)
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=60), init_script=bridge_source())
        page = session.page
        page.navigate(url)
        times, text, snap = [], "", None
        for _ in range(runs):
            # a fresh store and a reset ref registry each run: nothing cached
            page.frames.reset_refs(keep_counter=False)
            state = PageState(page.prefix, page.frames.numbers)
            t0 = time.perf_counter()
            snap, _ = state.snapshot(page, fresh=True)
            times.append(time.perf_counter() - t0)
            text = snap.text
        cached = []  # the unchanged page again: answered from the snapshot cache (one check per frame)
        for _ in range(max(runs, 20)):
            t0 = time.perf_counter()
            again, hit = state.snapshot(page)
            cached.append(time.perf_counter() - t0)
            assert hit and again is snap, "the unchanged page was captured again"
        expected = page.evaluate("document.querySelectorAll('a[href], button, input').length")
        session.close()
        return {"median_s": statistics.median(times), "times_s": times, "chars": len(text),
                "cached_median_s": statistics.median(cached), "refs": sum(1 for r in snap.refs.values() if r.shown), "interactive_elements": expected}
    finally:
        proc.stop()


def bench_playwright(url: str, runs: int, chrome_path: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chrome_path, headless=True,
                                     args=["--no-sandbox", "--disable-background-networking",
                                           "--disable-component-update", "--no-first-run", "--disable-sync"])
        page = browser.new_page()
        page.goto(url)
        times, text = [], ""
        for _ in range(runs):
            t0 = time.perf_counter()
            text = page.locator("body").aria_snapshot(mode="ai") if not hasattr(page, "aria_snapshot") \
                else page.aria_snapshot(mode="ai")
            times.append(time.perf_counter() - t0)
        browser.close()
    return {"median_s": statistics.median(times), "times_s": times, "chars": len(text),
            "refs": len(re.findall(r"\[ref=", text))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    args = ap.parse_args()
    chrome_path = launch.find_chrome(args.chrome)
    server = serve()
    try:
        url = server.url(f"table.html?rows={args.rows}")
        ours = bench_verdex(url, args.runs, chrome_path)
        try:
            ref = bench_playwright(url, args.runs, chrome_path)
        except ImportError:
            ref = None
    finally:
        server.stop()
    report = {"rows": args.rows, "runs": args.runs, "verdex": ours, "playwright": ref}
    if ref:
        report["time_ratio"] = ours["median_s"] / ref["median_s"]
        report["size_ratio"] = ours["chars"] / ref["chars"]
        report["cached_time_ratio"] = ours["cached_median_s"] / ref["median_s"]
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"table page, {args.rows} rows, {args.runs} runs each, browser {chrome_path}")
    print(f"verdex:     median {ours['median_s'] * 1000:7.1f} ms  {ours['chars']:>9,} chars  "
          f"{ours['refs']:,} refs for {ours['interactive_elements']:,} interactive elements")
    if ref is None:
        print("playwright: not installed (pip install -e '.[bench]'); no ratios")
        return 0
    print(f"playwright: median {ref['median_s'] * 1000:7.1f} ms  {ref['chars']:>9,} chars")
    print(f"time ratio {report['time_ratio']:.3f} (target <= 0.35)   size ratio {report['size_ratio']:.3f} "
          f"(target <= 0.6)")
    print(f"unchanged re-snapshot (cache): median {ours['cached_median_s'] * 1000:.2f} ms, "
          f"ratio to playwright {report['cached_time_ratio']:.4f} (target <= 0.02)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
