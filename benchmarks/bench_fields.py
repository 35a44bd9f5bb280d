"""What verified focus costs: the time of fill, type and press on the demo site.

    python benchmarks/bench_fields.py [--runs 9] [--json]

Drives one launched headless Chromium through the command runner (as the REPL
does) on form.html and frames.html, and reports the median milliseconds of:
fill in the main frame, type of 20 characters (a focus check before every
character), press with a target, and fill/type in the cross-origin frame (the
focus check then also asks the parent document).
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


def ref(snap, name: str, frame: int = 0) -> str:
    return next(r for r, i in snap.data["refs"].items() if i["name"] == name and i["frame"] == frame)


def timed(ctx, line: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = execute(ctx, line)
        times.append((time.perf_counter() - t0) * 1000)
        if not out.ok:
            raise SystemExit(f"{line}: {out.kind}: {out.message}")
    return round(statistics.median(times), 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    server, proc = serve(), launch.launch(headless=True, debug_port=True)
    try:
        ctx = Workspace(lambda: Session.start(Options(connect=proc.http_endpoint, timeout=30),
                                            init_script=bridge_source()))
        execute(ctx, "open " + server.url("form.html"))
        snap = execute(ctx, "snapshot").result
        name, comments = ref(snap, "Name"), ref(snap, "Comments")
        out = {"fill_main_ms": timed(ctx, f"fill {name} Ada Lovelace", args.runs),
               "type_20_chars_main_ms": timed(ctx, f"type {comments} abcdefghij0123456789", args.runs),
               "press_target_main_ms": timed(ctx, f"press {name} End", args.runs)}
        execute(ctx, "open " + server.url("frames.html"))
        snap = execute(ctx, "snapshot").result
        cross = ref(snap, "Frame input", 2)
        out["fill_cross_origin_frame_ms"] = timed(ctx, f"fill {cross} hello", args.runs)
        out["type_20_chars_cross_origin_frame_ms"] = timed(ctx, f"type {cross} abcdefghij0123456789", args.runs)
        ctx.close()
    finally:
        proc.stop()
        server.stop()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:40} {v:8.1f}")


if __name__ == "__main__":
    main()
