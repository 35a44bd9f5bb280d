"""Far away is normal: snapshot and click with their round trips, at 0 and 50 ms each way.

    python benchmarks/bench_latency.py [--delays 0,50] [--runs 3] [--json] [--no-playwright]

A launched Chromium is put behind tests/ws_proxy.py (a ws-only endpoint that holds every chunk
DELAY ms in each direction), and verdex connects to it with `--connect ws://...` (one socket). For
the demo site's frame page (frames.html: same-origin, cross-origin and a cross-origin frame inside a
cross-origin frame, srcdoc, empty) and benchmarks/pages/site/frames10.html (10 cross-origin iframes)
it times `snapshot --fresh` and, on frames.html, `click REF` with its changes, through the commands'
own path (runner.execute). Round trips are counted by the transport itself: a *wave* is a stretch
of time with at least one call outstanding on the socket (calls sent together, answered together
count once), so waves = sequential round trips. With Playwright installed (`pip install playwright`;
its browsers are never downloaded), `connect_over_cdp` through the same proxy does the same
(`aria_snapshot(mode="ai")`, a click by role), and its round trips are estimated from the time
difference between 0 and DELAY ms (extra time / (2 x DELAY)).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.commands.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402
from ws_proxy import WsProxy  # noqa: E402

SITE = ROOT / "benchmarks" / "pages" / "site"
SETTLE_S = 0.8


def _ok(ctx, line: str):
    out = execute(ctx, line)
    if not out.ok:
        raise SystemExit(f"{line!r} failed: {out.kind}: {out.message}")
    return out.result


def _measure(ctx, line: str) -> tuple[float, int]:
    conn = ctx.session._browser().conn
    waves0, _ = conn.counters()
    t0 = time.perf_counter()
    _ok(ctx, line)
    ms = (time.perf_counter() - t0) * 1000.0
    return ms, conn.counters()[0] - waves0


def bench_verdex(url: str, demo, site, runs: int) -> dict:
    ctx = Workspace(lambda: Session.start(Options(connect=url, timeout=60), init_script=bridge_source()))
    out = {}
    try:
        for name, page_url in (("frames.html", demo.url("frames.html")), ("frames10.html", site.url("frames10.html"))):
            _ok(ctx, "open " + page_url)
            time.sleep(SETTLE_S)
            _ok(ctx, "snapshot --fresh")  # warm: worlds and frame sessions found
            rows = [_measure(ctx, "snapshot --fresh") for _ in range(runs)]
            out[f"snapshot {name}"] = {"ms": statistics.median(r[0] for r in rows), "trips": max(r[1] for r in rows)}
        _ok(ctx, "open " + demo.url("frames.html"))
        time.sleep(SETTLE_S)
        rows = []
        for _ in range(runs):
            snap = _ok(ctx, "snapshot").data
            ref = next(r for r, info in snap["refs"].items() if info.get("name") == "Leaf button")
            rows.append(_measure(ctx, "click " + ref))
        out["click (changes) frames.html"] = {"ms": statistics.median(r[0] for r in rows),
                                              "trips": max(r[1] for r in rows)}
    finally:
        ctx.close()
    return out


def bench_playwright(url: str, demo, site, runs: int) -> dict | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    out = {}
    with sync_playwright() as pw:
        browser = pw.chromium.connect_over_cdp(url)
        context = browser.new_context()
        page = context.new_page()
        for name, page_url in (("frames.html", demo.url("frames.html")), ("frames10.html", site.url("frames10.html"))):
            page.goto(page_url)
            time.sleep(SETTLE_S)
            page.locator("body").aria_snapshot()
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                page.aria_snapshot(mode="ai") if hasattr(page, "aria_snapshot") else page.locator("body").aria_snapshot()
                times.append((time.perf_counter() - t0) * 1000.0)
            out[f"snapshot {name}"] = {"ms": statistics.median(times)}
        page.goto(demo.url("frames.html"))
        time.sleep(SETTLE_S)
        leaf = page.frame_locator("#cross-frame").frame_locator("iframe").get_by_role("button", name="Leaf button")
        leaf.click()
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            leaf.click()
            times.append((time.perf_counter() - t0) * 1000.0)
        out["click (changes) frames.html"] = {"ms": statistics.median(times)}
        context.close()
        browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delays", default="0,50", help="ms each way, comma-separated")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-playwright", action="store_true")
    args = ap.parse_args()
    delays = [int(d) for d in args.delays.split(",")]
    chrome = launch.launch(debug_port=True)
    demo, site = serve(), serve(SITE)
    results = {}
    try:
        for delay in delays:
            proxy = WsProxy(chrome.browser_ws, delay=delay / 1000.0)
            try:
                results[delay] = {"verdex": bench_verdex(proxy.url(), demo, site, args.runs),
                                  "playwright": None if args.no_playwright else
                                  bench_playwright(proxy.url(), demo, site, args.runs)}
            finally:
                proxy.close()
    finally:
        demo.stop()
        site.stop()
        chrome.stop()
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
        print(json.dumps(rows))
        return 0
    print(f"{'delay':>5}  {'what':30} {'verdex ms':>10} {'trips':>5} {'by time':>7} {'playwright ms':>13} {'by time':>7}")
    for r in rows:
        print(f"{r['delay_ms']:>5}  {r['what']:30} {r['verdex_ms']:>10} {r['verdex_trips']:>5} "
              f"{r['verdex_trips_by_time'] if r['verdex_trips_by_time'] is not None else '':>7} "
              f"{r['playwright_ms'] if r['playwright_ms'] is not None else '-':>13} "
              f"{r['playwright_trips_by_time'] if r['playwright_trips_by_time'] is not None else '':>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
