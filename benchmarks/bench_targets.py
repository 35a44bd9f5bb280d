"""Time target resolution against ref resolution, and the stable-locator work an action adds.

    .venv/bin/python benchmarks/bench_targets.py --runs 5 [--no-log]

On the demo form (small) and the demo table (2000 rows, about 20,000 elements): `inspect REF` vs
`inspect TARGET` (the same element), `text TARGET` (resolution only), and `click TARGET` (resolution,
the stable locator recorded for `export`, and the click). Medians in milliseconds, one Chromium.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.demo_server import serve  # noqa: E402
from verdex_cli.commands.runner import execute  # noqa: E402
from verdex_cli.snapshot.capture import bridge_source  # noqa: E402


def timed(ctx, line: str, runs: int) -> float:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        res = execute(ctx, line)
        out.append((time.perf_counter() - start) * 1000)
        assert res.ok, (line, res.kind, res.message)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-log", action="store_true", help="skip the stable locator recorded for export")
    args = ap.parse_args()
    if args.no_log:
        from verdex_cli.commands import actions_cmd
        actions_cmd.note_target = lambda *a: None
    proc = launch.launch(headless=True, debug_port=True)
    server = serve()
    try:
        ctx = Workspace(lambda: Session.start(Options(connect=proc.http_endpoint, new_tab=True), init_script=bridge_source()))
        cases = {
            "form.html": ("button:Bold", "text button:Bold", "click button:Bold"),
            "table.html": ('"button:Buy 1999"', 'text "button:Buy 1999"', 'click "button:Buy 1999"'),
        }
        for page, (target, text_line, click_line) in cases.items():
            assert execute(ctx, "open " + server.url(page)).ok
            snap = execute(ctx, "snapshot").result.data
            ref = execute(ctx, f"text {target}").result.data["ref"]
            rows = {
                "inspect REF": timed(ctx, f"inspect {ref}", args.runs),
                "inspect TARGET": timed(ctx, f"inspect {target}", args.runs),
                "text TARGET": timed(ctx, text_line, args.runs),
                "click TARGET": timed(ctx, click_line, args.runs),
                "click REF": timed(ctx, f"click {ref}", args.runs),
            }
            print(f"{page} ({len(snap['refs'])} refs): " + ", ".join(f"{k} {v:.0f} ms" for k, v in rows.items()))
        ctx.close()
    finally:
        server.stop()
        proc.stop()


if __name__ == "__main__":
    main()
