"""The snapshot text the pages render (text.js, stitched by views.py), checked on real saved pages.

    python benchmarks/real_text_check.py CORPUS_DIR [--only NAME]

Per page (served on loopback, every other host unreachable, as bench_real.py does): `open`, a fresh
snapshot, then a change the page makes by itself (a timer sets one element's text and removes another)
and a snapshot of it -- a frame's patched tree or a whole walk, answered as the lines that changed.
Every snapshot is compared with a Python render (render_text.py) of a whole capture of the same page:
text, node identities, refs and hidden refs (the suite's VERDEX_CHECK_PATCHES check, turned on here).
After the fresh snapshot, `snapshot --interactive` must show every ref the full snapshot's text shows
(a ref inside a heading, a landmark whose only ref is in a heading).
Prints the pages that differ (with the first difference) and the counts; exit status 1 when any does.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import urllib.parse
from pathlib import Path

import harness as h
from bench_real import RESOLVER, corpus_or_exit

from verdex_cli.commands.runner import execute
from verdex_cli.snapshot import take

REF = re.compile(r"\[ref=(c\d+p\d+f\d+e\d+)\]")
CHANGE = ("eval setTimeout(() => { const e = document.querySelectorAll('p, li, h2, a'); "
          "if (e[3]) e[3].textContent = 'changed by the check'; if (e[7]) e[7].remove(); }, 400); 1")


def check(ctx, url: str) -> tuple[str, str]:
    """('same' | 'differs' | 'skipped', how the second capture went or what failed)."""
    steps = ["open " + url, "snapshot --fresh", "snapshot --interactive", CHANGE, "snapshot", None, "snapshot"]
    shown: list[set] = []
    for line in steps:
        if line is None:
            time.sleep(0.6)  # the page's timer changes it, no command in between
            continue
        out = execute(ctx, line)
        if not out.ok:
            return ("differs" if "PatchMismatch" in out.message else "skipped"), out.message
        if line.startswith("snapshot") and len(shown) < 2:
            shown.append(set(REF.findall(out.result.data["text"])))
            if len(shown) == 2 and shown[0] - shown[1]:
                return "differs", f"snapshot --interactive lacks {sorted(shown[0] - shown[1])[:10]}"
    phases = [p["phase"] for p in ctx.last_timings["phases"]]
    if any(p.startswith("patch f") for p in phases):
        return "same", "patched"
    if any(p.startswith("changed lines f") for p in phases):
        return "same", "changed lines of a whole walk"
    return "same", "whole"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="folder of saved .html pages (outside the repository)")
    ap.add_argument("--only", default=None, help="one page (file name, with or without .html)")
    args = ap.parse_args()
    root, names = corpus_or_exit(args.corpus, args.only)
    take.CHECK_PATCHES = True
    counts: dict[str, int] = {}
    how: dict[str, int] = {}
    with h.served(root) as server, h.chrome(None, extra_args=(RESOLVER,)) as proc, \
            h.workspace(proc.http_endpoint, timeout=30.0) as ctx:
        for name in names:
            verdict, detail = check(ctx, server.url(urllib.parse.quote(name)))
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict == "same":
                how[detail] = how.get(detail, 0) + 1
            else:
                print(f"{verdict}: {name}: {detail[:600]}", flush=True)
    print(f"{len(names)} pages: the same as a whole capture rendered in Python on {counts.get('same', 0)}, "
          f"different on {counts.get('differs', 0)}, skipped {counts.get('skipped', 0)}; "
          f"the second snapshot: " + ", ".join(f"{k} {v}" for k, v in sorted(how.items())))
    return 1 if counts.get("differs") else 0


if __name__ == "__main__":
    sys.exit(main())
