"""Time target resolution against ref resolution, and the stable-locator work an action adds.

    .venv/bin/python benchmarks/bench_targets.py --runs 5 [--no-log]

On the demo form (small) and the demo table (2000 rows, about 20,000 elements): `inspect REF` vs
`inspect TARGET` (the same element), `text TARGET` (resolution only), and `click TARGET` (resolution,
the stable locator recorded for `export`, and the click). Medians in milliseconds, one Chromium.
"""

from __future__ import annotations

import argparse

import harness as h


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-log", action="store_true", help="skip the stable locator recorded for export")
    args = ap.parse_args()
    if args.no_log:
        from verdex_cli.commands import actions_cmd
        actions_cmd.note_target = lambda *a: None

    def timed(line: str) -> float:
        return h.measure(lambda: h.run(ctx, line), args.runs).median

    with h.chrome() as proc, h.served() as server, h.workspace(proc.http_endpoint, timeout=10) as ctx:
        cases = {
            "form.html": ("button:Bold", "text button:Bold", "click button:Bold"),
            "table.html": ('"button:Buy 1999"', 'text "button:Buy 1999"', 'click "button:Buy 1999"'),
        }
        for page, (target, text_line, click_line) in cases.items():
            h.run(ctx, "open " + server.url(page))
            snap = h.run(ctx, "snapshot").result.data
            ref = h.run(ctx, f"text {target}").result.data["ref"]
            rows = {
                "inspect REF": timed(f"inspect {ref}"),
                "inspect TARGET": timed(f"inspect {target}"),
                "text TARGET": timed(text_line),
                "click TARGET": timed(click_line),
                "click REF": timed(f"click {ref}"),
            }
            print(f"{page} ({len(snap['refs'])} refs): " + ", ".join(f"{k} {v:.0f} ms" for k, v in rows.items()))


if __name__ == "__main__":
    main()
