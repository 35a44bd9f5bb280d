"""One door to the page: only the bridge client (verdex_cli/browser/bridge.py) names a method that
evaluates in a page, and it sends values, never source built from them; every other module calls its
typed methods or sends the calls it makes. No JavaScript lives in a Python string: page scripts are
files of verdex_cli/engine/, which its loader composes and checks."""

from __future__ import annotations

import ast
import re
from pathlib import Path


PKG = Path(__file__).resolve().parents[1] / "verdex_cli"
BRIDGE = PKG / "browser" / "bridge.py"
# the engine's loader composes the engine's own files (the manifest, the page scripts): it wraps them
LOADER = PKG / "engine" / "loader.py"
SCRIPT_KEYS = {"expression", "functionDeclaration", "source"}
EVALUATING = {"Runtime.evaluate", "Runtime.callFunctionOn", "Page.addScriptToEvaluateOnNewDocument",
              "Runtime.compileScript"}
JS_MARKS = re.compile(r"__verdex\b|globalThis|\bfunction\s*\(|=>\s*[{(]|\b(document|window)\.[A-Za-z]")


def _modules():
    return [p for p in sorted(PKG.rglob("*.py")) if p != BRIDGE]


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _js_like(node: ast.AST) -> bool:
    return any(JS_MARKS.search(s) for s in _strings(node))


def _offences(path: Path) -> list[str]:
    return offences(path.read_text(encoding="utf-8"), str(path.relative_to(PKG.parent)), loader=path == LOADER)


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def javascript(source: str, rel: str) -> list[str]:
    """Strings (docstrings aside) that hold JavaScript, and names of methods that evaluate in a page."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        if node.value in EVALUATING:
            out.append(f"{rel}:{node.lineno}: names {node.value} (only the bridge client evaluates in a page)")
        elif JS_MARKS.search(node.value):
            out.append(f"{rel}:{node.lineno}: JavaScript in a Python string (a page script is a file of engine/)")
    return out


def offences(source: str, rel: str, loader: bool = False) -> list[str]:
    out = [] if loader else javascript(source, rel)
    for node in ast.walk(ast.parse(source)):
        where = f"{rel}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in SCRIPT_KEYS:
                    out.append(f"{where}: passes {kw.arg}= to the browser (use the bridge client)")
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "format" and _js_like(func.value):
                out.append(f"{where}: formats JavaScript with str.format")
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in SCRIPT_KEYS:
                    out.append(f"{where}: builds a {key.value!r} parameter (use the bridge client)")
        elif isinstance(node, ast.JoinedStr) and _js_like(node) and not loader:
            out.append(f"{where}: an f-string builds JavaScript")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)) and not loader:
            if _js_like(node.left) or (isinstance(node.op, ast.Add) and _js_like(node.right)):
                out.append(f"{where}: '%' or '+' builds JavaScript")
    return out


def test_no_module_but_the_bridge_client_sends_or_formats_javascript():
    found = [o for p in _modules() for o in _offences(p)]
    assert not found, "\n".join(found)


def test_the_bridge_client_holds_no_javascript_either():
    found = [o for o in javascript(BRIDGE.read_text(encoding="utf-8"), BRIDGE.name) if "JavaScript" in o]
    assert not found, "\n".join(found)


def test_only_the_bridge_client_imports_the_engine():
    """The in-page engine is the ground floor and the bridge client its one door: no other module
    imports verdex_cli.engine (the loader itself aside)."""
    importers = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and "engine" in (node.module or "").split(".") and path != LOADER:
                importers.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert importers == []


def test_the_checker_catches_what_it_forbids():
    bad = ("def f(t, n, name):\n"
           "    t.call('Runtime.evaluate', expression=f'__verdex.bridge.describe({n})')\n"
           "    t.call('Runtime.callFunctionOn', **{'functionDeclaration': 'function () {}'})\n"
           "    x = 'document.title = %s' % name\n"
           "    y = 'window.x(' + name + ')'\n"
           "    z = '() => {}'.format()\n"
           "    ok = 'Took %d ms' % n\n"
           "    m = 'Page.addScriptToEvaluateOnNewDocument'\n"
           "    t.start(m, source=s)\n")
    found = offences(bad, "bad.py")
    kinds = sorted(line.split(": ", 1)[1].split(" ")[0] for line in found)
    # expression=, the f-string inside it, the dict key, '%', '+' (twice: the nested BinOp), .format,
    # source=; the two methods named; the strings that hold JavaScript: the f-string's part, the dict's
    # value, the '%' and '+' templates, the .format template
    assert kinds.count("names") == 3, found
    assert kinds.count("JavaScript") == 5, found
    assert len(found) == 16, found
    assert "passes" in kinds and "builds" in kinds and "formats" in kinds and "an" in kinds


def _engine_functions() -> set[tuple[str, str]]:
    """(namespace, function) pairs the bridge client calls."""
    src = BRIDGE.read_text(encoding="utf-8")
    pairs = set(re.findall(r'"(bridge|fields|targets|structure)", "(\w+)"', src))
    pairs |= {("structure", fn) for fn in ("text", "container", "siblings", "anchors")}
    pairs |= {("bridge", fn) for fn in ("snapshot", "check")}
    return pairs


def test_every_function_the_client_calls_exists_in_the_engine(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    page = driver.ctx.page
    fr = page.frames.main
    page.frames.world(fr)  # the engine loaded
    pairs = sorted(_engine_functions())
    assert len(pairs) > 40
    missing = []
    for space, fn in pairs:
        res = fr.target.call("Runtime.evaluate", contextId=page.frames.world(fr), returnByValue=True,
                             expression=f"typeof (globalThis.__verdex[{space!r}] || {{}})[{fn!r}]")
        if res["result"].get("value") != "function":
            missing.append(f"{space}.{fn}")
    assert not missing, missing


def test_values_from_the_page_or_the_user_never_become_code(driver, demo):
    """A target's name with quotes, parentheses and a script travels as a value: it is searched for
    as text, and nothing runs."""
    driver.ok("open " + demo.url("shop.html"))
    page = driver.ctx.page
    hostile = "x'); globalThis.__pwned = 1; ('\"); globalThis.__pwned = 1; (\""
    out = page.bridge.search(page.frames.main, {"kind": "text", "value": hostile, "role": "", "name": "",
                                                "hidden": False, "scope": 0})
    assert out["candidates"] == []
    fr = page.frames.main
    for ctx in (page.frames.world(fr), None):
        params = {"expression": "typeof globalThis.__pwned", "returnByValue": True}
        if ctx is not None:
            params["contextId"] = ctx
        assert fr.target.call("Runtime.evaluate", **params)["result"]["value"] == "undefined"
