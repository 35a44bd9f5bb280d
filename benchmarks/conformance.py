"""Accessible name and role conformance: verdex's snapshot vs Chrome's own engine.

    python benchmarks/conformance.py [--verbose] [--json] [--only CATEGORY]

The pages under benchmarks/conformance/<category>/*.html carry expectations
taken from the specs (accname 1.2, html-aam, core-aam, wai-aria 1.3) as
attributes on any element:

    data-expect='link "Home"'     a name expectation: the pair (role, name)
    data-expect='rowgroup'        a role expectation: the role (any name)
    data-expect-why='...'         optional note (which spec rule)

A page is scored by presence, as a person reading the snapshot would check
it: an expectation holds when the snapshot shows a node with that role (and
name).  Equal expectations on one page need as many such nodes (a multiset).
Verdex is read from its real snapshot text (`- role "name" ...` lines);
Chrome from Accessibility.getFullAXTree (non-ignored nodes, Chrome-internal
role names mapped to ARIA ones).  The score is printed per category, for
names and roles, side by side.

Run it on another checkout to compare (e.g. before and after a change):
``PYTHONPATH=/path/to/other/checkout python benchmarks/conformance.py``.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGES = HERE / "conformance"
if not any(Path(p).resolve() != HERE.parent and (Path(p) / "verdex_cli").is_dir() for p in sys.path if p):
    sys.path.insert(0, str(HERE.parent))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402

EXPECT_RE = re.compile(r"""data-expect\s*=\s*(?:'([^']*)'|"([^"]*)")""")
LINE_RE = re.compile(r'^\s*- ([a-z][a-z-]*)(?: ("(?:[^"\\]|\\.)*"))?')
WS = re.compile(r"[ \t\n\r\f]+")

# Chrome-internal role names (getFullAXTree) -> ARIA role names.
CHROME_ROLES = {
    "image": "img", "ListBoxOption": "option", "MenuListOption": "option", "MenuListPopup": "menu",
    "DisclosureTriangle": "button", "ColorWell": "button", "Date": "textbox", "DateTime": "textbox",
    "InputTime": "textbox", "RootWebArea": "document", "LabelText": "label", "Legend": "legend",
    "DescriptionList": "list", "Figcaption": "caption", "Iframe": "iframe",
    "IframePresentational": "iframe", "PopUpButton": "combobox", "ToggleButton": "button",
    "MenuButton": "button", "LayoutTable": "table", "LayoutTableRow": "row", "LayoutTableCell": "cell",
    "Abbr": "generic", "Canvas": "generic", "Section": "generic", "Pre": "generic", "Ruby": "generic",
    "RubyAnnotation": "generic", "LineBreak": "generic", "presentation": "none",
    "DescriptionListTerm": "term", "DescriptionListDetail": "definition",
    "EmbeddedObject": "generic", "PluginObject": "generic", "Video": "generic", "Audio": "generic",
    "SliderThumb": "generic",
}
CHROME_SKIP = {"StaticText", "InlineTextBox", "none", "Ignored"}


def norm(s: str | None) -> str:
    return WS.sub(" ", s or "").strip()


def parse_expect(raw: str) -> tuple[str, str | None]:
    raw = raw.strip()
    m = re.match(r'^([a-z][a-z-]*)\s*(?:"(.*)")?\s*$', raw, re.S)
    if not m:
        raise ValueError(f"bad data-expect {raw!r}")
    return m.group(1), (None if m.group(2) is None else norm(m.group(2)))


def expectations(page: Path) -> list[tuple[str, str | None]]:
    out = []
    for m in EXPECT_RE.finditer(page.read_text(encoding="utf-8")):
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        out.append(parse_expect(raw.replace("&quot;", '"').replace("&amp;", "&")))
    return out


def verdex_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.splitlines():
        m = LINE_RE.match(line)
        if not m or m.group(1) == "text":
            continue
        name = json.loads(m.group(2)) if m.group(2) else ""
        pairs.append((m.group(1), norm(name)))
    return pairs


def chrome_pairs(target) -> list[tuple[str, str]]:
    target.call("Accessibility.enable")
    nodes = target.call("Accessibility.getFullAXTree")["nodes"]
    pairs = []
    for n in nodes:
        if n.get("ignored"):
            continue
        raw = (n.get("role") or {}).get("value")
        if not raw or raw in CHROME_SKIP:
            continue
        role = CHROME_ROLES.get(raw, raw)
        if role == "none":
            continue
        pairs.append((role, norm((n.get("name") or {}).get("value", ""))))
    return pairs


def score(expect: list[tuple[str, str | None]], pairs: list[tuple[str, str]]) -> dict:
    """{'names': (ok, total, misses), 'roles': (ok, total, misses)} by multiset matching."""
    have_pair = collections.Counter(pairs)
    have_role = collections.Counter(r for r, _ in pairs)
    res = {"names": [0, 0, []], "roles": [0, 0, []]}
    # Name expectations first: they consume the nodes they match.
    for role, name in [e for e in expect if e[1] is not None]:
        bucket = res["names"]
        bucket[1] += 1
        if have_pair[(role, name)] > 0:
            have_pair[(role, name)] -= 1
            bucket[0] += 1
        else:
            bucket[2].append(f'{role} "{name}"')
    for role, _ in [e for e in expect if e[1] is None]:
        bucket = res["roles"]
        bucket[1] += 1
        if have_role[role] > 0:
            have_role[role] -= 1
            bucket[0] += 1
        else:
            bucket[2].append(role)
    return res


def run(only: str | None, chrome_path: str | None) -> dict:
    proc = launch.launch(launch.find_chrome(chrome_path), debug_port=True)
    results: dict = {}
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=30))
        page = session.page
        for cat_dir in sorted(p for p in PAGES.iterdir() if p.is_dir()):
            if only and cat_dir.name != only:
                continue
            for html in sorted(cat_dir.glob("*.html")):
                page.navigate(html.as_uri())
                snap, _ = PageState(page.prefix).snapshot(page, all_refs=True, fresh=True)
                exp = expectations(html)
                results[f"{cat_dir.name}/{html.name}"] = {
                    "category": cat_dir.name,
                    "verdex": score(exp, verdex_pairs(snap.text)),
                    "chrome": score(exp, chrome_pairs(page.target)),
                }
        session.close()
    finally:
        proc.stop()
    return results


def totals(results: dict) -> dict:
    cats: dict = {}
    for r in results.values():
        for tool in ("verdex", "chrome"):
            for kind in ("names", "roles"):
                c = cats.setdefault(r["category"], {}).setdefault(tool, {}).setdefault(kind, [0, 0])
                c[0] += r[tool][kind][0]
                c[1] += r[tool][kind][1]
    return cats


def pct(ok: int, total: int) -> str:
    return f"{ok / total:6.1%} ({ok}/{total})" if total else "     -"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="one category (folder name)")
    ap.add_argument("--verbose", action="store_true", help="list every miss")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    args = ap.parse_args()
    results = run(args.only, args.chrome)
    cats = totals(results)
    if args.json:
        print(json.dumps({"pages": results, "categories": cats}))
        return 0
    grand = {t: {k: [0, 0] for k in ("names", "roles")} for t in ("verdex", "chrome")}
    print(f"{'category':<22} {'verdex names':>20} {'chrome names':>20} {'verdex roles':>20} {'chrome roles':>20}")
    for cat, d in cats.items():
        for t in grand:
            for k in grand[t]:
                grand[t][k][0] += d[t][k][0]
                grand[t][k][1] += d[t][k][1]
        print(f"{cat:<22} {pct(*d['verdex']['names']):>20} {pct(*d['chrome']['names']):>20} "
              f"{pct(*d['verdex']['roles']):>20} {pct(*d['chrome']['roles']):>20}")
    print(f"{'all':<22} {pct(*grand['verdex']['names']):>20} {pct(*grand['chrome']['names']):>20} "
          f"{pct(*grand['verdex']['roles']):>20} {pct(*grand['chrome']['roles']):>20}")
    if args.verbose:
        for key, r in results.items():
            for tool in ("verdex", "chrome"):
                misses = r[tool]["names"][2] + r[tool]["roles"][2]
                if misses:
                    print(f"{key} {tool} misses: " + "; ".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
