"""Interactive (role, name) pairs on saved real pages: verdex's snapshot against Chrome's engine.

    python benchmarks/real_pages.py PATH... [--per-source N] [--verbose] [--json]

Each PATH is an .html file or a folder searched recursively; from each folder
at most N pages (--per-source, default 20) are taken, spread evenly over its
sorted file list, so a large documentation tree does not drown the others.
Pages are opened from disk (file:// URLs, so their own scripts and styles load
as saved) one after another in one headless Chromium.

Per page, the tier-1 pairs -- role and name of every button, link, textbox,
checkbox, radio, combobox, slider, menuitem(checkbox/radio), tab, switch,
searchbox and spinbutton -- are taken from `snapshot --all-refs` (main frame;
the lines of native media controls count, though they carry no ref) and from Accessibility.getFullAXTree (nodes not ignored, Chrome's internal
role names mapped to ARIA's).  Both are multisets: precision is the share of
verdex's pairs that Chrome also has, recall the share of Chrome's pairs verdex
has, summed over all pages.  A name cut in the snapshot (over 100 characters)
is compared with Chrome's name cut the same way.  --verbose prints, per page, the pairs only one
side has, which is where to look when the numbers move.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import conformance as conf  # noqa: E402  (also puts the checkout on sys.path)

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402
from verdex_cli.snapshot.render_text import cut  # noqa: E402

TIER1 = frozenset({
    "button", "link", "textbox", "checkbox", "radio", "combobox", "slider", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "searchbox", "spinbutton",
})


def pick(paths: list[Path], per_source: int) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_file():
            out.append(p)
            continue
        files = sorted(f for f in p.rglob("*.html") if f.is_file())
        if len(files) > per_source:
            step = len(files) / per_source
            files = [files[int(i * step)] for i in range(per_source)]
        out.extend(files)
    return out


def verdex_tier1(text: str) -> collections.Counter:
    """Tier-1 lines of the main frame: lines inside an iframe's subtree are left out, as Chrome's
    tree of the main target does not hold them (media controls have no ref but count)."""
    pairs: collections.Counter = collections.Counter()
    frame_depth = None  # indentation of the iframe line whose subtree is being skipped
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip(" "))
        if frame_depth is not None:
            if depth > frame_depth:
                continue
            frame_depth = None
        m = conf.LINE_RE.match(line)
        if not m:
            continue
        if "[frame=f" in line:
            frame_depth = depth
        if m.group(1) not in TIER1:
            continue
        name = json.loads(m.group(2)) if m.group(2) else ""
        pairs[(m.group(1), conf.norm(name))] += 1
    return pairs


def chrome_tier1(target) -> collections.Counter:
    """Chrome's names are cut as a snapshot line cuts a long name (100 characters, then "...")."""
    return collections.Counter((role, conf.norm(cut(name))) for role, name in conf.chrome_pairs(target)
                               if role in TIER1)


SETTLE = 0.3  # seconds after load for a page's own scripts (menus, search boxes built by script)


def run(files: list[Path], chrome_path: str | None) -> dict:
    proc = launch.launch(launch.find_chrome(chrome_path), debug_port=True)
    results: dict = {}
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=30))
        page = session.page
        for f in files:
            try:
                page.navigate(f.as_uri())
                time.sleep(SETTLE)
                snap, _ = PageState(page.prefix).snapshot(page, all_refs=True, fresh=True)
                ours, theirs = verdex_tier1(snap.text), chrome_tier1(page.target)
            except Exception as exc:  # noqa: BLE001 -- one broken page must not end the run
                print(f"{f}: skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
                continue
            both = ours & theirs
            results[str(f)] = {"verdex": sum(ours.values()), "chrome": sum(theirs.values()),
                               "both": sum(both.values()),
                               "extra": sorted((ours - theirs).items()), "missed": sorted((theirs - ours).items())}
        session.close()
    finally:
        proc.stop()
    return results


def ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path, help=".html files or folders of them")
    ap.add_argument("--per-source", type=int, default=20, help="pages taken from each folder (default 20)")
    ap.add_argument("--verbose", action="store_true", help="per page, the pairs only one side has")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    args = ap.parse_args()
    files = pick([p.resolve() for p in args.paths], args.per_source)
    if not files:
        print("no .html pages found", file=sys.stderr)
        return 2
    res = run(files, args.chrome)
    ours = sum(r["verdex"] for r in res.values())
    theirs = sum(r["chrome"] for r in res.values())
    both = sum(r["both"] for r in res.values())
    total = {"pages": len(res), "verdex": ours, "chrome": theirs, "both": both,
             "precision": round(ratio(both, ours), 4), "recall": round(ratio(both, theirs), 4)}
    if args.json:
        print(json.dumps({"pages": res, "totals": total}))
        return 0
    if args.verbose:
        for path, r in res.items():
            if not r["extra"] and not r["missed"]:
                continue
            print(f"{path}: verdex {r['verdex']}, chrome {r['chrome']}, both {r['both']}")
            for (role, name), n in r["extra"]:
                print(f"   + {role} {json.dumps(name)}" + (f" x{n}" if n > 1 else ""))
            for (role, name), n in r["missed"]:
                print(f"   - {role} {json.dumps(name)}" + (f" x{n}" if n > 1 else ""))
    print(f"{total['pages']} pages: verdex {ours} tier-1 pairs, Chrome {theirs}, in both {both}")
    print(f"precision {total['precision']:.3f}  recall {total['recall']:.3f}  (target >= 0.95 each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
