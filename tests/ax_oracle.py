"""Compare verdex's the aria engine (engine/aria/) against Chrome's own accessibility engine.

Given a pychrome Tab that has already navigated to a page, :func:`compare_page`

1. evaluates ``the aria engine (engine/aria/)`` plus a small test-only walker in an isolated world of
   the main frame; the walker collects every element that would get a ref in a
   snapshot (tier-1 role, tabindex >= 0, or a tier-2 role inside a
   listbox/combobox/tree/grid/treegrid/menu) as ``{role, name}``, plus any
   element a fixture marks with a ``data-case`` attribute;
2. maps each collected element to its backendNodeId (DOM.describeNode);
3. reads Chrome's view with Accessibility.getFullAXTree and indexes it by
   backendDOMNodeId;
4. normalises Chrome's internal role names to ARIA role names;
5. returns the comparisons (each with both sides' states in ``extra``), the
   disagreements, and the interactive nodes Chrome exposes that the walker
   did not collect ("missed").

Elements the walker finds hidden are reported (when marked with data-case)
with role ``'hidden'``; they agree when Chrome leaves them out of the tree.

Every pychrome call carries ``_timeout=10``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field

logging.getLogger("pychrome").setLevel(logging.CRITICAL)
logging.getLogger("pychrome.tab").setLevel(logging.CRITICAL)

from verdex_cli.engine.loader import MODULES, body  # noqa: E402

T = 10  # seconds, for every protocol call


TIER1_ROLES = frozenset({
    "button", "link", "textbox", "checkbox", "radio", "combobox", "slider", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "searchbox", "spinbutton",
})
TIER2_ROLES = frozenset({"listitem", "option", "treeitem", "row", "cell", "gridcell"})
CONTAINER_ROLES = frozenset({"listbox", "combobox", "tree", "grid", "treegrid", "menu"})

# Test-only walker, evaluated after the aria engine (engine/aria/) in the same isolated world.
WALKER_JS = r"""
(() => {
  const TIER1 = new Set(%(tier1)s);
  const TIER2 = new Set(%(tier2)s);
  const CONTAINERS = new Set(%(containers)s);
  const els = [];
  const out = [];
  Aria.begin();
  try {
    const walk = (node, inContainer) => {
      for (const c of Aria.children(node)) {
        if (c.nodeType !== 1) continue;
        if (Aria.isHidden(c)) {
          // (an <area> is reported under its image instead)
          if (c.hasAttribute('data-case') && c.localName !== 'area') {
            els.push(c);
            out.push({role: 'hidden', name: '', fromContent: false, states: {},
                      value: null, label: Aria.label(c), case: c.getAttribute('data-case'),
                      html: c.outerHTML.slice(0, 300)});
          }
          // visibility:hidden hides only the element itself
          if (!Aria.hidesSubtree(c)) walk(c, inContainer);
          continue;
        }
        const role = Aria.role(c);
        const ref = TIER1.has(role) || Aria.isFocusableByTabindex(c) ||
          (TIER2.has(role) && inContainer);
        // Fixtures also mark non-interactive elements with data-case to have
        // their role and name checked.
        if (ref || c.hasAttribute('data-case')) {
          const n = Aria.name(c, role);
          els.push(c);
          out.push({
            role, name: n.name, fromContent: n.fromContent,
            states: Aria.states(c, role), value: Aria.value(c, role),
            label: Aria.label(c), case: c.getAttribute('data-case') || '',
            html: c.outerHTML.slice(0, 300), differs: c.getAttribute('data-differs'),
            specRole: c.getAttribute('data-spec-role'), specName: c.getAttribute('data-spec-name'),
          });
        }
        if (role === 'iframe') continue;
        // Image-map links are shown under their image (as in the bridge).
        for (const a of Aria.mapAreas(c)) {
          const n = Aria.name(a, 'link');
          els.push(a);
          out.push({role: 'link', name: n.name, fromContent: n.fromContent,
                    states: Aria.states(a, 'link'), value: null, label: Aria.label(a),
                    case: a.getAttribute('data-case') || '', html: a.outerHTML.slice(0, 300)});
        }
        walk(c, inContainer || CONTAINERS.has(role));
      }
    };
    walk(document.body, false);
  } finally {
    Aria.end();
  }
  globalThis.__verdexOracle = els;
  return JSON.stringify(out);
})()
"""

# Chrome-internal role names -> ARIA role names (Chromium 156).
CHROME_ROLE_MAP = {
    "image": "img",
    "ListBoxOption": "option",
    "MenuListOption": "option",
    "MenuListPopup": "menu",
    "DisclosureTriangle": "button",
    "ColorWell": "button",
    "Date": "textbox",
    "DateTime": "textbox",
    "InputTime": "textbox",
    "RootWebArea": "document",
    "LabelText": "label",
    "Legend": "legend",
    "DescriptionList": "list",
    "Figcaption": "caption",
    "Iframe": "iframe",
    "IframePresentational": "iframe",
    "PopUpButton": "combobox",
    "ToggleButton": "button",
    "MenuButton": "button",
    "LayoutTable": "table",
    "LayoutTableRow": "row",
    "LayoutTableCell": "cell",
    "Abbr": "generic",
    "Canvas": "generic",
    "Section": "generic",
    "Pre": "generic",
    "Ruby": "generic",
    "Video": "generic",  # html-aam: no corresponding ARIA role
    "Audio": "generic",
    "presentation": "none",
}
IGNORED_CHROME_ROLES = frozenset({"StaticText", "InlineTextBox", "LineBreak", "ListMarker"})


def norm_ws(s: str | None) -> str:
    return re.sub(r"[ \t\n\r\f]+", " ", s or "").strip()


def chrome_role(raw: str | None) -> str:
    if raw is None:
        return ""
    return CHROME_ROLE_MAP.get(raw, raw)


@dataclass
class Comparison:
    case: str          # data-case attribute, or a debug label
    label: str
    ours_role: str | None
    ours_name: str
    chrome_role: str
    chrome_name: str
    chrome_ignored: bool
    extra: dict = field(default_factory=dict)
    # A fixture may mark a deliberate difference from Chrome: data-differs="why"
    # with the spec's expected data-spec-role / data-spec-name.
    differs: str | None = None
    spec_role: str | None = None
    spec_name: str | None = None

    @property
    def follows_spec(self) -> bool:
        """Marked as a deliberate difference, and ours is what the spec asks."""
        if not self.differs:
            return False
        role = self.spec_role if self.spec_role is not None else self.chrome_role
        name = self.spec_name if self.spec_name is not None else self.chrome_name
        return self.ours_role == role and norm_ws(self.ours_name) == norm_ws(name)

    @property
    def excluded(self) -> bool:
        """We leave the element out of the tree (hidden, presentational, no role)."""
        return self.ours_role in ("hidden", "none", None)

    @property
    def role_ok(self) -> bool:
        if self.excluded:  # Chrome must leave it out too
            return self.chrome_ignored or self.chrome_role == "none"
        return not self.chrome_ignored and self.ours_role == self.chrome_role

    @property
    def name_ok(self) -> bool:
        if self.excluded:
            return True
        return norm_ws(self.ours_name) == norm_ws(self.chrome_name)

    @property
    def ok(self) -> bool:
        return self.role_ok and self.name_ok

    def describe(self) -> str:
        ign = " (ignored by Chrome)" if self.chrome_ignored else ""
        return (f"{self.case or self.label}: ours={self.ours_role!r} {self.ours_name!r} "
                f"chrome={self.chrome_role!r} {self.chrome_name!r}{ign}")


@dataclass
class PageResult:
    url: str
    comparisons: list[Comparison]
    missed: list[str]   # interactive nodes Chrome exposes that we did not collect

    @property
    def mismatches(self) -> list[Comparison]:
        return [c for c in self.comparisons if not c.ok]


def wait_for_load(tab, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = tab.call_method("Runtime.evaluate", expression="document.readyState",
                            returnByValue=True, _timeout=T)
        if r.get("result", {}).get("value") == "complete":
            return
        time.sleep(0.05)
    raise TimeoutError("page did not finish loading")


def navigate(tab, url: str) -> None:
    tab.call_method("Page.enable", _timeout=T)
    tab.call_method("Page.navigate", url=url, _timeout=T)
    # Page.navigate returns before the old document is gone; wait for the URL.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = tab.call_method("Runtime.evaluate", expression="location.href",
                            returnByValue=True, _timeout=T)
        if r.get("result", {}).get("value") == url:
            break
        time.sleep(0.05)
    wait_for_load(tab)


def isolated_world(tab, name: str = "verdex-oracle") -> int:
    tree = tab.call_method("Page.getFrameTree", _timeout=T)
    frame_id = tree["frameTree"]["frame"]["id"]
    r = tab.call_method("Page.createIsolatedWorld", frameId=frame_id, worldName=name,
                        grantUniveralAccess=False, _timeout=T)
    return r["executionContextId"]


def _evaluate(tab, ctx: int, expression: str, by_value: bool = True) -> dict:
    r = tab.call_method("Runtime.evaluate", expression=expression, contextId=ctx,
                        returnByValue=by_value, _timeout=T)
    if "exceptionDetails" in r:
        details = r["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text")
        raise RuntimeError(f"evaluation failed: {text}")
    return r["result"]


def collect_ours(tab, ctx: int) -> list[dict]:
    """Run the aria engine (engine/aria/) + the walker; return the collected entries with backendNodeIds."""
    aria = next(m for m in MODULES if m.name == "Aria")
    assert not aria.needs  # declared alone, in a scope of this expression's
    source = f"const Aria = (() => {{\n{body(aria)}}})();\n"
    walker = WALKER_JS % {
        "tier1": json.dumps(sorted(TIER1_ROLES)),
        "tier2": json.dumps(sorted(TIER2_ROLES)),
        "containers": json.dumps(sorted(CONTAINER_ROLES)),
    }
    expression = "(() => {\n" + source + "\nreturn " + walker.strip() + ";\n})()"
    entries = json.loads(_evaluate(tab, ctx, expression)["value"])
    tab.call_method("DOM.enable", _timeout=T)
    for i, entry in enumerate(entries):
        obj = _evaluate(tab, ctx, f"globalThis.__verdexOracle[{i}]", by_value=False)
        node = tab.call_method("DOM.describeNode", objectId=obj["objectId"], _timeout=T)["node"]
        entry["backendNodeId"] = node["backendNodeId"]
        tab.call_method("Runtime.releaseObject", objectId=obj["objectId"], _timeout=T)
    return entries


def user_agent_shadow_ids(tab) -> set[int]:
    """backendNodeIds of nodes inside user-agent shadow trees (Chrome internals)."""
    doc = tab.call_method("DOM.getDocument", depth=-1, pierce=True, _timeout=T)["root"]
    found: set[int] = set()

    def visit(node: dict, in_ua: bool) -> None:
        if in_ua:
            found.add(node["backendNodeId"])
        for sr in node.get("shadowRoots", []):
            visit(sr, in_ua or sr.get("shadowRootType") == "user-agent")
        for c in node.get("children", []):
            visit(c, in_ua)
        # iframe documents belong to another frame: never compared here
        if node.get("contentDocument"):
            visit(node["contentDocument"], True)

    visit(doc, False)
    return found


def chrome_ax(tab) -> dict[int, dict]:
    """Chrome's accessibility nodes of the main frame, by backendDOMNodeId."""
    tab.call_method("Accessibility.enable", _timeout=T)
    nodes = tab.call_method("Accessibility.getFullAXTree", _timeout=T)["nodes"]
    out: dict[int, dict] = {}
    for n in nodes:
        be = n.get("backendDOMNodeId")
        if be is None:
            continue
        raw = n.get("role", {}).get("value")
        if raw in IGNORED_CHROME_ROLES:
            continue
        out[be] = {
            "raw_role": raw,
            "role": chrome_role(raw),
            "name": n.get("name", {}).get("value", "") or "",
            "ignored": bool(n.get("ignored")),
            "states": chrome_states(n.get("properties", []), chrome_role(raw)),
        }
    return out


def chrome_states(props: list[dict], role: str = "") -> dict:
    """Chrome's AX properties in the shape of Aria.states() (``role``: Chrome's role of the node)."""
    p = {x["name"]: x.get("value", {}).get("value") for x in props}
    out: dict = {}
    for key in ("checked", "pressed"):
        v = p.get(key)
        if v in (True, "true"):
            out[key] = True
        elif v == "mixed":
            out[key] = "mixed"
    for key in ("disabled", "selected", "required"):
        if p.get(key) in (True, "true"):
            out[key] = True
    if "expanded" in p:
        out["expanded"] = p["expanded"] in (True, "true")
    if p.get("level"):
        out["level"] = int(p["level"])
    if p.get("editable") and p.get("focusable") and role not in TEXT_FIELD_ROLES:
        out["editable"] = True  # a contenteditable editing host (its descendants are editable, not focusable)
    return out


TEXT_FIELD_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}  # (roles as chrome_role maps them)


def compare_page(tab, url: str = "") -> PageResult:
    ctx = isolated_world(tab)
    ours = collect_ours(tab, ctx)
    chrome = chrome_ax(tab)
    ua = user_agent_shadow_ids(tab)
    comparisons = []
    seen: set[int] = set()
    for e in ours:
        be = e["backendNodeId"]
        seen.add(be)
        c = chrome.get(be)
        comparisons.append(Comparison(
            case=e["case"], label=e["label"], ours_role=e["role"], ours_name=e["name"],
            chrome_role=c["role"] if c else "<absent>", chrome_name=c["name"] if c else "",
            chrome_ignored=c["ignored"] if c else True,
            extra={"states": e["states"], "value": e.get("value"), "fromContent": e["fromContent"],
                   "html": e.get("html", ""), "chrome_states": c["states"] if c else {}},
            differs=e.get("differs"), spec_role=e.get("specRole"), spec_name=e.get("specName"),
        ))
    missed = []
    for be, c in chrome.items():
        if be in seen or be in ua or c["ignored"]:
            continue
        if c["role"] in TIER1_ROLES:
            missed.append(f"backendNodeId={be} {c['raw_role']} {c['name']!r}")
    return PageResult(url=url, comparisons=comparisons, missed=missed)
