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
import sys
from collections import defaultdict

import harness as h
from verdex_cli.act import changes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--quiet-ms", type=float, default=None, help="override changes.QUIET_MS (measurement only)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.quiet_ms is not None:
        changes.QUIET_MS = args.quiet_ms
    load_before = h.load()
    phases: dict = {"click": defaultdict(list), "hover": defaultdict(list)}
    pairs = {}
    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint) as ctx, \
            h.playwright(extra_args=h.WINDOW_ARGS) as page:
        url = server.url(f"table.html?rows={args.rows}")
        ctx.trace = True
        h.run(ctx, "open " + url), h.run(ctx, "snapshot")
        page.goto(url)

        def row(i: int) -> int:  # the warm-up on row 1, then rows 2.. in turn
            return 1 if i < 0 else 2 + i % max(1, args.rows - 1)

        def verdex(kind: str, i: int) -> h.Own:
            line = f'click "button:Buy {row(i)}"' if kind == "click" else f'hover "link:Open {row(i)}"'
            out = h.run(ctx, line)
            if i >= 0:
                for p in out.timings:
                    phases[kind][p["phase"]].append(p["ms"])
            return h.Own(out.elapsed_ms)

        def playwright(kind: str, i: int) -> None:
            if kind == "click":
                page.get_by_role("button", name=f"Buy {row(i)}", exact=True).click()
            else:
                page.get_by_role("link", name=f"Open {row(i)}", exact=True).hover()
            page.aria_snapshot(mode="ai")

        for kind in ("click", "hover"):
            pairs[kind] = h.pair(lambda i, k=kind: verdex(k, i), lambda i, k=kind: playwright(k, i), args.runs)
    med = {f"{side}_{kind}_ms": round(getattr(p, side).median, 1) for kind, p in pairs.items()
           for side in ("verdex", "playwright")}
    report = {
        "rows": args.rows, "runs": args.runs, "quiet_ms": changes.QUIET_MS, **med,
        "click_ratio": h.ratio(med["verdex_click_ms"], med["playwright_click_ms"]),
        "hover_ratio": h.ratio(med["verdex_hover_ms"], med["playwright_hover_ms"]),
        "load_before": load_before, "load_after": h.load(),
        "phases": {k: {p: round(h.Samples(v).median, 2) for p, v in ph.items() if len(v) == args.runs}
                   for k, ph in phases.items()},
    }
    if args.json:
        h.write_json(report)
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
