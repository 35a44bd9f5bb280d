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

import harness as h


def ref(snap, name: str, frame: int = 0) -> str:
    return next(r for r, i in snap.data["refs"].items() if i["name"] == name and i["frame"] == frame)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    def timed(line: str) -> float:
        return round(h.measure(lambda: h.run(ctx, line), args.runs).median, 1)

    with h.served() as server, h.chrome() as proc, h.workspace(proc.http_endpoint, timeout=30) as ctx:
        h.run(ctx, "open " + server.url("form.html"))
        snap = h.run(ctx, "snapshot").result
        name, comments = ref(snap, "Name"), ref(snap, "Comments")
        out = {"fill_main_ms": timed(f"fill {name} Ada Lovelace"),
               "type_20_chars_main_ms": timed(f"type {comments} abcdefghij0123456789"),
               "press_target_main_ms": timed(f"press {name} End")}
        h.run(ctx, "open " + server.url("frames.html"))
        snap = h.run(ctx, "snapshot").result
        cross = ref(snap, "Frame input", 2)
        out["fill_cross_origin_frame_ms"] = timed(f"fill {cross} hello")
        out["type_20_chars_cross_origin_frame_ms"] = timed(f"type {cross} abcdefghij0123456789")
    h.print_values(out, args.json, "{key:40} {value:8.1f}")

if __name__ == "__main__":
    main()
