"""Per-command cost of the bookkeeping every command now does (tabs, dialogs, downloads) and of
honest navigation (HTTP status).

    python benchmarks/bench_commands.py [--runs 50] [--json]

Reports median milliseconds of: `eval 1` end to end, the after-command hook alone
(Session.after_command), and `open` of a small demo page (with its status).
"""

from __future__ import annotations

import argparse

import harness as h


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint, timeout=30) as ctx:
        url = server.url("blank.html")
        h.run(ctx, "open " + url)
        out = {
            "eval_1_ms": h.measure(lambda: h.run(ctx, "eval 1"), args.runs).median,
            "after_command_ms": h.measure(ctx.session.after_command, args.runs).median,
            "open_ms": h.measure(lambda: h.run(ctx, "open " + url), max(5, args.runs // 5)).median,
        }
    out = {k: round(v, 2) for k, v in out.items()}
    h.print_values(out, args.json, "{key:>18}: {value} ms")

if __name__ == "__main__":
    main()
