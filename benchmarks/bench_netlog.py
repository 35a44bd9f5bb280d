"""Memory of the network log on a page that polls forever, in fast time: the page fetches a small
JSON answer as fast as the server answers (CONCURRENCY requests at once; the bodies are read, so each
is also asked for by the log) and logs a console line for every one, until REQUESTS requests went out.
Reports at checkpoints this process's RSS, the tab's JS heap and how many requests and messages the
log holds (at most 1,000 each).

    python benchmarks/bench_netlog.py [--requests 100000] [--json]

RSS and the heap should stay flat once the log is full.
"""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from http.server import ThreadingHTTPServer

import harness as h
from bench_memory import js_heap_mb, rss_mb

sys.path.insert(0, str(h.ROOT / "tests"))
from quiet_http import QuietHandler  # noqa: E402

PAGE = b"""<!doctype html><title>Poll</title><p id=n>0</p><script>
window.sent = 0;
window.poll = async (total, at_once) => {
  const worker = async () => {
    while (window.sent < total) {
      window.sent++;
      const r = await fetch('/tick?' + window.sent);
      const j = await r.json();
      if (j.n % 100 === 0) { document.getElementById('n').textContent = j.n; }
      console.log('tick', j.n);
    }
  };
  await Promise.all(Array.from({length: at_once}, worker));
  return window.sent;
};
</script>"""


class Poll(QuietHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802
        if self.path.startswith("/tick"):
            self._send(200, b'{"n": %s}' % self.path.split("?")[1].encode(), "application/json")
        else:
            self._send(200, PAGE)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=100_000)
    ap.add_argument("--concurrency", type=int, default=6)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Poll)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    rows = []
    with h.chrome(None) as proc, h.session(proc.http_endpoint, timeout=600) as session:
        page = session.page
        page.navigate(f"http://127.0.0.1:{server.server_address[1]}/")
        started = time.perf_counter()
        step = max(args.requests // 5, 1)
        for done in range(step, args.requests + 1, step):
            page.evaluate(f"poll({done}, {args.concurrency})", timeout=600)
            gc.collect()
            log = page.netlog
            rows.append({"requests": done, "rss_mb": round(rss_mb(), 1), "js_heap_mb": round(js_heap_mb(page), 1),
                         "log_requests": len(log.requests), "log_messages": len(log.messages),
                         "pending_calls": len(page.target.method_results),
                         "elapsed_s": round(time.perf_counter() - started, 1)})
            if not args.json:
                print(rows[-1], flush=True)
    server.shutdown()
    report = {"requests": args.requests, "checkpoints": rows, "rss_growth_mb": round(rows[-1]["rss_mb"] - rows[0]["rss_mb"], 1)}
    if args.json:
        h.write_json(report)
    else:
        print(f"RSS {rows[0]['rss_mb']} MB after {rows[0]['requests']:,} requests, {rows[-1]['rss_mb']} MB after "
              f"{rows[-1]['requests']:,}; the log holds {rows[-1]['log_requests']} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
