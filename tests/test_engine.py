"""The in-page engine's manifest (engine/loader.py): every file in it once, needs that hold together
(a missing, cyclic or undeclared one fails when the source is built), one global, and Aria runs that
nest."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import world_eval

from verdex_cli.engine import loader as engine
from verdex_cli.engine.loader import EngineError, Module

ENGINE = Path(engine.__file__).resolve().parent


def test_every_in_page_file_is_in_one_module():
    listed = [f for m in engine.MODULES for f in m.files] + [f"{name}.js" for name in engine.SCRIPTS]
    on_disk = sorted(str(p.relative_to(ENGINE)) for p in ENGINE.rglob("*.js"))
    assert sorted(listed) == on_disk
    assert len(listed) == len(set(listed))


def test_order_puts_needs_first():
    ordered = [m.name for m in engine.order()]
    assert len(ordered) == len(engine.MODULES)
    for m in engine.MODULES:
        for need in m.needs:
            assert ordered.index(need) < ordered.index(m.name), (need, m.name)


def test_source_has_one_global():
    src = engine.source()
    whole = engine.compose()  # (with every module's uses checked, as verdex does not at start-up)
    assert src.splitlines() == [s for s in map(str.strip, whole.splitlines()) if s and not s.startswith("//")]
    assert src.startswith("if (!globalThis.__verdex) {")
    for old in ("__verdexBridge", "__verdexFields", "__verdexTargets", "__verdexStructure"):
        assert old not in src
    assert "globalThis.__verdex = { bridge: made.Bridge, fields: made.Fields, targets: made.Targets, " \
           "structure: made.Structure, marks: made.Marks };" in src


def test_the_source_every_frame_gets_is_a_third_smaller_and_means_the_same():
    """A page of 31 ad frames waited seconds for the engine to be sent to each (8.6 MB through the pipe:
    2.6 s of sending); without indentation, blank and comment lines the script is a third smaller. That
    is safe only while no string spans lines (no template literal does, no line ends in a backslash)."""
    assert len(engine.source()) < 0.7 * len(engine.compose(check=False))
    for path in ENGINE.rglob("*.js"):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert line.count("`") % 2 == 0 and not line.endswith("\\"), f"{path.name}:{i} a string over lines"


def test_missing_need_is_an_error():
    mods = (Module("Runs", ("runs.js",)), Module("Deep", ("deep.js",), ("Runs", "Nowhere")))
    with pytest.raises(EngineError, match="Deep needs Nowhere"):
        engine.compose(mods, {})


def test_cycle_is_an_error():
    mods = (Module("A", ("runs.js",), ("B",)), Module("B", ("deep.js",), ("C",)), Module("C", ("sheets.js",), ("A",)))
    with pytest.raises(EngineError, match="cyclic needs: A -> B -> C -> A"):
        engine.compose(mods, {})


def test_undeclared_use_is_an_error():
    # deep.js uses Runs: without needing it, building the source fails
    mods = (Module("Runs", ("runs.js",)), Module("Deep", ("deep.js",)))
    with pytest.raises(EngineError, match=r"Deep \(deep.js\) uses Runs without needing it"):
        engine.compose(mods, {})


def test_export_of_unknown_module_is_an_error():
    with pytest.raises(EngineError, match="__verdex.bridge is Bridge"):
        engine.compose((Module("Runs", ("runs.js",)),), {"bridge": "Bridge"})


NESTED = """(() => {
  const A = __verdex.bridge.aria;
  const el = document.createElement('button');
  el.textContent = 'Nested';
  document.body.append(el);
  try {
    A.begin();
    const outer = A.role(el);
    el.setAttribute('role', 'link');  // the run's caches do not see this
    A.begin();
    const inner = A.role(el);
    A.end();
    const after = A.role(el);         // still the outer run: its cache survived the inner end
    A.end();
    return [outer, inner, after, A.role(el)];
  } finally { el.remove(); }
})()"""


def test_aria_runs_nest(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    page = driver.ctx.page
    assert world_eval(page, page.frames.main, NESTED)["value"] == ["button", "button", "button", "link"]
    # the outermost end cleared the run: the next snapshot sees the page as it is
    assert driver.ok("snapshot").data["text"]


def test_a_page_script_takes_values_never_code():
    assert engine.script("demo_origins", "x\"); evil(\"", 3).endswith(')("x\\"); evil(\\"", 3);\n')
    for bad in (True, None, [1], {"a": 1}):
        with pytest.raises(TypeError):
            engine.script("demo_origins", bad)
    with pytest.raises(EngineError, match="not among the page scripts"):
        engine.function("bridge")


def test_a_page_script_may_not_use_the_engine(tmp_path, monkeypatch):
    (tmp_path / "odd.js").write_text("// header\n() => Registry.ref(1)\n")
    monkeypatch.setattr(engine, "HERE", tmp_path)
    monkeypatch.setattr(engine, "SCRIPTS", engine.SCRIPTS | {"odd"})
    with pytest.raises(EngineError, match="uses Registry without needing it"):
        engine.function("odd")
