"""Actions side by side: verdex `click`/`hover` (changes included) against Playwright's
`locator.click()`/`hover()` followed by `page.aria_snapshot(mode="ai")`, on the same small page.

    python benchmarks/bench_actions.py [--rows 20] [--runs 15] [--quiet-ms MS] [--first] [--json]

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

`--first`: actions before the tab's first snapshot, as a one-shot run (`verdex run URL 'click ...'`)
and an agent's first steps take them, against the same action after a `snapshot`. Each sample opens
the page in a new tab; the action is the tab's first command (it sets the engine up in the new
document, which a snapshot does otherwise), or its second (an untimed action first, no snapshot), or
follows a snapshot. Only the action is timed; the three take turns. Prints the medians, the ratios to
the action after a snapshot (the second action's aim: 1) and each one's phases.
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
    ap.add_argument("--first", action="store_true", help="the first action on a page against one after a snapshot")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.quiet_ms is not None:
        changes.QUIET_MS = args.quiet_ms
    if args.first:
        return first(args)
    load_before = h.load()
    phases: dict = {"click": defaultdict(list), "hover": defaultdict(list)}
    pairs = {}
    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint) as ctx, \
            h.playwright(extra_args=h.WINDOW_ARGS) as page:
        url = server.url(f"table.html?rows={args.rows}")
        ctx.trace = True
        h.run(ctx, "open " + url), h.run(ctx, "snapshot")
        page.goto(url)

        def verdex(kind: str, i: int) -> h.Own:
            return action(ctx, args.rows, kind, i, phases[kind])

        def playwright(kind: str, i: int) -> None:
            if kind == "click":
                page.get_by_role("button", name=f"Buy {row(args.rows, i)}", exact=True).click()
            else:
                page.get_by_role("link", name=f"Open {row(args.rows, i)}", exact=True).hover()
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
        "phases": medians(phases, args.runs),
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


def row(rows: int, i: int) -> int:
    """The row of turn ``i``: the warm-up on row 1, then rows 2.. in turn."""
    return 1 if i < 0 else 2 + i % max(1, rows - 1)


def action(ctx, rows: int, kind: str, i: int, phases: dict) -> h.Own:
    """verdex's click or hover of turn ``i`` (its phases kept from the timed turns on): its own time."""
    out = h.run(ctx, f'click "button:Buy {row(rows, i)}"' if kind == "click" else f'hover "link:Open {row(rows, i)}"')
    if i >= 0:
        for p in out.timings:
            phases[p["phase"]].append(p["ms"])
    return h.Own(out.elapsed_ms)


def medians(phases: dict, runs: int) -> dict:
    """The median of each phase that every timed turn had."""
    return {k: {p: round(h.Samples(v).median, 2) for p, v in ph.items() if len(v) == runs} for k, ph in phases.items()}


SIDES = {"first": None, "second": "action", "after": "snapshot"}  # what the tab saw before the timed action


def first(args) -> int:
    """--first: the tab's first command is the action, or its second (an action before it), or it
    follows a snapshot; each side on a new tab, the three in turns."""
    load_before = h.load()
    phases = {f"{kind} {side}": defaultdict(list) for kind in ("click", "hover") for side in SIDES}
    got = {}
    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint) as ctx:
        url = server.url(f"table.html?rows={args.rows}")
        ctx.trace = True

        def side(kind: str, name: str):
            def turn(i: int) -> h.Own:
                tab = h.run(ctx, "tab new " + url).result.data["switched_to"]  # nothing of it asked yet
                if SIDES[name] == "snapshot":
                    h.run(ctx, "snapshot")
                elif SIDES[name] == "action":
                    action(ctx, args.rows, kind, -1, {})  # on row 1: the engine set up, no snapshot
                took = action(ctx, args.rows, kind, i, phases[f"{kind} {name}"])
                h.run(ctx, f"tab close {tab}")
                return took
            return turn

        for kind in ("click", "hover"):
            got[kind] = h.alternate({name: side(kind, name) for name in SIDES}, args.runs, warmup=1)
    med = {f"{kind}_{side}_ms": round(s.median, 1) for kind, sides in got.items() for side, s in sides.items()}
    ratios = {f"{kind}_{side}_ratio": h.ratio(med[f"{kind}_{side}_ms"], med[f"{kind}_after_ms"])
              for kind in got for side in ("first", "second")}
    report = {"rows": args.rows, "runs": args.runs, **med, **ratios, "load_before": load_before, "load_after": h.load(),
              "phases": medians(phases, args.runs)}
    if args.json:
        h.write_json(report)
        return 0
    print(f"table page, {args.rows} rows, {args.runs} runs each, new tab each, interleaved; load average "
          f"{report['load_before'][0]:.1f} before, {report['load_after'][0]:.1f} after")
    for kind in got:
        print(f"{kind:5}: the tab's first command {med[f'{kind}_first_ms']:6.1f} ms (÷ after {ratios[f'{kind}_first_ratio']:.2f}: "
              f"the engine's set-up, which a snapshot pays otherwise), its second action {med[f'{kind}_second_ms']:6.1f} ms "
              f"(÷ after {ratios[f'{kind}_second_ratio']:.2f}; aim: 1), after a snapshot {med[f'{kind}_after_ms']:6.1f} ms")
        for side in SIDES:
            print(f"       {side:6} phases: " + ", ".join(f"{p} {ms:.1f}" for p, ms in report["phases"][f"{kind} {side}"].items()
                                                    if p != "browser check"))
    return 0

if __name__ == "__main__":
    sys.exit(main())
