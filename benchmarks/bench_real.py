"""Real saved pages, side by side: verdex `open` + `snapshot --fresh` against Playwright's
`page.goto` + `page.aria_snapshot(mode="ai")`, in one process run.

    python benchmarks/bench_real.py CORPUS_DIR [--runs 3] [--only NAME] [--json OUT]

CORPUS_DIR holds saved pages (`*.html`, searched recursively; keep them outside this repository).
They are served on loopback by a threaded HTTP server; both browsers (the same Chromium binary, each
its own) map every other host to an unreachable address (`--host-resolver-rules`), so far-away
scripts, images and ad frames fail at once instead of hanging. Per page: open it in both, let it
rest `--rest` seconds (its own scripts and failing frames), one snapshot each to warm up, then `--runs`
timed ones each, the two taking turns (the side that goes first alternates, so both see the same
machine load); the median counts. verdex runs its real commands through its own runner (the REPL's
path) and the time is the command's own elapsed time; Playwright's is the wall time of the call.

Prints the totals (sums of the per-page medians; again without pages where a snapshot took 10 s or
more: on a few pages Playwright's `aria_snapshot` runs into its 30 s timeout), the per-page time ratios verdex/Playwright
(median, p90, worst with the page names), the pages verdex is slower on (ratio above 1.0 where
Playwright takes 3 ms or more; more than 1 ms slower below that), the size ratio (characters of
text: total, and the median per page) and the machine's load average; `--json OUT` writes every row.
Playwright is the optional bench extra (`pip install -e '.[bench]'`); it drives the system Chromium
(no browser download).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

import harness as h

RESOLVER = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
LOAD_TIMEOUT_S = 30.0


def corpus(root: Path, only: str | None) -> list[str]:
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*.html") if p.is_file())
    return [n for n in names if only is None or only in (n, n.removesuffix(".html"), Path(n).name)]


def corpus_or_exit(folder: Path, only: str | None) -> tuple[Path, list[str]]:
    """The corpus folder (resolved) and its pages' names; exit status 2 with a line when there are none."""
    root = folder.resolve()
    names = corpus(root, only)
    if not names:
        print(f"no .html pages{' named ' + only if only else ''} in {root}", file=sys.stderr)
        raise SystemExit(2)
    return root, names


def measure(ctx, page, url: str, runs: int, rest: float) -> h.Pair:
    """Open ``url`` in both, rest, then the pair of snapshots (value: characters of text)."""
    from playwright.sync_api import TimeoutError as PwTimeout

    h.run(ctx, "open " + url)
    try:
        page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_S * 1000)
    except PwTimeout:  # as verdex: a page that does not finish loading is taken as it is
        pass
    time.sleep(rest)

    def verdex(_i: int) -> h.Own:
        out = h.run(ctx, "snapshot --fresh")
        return h.Own(out.elapsed_ms, len(out.result.data["text"]))

    return h.pair(verdex, lambda _i: len(page.aria_snapshot(mode="ai")), runs, warmup=1)


def slower(row: dict) -> bool:
    """Slower than Playwright: ratio above 1.0 where Playwright takes >= 3 ms, more than 1 ms below that."""
    if row["playwright_ms"] >= 3.0:
        return row["ratio"] > 1.0
    return row["verdex_ms"] > row["playwright_ms"] + 1.0


STALLED_MS = 10_000.0  # a snapshot this slow waited for something (Playwright's 30 s timeout on a few pages)


def summarize(rows: list[dict]) -> dict:
    ours, theirs = sum(r["verdex_ms"] for r in rows), sum(r["playwright_ms"] for r in rows)
    stalled = [r for r in rows if max(r["verdex_ms"], r["playwright_ms"]) >= STALLED_MS]
    rest = [r for r in rows if r not in stalled]
    ours_rest, theirs_rest = sum(r["verdex_ms"] for r in rest), sum(r["playwright_ms"] for r in rest)
    ch_ours, ch_theirs = sum(r["verdex_chars"] for r in rows), sum(r["playwright_chars"] for r in rows)
    ratios = [r["ratio"] for r in rows]
    by_ratio = sorted(rows, key=lambda r: r["ratio"], reverse=True)
    return {
        "pages": len(rows), "verdex_total_ms": round(ours, 1), "playwright_total_ms": round(theirs, 1),
        "total_ratio": round(ours / theirs, 3),
        "stalled": [{"page": r["page"], "verdex_ms": r["verdex_ms"], "playwright_ms": r["playwright_ms"]}
                    for r in stalled],
        "total_ratio_without_stalled": round(ours_rest / theirs_rest, 3) if theirs_rest else None,
        "verdex_total_ms_without_stalled": round(ours_rest, 1),
        "playwright_total_ms_without_stalled": round(theirs_rest, 1),
        "median_ratio": round(statistics.median(ratios), 3), "p90_ratio": round(h.percentile(ratios, 0.9), 3),
        "worst": [{"page": r["page"], "ratio": r["ratio"], "verdex_ms": r["verdex_ms"],
                   "playwright_ms": r["playwright_ms"]} for r in by_ratio[:5]],
        "slower": [r["page"] for r in rows if slower(r)],
        "size_ratio": round(ch_ours / ch_theirs, 3) if ch_theirs else None,
        "median_size_ratio": round(statistics.median(r["size_ratio"] for r in rows), 3),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="folder of saved .html pages (outside the repository)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default=None, help="one page (file name, with or without .html)")
    ap.add_argument("--rest", type=float, default=0.3, help="seconds between load and the first snapshot")
    ap.add_argument("--json", type=Path, default=None, metavar="OUT", help="write every row and the summary here")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    args = ap.parse_args()
    root, names = corpus_or_exit(args.corpus, args.only)
    load_before = h.load()
    rows, failed = [], []
    with h.served(root) as server, h.chrome(args.chrome, extra_args=(RESOLVER,)) as proc, \
            h.workspace(proc.http_endpoint, timeout=LOAD_TIMEOUT_S) as ctx, \
            h.playwright(args.chrome, extra_args=(*h.WINDOW_ARGS, RESOLVER)) as page:
        for i, name in enumerate(names):
            url = server.url(urllib.parse.quote(name))
            try:
                both = measure(ctx, page, url, args.runs, args.rest)
            except (Exception, SystemExit) as exc:  # noqa: BLE001 -- one broken page must not end the run
                failed.append({"page": name, "error": f"{type(exc).__name__}: {str(exc)[:200]}"})
                print(f"{name}: skipped ({type(exc).__name__})", file=sys.stderr)
                continue
            v, p = both.verdex, both.playwright
            rows.append({"page": name, "verdex_ms": round(v.median, 2), "playwright_ms": round(p.median, 2),
                         "ratio": h.ratio(v.median, p.median),
                         "verdex_chars": v.last, "playwright_chars": p.last,
                         "size_ratio": h.ratio(v.last, p.last) or 0.0})
            print(f"[{i + 1}/{len(names)}] {name:48.48} {v.median:8.1f} {p.median:8.1f} {rows[-1]['ratio']:6.3f}",
                  file=sys.stderr, flush=True)
    rows = [r for r in rows if r["ratio"] is not None]
    if not rows:
        print("no page was measured", file=sys.stderr)
        return 1
    summary = summarize(rows)
    summary.update(runs=args.runs, load_before=load_before, load_after=h.load(), failed=failed)
    if args.json:
        h.write_json({"summary": summary, "rows": rows}, args.json)
    s = summary
    print(f"{s['pages']} pages, median of {args.runs} after one warm-up; load average "
          f"{s['load_before'][0]:.1f} before, {s['load_after'][0]:.1f} after")
    print(f"total: verdex {s['verdex_total_ms']:,.0f} ms, Playwright {s['playwright_total_ms']:,.0f} ms, "
          f"ratio {s['total_ratio']:.3f}")
    if s["stalled"]:
        print(f"  without the {len(s['stalled'])} pages where a snapshot took {STALLED_MS / 1000:g} s or more ("
              + ", ".join(f"{r['page']}: {r['verdex_ms'] / 1000:.1f} / {r['playwright_ms'] / 1000:.1f} s"
                          for r in s["stalled"])
              + f"): verdex {s['verdex_total_ms_without_stalled']:,.0f} ms, Playwright "
              f"{s['playwright_total_ms_without_stalled']:,.0f} ms, ratio {s['total_ratio_without_stalled']:.3f}")
    print(f"per page time ratio: median {s['median_ratio']:.3f}, p90 {s['p90_ratio']:.3f}; worst: "
          + ", ".join(f"{w['page']} {w['ratio']:.2f} ({w['verdex_ms']:.1f}/{w['playwright_ms']:.1f} ms)"
                      for w in s["worst"][:3]))
    print(f"slower than Playwright on {len(s['slower'])}: {', '.join(s['slower']) or 'none'}")
    print(f"size (characters): ratio {s['size_ratio']:.3f} in total, median per page {s['median_size_ratio']:.3f}")
    if failed:
        print(f"skipped {len(failed)}: {', '.join(f['page'] for f in failed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
