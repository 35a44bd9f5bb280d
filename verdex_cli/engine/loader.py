"""The in-page engine: the manifest of its modules and the loader that makes one script of them; and
the page scripts outside it (:data:`SCRIPTS`), each a function its caller gives values to.

Each in-page module is the body of a function (one file, or several sharing one closure: `aria/`)
that receives the modules it NEEDS as parameters and returns its API, the name it PROVIDES. The
loader orders the modules so every one comes after what it needs (a missing or cyclic need is an
:class:`EngineError` when the source is built), wraps each body as ``(needs...) => { body }``,
defined at the top level of the world so that it sees only the page's globals and its parameters,
and calls them in that order. The one global it leaves, ``globalThis.__verdex``, holds the
namespaces Python calls (:data:`EXPORTS`): ``__verdex.bridge.snapshot()``, ``__verdex.fields.info(3)``.
The script is idempotent: Chrome hands back the same isolated world when one with its name exists.
"""

from __future__ import annotations

import json
import re
from typing import Any
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Module:
    """One in-page module: the name it provides, its files (relative to engine/), what it needs."""

    name: str
    files: tuple[str, ...]
    needs: tuple[str, ...] = ()


ARIA_FILES = tuple(f"aria/{part}.js" for part in
                   ("shadows", "tables", "tree", "roles", "name_sources", "name_compute", "embedded", "states"))

# The manifest. Order here is for reading only; the loader orders by needs.
MODULES = (
    Module("Aria", ARIA_FILES),                      # roles, names, states, visibility
    Module("Runs", ("runs.js",)),                    # text runs and their word boundaries
    Module("Sheets", ("sheets.js",)),                # what style sheets can do to a snapshot
    Module("Deep", ("deep.js",), ("Runs",)),         # very deep pages: deferred walks, flattening
    Module("Registry", ("registry.js",), ("Aria",)),  # element <-> ref numbers
    Module("Observer", ("observer.js",), ("Aria", "Sheets")),  # the change watcher
    Module("Incremental", ("incremental.js",), ("Aria", "Sheets", "Observer")),  # patches
    Module("Text", ("text.js",)),                    # a frame's snapshot text, rendered in the page
    Module("Guard", ("guard.js",), ("Aria", "Registry")),  # the click guard (events for another element stopped)
    Module("Act", ("act.js",), ("Aria", "Registry", "Observer", "Guard")),  # acting on a ref
    Module("Wheel", ("wheel.js",), ("Act",)),         # what the wheel moved (scroll up|down)
    Module("FrameWatch", ("frame_watch.js",), ("Aria", "Act", "Guard")),  # what reaches a frame's document (owner clicks)
    Module("Bridge", ("bridge.js",), ("Aria", "Registry", "Runs", "Deep", "Observer", "Incremental", "Text",
                                      "Act", "FrameWatch", "Guard", "Wheel")),
    Module("Fields", ("fields.js",), ("Aria", "Bridge")),
    Module("PwLocators", ("pw_locators.js",)),      # which locators a Playwright test can use
    Module("Targets", ("targets.js",), ("Aria", "Bridge", "PwLocators")),
    Module("Structure", ("structure.js",), ("Aria", "Bridge", "Targets")),
    Module("Marks", ("marks.js",), ("Aria", "Registry")),  # refs drawn on a screenshot
)

# Scripts of their own, outside the engine (no module of it is there where they run): each file is one
# function (a header of // lines first, saying what it is), given values by :func:`script` or sent as the
# declaration of a ``Runtime.callFunctionOn`` by :func:`function`.
SCRIPTS = frozenset(("call", "by_value", "page_read", "has_text", "timer_watch", "guard_world", "guard_call",
                     "download_watch", "demo_origins", "adopt_closed"))

# globalThis.__verdex: namespace -> the module it is
EXPORTS = {"bridge": "Bridge", "fields": "Fields", "targets": "Targets", "structure": "Structure", "marks": "Marks"}


class EngineError(ValueError):
    """The manifest does not hold together: a need nobody provides, a cycle, an undeclared use."""


def order(modules: tuple[Module, ...] = MODULES) -> list[Module]:
    """The modules, each after everything it needs (depth first, in manifest order otherwise)."""
    by_name = {}
    for m in modules:
        if m.name in by_name:
            raise EngineError(f"two modules provide {m.name}")
        by_name[m.name] = m
    done: dict[str, Module] = {}
    path: list[str] = []

    def visit(m: Module) -> None:
        if m.name in done:
            return
        if m.name in path:
            raise EngineError("cyclic needs: " + " -> ".join(path[path.index(m.name):] + [m.name]))
        path.append(m.name)
        for need in m.needs:
            if need not in by_name:
                raise EngineError(f"{m.name} needs {need}, which no module provides")
            visit(by_name[need])
        path.pop()
        done[m.name] = m

    for m in modules:
        visit(m)
    return list(done.values())


def body(m: Module) -> str:
    return "".join((HERE / f).read_text(encoding="utf-8") for f in m.files)


_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
_STRING = re.compile(r"'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"")


def check_uses(m: Module, text: str, names: set[str]) -> None:
    """No module may use another module's name without needing it (comments and strings aside)."""
    others = sorted(names - {m.name} - set(m.needs))
    if not others:
        return
    use = re.compile(r"(?<![\w$.])(?:" + "|".join(others) + r")(?![\w$])")
    # (the raw text first: when it names no other module, nothing needs stripping)
    hit = use.search(text) and use.search(_STRING.sub("''", _COMMENT.sub("", text)))
    if hit:
        raise EngineError(f"{m.name} ({', '.join(m.files)}) uses {hit.group()} without needing it")


def compose(modules: tuple[Module, ...] = MODULES, exports: dict[str, str] = EXPORTS, check: bool = True) -> str:
    """The whole engine as one script: the factories in dependency order, then ``globalThis.__verdex``.
    ``check``: no module uses a name it does not need (tests/test_engine.py; a scan of the whole source that
    cost every start of verdex 15-20 ms of CPU)."""
    ordered = order(modules)
    names = {m.name for m in ordered}
    for ns, name in exports.items():
        if name not in names:
            raise EngineError(f"__verdex.{ns} is {name}, which no module provides")
    parts = []
    for m in ordered:
        text = body(m)
        if check:
            check_uses(m, text, names)
        parts.append(f"[{m.name!r}, {list(m.needs)!r}, ({', '.join(m.needs)}) => {{\n{text}}}],\n")
    spaces = ", ".join(f"{ns}: made.{name}" for ns, name in exports.items())
    return ("if (!globalThis.__verdex) {\n((modules) => {\n  const made = {};\n"
            "  for (const [name, needs, make] of modules) made[name] = make(...needs.map((n) => made[n]));\n"
            f"  globalThis.__verdex = {{ {spaces} }};\n}})([\n" + "".join(parts) + "]);\n}\n")


@lru_cache(maxsize=1)
def source() -> str:
    """The script every frame's isolated world is set up with (the manifest checked by the tests), without
    indentation, blank and comment lines (a third of it: sent to every frame, it is what a page of many
    cross-origin frames waits for; the engine has no string of several lines that this could change)."""
    return "\n".join(line for line in map(str.strip, compose(check=False).splitlines()) if line and line[:2] != "//")


@lru_cache(maxsize=None)
def function(name: str) -> str:
    """The function of script ``name`` (engine/NAME.js, its header left out), checked: a script of
    :data:`SCRIPTS`, using no module of the engine (none is loaded where it runs)."""
    if name not in SCRIPTS:
        raise EngineError(f"{name}.js is not among the page scripts")
    lines = (HERE / f"{name}.js").read_text(encoding="utf-8").splitlines(keepends=True)
    while lines and lines[0].startswith("//"):
        lines.pop(0)
    text = "".join(lines).strip()
    check_uses(Module(name, (f"{name}.js",)), text, {m.name for m in MODULES} | {name})
    return text


def script(name: str, *values: Any) -> str:
    """Script ``name`` called with ``values`` (numbers and strings, as JSON literals: never code)."""
    for v in values:
        if not isinstance(v, (int, float, str)) or isinstance(v, bool):
            raise TypeError("a page script takes numbers and strings only")
    return f"({function(name)})({', '.join(json.dumps(v) for v in values)});\n"
