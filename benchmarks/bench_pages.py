"""Fresh snapshots of realistic pages, verdex vs Playwright's aria_snapshot(mode="ai"), side by side.

    python benchmarks/pages/make_pages.py     # (only after changing the generator: its output is committed)
    python benchmarks/bench_pages.py [--runs 7] [--only NAME] [--json]

The pages (benchmarks/pages/site/) look like real sites: news, docs, shops, forms, dashboards, a
500-row table, pages with up to five cross-origin embeds (video, map, social post, ads with a nested
tracker, comments), and `frames10.html` with 10 cross-origin iframes of 200 elements each. Both
tools drive the same Chromium binary, each its own browser, in one process run; each page is loaded,
given time for its iframes, snapshotted once to warm up, then timed `--runs` times. A verdex run is
a fresh capture through the `snapshot` command's own path (PageState.snapshot, cache bypassed, the
in-page ref registries reset first). Reports per page the medians, the ratio verdex/Playwright (and
`first`: the ratio of the first snapshot after load, one sample, which pays for finding isolated
worlds and frame targets), both text sizes; then how many pages verdex is slower on, the median and worst ratio, and the
10-iframe page against its target (verdex at most 0.5x Playwright).
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
from verdex_cli.refs.page_state import PageState  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402

SITE = Path(__file__).resolve().parent / "pages" / "site"
SETTLE_S = 0.6  # after load, for the iframes (and their nested frames) to load
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
        "--disable-sync"]


def pages(only: str | None) -> list[str]:
    names = sorted(p.name for p in SITE.glob("*.html"))
    return [n for n in names if only is None or n == only or n == only + ".html"]


def bench_verdex(server, names: list[str], runs: int) -> dict:
    proc = launch.launch(debug_port=True)
    out = {}
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=60), init_script=bridge_source())
        page = session.page
        for name in names:
            page.navigate(server.url(name))
            time.sleep(SETTLE_S)
            t0 = time.perf_counter()  # the first snapshot after load: worlds and frame targets found
            PageState(page.prefix).snapshot(page, fresh=True)
            first = (time.perf_counter() - t0) * 1000.0
            times, snap = [], None
            for _ in range(runs):
                page.frames.reset_refs(keep_counter=False)
                state = PageState(page.prefix)
                t0 = time.perf_counter()
                snap, _ = state.snapshot(page, fresh=True)
                times.append((time.perf_counter() - t0) * 1000.0)
            out[name] = {"ms": statistics.median(times), "chars": len(snap.text), "frames": len(snap.frames),
                         "first_ms": first}
        session.close()
    finally:
        proc.stop()
    return out


def bench_playwright(server, names: list[str], runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=launch.find_chrome(None), headless=True, args=ARGS)
        page = browser.new_page()
        snap = page.aria_snapshot if hasattr(page, "aria_snapshot") else page.locator("body").aria_snapshot
        for name in names:
            page.goto(server.url(name))
            time.sleep(SETTLE_S)
            t0 = time.perf_counter()
            snap(mode="ai")
            first = (time.perf_counter() - t0) * 1000.0
            times, text = [], ""
            for _ in range(runs):
                t0 = time.perf_counter()
                text = snap(mode="ai")
                times.append((time.perf_counter() - t0) * 1000.0)
            out[name] = {"ms": statistics.median(times), "chars": len(text), "first_ms": first}
        browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", default=None, help="one page (file name)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = pages(args.only)
    if not names:
        print(f"no page {args.only!r} in {SITE}")
        return 2
    server = serve(SITE)
    try:
        ours = bench_verdex(server, names, args.runs)
        ref = bench_playwright(server, names, args.runs)
    finally:
        server.stop()
    rows = []
    for n in names:
        rows.append({"page": n, "verdex_ms": round(ours[n]["ms"], 2), "playwright_ms": round(ref[n]["ms"], 2),
                     "ratio": round(ours[n]["ms"] / ref[n]["ms"], 3), "verdex_chars": ours[n]["chars"],
                     "playwright_chars": ref[n]["chars"], "frames": ours[n]["frames"],
                     "first_ratio": round(ours[n]["first_ms"] / ref[n]["first_ms"], 3)})
    general = [r for r in rows if r["page"] != "frames10.html"]
    summary = {"pages": len(general), "slower": [r["page"] for r in general if r["ratio"] > 1.0],
               "first_slower": [r["page"] for r in general if r["first_ratio"] > 1.0]}
    if general:
        worst = max(general, key=lambda r: r["ratio"])
        summary.update(median_ratio=round(statistics.median(r["ratio"] for r in general), 3),
                       median_first_ratio=round(statistics.median(r["first_ratio"] for r in general), 3),
                       worst_ratio=worst["ratio"], worst_page=worst["page"])
    frames10 = next((r for r in rows if r["page"] == "frames10.html"), None)
    if args.json:
        print(json.dumps({"runs": args.runs, "rows": rows, "summary": summary, "frames10": frames10}))
        return 0
    print(f"{'page':24} {'verdex ms':>10} {'pw ms':>8} {'ratio':>6} {'first':>6} {'verdex ch':>10} {'pw ch':>9} "
          f"{'frames':>6}")
    for r in rows:
        print(f"{r['page']:24} {r['verdex_ms']:10.2f} {r['playwright_ms']:8.2f} {r['ratio']:6.3f} {r['first_ratio']:6.3f} "
              f"{r['verdex_chars']:10,} {r['playwright_chars']:9,} {r['frames']:6}")
    if general:
        print(f"{summary['pages']} pages: median ratio {summary['median_ratio']:.3f}, worst {summary['worst_ratio']:.3f} "
              f"({summary['worst_page']}); slower than Playwright on {len(summary['slower'])}: "
              f"{', '.join(summary['slower']) or 'none'}")
        print(f"first snapshot after load (one sample each, noisy): median ratio {summary['median_first_ratio']:.3f}; "
              f"slower on {len(summary['first_slower'])}: {', '.join(summary['first_slower']) or 'none'}")
    if frames10:
        print(f"10 cross-origin iframes x 200 elements: ratio {frames10['ratio']:.3f} (target <= 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
