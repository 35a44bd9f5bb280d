"""Far away is normal: snapshot and click with their round trips, at 0 and 50 ms each way.

    python benchmarks/bench_latency.py [--delays 0,50] [--runs 3] [--json] [--no-playwright]

A launched Chromium is put behind tests/ws_proxy.py (a ws-only endpoint that holds every chunk
DELAY ms in each direction), and verdex connects to it with `--connect ws://...` (one socket). For
the demo site's frame page (frames.html: same-origin, cross-origin and a cross-origin frame inside a
cross-origin frame, srcdoc, empty) and benchmarks/pages/site/frames10.html (10 cross-origin iframes)
it times the first `snapshot` after opening the page (every frame's session, world and engine set up),
`snapshot --fresh`, a `click REF` with its changes on frames.html's nested cross-origin frame,
and one on shop.html's main frame, through the commands' own path (runner.execute). Round trips are
counted by the transport itself: the depth of the chain of calls, each sent after an answer arrived
(calls sent together, or while others are out, share a round trip), so what a far-away browser
multiplies by its latency. With Playwright installed (`pip install playwright`;
its browsers are never downloaded), `connect_over_cdp` through the same proxy does the same
(`aria_snapshot(mode="ai")`, a click by role; on shop.html the click and then `aria_snapshot`, what
verdex's click answers with), and its round trips are estimated from the time
difference between 0 and DELAY ms (extra time / (2 x DELAY)).
"""

from __future__ import annotations

import argparse
import sys
import time

import harness as h
from ws_proxy import WsProxy

SETTLE_S = 0.8


def _timed(ctx, line: str, trips: list) -> h.Own:
    """One command's wall time; its sequential round trips (the transport's count) go to ``trips``."""
    conn = ctx.session.browser().conn
    waves0, _ = conn.counters()
    ms, _ = h.timed(h.run, ctx, line)
    trips.append(conn.counters()[0] - waves0)
    return h.Own(ms)


def bench_verdex(url: str, demo, site, runs: int) -> dict:
    out = {}
    with h.workspace(url) as ctx:
        for name, page_url in (("frames.html", demo.url("frames.html")), ("frames10.html", site.url("frames10.html"))):
            trips = []

            def first(page_url=page_url) -> h.Own:  # a new document each time: every frame set up anew
                h.run(ctx, "open " + page_url)
                time.sleep(SETTLE_S)
                return _timed(ctx, "snapshot", trips)

            out[f"first snapshot {name}"] = {"ms": h.measure(first, runs).median, "trips": max(trips)}
            h.run(ctx, "open " + page_url)
            time.sleep(SETTLE_S)
            h.run(ctx, "snapshot --fresh")  # warm: worlds and frame sessions found
            trips = []
            samples = h.measure(lambda: _timed(ctx, "snapshot --fresh", trips), runs)
            out[f"snapshot {name}"] = {"ms": samples.median, "trips": max(trips)}
        for page, name in (("frames.html", "Leaf button"), ("shop.html", "Add to cart")):
            h.run(ctx, "open " + demo.url(page))
            time.sleep(SETTLE_S)

            def click(name=name) -> h.Own:  # a fresh snapshot's ref each time (the click changes the page)
                snap = h.run(ctx, "snapshot").result.data
                ref = next(r for r, info in snap["refs"].items() if info.get("name") == name)
                return _timed(ctx, "click " + ref, trips)

            trips = []
            out[f"click (changes) {page}"] = {"ms": h.measure(click, runs).median, "trips": max(trips)}
    return out


def bench_playwright(url: str, demo, site, runs: int) -> dict | None:
    out = {}
    try:
        with h.playwright(cdp=url) as page:
            for name, page_url in (("frames.html", demo.url("frames.html")),
                                   ("frames10.html", site.url("frames10.html"))):
                page.goto(page_url)
                time.sleep(SETTLE_S)
                page.locator("body").aria_snapshot()
                out[f"snapshot {name}"] = {"ms": h.measure(lambda: h.pw_snapshot(page), runs).median}
            page.goto(demo.url("frames.html"))
            time.sleep(SETTLE_S)
            leaf = page.frame_locator("#cross-frame").frame_locator("iframe").get_by_role("button", name="Leaf button")
            out["click (changes) frames.html"] = {"ms": h.measure(leaf.click, runs, warmup=1).median}
            page.goto(demo.url("shop.html"))
            time.sleep(SETTLE_S)
            add = page.get_by_role("button", name="Add to cart").first

            def click_and_snapshot() -> None:  # what verdex's click answers: the click and what changed
                add.click()
                h.pw_snapshot(page)

            out["click (changes) shop.html"] = {"ms": h.measure(click_and_snapshot, runs, warmup=1).median}
    except ImportError:
        return None
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delays", default="0,50", help="ms each way, comma-separated")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-playwright", action="store_true")
    args = ap.parse_args()
    delays = [int(d) for d in args.delays.split(",")]
    results = {}
    with h.chrome() as chrome, h.served() as demo, h.served(h.SITE) as site:
        for delay in delays:
            proxy = WsProxy(chrome.browser_ws, delay=delay / 1000.0)
            try:
                results[delay] = {"verdex": bench_verdex(proxy.url(), demo, site, args.runs),
                                  "playwright": None if args.no_playwright else
                                  bench_playwright(proxy.url(), demo, site, args.runs)}
            finally:
                proxy.close()
    rows = []
    base = delays[0]
    for delay in delays:
        for what, v in results[delay]["verdex"].items():
            pw = (results[delay]["playwright"] or {}).get(what)
            row = {"delay_ms": delay, "what": what, "verdex_ms": round(v["ms"], 1), "verdex_trips": v["trips"],
                   "verdex_trips_by_time": None, "playwright_ms": None, "playwright_trips_by_time": None}
            if delay != base:
                extra = v["ms"] - results[base]["verdex"][what]["ms"]
                row["verdex_trips_by_time"] = round(extra / (2 * (delay - base)), 1)
            if pw is not None:
                row["playwright_ms"] = round(pw["ms"], 1)
                if delay != base:
                    extra = pw["ms"] - results[base]["playwright"][what]["ms"]
                    row["playwright_trips_by_time"] = round(extra / (2 * (delay - base)), 1)
            rows.append(row)
    if args.json:
        h.write_json(rows)
        return 0
    h.print_table(rows, [("delay_ms", "delay", ">5"), ("what", "what", "30"), ("verdex_ms", "verdex ms", ">10"),
                         ("verdex_trips", "trips", ">5"), ("verdex_trips_by_time", "by time", ">7"),
                         ("playwright_ms", "playwright ms", ">13", "-"),
                         ("playwright_trips_by_time", "by time", ">7")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
