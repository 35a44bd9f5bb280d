"""The benchmarks' shared harness: what every `bench_*.py` script needs around its own measurement.

- set-up as context managers: `served()` (the demo site, or any folder, on loopback), `chrome()` (a
  launched Chromium with a DevTools endpoint), `session()` / `workspace()` (verdex on that browser,
  through the library or through the command runner as the REPL does), `playwright()` (Playwright's
  own browser on the same Chromium binary, a page in it);
- timing: `measure(fn, runs, warmup)` (samples in ms and their median), `pair(...)` (verdex and
  Playwright side by side in one process run, taking turns, the side that goes first alternating:
  both see the same machine load; the ratio is verdex/Playwright), `fresh_snapshot()` (a verdex
  capture with nothing cached), `load()` (the machine's load average);
- output: `print_table()` and `write_json()`.

Importing it puts the checkout (and `tests/`, for the test servers and proxies) on `sys.path`, so a
script run as `python benchmarks/bench_x.py` imports `verdex_cli` from this tree.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT / "tests", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from verdex_cli.browser import launch  # noqa: E402
from verdex_cli.browser.session import Options, Session  # noqa: E402
from verdex_cli.commands.context import Workspace  # noqa: E402
from verdex_cli.commands.runner import Outcome, execute  # noqa: E402
from verdex_cli.app.demo_server import serve  # noqa: E402
from verdex_cli.refs.page_state import PageState  # noqa: E402

SITE = ROOT / "benchmarks" / "pages" / "site"  # the generated realistic pages (bench_pages, bench_latency)
PW_ARGS = ("--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
           "--disable-sync")  # Playwright's browser: as verdex launches its own
WINDOW_ARGS = ("--hide-scrollbars", "--window-size=1280,900")  # verdex's viewport, for actions


# -- set-up ------------------------------------------------------------------------------------------
@contextmanager
def served(root: Path | str | None = None) -> Iterator:
    """The demo site (or ``root``) on a loopback HTTP server; ``.url(path)`` names a page."""
    server = serve(root) if root is not None else serve()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def chrome(path: str | None = None, *, extra_args: tuple = (), headless: bool = True) -> Iterator:
    """A launched Chromium (``path``: as verdex finds it) with a DevTools endpoint
    (``.http_endpoint``, ``.browser_ws``); stopped after."""
    proc = launch.launch(launch.find_chrome(path), headless=headless, extra_args=tuple(extra_args), debug_port=True)
    try:
        yield proc
    finally:
        proc.stop()


def start_session(endpoint: str, timeout: float = 60.0, **options) -> Session:
    """verdex's session on the browser at ``endpoint``, with the snapshot bridge (as the CLI starts it)."""
    return Session.start(Options(connect=endpoint, timeout=timeout, **options))


@contextmanager
def session(endpoint: str, timeout: float = 60.0, **options) -> Iterator[Session]:
    s = start_session(endpoint, timeout, **options)
    try:
        yield s
    finally:
        s.close()


@contextmanager
def workspace(endpoint: str, timeout: float = 60.0, **options) -> Iterator[Workspace]:
    """A command workspace (the REPL's state) whose session starts on the first command."""
    ctx = Workspace(lambda: start_session(endpoint, timeout, **options))
    try:
        yield ctx
    finally:
        ctx.close()


def run(ctx: Workspace, line: str) -> Outcome:
    """One command through the runner (the REPL's path); a failure ends the benchmark with its message."""
    out = execute(ctx, line)
    if not out.ok:
        raise SystemExit(f"{line!r} failed: {out.kind}: {out.message}")
    return out


@contextmanager
def playwright(chrome_path: str | None = None, extra_args: tuple = (), cdp: str | None = None) -> Iterator:
    """A Playwright page: in a browser of its own on the same Chromium binary (``chrome_path``: as verdex
    finds it), or, with ``cdp``, in a new context of the browser at that endpoint (connect_over_cdp).
    ImportError when Playwright is not installed (``pip install -e '.[bench]'``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        if cdp is not None:
            browser = pw.chromium.connect_over_cdp(cdp)
            context = browser.new_context()
            page = context.new_page()
        else:
            browser = pw.chromium.launch(executable_path=launch.find_chrome(chrome_path), headless=True,
                                         args=[*PW_ARGS, *extra_args])
            context, page = None, browser.new_page()
        try:
            yield page
        finally:
            if context is not None:
                context.close()
            browser.close()


def pw_snapshot(page) -> str:
    """Playwright's AI snapshot of the page (older releases: of its body)."""
    if hasattr(page, "aria_snapshot"):
        return page.aria_snapshot(mode="ai")
    return page.locator("body").aria_snapshot(mode="ai")


def fresh_snapshot(page, numbered: bool = True) -> "Own":
    """A verdex capture with nothing cached: the in-page ref registries reset, a new PageState (the
    `snapshot` command's own path, PageState.snapshot). Its time in ms, an `Own` whose ``value`` is the
    snapshot and ``state`` the PageState (``numbered``: sharing the tab's ref numbers)."""
    page.frames.reset_refs(keep_counter=False)
    state = PageState(page.prefix, page.frames.numbers) if numbered else PageState(page.prefix)
    t0 = time.perf_counter()
    snap, _ = state.snapshot(page, fresh=True)
    took = Own((time.perf_counter() - t0) * 1000.0, snap)
    took.state = state
    return took


def load() -> list[float]:
    """The machine's load average (1, 5, 15 minutes), rounded."""
    return [round(x, 2) for x in os.getloadavg()]


# -- timing --------------------------------------------------------------------------------------------
class Own(float):
    """A sample a timed function measured itself (e.g. a command's own `elapsed_ms`): `measure` takes it
    instead of the wall time of the call. ``value`` carries what else the call returned."""

    def __new__(cls, ms: float, value=None):
        obj = super().__new__(cls, ms)
        obj.value = value
        return obj


class Samples(list):
    """Milliseconds, one per run; ``last`` is what the last call returned."""

    last = None

    @property
    def median(self) -> float:
        return statistics.median(self)

    def percentile(self, q: float) -> float:
        return percentile(self, q)


def timed(fn: Callable, *args) -> tuple[float, object]:
    """(ms, result) of one call ``fn(*args)``: the wall time, or the call's own time when it returns an
    `Own`."""
    t0 = time.perf_counter()
    result = fn(*args)
    ms = (time.perf_counter() - t0) * 1000.0
    if isinstance(result, Own):
        return float(result), result.value
    return ms, result


def measure(fn: Callable, runs: int, warmup: int = 0) -> Samples:
    """Call ``fn()`` ``warmup`` times untimed, then ``runs`` times timed: the samples (ms)."""
    for _ in range(warmup):
        fn()
    samples = Samples()
    for _ in range(runs):
        ms, samples.last = timed(fn)
        samples.append(ms)
    return samples


def turns(i: int, sides: list) -> list:
    """The sides in the order of turn ``i``: the one that goes first alternates."""
    return sides if i % 2 == 0 else sides[::-1]


class Pair:
    """verdex and Playwright, each run of one measured: ``verdex``, ``playwright`` (Samples), ``ratio``."""

    def __init__(self, verdex: Samples, playwright: Samples):
        self.verdex, self.playwright = verdex, playwright

    @property
    def ratio(self) -> float:
        return ratio(self.verdex.median, self.playwright.median)


def alternate(sides: dict[str, Callable], runs: int, warmup: int = 0) -> dict[str, Samples]:
    """The sides (name -> function) in turns: ``warmup`` untimed turns, then ``runs`` turns in which
    each side is timed once, the side that goes first alternating, so drift and machine load hit all
    alike (see `timed` for `Own`). Each call gets its turn's number: -warmup .. -1, then 0 .. runs-1."""
    for i in range(-warmup, 0):
        for fn in turns(i, list(sides.values())):
            fn(i)
    got = {name: Samples() for name in sides}
    for i in range(runs):
        for name, fn in turns(i, list(sides.items())):
            ms, got[name].last = timed(fn, i)
            got[name].append(ms)
    return got


def pair(verdex: Callable, playwright: Callable, runs: int, warmup: int = 1) -> Pair:
    """verdex and Playwright side by side in this process run (see `alternate`)."""
    got = alternate({"verdex": verdex, "playwright": playwright}, runs, warmup)
    return Pair(got["verdex"], got["playwright"])


def ratio(a: float, b: float, digits: int = 3) -> float | None:
    return round(a / b, digits) if b else None


def percentile(values, q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


# -- output --------------------------------------------------------------------------------------------
def print_table(rows: list[dict], columns: list[tuple], file=None) -> None:
    """One header line, then a line a row. A column is (key, header, spec[, missing]): ``spec`` formats
    the value (``"24"``, ``"10.2f"``, ``">7"``, ``"9,"``), the header gets its width (right-aligned for
    numbers); a value that is None prints as ``missing`` (default: empty)."""
    head, lines = [], [[] for _ in rows]
    for key, header, spec, *missing in columns:
        width = re.match(r"[<>^]?(\d*)", spec).group(1)
        numeric = bool(re.search(r"[dfeg%,]$", spec)) or spec.startswith(">")
        head.append(format(header, (">" if numeric else "<") + width))
        for line, row in zip(lines, rows):
            value = row.get(key)
            line.append(format(missing[0] if missing else "", ">" + width) if value is None
                        else format(value, spec))
    print(" ".join(head), file=file)
    for line in lines:
        print(" ".join(line), file=file)


def write_json(obj, path: Path | str | None = None) -> None:
    """The report as JSON: one line on stdout, or (``path``) a file, indented."""
    if path is None:
        print(json.dumps(obj))
    else:
        Path(path).write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")


def print_values(values: dict, as_json: bool, line: str) -> None:
    """A flat report: one JSON object, or a line a value (``line``: a format of ``key`` and ``value``)."""
    if as_json:
        write_json(values)
    else:
        for key, value in values.items():
            print(line.format(key=key, value=value))


# Benchmark-side JavaScript in verdex's isolated world of a frame (the engine loaded there): verdex
# itself sends the page no source (its bridge client passes values); benchmarks may probe freely.
def world_value(page, fr, expression: str, timeout: float | None = None) -> dict:
    """The raw CDP result of ``expression`` in frame ``fr``'s verdex world (``value`` by value)."""
    res = fr.target.call("Runtime.evaluate", timeout=timeout, expression=expression, contextId=page.frames.world(fr),
                         returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in res:
        raise RuntimeError(res["exceptionDetails"].get("text", "exception"))
    return res["result"]
