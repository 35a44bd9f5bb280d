"""Fresh snapshots of realistic pages, verdex vs Playwright's aria_snapshot(mode="ai"), side by side.

    python benchmarks/pages/make_pages.py     # (only after changing the generator: its output is committed)
    python benchmarks/bench_pages.py [--runs 7] [--only NAME] [--json]

The pages (benchmarks/pages/site/) look like real sites: news, docs, shops, forms, dashboards, a
500-row table, pages with up to five cross-origin embeds (video, map, social post, ads with a nested
tracker, comments), and `frames10.html` with 10 cross-origin iframes of 200 elements each. Both
tools drive the same Chromium binary, each its own browser, in one process run; each page is loaded
in both, given time for its iframes, snapshotted once to warm up, then timed `--runs` times, the two
taking turns (the side that goes first alternates). A verdex run is
a fresh capture through the `snapshot` command's own path (PageState.snapshot, cache bypassed, the
in-page ref registries reset first). Reports per page the medians, the ratio verdex/Playwright (and
`first`: the ratio of the first snapshot after load, one sample, which pays for finding isolated
worlds and frame targets), both text sizes; then how many pages verdex is slower on, the median and worst ratio, and the
10-iframe page against its target (verdex at most 0.5x Playwright).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import harness as h
from verdex_cli.refs.page_state import PageState

SITE = h.SITE
SETTLE_S = 0.6  # after load, for the iframes (and their nested frames) to load


def pages(only: str | None) -> list[str]:
    names = sorted(p.name for p in SITE.glob("*.html"))
    return [n for n in names if only is None or n == only or n == only + ".html"]


def bench(server, names: list[str], runs: int) -> tuple[dict, dict]:
    """Per page: verdex's and Playwright's medians, text sizes and first snapshot after load."""
    ours, theirs = {}, {}
    with h.chrome() as proc, h.session(proc.http_endpoint) as session, h.playwright() as pw_page:
        page = session.page
        for name in names:
            page.navigate(server.url(name))
            pw_page.goto(server.url(name))
            time.sleep(SETTLE_S)
            # the first snapshot after load: worlds and frame targets found
            first, _ = h.timed(lambda: PageState(page.prefix).snapshot(page, fresh=True))
            pw_first, _ = h.timed(h.pw_snapshot, pw_page)
            both = h.pair(lambda _i: h.fresh_snapshot(page, numbered=False), lambda _i: h.pw_snapshot(pw_page),
                          runs, warmup=0)
            snap = both.verdex.last
            ours[name] = {"ms": both.verdex.median, "chars": len(snap.text), "frames": len(snap.frames),
                          "first_ms": first}
            theirs[name] = {"ms": both.playwright.median, "chars": len(both.playwright.last), "first_ms": pw_first}
    return ours, theirs


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
    with h.served(SITE) as server:
        ours, ref = bench(server, names, args.runs)
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
        h.write_json({"runs": args.runs, "rows": rows, "summary": summary, "frames10": frames10})
        return 0
    h.print_table(rows, [("page", "page", "24"), ("verdex_ms", "verdex ms", "10.2f"), ("playwright_ms", "pw ms", "8.2f"),
                         ("ratio", "ratio", "6.3f"), ("first_ratio", "first", "6.3f"),
                         ("verdex_chars", "verdex ch", "10,"), ("playwright_chars", "pw ch", "9,"),
                         ("frames", "frames", "6d")])
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
