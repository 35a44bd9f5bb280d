"""The package's import structure: no cycles, no upward imports, no reaching into private names --
imported from another module, or read on another object (``x._name`` where ``x`` is not ``self``/``cls``
of the class that defines ``_name``); no attribute hung on another object, and no field of a ``Page`` or
``Target`` set from outside their own module or layer.

The layers are read from docs/ARCHITECTURE.md's Layers section (the ```layers block), so the rule the test
enforces is the one a reader sees. Imports inside functions count like any other (a late import may
keep start-up light, but it may not hide a cycle or climb a layer)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "verdex_cli"


def _layers() -> list[tuple[str, list[str]]]:
    """(layer, [paths]) from docs/ARCHITECTURE.md, top layer first."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block, "docs/ARCHITECTURE.md's Layers section must hold a ```layers block"
    out = []
    for line in block.group(1).splitlines():
        if line.strip():
            name, *paths = line.split()
            out.append((name, paths))
    return out


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1]) if parts[-1] == "__init__" else ".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names imported from it, line) for every import of the package's own code."""
    is_pkg = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = (name if is_pkg else name.rsplit(".", 1)[0]).split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("verdex_cli"):
                continue
            names = [a.name for a in node.names]
            subs = [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]
            if subs:  # `from . import actions`: the modules themselves
                found += [(s, [], node.lineno) for s in subs]
                rest = [n for n in names if f"{module}.{n}" not in MODULES]
                if rest:
                    found.append((module, rest, node.lineno))
            else:
                found.append((module, names, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("verdex_cli")]
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer_of(path: Path, layers) -> int:
    rel = path.relative_to(ROOT).as_posix()
    best, best_len = None, -1
    for i, (_name, paths) in enumerate(layers):
        for p in paths:
            if (rel == p or (p.endswith("/") and rel.startswith(p))) and len(p) > best_len:
                best, best_len = i, len(p)
    assert best is not None, f"{rel} is in no layer of docs/ARCHITECTURE.md's ```layers block"
    return best


def test_every_module_has_a_layer_and_no_import_climbs():
    layers = _layers()
    up = []
    for name, deps in GRAPH.items():
        mine = _layer_of(MODULES[name], layers)
        for module, _names, line in deps:
            if module in MODULES and _layer_of(MODULES[module], layers) < mine:
                up.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {module} "
                          f"({layers[mine][0]} -> {layers[_layer_of(MODULES[module], layers)][0]})")
    assert not up, "imports that climb a layer:\n" + "\n".join(up)


def test_no_import_cycle():
    edges = {n: {m for m, _, _ in deps if m in MODULES and m != n} for n, deps in GRAPH.items()}
    index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def test_no_private_name_is_imported_from_another_module():
    reaching = [f"{MODULES[n].relative_to(ROOT)}:{line} takes {module}.{name}"
                for n, deps in GRAPH.items() for module, names, line in deps
                for name in names if name.startswith("_") and not name.startswith("__")]
    assert not reaching, "\n".join(reaching)


def _defined(cls: ast.ClassDef) -> set[str]:
    """The names a class defines: its methods and class attributes, and what its methods set on self/cls."""
    names = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in cls.body:
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
    return names


def private_reaches(source: str, rel: str) -> list[str]:
    """``x._name`` where ``x`` is not self/cls/super() and ``_name`` is not defined by the enclosing class
    (a class method may touch the privates of an instance of its own class)."""
    out = []

    def visit(node: ast.AST, own: set[str]) -> None:
        if isinstance(node, ast.ClassDef):
            own = _defined(node)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            v = node.value
            mine = (isinstance(v, ast.Name) and v.id in ("self", "cls")) or \
                (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super")
            if not mine and node.attr not in own:
                out.append(f"{rel}:{node.lineno} reaches into {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, own)

    visit(ast.parse(source), set())
    return out


def test_no_module_reaches_into_another_objects_private_attributes():
    found = [hit for path in MODULES.values()
             for hit in private_reaches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_the_private_reach_check_catches_what_it_forbids():
    bad = ("class A:\n"
           "    def __init__(self):\n        self._x = 1\n"
           "    @classmethod\n    def make(cls):\n        a = cls()\n        a._x = 2\n        return a._y\n"
           "    def f(self, other):\n        return super()._z, self._w, other.target._enabled\n"
           "def g(session):\n    return session._browser()\n")
    found = private_reaches(bad, "bad.py")
    assert [f.split(" reaches into ")[1] for f in found] == ["a._y", "other.target._enabled", "session._browser"], found


# attributes of other libraries' objects the package sets or reads (OSError, threading, socketserver,
# typer, rich, sys, os): not the package's to declare
FOREIGN = {"strerror", "daemon", "daemon_threads", "geteuid", "COLOR_SYSTEM", "command_path", "stdout",
           "color_system"}


def _declared(trees: list[ast.AST]) -> set[str]:
    """Every attribute a class of the package declares: class attributes and fields, methods, and
    what its methods set on self/cls."""
    return {name for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            for name in _defined(node)}


def undeclared(source: str, rel: str, declared: set[str]) -> list[str]:
    """An attribute set on an object other than self/cls, or read with getattr/hasattr/setattr, that no
    class declares: state hung on another layer's object from outside."""
    out = []
    for node in ast.walk(ast.parse(source)):
        name = None
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            name, how = node.attr, "sets"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) >= 2 and \
                isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            name, how = node.args[1].value, node.func.id
        if name is not None and name not in declared and name not in FOREIGN:
            out.append(f"{rel}:{node.lineno} {how} {name!r}, which no class declares")
    return out


def test_no_module_hangs_undeclared_attributes_on_other_objects():
    sources = {path: path.read_text(encoding="utf-8") for path in MODULES.values()}
    declared = _declared([ast.parse(s) for s in sources.values()])
    found = [hit for path, s in sources.items() for hit in undeclared(s, str(path.relative_to(ROOT)), declared)]
    assert not found, "\n".join(found)


def test_the_undeclared_attribute_check_catches_what_it_forbids():
    bad = ("class Page:\n    def __init__(self):\n        self.serial = 0\n"
           "def watch(page, target):\n    page.load_watch = 1\n    page.serial = 2\n"
           "    return getattr(target, 'load_hooked', False)\n")
    found = undeclared(bad, "bad.py", _declared([ast.parse(bad)]))
    assert [f.split(" ", 1)[1] for f in found] == ["sets 'load_watch', which no class declares",
                                                   "getattr 'load_hooked', which no class declares"], found


# the browser's objects other layers must not use as drawers: class -> (its module, where its fields may be
# set on an object other than self). A page's state of another layer lives in objects that layer declares
# (snapshot/cache.held, the Workspace); what the session knows, the session answers (Session.tab_state);
# what a tab knows of settling is written through Settle's methods only
GUARDED = {"Page": ("verdex_cli/browser/page.py", "verdex_cli/browser/page.py"),
           "Target": ("verdex_cli/browser/cdp.py", "verdex_cli/browser/"),
           "Settle": ("verdex_cli/browser/settle.py", "verdex_cli/browser/settle.py")}


def _fields(cls: ast.ClassDef) -> set[str]:
    """A class's fields: what its body assigns or defines, and what its methods set on self."""
    names = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    names |= {t.id for n in cls.body if isinstance(n, (ast.Assign, ast.AnnAssign))
              for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    return names | {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                    and isinstance(n.value, ast.Name) and n.value.id == "self"}


def guarded_fields(trees: dict[str, ast.AST]) -> dict[str, set[str]]:
    """class -> its fields and its bases' that no other class declares, for the GUARDED classes (a name
    another class shares cannot tell whose object is set, unless the object is named for the class)."""
    classes = [(rel, node) for rel, tree in trees.items() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    out = {}
    for rel, node in classes:
        if GUARDED.get(node.name, ("",))[0] == rel:
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
            shared = set().union(*(_fields(n) for _r, n in classes if n is not node and n.name not in bases))
            inherited = set().union(*(_fields(n) for _r, n in classes if n.name in bases))
            out[node.name] = (_fields(node) | inherited) - shared
    return out


def sets_guarded(source: str, rel: str, guarded: dict[str, set[str]]) -> list[str]:
    """``x.name = ...`` outside the place allowed to set a GUARDED class's fields, where ``name`` is a field
    only that class (or a base of it) declares, or ``x`` is named for the class (``page``, ``self.page``,
    ``new_target``, ``page.settle``); and ``getattr(x, "name")`` of such an ``x`` outside its layer (what a
    class declares is read plainly)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            v, name, how = node.value, node.attr, "sets"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
            v, name, how = node.args[0], node.args[1].value, "reads with " + node.func.id
        else:
            continue
        named = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else ""
        for cls, own in guarded.items():
            allowed = GUARDED[cls][1] if how == "sets" else GUARDED[cls][1].rsplit("/", 1)[0] + "/"
            if rel.startswith(allowed):
                continue
            if name in own or named.lower().endswith(cls.lower()):
                out.append(f"{rel}:{node.lineno} {how} {cls}.{name} from outside {allowed}")
    return out


def test_no_module_sets_or_getattrs_the_fields_of_a_page_or_target_from_outside():
    sources = {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in MODULES.values()}
    fields = guarded_fields({rel: ast.parse(s) for rel, s in sources.items()})
    assert {"netlog", "nav_count"} <= fields["Page"] and "crashed" in fields["Target"] and \
        "own_places" in fields["Settle"]  # (the check sees the classes)
    found = [hit for rel, s in sources.items() for hit in sets_guarded(s, rel, fields)]
    assert not found, "\n".join(found)


def test_the_guarded_field_check_catches_what_it_forbids():
    trees = {"verdex_cli/browser/navigation.py": "class Navigation:\n    acted_at = 0.0\n",
             "verdex_cli/browser/page.py": "class Page(Navigation):\n    snapshot_cache = None\n    timeout = 1.0\n",
             "verdex_cli/browser/cdp.py": "class Target:\n    def __init__(self):\n        self.crashed = False\n",
             "verdex_cli/browser/settle.py": "class Settle:\n    def __init__(self):\n        self.own_places = None\n",
             "verdex_cli/browser/session.py": "class Options:\n    timeout = 1.0\n    ask_targets = None\n"}
    guarded = guarded_fields({rel: ast.parse(text) for rel, text in trees.items()})
    outside = ("def store(page, entry, target, opts):\n    page.snapshot_cache = entry\n    target.crashed = True\n"
               "    page.acted_at = 1.0\n    opts.timeout = 2.0\n    entry.snapshot_cache = None\n"
               "    page.settle.own_places = None\n")
    session = "def add_page(self, new_page):\n    new_page.ask_targets = self.ask_targets\n    self.page.timeout = 2\n"
    reads = "def where(page, target):\n    return getattr(page, 'acted_at', 0), hasattr(target.id, 'crashed')\n"
    found = sets_guarded(outside, "verdex_cli/snapshot/cache.py", guarded) + \
        sets_guarded(session, "verdex_cli/browser/session.py", guarded) + \
        sets_guarded("def f(target):\n    target.crashed = True\n", "verdex_cli/browser/frames.py", guarded) + \
        sets_guarded(reads, "verdex_cli/refs/staleness.py", guarded) + \
        sets_guarded(reads, "verdex_cli/browser/frames.py", guarded)
    page, target = "from outside verdex_cli/browser/page.py", "from outside verdex_cli/browser/"
    assert [f.split(" ", 1)[1] for f in found] == [
        f"sets Page.snapshot_cache {page}", f"sets Target.crashed {target}", f"sets Page.acted_at {page}",
        f"sets Page.snapshot_cache {page}", "sets Settle.own_places from outside verdex_cli/browser/settle.py",
        f"sets Page.ask_targets {page}", f"sets Page.timeout {page}",
        f"reads with getattr Page.acted_at {target}", f"reads with hasattr Target.crashed {target}"], found


def test_the_package_root_holds_only_entry_points():
    layers = _layers()
    at_root = {p.name for p in PACKAGE.glob("*.py")}
    entry_layers = {"entry"}  # every other layer lives in a folder of its own (app/ included)
    listed = {Path(p).name for name, paths in layers if name in entry_layers for p in paths
              if p.count("/") == 1 and p.endswith(".py")}
    assert at_root - {"__init__.py"} <= listed, f"modules at the root that are not entry points: {sorted(at_root - listed - {'__init__.py'})}"


def test_refs_read_what_the_classes_declare_directly():
    """A getattr with a default of an attribute a class declares hides its renaming behind the default
    (refs/staleness.py read Page.reloaded_since so: a rename would have silenced "reloaded")."""
    sources = {path: path.read_text(encoding="utf-8") for path in MODULES.values()}
    declared = _declared([ast.parse(s) for s in sources.values()])
    found = [f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value}"
             for path, s in sources.items() if path.parent.name == "refs" for node in ast.walk(ast.parse(s))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
             and len(node.args) == 3 and isinstance(node.args[1], ast.Constant) and node.args[1].value in declared]
    assert not found, found
