"""Memory across many snapshots of a page that re-renders everything each time.

The page has N buttons (default 500); before every snapshot all of them are replaced by new nodes
(a framework re-render), so every snapshot issues N new refs and N old ones are gone for good.
Reports, at a few checkpoints, the JS heap of the tab (after HeapProfiler.collectGarbage; the isolated
world shares the tab's heap), this process's RSS, the page-side registry size and the RefStore's
records and tombstones.

    python benchmarks/bench_memory.py [--snapshots 1000] [--buttons 500] [--json]

Both heap and RSS should stay flat after the first few snapshots.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

import harness as h
from verdex_cli.refs.page_state import PageState

PAGE = """<!DOCTYPE html><title>Re-render</title><main id="app"></main><script>
let round = 0;
window.rerender = (n) => {
  round++;
  const app = document.getElementById('app');
  const parts = [];
  for (let i = 0; i < n; i++) parts.push('<button type="button" data-id="b' + i + '">Button ' + i + '</button>');
  app.innerHTML = parts.join('');
};
</script>"""


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def js_heap_mb(page) -> float:
    page.target.call("HeapProfiler.collectGarbage", timeout=60)
    return page.target.call("Runtime.getHeapUsage")["usedSize"] / 1e6


def registry_size(page) -> int | None:
    fr = page.frames.main
    try:
        return h.world_value(page, fr, "__verdex.bridge.registered")["value"]
    except Exception:  # an older bridge without the getter
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snapshots", type=int, default=1000)
    ap.add_argument("--buttons", type=int, default=500)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None)
    args = ap.parse_args()
    rows = []
    with h.chrome(args.chrome) as proc, h.session(proc.http_endpoint) as session:
        page = session.page
        page.navigate("data:text/html," + PAGE.replace("#", "%23"))
        state = PageState(page.prefix)
        store = state.store
        checkpoints = {1, 10, 100, args.snapshots // 4, args.snapshots // 2, args.snapshots * 3 // 4, args.snapshots}
        started = time.perf_counter()
        for i in range(1, args.snapshots + 1):
            page.evaluate(f"rerender({args.buttons})")
            snap, _ = state.snapshot(page, fresh=True)
            assert sum(1 for r in snap.refs.values() if r.role == "button") == args.buttons
            if i in checkpoints:
                gc.collect()
                rows.append({"snapshot": i, "js_heap_mb": round(js_heap_mb(page), 2), "rss_mb": round(rss_mb(), 2),
                             "registry": registry_size(page), "records": len(store.records),
                             "tombstones": getattr(store, "tombstone_count", None),
                             "elapsed_s": round(time.perf_counter() - started, 1)})
                if not args.json:
                    print(rows[-1], flush=True)
    first, last = rows[0], rows[-1]
    report = {"snapshots": args.snapshots, "buttons": args.buttons, "checkpoints": rows,
              "js_heap_growth_mb": round(last["js_heap_mb"] - rows[1]["js_heap_mb"], 2),
              "rss_growth_mb": round(last["rss_mb"] - rows[1]["rss_mb"], 2)}
    if args.json:
        h.write_json(report)
    else:
        print(f"JS heap: {first['js_heap_mb']} MB after 1 snapshot, {rows[1]['js_heap_mb']} MB after "
              f"{rows[1]['snapshot']}, {last['js_heap_mb']} MB after {last['snapshot']}")
        print(f"RSS:     {first['rss_mb']} MB after 1 snapshot, {rows[1]['rss_mb']} MB after "
              f"{rows[1]['snapshot']}, {last['rss_mb']} MB after {last['snapshot']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
