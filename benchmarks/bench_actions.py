"""Actions side by side: verdex `click`/`hover` (changes included) against Playwright's
`locator.click()`/`hover()` followed by `page.aria_snapshot(mode="ai")`, on the same small page.

    python benchmarks/bench_actions.py [--rows 20] [--runs 15] [--quiet-ms MS] [--json]

The page is the demo table with `--rows` rows (20: about 100 elements). A click on a row's Buy
button changes one line (the status line; focus moves too); a hover on a row's link changes nothing.
Both tools drive the same Chromium binary, each its own browser, in one process run, and take turns
action by action (the side that goes first alternates), so both see the same machine load. verdex
runs real commands through its runner (the REPL's path: resolve the target, wait until actionable,
the input, the navigation check, the changes) and counts the command's elapsed time; Playwright's is
the wall time of the locator action plus the snapshot. Prints medians, the ratios (issue targets:
click <= 0.6, hover <= 0.3), the load average, and where verdex's time goes (median of each
`--trace` phase). `--quiet-ms` overrides the quiet period of the settle's fallback rule (changes.QUIET_MS:
documents without the timer watcher, pages that keep changing) for this run, to measure what it costs;
it is not a product option.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verdex_cli.act import changes  # noqa: E402
from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.commands.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402

PW_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
           "--disable-sync", "--hide-scrollbars", "--window-size=1280,900"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--quiet-ms", type=float, default=None, help="override changes.QUIET_MS (measurement only)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.quiet_ms is not None:
        changes.QUIET_MS = args.quiet_ms
    from playwright.sync_api import sync_playwright

    chrome = launch.find_chrome(None)
    load_before = os.getloadavg()
    server = serve()
    proc = launch.launch(chrome, debug_port=True)
    pw = sync_playwright().start()
    ctx = None
    times: dict = defaultdict(list)
    phases: dict = {"click": defaultdict(list), "hover": defaultdict(list)}
    try:
        url = server.url(f"table.html?rows={args.rows}")
        ctx = Workspace(lambda: Session.start(Options(connect=proc.http_endpoint, timeout=60),
                                              init_script=bridge_source()))
        ctx.trace = True
        assert execute(ctx, "open " + url).ok and execute(ctx, "snapshot").ok
        browser = pw.chromium.launch(executable_path=chrome, headless=True, args=PW_ARGS)
        page = browser.new_page()
        page.goto(url)

        def verdex(kind: str, i: int) -> float:
            line = f'click "button:Buy {i}"' if kind == "click" else f'hover "link:Open {i}"'
            out = execute(ctx, line)
            assert out.ok, f"{line}: {out.message}"
            for p in out.timings:
                phases[kind][p["phase"]].append(p["ms"])
            return out.elapsed_ms

        def playwright(kind: str, i: int) -> float:
            t0 = time.perf_counter()
            if kind == "click":
                page.get_by_role("button", name=f"Buy {i}", exact=True).click()
            else:
                page.get_by_role("link", name=f"Open {i}", exact=True).hover()
            page.aria_snapshot(mode="ai")
            return (time.perf_counter() - t0) * 1000.0

        for kind in ("click", "hover"):  # one warm-up each
            verdex(kind, 1), playwright(kind, 1)
        for kind in phases:
            phases[kind].clear()
        for r in range(args.runs):
            i = 2 + r % max(1, args.rows - 1)
            for kind in ("click", "hover"):
                sides = [("verdex", verdex), ("playwright", playwright)]
                for side, fn in sides if r % 2 == 0 else sides[::-1]:
                    times[(side, kind)].append(fn(kind, i))
        browser.close()
    finally:
        if ctx is not None:
            ctx.close()
        pw.stop()
        proc.stop()
        server.stop()
    med = {f"{side}_{kind}_ms": round(statistics.median(v), 1) for (side, kind), v in times.items()}
    report = {
        "rows": args.rows, "runs": args.runs, "quiet_ms": changes.QUIET_MS, **med,
        "click_ratio": round(med["verdex_click_ms"] / med["playwright_click_ms"], 3),
        "hover_ratio": round(med["verdex_hover_ms"] / med["playwright_hover_ms"], 3),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
        "phases": {k: {p: round(statistics.median(v), 2) for p, v in ph.items() if len(v) == args.runs}
                   for k, ph in phases.items()},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"table page, {args.rows} rows, {args.runs} runs each, interleaved; load average "
          f"{report['load_before'][0]:.1f} before, {report['load_after'][0]:.1f} after; QUIET_MS {changes.QUIET_MS:g}")
    for kind, target in (("click", 0.6), ("hover", 0.3)):
        print(f"{kind:5}: verdex {med[f'verdex_{kind}_ms']:6.1f} ms, Playwright {med[f'playwright_{kind}_ms']:6.1f} ms, "
              f"ratio {report[f'{kind}_ratio']:.3f} (target <= {target})")
        print("       verdex phases: " + ", ".join(f"{p} {ms:.1f}" for p, ms in report["phases"][kind].items()
                                                    if p != "browser check"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
