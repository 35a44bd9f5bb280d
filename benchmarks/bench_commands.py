"""Per-command cost of the bookkeeping every command now does (tabs, dialogs, downloads) and of
honest navigation (HTTP status).

    python benchmarks/bench_commands.py [--runs 50] [--json]

Reports median milliseconds of: `eval 1` end to end, the after-command hook alone
(Session.after_command), and `open` of a small demo page (with its status).
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
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.commands.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402


def _median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    server = serve()
    proc = launch.launch(debug_port=True)
    try:
        opts = Options(connect=proc.http_endpoint, timeout=30)
        ctx = Workspace(lambda: Session.start(opts, init_script=bridge_source()))
        url = server.url("blank.html")
        assert execute(ctx, "open " + url).ok

        def run(line):
            out = execute(ctx, line)
            assert out.ok, out.message

        out = {
            "eval_1_ms": _median_ms(lambda: run("eval 1"), args.runs),
            "after_command_ms": _median_ms(ctx.session.after_command, args.runs),
            "open_ms": _median_ms(lambda: run("open " + url), max(5, args.runs // 5)),
        }
        ctx.close()
    finally:
        proc.stop()
        server.stop()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>18}: {v} ms")


if __name__ == "__main__":
    main()
