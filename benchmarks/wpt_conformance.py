"""Accessible names and roles on the web-platform-tests pages: verdex vs Chrome vs Playwright.

    python benchmarks/wpt_conformance.py --wpt DIR [--verbose] [--json] [--only GROUP]

DIR is a WPT checkout (or a partial copy keeping WPT's relative paths).  The
pages under accname/name/, html-aam/ and wai-aria/role/ are served over
loopback HTTP; /resources/testharness*.js and /resources/testdriver*.js are
served empty and /wai-aria/scripts/aria-utils.js as a no-op object, so no test
runs and nothing needs the network.  The pages are never copied into this
repository.

Expectations are the page's own, as WPT's aria-utils.js reads them: the
elements matched by the selectors the page passes to
AriaUtils.verifyLabelsBySelector / verifyRolesBySelector /
verifyRoleAndLabelBySelector / verifyGenericRolesBySelector (all elements with
data-expectedlabel / data-expectedrole when a page names no selector).

Scoring is per element, not by presence: each engine's node for *that*
element is looked up (verdex: the ref of the snapshot line, resolved to its
element in the snapshot's own world; Chrome: the getFullAXTree node with the
element's backendNodeId; Playwright: the aria-ref of the line, resolved with a
locator).  A name expectation holds when that node's name equals the expected
label after the same whitespace folding WPT does (ASCII whitespace collapsed,
trimmed); an element without a node has the empty name.  A role expectation
holds when the node's role equals the expected one; "img" and "image", "none"
and "presentation" are synonyms (ARIA 1.3), and "generic", "none" and "" are
one class (as WPT's verifyGenericRolesBySelector accepts), which an element
without a node (a collapsed generic, an ignored node) also belongs to.

Hidden elements: WPT's get_computed_label/role compute a name and role even for
an element that is not rendered (an input inside a display:none label, an
<rp>, an input[type=hidden], a closed popover).  No engine here shows such an
element, so each scores it alike, as an element without a node: the empty name
and a generic role.  Those expectations count as misses for every engine
(about 45 on the full suite), not as exclusions.

Pages whose expectations are built by script (html-aam/accname-computation-by-
element/*, via html-aam/scripts/html-aam-accname-utils.js, which must be in the
copy) are read after load; pages that assert get_computed_role on
getElementById(...) are read from those asserts; data-expected* values of
SPEC_AMBIGUOUS_LOG_VALUE are log values, not expectations.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import conformance as conf  # noqa: E402  (also puts the checkout on sys.path)

from harness import world_value  # noqa: E402
from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402

GROUPS = ("accname/name", "html-aam", "wai-aria/role")
STUB_UTILS = "window.AriaUtils = new Proxy({}, { get: () => () => {} });\n"
CALL_RE = re.compile(r"AriaUtils\.(verify\w*BySelector)\(\s*(?:\d+\s*,\s*)?([\"'])(.+?)\2")
# Pages that test roles without aria-utils.js: get_computed_role(getElementById('x')) then an assertion.
BY_ID_RE = re.compile(r"getElementById\('([\w-]+)'\)\);\s*assert_(?:equals\(role,\s*|true\(role\s*==\s*)\"([\w-]+)\"")
REF_RE = re.compile(r"\[ref=([a-z0-9]+?)e(\d+)\]")
GENERIC = {"generic", "none", "presentation", ""}
SYNONYMS = {"img": "image", "presentation": "none"}

# Role expectations that another WPT page, WPT's own later versions or the ARIA
# 1.3 mapping contradicts (the copy scored here may be older than WPT today).  They stay in the plain score; the "uncontested" row
# leaves them out.  (page, data-testname) -> why.
_ORPHAN = "contextual-roles.html expects the native/generic role for the same orphan markup"
_SECTION = "ARIA 1.3 / html-aam map header and footer inside sectioning content to sectionheader/sectionfooter"
_MOVED = ("WPT has since moved this case to html-aam/roles-contextual.tentative.html, which expects "
          "sectionheader/sectionfooter")
CONTESTED = {
    ("wai-aria/role/contextual-roles.html", "contentinfo region scoped to main element"):
        "WPT removed this expectation (commit b75f713): the scoping rule is <footer>'s, not role=contentinfo's",
    ("wai-aria/role/contextual-roles.html", "contentinfo region scoped to body element"):
        "WPT removed the scoped-contentinfo expectations (commit b75f713); an explicit role is not scoped",
    ("wai-aria/role/invalid-roles.html", "a role '&'"):
        "an <a href> expected as navigation: copied from the <nav> rows (every other <a> row expects link)",
    ("wai-aria/role/invalid-roles.html", "a role '<'"):
        "an <a href> expected as navigation: copied from the <nav> rows (every other <a> row expects link)",
    ("wai-aria/role/table-roles.html", "orphan p role is caption"): _ORPHAN,
    ("wai-aria/role/table-roles.html", "orphan span role is cell"): _ORPHAN,
    ("wai-aria/role/grid-roles.html", "first simple rowgroup"): _ORPHAN,
    ("wai-aria/role/contextual-roles.html", "footer scoped to main element"): _SECTION,
    ("html-aam/roles-contextual.html", "el-footer"): _MOVED,
    ("html-aam/roles-contextual.html", "el-header"): _MOVED,
    ("html-aam/roles.html", "el-footer"): _MOVED,
    ("html-aam/roles.html", "el-header"): _MOVED,
    ("html-aam/roles.html", "el-b"):
        "WPT's later roles.html moves <b> to roles-generic (generic), as html-aam maps it",
    ("html-aam/roles.html", "el-form"):
        "WPT's later roles.html names this form (aria-label); an unnamed form is generic "
        "(roles-contextual.tentative.html, el-form-no-name)",
}

# Collects the expectation elements in tree order (open shadow roots included).
# The same function runs in the page's world and in verdex's isolated world, so
# index i names the same element in both.
COLLECT_JS = r"""
((spec) => {
  const SKIP = 'SPEC_AMBIGUOUS_LOG_VALUE';
  const els = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      els.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  const m = (el, sels) => sels.some((s) => { try { return el.matches(s); } catch (e) { return false; } });
  const out = [];
  const picked = [];
  for (const el of els) {
    const known = (v) => (v === SKIP ? null : v);
    const lab = known(el.getAttribute('data-expectedlabel'));
    const rol = known(el.getAttribute('data-expectedrole'));
    const e = { name: el.getAttribute('data-testname') || '', tag: el.localName };
    if (spec.all) {
      if (lab !== null) e.label = lab;
      if (rol !== null) e.role = rol;
    } else {
      if (lab !== null && m(el, spec.label)) e.label = lab;
      if (rol !== null && m(el, spec.role)) e.role = rol;
      if (e.role === undefined && m(el, spec.generic)) e.role = 'generic';
    }
    if (e.role === undefined && el.id && spec.byId[el.id]) e.role = spec.byId[el.id];
    if (e.label !== undefined || e.role !== undefined) { out.push(e); picked.push(el); }
  }
  return [out, picked];
})
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):  # quiet
        pass

    def do_GET(self):  # noqa: N802
        path = self.path.split("?")[0]
        body = None
        if path.startswith("/resources/"):
            body = ""
        elif path == "/wai-aria/scripts/aria-utils.js":
            body = STUB_UTILS
        if body is None:
            return super().do_GET()
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}"


def selector_spec(source: str) -> dict:
    spec = {"label": [], "role": [], "generic": [], "all": False, "byId": dict(BY_ID_RE.findall(source))}
    for fn, _, sel in CALL_RE.findall(source):
        if fn == "verifyLabelsBySelector":
            spec["label"].append(sel)
        elif fn == "verifyRolesBySelector":
            spec["role"].append(sel)
        elif fn == "verifyGenericRolesBySelector":
            spec["generic"].append(sel)
        elif fn in ("verifyRoleAndLabelBySelector", "verifyRolesAndLabelsBySelector"):
            spec["label"].append(sel)
            spec["role"].append(sel)
    spec["all"] = not (spec["label"] or spec["role"] or spec["generic"] or spec["byId"])
    return spec


def pages(root: Path, only: str | None) -> list[Path]:
    out = []
    for g in GROUPS:
        if only and not g.startswith(only):
            continue
        for p in sorted((root / g).rglob("*.html")):
            src = p.read_text(encoding="utf-8", errors="replace")
            if "data-expected" in src or CALL_RE.search(src) or BY_ID_RE.search(src):
                out.append(p)
    return out


def role_ok(expected: str, got: str | None) -> bool:
    exp = SYNONYMS.get(expected, expected)
    got = SYNONYMS.get(got or "", got or "")
    if exp in GENERIC:
        return got in GENERIC
    return exp == got


def fold(s: str | None) -> str:
    return re.sub(r"[\t\n\f\r ]+", " ", s or "").strip(" ")


def score(exps: list[dict], nodes: dict[int, tuple[str, str]], contested: frozenset = frozenset()) -> dict:
    """nodes: element index -> (role, name) of the engine's node for it.  "uncontested"
    counts the role expectations outside `contested` (test names, see CONTESTED)."""
    res = {"names": [0, 0, []], "roles": [0, 0, []], "uncontested": [0, 0]}
    for i, e in enumerate(exps):
        role, name = nodes.get(i, ("", ""))
        if "label" in e:
            b = res["names"]
            b[1] += 1
            if fold(name) == fold(e["label"]):
                b[0] += 1
            else:
                b[2].append(f'{e["name"] or e["tag"]}: expected name "{fold(e["label"])}", got {role or "-"} "{fold(name)}"')
        if "role" in e:
            b = res["roles"]
            b[1] += 1
            ok = role_ok(e["role"], role)
            if e["name"] not in contested:
                res["uncontested"][1] += 1
                res["uncontested"][0] += ok
            if ok:
                b[0] += 1
            else:
                b[2].append(f'{e["name"] or e["tag"]}: expected role {e["role"] or "(none)"}, got {role or "(no node)"}')
    return res


def line_nodes(text: str, ref_re: re.Pattern) -> dict[str, tuple[str, str]]:
    """ref -> (role, name) for each snapshot line that carries a ref."""
    out = {}
    for line in text.splitlines():
        m = conf.LINE_RE.match(line)
        r = ref_re.search(line)
        if not m or not r:
            continue
        name = json.loads(m.group(2)) if m.group(2) else ""
        out[r.group(0)] = (m.group(1), name)
    return out


def verdex_nodes(page, spec: dict) -> dict[int, tuple[str, str]]:
    """An element with a ref is read from its own line.  Other lines carry no ref, so for
    an element without one the engine's own role and name for it are looked up among
    the snapshot's ref-less lines (each line serves one element): the element counts as
    shown with that role and name only if the snapshot has such a line."""
    snap, _ = PageState(page.prefix).snapshot(page, all_refs=True, fresh=True)
    expr = ("(() => { const [_, els] = " + COLLECT_JS + "(" + json.dumps(spec) + ");"
            " const at = new Map(els.map((e, i) => [e, i])); const refs = {};"
            " for (let n = 1; n <= __verdex.bridge.counter; n++) { const el = __verdex.bridge.element(n);"
            " if (el && at.has(el)) refs[n] = at.get(el); }"
            " const A = __verdex.bridge.aria; const own = []; A.begin();"
            " try { for (const el of els) { const r = A.role(el) || 'generic';"
            " own.push(A.isHidden(el) ? null : [r, A.name(el, r).name]); } } finally { A.end(); }"
            " return { refs, own }; })()")
    data = world_value(page, page.frames.main, expr)["value"]
    refs, own = data["refs"], data["own"]
    out: dict[int, tuple[str, str]] = {}
    free: dict[tuple[str, str], int] = {}
    main_prefix = None
    for line in snap.text.splitlines():
        m = conf.LINE_RE.match(line)
        if not m:
            continue
        name = json.loads(m.group(2)) if m.group(2) else ""
        r = REF_RE.search(line)
        if r and main_prefix is None and r.group(1).endswith("f0"):
            main_prefix = r.group(1)
        if r and r.group(1) == main_prefix and r.group(2) in refs:
            out.setdefault(refs[r.group(2)], (m.group(1), name))
        elif not r:
            key = (m.group(1), fold(name))
            free[key] = free.get(key, 0) + 1
    for i, rn in enumerate(own):
        if i in out or rn is None:
            continue
        key = (rn[0], fold(rn[1]))
        if free.get(key, 0) > 0:
            free[key] -= 1
            out[i] = (rn[0], rn[1])
    return out


def chrome_nodes(target, count: int, spec: dict) -> dict[int, tuple[str, str]]:
    res = target.call("Runtime.evaluate", expression=COLLECT_JS + "(" + json.dumps(spec) + ")[1]")
    props = target.call("Runtime.getProperties", objectId=res["result"]["objectId"], ownProperties=True)["result"]
    backend = {}
    for p in props:
        if p["name"].isdigit() and "objectId" in p.get("value", {}):
            node = target.call("DOM.describeNode", objectId=p["value"]["objectId"])["node"]
            backend[node["backendNodeId"]] = int(p["name"])
    target.call("Accessibility.enable")
    out = {}
    for n in target.call("Accessibility.getFullAXTree")["nodes"]:
        i = backend.get(n.get("backendDOMNodeId"))
        if i is None or i in out or n.get("ignored"):
            continue
        raw = (n.get("role") or {}).get("value") or ""
        role = conf.CHROME_ROLES.get(raw, raw)
        out[i] = (role, (n.get("name") or {}).get("value", ""))
    return out


def playwright_nodes(pw_page, spec: dict) -> dict[int, tuple[str, str]]:
    pw_page.evaluate("(spec) => { window.__wptEls = (" + COLLECT_JS + ")(spec)[1]; }", spec)
    text = pw_page.aria_snapshot(mode="ai")
    out = {}
    for ref, rn in line_nodes(text, re.compile(r"\[ref=(e\d+)\]")).items():
        r = ref[len("[ref="):-1]
        try:
            i = pw_page.locator(f"aria-ref={r}").evaluate("(e) => window.__wptEls.indexOf(e)", timeout=2000)
        except Exception:  # noqa: BLE001 - a ref Playwright cannot resolve counts as no node
            continue
        if i >= 0 and i not in out:
            out[i] = rn
    return out


def run(root: Path, only: str | None, chrome_path: str | None, with_playwright: bool) -> dict:
    srv, base = serve(root)
    files = pages(root, only)
    results: dict = {}
    pw = browser = None
    if with_playwright:
        try:
            from playwright.sync_api import sync_playwright
            pw = sync_playwright().start()
            browser = pw.chromium.launch(executable_path=launch.find_chrome(chrome_path))
        except Exception as exc:  # noqa: BLE001
            print(f"playwright unavailable: {exc}", file=sys.stderr)
            pw = browser = None
    proc = launch.launch(launch.find_chrome(chrome_path), debug_port=True)
    try:
        session = Session.start(Options(connect=proc.http_endpoint, timeout=30))
        page = session.page
        for f in files:
            rel = f.relative_to(root).as_posix()
            spec = selector_spec(f.read_text(encoding="utf-8", errors="replace"))
            url = f"{base}/{rel}"
            page.navigate(url)
            exps = page.evaluate(COLLECT_JS + "(" + json.dumps(spec) + ")[0]")
            if not exps:
                continue
            group = next(g for g in GROUPS if rel.startswith(g))
            disputed = frozenset(name for (pg, name) in CONTESTED if pg == rel)
            entry = {"group": group, "count": len(exps),
                     "verdex": score(exps, verdex_nodes(page, spec), disputed),
                     "chrome": score(exps, chrome_nodes(page.target, len(exps), spec), disputed)}
            if browser is not None:  # a fresh page each time: aria-refs do not survive a navigation
                pw_page = browser.new_page()
                pw_page.goto(url)
                entry["playwright"] = score(exps, playwright_nodes(pw_page, spec), disputed)
                pw_page.close()
            results[rel] = entry
        session.close()
    finally:
        proc.stop()
        if browser:
            browser.close()
        if pw:
            pw.stop()
        srv.shutdown()
    return results


def totals(results: dict, engines: list[str]) -> dict:
    out: dict = {}
    for r in results.values():
        for key in (r["group"], "all"):
            for eng in engines:
                for kind in ("names", "roles", "uncontested"):
                    c = out.setdefault(key, {}).setdefault(eng, {}).setdefault(kind, [0, 0])
                    c[0] += r[eng][kind][0]
                    c[1] += r[eng][kind][1]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wpt", required=True, type=Path, help="a WPT checkout (or a partial copy)")
    ap.add_argument("--only", help="one group (accname/name, html-aam, wai-aria/role)")
    ap.add_argument("--verbose", action="store_true", help="list every verdex miss")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--no-playwright", action="store_true", help="leave Playwright out")
    ap.add_argument("--chrome", default=None, help="browser executable (default: as verdex finds it)")
    args = ap.parse_args()
    results = run(args.wpt.resolve(), args.only, args.chrome, not args.no_playwright)
    engines = ["verdex", "chrome"] + (["playwright"] if any("playwright" in r for r in results.values()) else [])
    tot = totals(results, engines)
    if args.json:
        print(json.dumps({"pages": results, "totals": tot}))
        return 0
    n_names = tot.get("all", {}).get("verdex", {}).get("names", [0, 0])[1]
    n_roles = tot.get("all", {}).get("verdex", {}).get("roles", [0, 0])[1]
    print(f"{len(results)} pages, {n_names} name and {n_roles} role expectations")
    head = "".join(f"{e + ' names':>22}" for e in engines) + "".join(f"{e + ' roles':>22}" for e in engines)
    print(f"{'group':<16}{head}")
    for key, d in tot.items():
        print(f"{key:<16}" + "".join(f"{conf.pct(*d[e]['names']):>22}" for e in engines)
              + "".join(f"{conf.pct(*d[e]['roles']):>22}" for e in engines))
    if "all" in tot:
        d = tot["all"]
        print(f"{'roles, uncontested':<16}" + " " * 22 * len(engines)
              + "".join(f"{conf.pct(*d[e]['uncontested']):>22}" for e in engines)
              + f"   (leaves out {n_roles - d['verdex']['uncontested'][1]} contested expectations, see CONTESTED)")
    if args.verbose:
        for rel, r in results.items():
            for m in r["verdex"]["names"][2] + r["verdex"]["roles"][2]:
                print(f"{rel}: {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
