"""eval like the DevTools console: typed JSON data, REPL display, console output, cuts, side effects."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

from verdex_cli.ui.render import Renderer


@pytest.fixture
def on_page(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    return driver


def _shown(driver, line: str) -> str:
    out = StringIO()
    Renderer(console=Console(file=out, width=200, no_color=True, highlight=False, soft_wrap=True)).show(driver.run(line))
    return out.getvalue()


@pytest.mark.parametrize("expr,data", [
    ("'ab'", {"value": "ab"}),
    ("42", {"value": 42}),
    ("[1, 'two', null]", {"value": [1, "two", None]}),
    ("({a: {b: true}})", {"value": {"a": {"b": True}}}),
    ("null", {"value": None}),
    ("undefined", {"value": None, "type": "undefined"}),
    ("NaN", {"value": None, "type": "number", "description": "NaN"}),
    ("-Infinity", {"value": None, "type": "number", "description": "-Infinity"}),
    ("-0", {"value": None, "type": "number", "description": "-0"}),
    ("2n ** 70n", {"value": None, "type": "bigint", "description": "1180591620717411303424n"}),
    ("Symbol('s')", {"value": None, "type": "symbol", "description": "Symbol(s)"}),
    ("/a+b/gi", {"value": None, "type": "regexp", "description": "/a+b/gi"}),
    ("new Map([['a', 1], ['b', 'x']])", {"value": None, "type": "map", "description": "Map(2) {'a' => 1, 'b' => 'x'}"}),
    ("new Set([1, 2])", {"value": None, "type": "set", "description": "Set(2) {1, 2}"}),
    ("document.querySelector('h1')", {"value": None, "type": "node", "description": "h1"}),
])
def test_json_data(on_page, expr, data):
    assert on_page.ok("eval " + expr).data == data


def test_date_error_function_and_cycles(on_page):
    date = on_page.ok("eval new Date(0)").data
    assert date["type"] == "date" and "1970" in date["description"] and date["value"] is None
    err = on_page.ok("eval new RangeError('too far')").data
    assert err["type"] == "error" and err["description"].startswith("RangeError: too far")
    fn = on_page.ok("eval (function twice(x) { return 2 * x })").data
    assert fn == {"value": None, "type": "function", "description": "function twice(x) { return 2 * x }"}
    cyc = on_page.ok("eval (() => { const o = {n: 1}; o.self = o; return o })()").data
    assert cyc["type"] == "object" and cyc["value"] is None and "n: 1" in cyc["description"]


def test_console_output_during_the_eval(on_page):
    res = on_page.ok("eval console.log('hi', 1, {a: 1}); console.warn('careful'); 7")
    assert res.data["value"] == 7
    assert res.data["console"] == [{"type": "log", "text": "hi 1 {a: 1}"}, {"type": "warning", "text": "careful"}]
    assert "console" not in on_page.ok("eval 8").data  # only what this eval wrote


def test_repl_display(on_page):
    assert _shown(on_page, "eval 'ab'") == "'ab'\n"
    assert _shown(on_page, "eval 'it\\'s\\n\\x1b[31m'") == "'it\\'s\\n\\x1b[31m'\n"
    assert _shown(on_page, "eval undefined") == "undefined\n"
    assert _shown(on_page, "eval NaN") == "NaN\n"
    assert _shown(on_page, "eval 5n") == "5n\n"
    assert _shown(on_page, "eval new Map([['k', 2]])") == "Map(1) {'k' => 2}\n"
    assert _shown(on_page, "eval document.body") == "body\n"
    assert _shown(on_page, "eval ({n: 1})") == '{\n  "n": 1\n}\n'
    shown = _shown(on_page, "eval console.log('from the page'); 3")
    assert shown == "3\nconsole.log: from the page\n"


def test_big_results_are_cut(on_page):
    shown = _shown(on_page, "eval 'x'.repeat(25000)")
    first, note = shown.splitlines()
    assert first == "'" + "x" * 9999
    assert note == "(cut: showing 10,000 of 25,002 characters; --json has all of it)"
    assert on_page.ok("eval 'y'.repeat(25000)").data["value"] == "y" * 25000  # JSON keeps it all
    huge = on_page.ok("eval 'z'.repeat(1500000)")
    assert huge.data["truncated"] is True and huge.data["length"] == 1500000
    assert len(huge.data["value"]) == 1_000_000
    assert "The result was 1,500,000 characters; it was cut." in huge.notes


def test_eval_that_navigates_says_so(on_page, demo):
    res = on_page.ok(f"eval location.href = '{demo.url('shop.html')}'")
    assert f"Navigated to {demo.url('shop.html')}" in res.notes
    assert on_page.ok("eval document.title").data["value"] == "Demo Shop"


def test_driver_js_still_returns_plain_values(on_page):
    assert on_page.js("1 + 1") == 2
    assert on_page.js("undefined") is None
