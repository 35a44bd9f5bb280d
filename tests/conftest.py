"""Shared fixtures: one real headless Chromium per test session, the demo site on two origins."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

# Every patched capture (engine/incremental.js) in the suite is compared with a whole capture of
# the same page, and a difference fails the command (set before verdex_cli is imported).
os.environ.setdefault("VERDEX_CHECK_PATCHES", "1")

from verdex_cli.app.wiring import AppOptions
from verdex_cli.browser import launch
from verdex_cli.browser.session import Options, Session
from verdex_cli.commands.context import Workspace
from verdex_cli.app.demo_server import serve
from verdex_cli.commands.runner import execute


@pytest.fixture(scope="session")
def chrome():
    proc = launch.launch(headless=True, debug_port=True)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def chrome_http(chrome):
    return chrome.http_endpoint


@pytest.fixture(scope="session")
def demo():
    server = serve()
    yield server
    server.stop()


class Driver:
    """Runs command lines against a fresh tab of the shared browser."""

    def __init__(self, endpoint: str, timeout: float = 10.0, downloads: str | None = None):
        opts = Options(connect=endpoint, new_tab=True, timeout=timeout, downloads=downloads)
        self.ctx = Workspace(lambda: Session.start(opts))

    def run(self, line: str):
        return execute(self.ctx, line)

    def ok(self, line: str):
        out = execute(self.ctx, line)
        assert out.ok, f"{line!r} failed: {out.kind}: {out.message}\n{out.trace}"
        return out.result

    def fail(self, line: str, kind: str | None = None):
        out = execute(self.ctx, line)
        assert not out.ok, f"{line!r} unexpectedly succeeded"
        if kind is not None:
            assert out.kind == kind, f"{line!r}: expected {kind}, got {out.kind}: {out.message}"
        return out

    def js(self, expression: str):
        return self.ctx.page.evaluate(expression)

    def ref(self, pattern: str) -> str:
        """The ref of the first snapshot line matching ``pattern`` (a fresh snapshot)."""
        return ref_in(self.ok("snapshot").data["text"], pattern)

    def close(self):
        self.ctx.close()


@pytest.fixture
def driver(chrome_http):
    d = Driver(chrome_http)
    yield d
    d.close()


@pytest.fixture
def app_options(chrome_http):
    """AppOptions attached to the shared browser (for one-shot runner tests)."""
    return AppOptions(connect=chrome_http)


@pytest.fixture
def quick(chrome_http):
    """A driver whose --timeout is short (slow pages then time out quickly)."""
    d = Driver(chrome_http, timeout=1.5)
    yield d
    d.close()


def pages_site(folder: str):
    """A module fixture: the pages of tests/fixtures/FOLDER served on the two loopback origins
    (``site = pages_site("nav")`` in a test module)."""
    @pytest.fixture(scope="module")
    def site():
        server = serve(Path(__file__).resolve().parent / "fixtures" / folder)
        yield server
        server.stop()
    return site


def ref_in(text: str, pattern: str) -> str:
    """The ref on the first snapshot line matching ``pattern`` (a regex), e.g. 'button "Alert"'."""
    return re.search(pattern + r".*?\[ref=(c\d+p\d+f\d+e\d+)\]", text).group(1)


def ref_after(text: str, label: str, pattern: str) -> str:
    """The ref on the first line matching ``pattern`` at or after the line that names ``label`` (quoted,
    or as ``text: label``): a control in that label's row or list item."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if f'"{label}"' in line or f"text: {label}" in line)
    return ref_in("\n".join(lines[at:]), pattern)


def refs_named(snap, name: str) -> list[str]:
    """The refs named ``name`` in a snapshot (a command's result or its JSON data), in the page's order."""
    return [r for r, i in (snap if isinstance(snap, dict) else snap.data)["refs"].items() if i["name"] == name]


def open_checkout(driver, snap, item: int = 0) -> list[str]:
    """On the demo shop (``snap``: its snapshot): puts item ``item`` in the cart and opens the checkout
    dialog, a modal over the page. Returns the refs of the "Add to cart" buttons."""
    adds = refs_named(snap, "Add to cart")
    driver.ok(f"click {adds[item]}")
    driver.ok(f"click {ref_of(driver.ok('snapshot'), 'Checkout')}")
    assert driver.js("document.getElementById('checkout-dialog').hidden") is False
    return adds


def ref_of(snap, name: str, role: str | None = None) -> str:
    """The one ref named ``name`` (and of ``role``) in a snapshot: a command's result or its JSON data."""
    refs = (snap if isinstance(snap, dict) else snap.data)["refs"]
    hits = [r for r, i in refs.items() if i["name"] == name and (role is None or i["role"] == role)]
    assert len(hits) == 1, f"{name!r}: {hits}"
    return hits[0]


# -- helpers shared by the test modules ----------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def world_eval(page, fr, expression: str, by_value: bool = True, timeout: float | None = None) -> dict:
    """Evaluate test JavaScript in verdex's isolated world of frame ``fr`` (the engine loaded there):
    the raw CDP result (``value``, or the remote object)."""
    res = fr.target.call("Runtime.evaluate", timeout=timeout, expression=expression, contextId=page.frames.world(fr),
                         returnByValue=by_value, awaitPromise=True)
    assert "exceptionDetails" not in res, res["exceptionDetails"]
    return res["result"]


def fake_browser(folder, then: str):
    """A 'browser' executable in ``folder`` that records its start (touches the marker returned with it),
    then runs the shell line ``then`` (``exit 3``: fails; ``exec sleep 60``: stays until killed)."""
    marker = folder / "chrome-was-started"
    script = folder / "fake-chrome"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n{then}\n")
    script.chmod(0o755)
    return script, marker


def until(check, timeout: float = 10.0):
    """Poll ``check`` (every 50 ms) until it gives something true or ``timeout`` s passed; its last
    answer (true when it held)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    return check()


def type_at_prompts(repl, inp, *lines: str, timeout: float = 30.0) -> None:
    """A user typing into a REPL: each line (keys) once the REPL asks for it. The test counts the
    REPL's prompts (its PromptSession's ``prompt`` calls); a thread types, and stops if none comes."""
    import threading

    asked = []
    prompt = repl.prompt.prompt

    def counted(*args, **kwargs):
        asked.append(True)
        return prompt(*args, **kwargs)

    repl.prompt.prompt = counted

    def typist():
        for n, keys in enumerate(lines, 1):
            if not until(lambda: len(asked) >= n, timeout):
                return
            inp.send_text(keys)

    threading.Thread(target=typist, daemon=True).start()


def page_urls(endpoint: str) -> dict[str, str]:
    """{target id: url} of the browser's tabs, from its own target list."""
    import json
    import urllib.request

    with urllib.request.urlopen(endpoint + "/json/list", timeout=5) as r:
        return {t["id"]: t["url"] for t in json.loads(r.read()) if t.get("type") == "page"}


@contextmanager
def connected_to_a_browser_with_a_tab(url: str):
    """A browser of its own whose second tab it opened itself on ``url`` (no verdex in it), and a
    Workspace connected to it: yields (the browser's HTTP endpoint, page_urls() before verdex came, the
    Workspace). The Workspace is closed after (also when the test closed it first), then the browser."""
    import urllib.request

    chrome = launch.launch(headless=True, debug_port=True)
    try:
        req = urllib.request.Request(chrome.http_endpoint + "/json/new?" + url, method="PUT")
        urllib.request.urlopen(req, timeout=5).close()
        before = page_urls(chrome.http_endpoint)
        assert len(before) == 2
        ctx = Workspace(lambda: Session.start(Options(connect=chrome.http_endpoint)))
        try:
            yield chrome.http_endpoint, before, ctx
        finally:
            ctx.close()
    finally:
        chrome.stop()


def target_title(endpoint: str, target_id: str) -> str | None:
    """The title the browser's own target list shows for a tab (None when the tab is gone): a page
    can say what it is doing through its title even while its script keeps it from answering."""
    import json
    import urllib.request

    with urllib.request.urlopen(endpoint + "/json/list", timeout=5) as r:
        targets = json.loads(r.read())
    return next((t.get("title") for t in targets if t.get("id") == target_id), None)


@pytest.fixture
def ctx(chrome_http):
    """A Workspace on a new tab of the shared browser, as the REPL has one."""
    c = Workspace(lambda: Session.start(Options(connect=chrome_http, new_tab=True, timeout=10)))
    yield c
    c.close()


@pytest.fixture
def mutations(driver, demo):
    """The demo's mutations page (buttons b1-b5 that ``window.demo`` moves, renames, clones, re-renders)
    and its first snapshot."""
    driver.ok("open " + demo.url("mutations.html"))
    return driver, driver.ok("snapshot")


def clicks(driver) -> list:
    """The data-ids of the mutations page's buttons clicked since the last call (the page's own log)."""
    return driver.js("window.demo.clicks.splice(0)")


def click_reaches(driver, ref: str, data_id: str) -> None:
    """Clicks ``ref``: the mutations page logs a click on button ``data_id``, and on nothing else."""
    driver.ok(f"click {ref}")
    assert clicks(driver) == [data_id]


@pytest.fixture
def shop(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    return driver


@pytest.fixture
def form(driver, demo):
    driver.ok("open " + demo.url("form.html"))
    return driver


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def ctx_ok(ctx, line: str):
    """Run a command line in a Workspace; it must succeed: its result."""
    out = execute(ctx, line)
    assert out.ok, f"{line!r}: {out.kind}: {out.message}"
    return out.result


def ctx_fail(ctx, line: str, kind: str):
    """Run a command line in a Workspace; it must fail with ``kind``: its outcome."""
    out = execute(ctx, line)
    assert not out.ok, f"{line!r} unexpectedly succeeded"
    assert out.kind == kind, f"{line!r}: expected {kind}, got {out.kind}: {out.message}"
    return out


def run_verdex(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m verdex_cli ARGS` with this checkout's package, output captured as text."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


@contextmanager
def browser_behind_proxy(token: str):
    """(a browser of its own, a ws-only endpoint in front of it that wants ``token``)."""
    from ws_proxy import WsProxy

    chrome = launch.launch(headless=True, debug_port=True)
    proxy = WsProxy(chrome.browser_ws, token=token)
    try:
        yield chrome, proxy
    finally:
        proxy.close()
        chrome.stop()
