"""Browser contexts: isolation of cookies and storage, ref scoping, switching and closing."""

from __future__ import annotations

import io
import re

from rich.console import Console

from conftest import connected_to_a_browser_with_a_tab, page_urls, until
from verdex_cli.commands.runner import execute
from verdex_cli.ui.render import Renderer


def _first_ref(snap: dict) -> str:
    return next(iter(snap["refs"]))


def test_context_new_isolates_cookies_and_storage(driver, demo):
    url = demo.url("shop.html")
    driver.ok("open " + url)
    driver.ok("eval document.cookie = 'who=zero; path=/'; localStorage.setItem('k', 'zero'); 1")
    assert "who=zero" in driver.js("document.cookie")
    res = driver.ok("context new " + url)
    assert res.data["switched_to"] == 1
    assert driver.ctx.page.context == 1
    assert "who=zero" not in driver.js("document.cookie")
    assert driver.js("localStorage.getItem('k')") is None
    rows = {c["index"]: c for c in driver.ok("contexts").data["contexts"]}
    assert rows[1]["current"] and not rows[0]["current"] and rows[1]["pages"] == [0]
    driver.ok("context 0")
    assert driver.ctx.page.context == 0
    assert "who=zero" in driver.js("document.cookie")


def test_refs_are_scoped_to_their_context(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    ref0 = _first_ref(driver.ok("snapshot").data)
    assert ref0.startswith("c0p0")
    driver.ok("context new " + demo.url("shop.html"))
    ref1 = _first_ref(driver.ok("snapshot").data)
    assert re.match(r"c1p0f0e\d+$", ref1)
    out = driver.fail("click " + ref0, "context_mismatch")
    assert "Switch with 'context 0'." in out.message
    driver.ok("context 0")
    out = driver.fail("click " + ref1, "context_mismatch")
    assert "Switch with 'context 1'." in out.message
    driver.ok("click " + ref0)


def test_context_close_switches_to_default_and_refuses_zero(driver, demo):
    driver.ok("context new " + demo.url("shop.html"))
    ref1 = _first_ref(driver.ok("snapshot").data)
    driver.ok("tab new " + demo.url("form.html"))
    assert driver.ctx.session.current == (1, 1)
    driver.fail("context close 0", "usage")
    res = driver.run("context close 1")
    assert res.ok, res.message
    assert any("context 0" in n for n in res.result.notes)
    assert driver.ctx.page.context == 0
    assert [c["index"] for c in driver.ok("contexts").data["contexts"]] == [0]
    out = driver.fail("click " + ref1, "context_mismatch")
    assert "closed" in out.message
    driver.fail("context 1", "usage")


def test_tab_new_in_a_context_stays_in_it(driver, demo):
    driver.ok("context new " + demo.url("shop.html"))
    driver.ok("eval document.cookie = 'who=one; path=/'; 1")
    driver.ok("tab new " + demo.url("form.html"))
    assert driver.ctx.session.current == (1, 1)
    assert "who=one" in driver.js("document.cookie")  # same context, same cookies
    rows = {c["index"]: c for c in driver.ok("contexts").data["contexts"]}
    assert rows[1]["pages"] == [0, 1]


def _shown(driver, line: str) -> list[str]:
    """The lines the REPL prints for `line`."""
    out = Console(file=io.StringIO(), width=200, no_color=True, highlight=False, soft_wrap=True)
    Renderer(console=out, err_console=Console(file=io.StringIO())).show(driver.run(line))
    # (the shared test browser's other tabs are listed as not adopted: not this session's)
    return [ln for ln in out.file.getvalue().splitlines() if "not adopted" not in ln]


def test_tabs_and_contexts_say_which_context_each_tab_is_in(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    assert [ln.split("  ")[0] for ln in _shown(driver, "tabs")] == ["* tab 0"]  # one context: no column
    assert _shown(driver, "contexts") == ["* context 0  tab 0  (default)"]
    driver.ok("context new " + demo.url("form.html"))
    driver.ok("tab new")
    tabs = [re.match(r"^(\*| ) context (\d) {2}tab (\d) ", ln).groups() for ln in _shown(driver, "tabs")]
    assert tabs == [(" ", "0", "0"), (" ", "1", "0"), ("*", "1", "1")]
    assert _shown(driver, "contexts") == ["  context 0  tab 0  (default)", "* context 1  tabs 0, 1"]
    driver.ok("tab close 0")
    driver.ok("tab close 1")
    assert _shown(driver, "contexts")[1].endswith(" context 1  no tabs")


def test_connect_keeps_the_browsers_tabs_and_can_adopt_one(demo):
    with connected_to_a_browser_with_a_tab(demo.url("form.html")) as (endpoint, before, ctx):
        out = execute(ctx, "open " + demo.url("shop.html"))
        assert out.ok, out.message
        assert ctx.page.target.id not in before  # its own tab, not one of the browser's
        tabs = execute(ctx, "tabs").result.data
        assert [t["index"] for t in tabs["tabs"]] == [0]
        others = tabs["browser_tabs"]
        assert len(others) == 2 and all(not t["adopted"] for t in others)
        form = next(t for t in others if t["url"].endswith("form.html"))
        out = execute(ctx, f"tab {form['index']}")
        assert out.ok, out.message
        assert ctx.page.target.id in before
        snap = execute(ctx, "snapshot").result.data
        assert any(r.startswith(f"c0p{form['index']}f0e") for r in snap["refs"])
        assert len(execute(ctx, "tabs").result.data.get("browser_tabs", [])) == 1
        ctx.close()
        # closing a tab is asynchronous in the browser
        until(lambda: page_urls(endpoint) == before, 5)
        # both tabs intact, with their pages; verdex's own tab closed
        assert page_urls(endpoint) == before
