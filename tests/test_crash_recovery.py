"""The session survives crashes: a crashed tab says so and recovers, a gone browser says so and
`relaunch` starts a new one, and read-only status never interrupts a busy page's script."""

from __future__ import annotations

import io
import os
import signal
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from verdex_cli.app.wiring import AppOptions, make_workspace
from verdex_cli.browser import launch
from verdex_cli.base.errors import CDPTimeout, ErrorKind, ExitStatus
from verdex_cli.ui.render import Renderer
from verdex_cli.ui.repl.app import Repl
from conftest import ctx_fail as fail, ctx_ok as ok, target_title, type_at_prompts, until

SHOP = "demo_pages/shop.html"
BUSY = "tests/fixtures/snapshot/busy.html"
BUSY_TITLE = "Busy page (looping)"  # the title busy.html takes as its endless loop starts


def _pages(endpoint: str) -> list[dict]:
    import json
    import urllib.request

    with urllib.request.urlopen(endpoint + "/json/list", timeout=5) as r:
        return [t for t in json.loads(r.read()) if t.get("type") == "page"]


# -- a crashed renderer ----------------------------------------------------------------------------

def test_crashed_page_says_so_and_reload_recovers_in_the_same_tab(driver):
    driver.ok(f"open {SHOP}")
    driver.ok("snapshot")
    index_before = driver.ctx.session.current
    out = driver.fail("open chrome://crash", ErrorKind.PAGE_CRASHED)
    assert out.message == "The page crashed. Use 'reload' or 'open URL'."
    start = time.monotonic()
    out = driver.fail("snapshot", ErrorKind.PAGE_CRASHED)
    assert time.monotonic() - start < 2  # at once, not after a time-out
    assert out.exit_status == ExitStatus.FAILED
    driver.fail("click c0p0f0e2", ErrorKind.PAGE_CRASHED)
    tabs = driver.ok("tabs").data["tabs"]  # the tab is still listed, from the browser's own target list
    assert [t["index"] for t in tabs if t["current"]] == [index_before[1]]
    nav = driver.ok("reload").data
    assert nav["title"] == "Demo Shop"
    assert driver.ctx.session.current == index_before
    assert "- button \"Add to cart\"" in driver.ok("snapshot").data["text"]
    assert driver.ok("eval 6 * 7").data["value"] == 42


def test_open_recovers_a_crashed_page(driver, demo):
    driver.ok(f"open {SHOP}")
    driver.fail("open chrome://crash", ErrorKind.PAGE_CRASHED)
    assert driver.ok(f"open {demo.url('form.html')}").data["url"] == demo.url("form.html")
    assert driver.ok("eval location.pathname").data["value"].endswith("form.html")


def test_a_crash_during_a_command_ends_it_at_once(driver, chrome_http):
    driver.ok(f"open {SHOP}")
    target = driver.ctx.page.target
    import threading

    def crash_once_waiting():
        assert until(lambda: target_title(chrome_http, target.id) == "waiting", 10)  # the eval runs
        target.send("Page.navigate", url="chrome://crash")

    threading.Thread(target=crash_once_waiting, daemon=True).start()
    start = time.monotonic()
    driver.fail("eval (document.title = 'waiting', await new Promise(r => setTimeout(r, 8000)))",
                ErrorKind.PAGE_CRASHED)
    assert time.monotonic() - start < 4
    driver.ok("reload")


# -- the browser is gone ---------------------------------------------------------------------------

@pytest.fixture
def own_browser_ctx():
    ctx = make_workspace(AppOptions(timeout=5))
    yield ctx
    ctx.close()


def test_killed_browser_is_browser_lost_and_relaunch_starts_a_new_one(own_browser_ctx, tmp_path):
    ctx = own_browser_ctx
    ok(ctx, f"open {SHOP}")
    ok(ctx, "tab new")
    ok(ctx, f"open {SHOP}")
    ok(ctx, "snapshot")
    ok(ctx, "tab 0")
    ok(ctx, "snapshot")
    old = ctx.session.chrome
    os.killpg(old.pid, signal.SIGKILL)
    until(lambda: not old.alive(), 10)
    out = fail(ctx, "click c0p0f0e2", ErrorKind.BROWSER_LOST)
    assert out.message == "The browser is gone. Use 'relaunch'."
    assert out.exit_status == ExitStatus.FAILED
    fail(ctx, "snapshot", ErrorKind.BROWSER_LOST)
    fail(ctx, "tabs", ErrorKind.BROWSER_LOST)
    assert ok(ctx, "help relaunch").data["usage"] == "relaunch"  # commands without a browser still work
    res = ok(ctx, "relaunch")
    assert res.data["relaunched"] is True
    assert res.data["url"].endswith(SHOP) and res.data["title"] == "Demo Shop"  # the page came back
    assert ctx.session.chrome.pid != old.pid
    assert not os.path.exists(old.profile), "the dead browser's profile was left behind"
    # refs of the old browser are stale, not a crash and not a different element
    fail(ctx, "click c0p0f0e2", ErrorKind.NAVIGATED)
    assert "has been closed" in fail(ctx, "click c0p1f0e2", ErrorKind.PAGE_MISMATCH).message
    snap = ok(ctx, "snapshot").data
    assert "Add to cart" in snap["text"]
    fail(ctx, "click c0p0f0e2", ErrorKind.NAVIGATED)  # the new browser's page numbers on: never the old string
    assert "c0p0f0e2" not in snap["refs"]
    ok(ctx, "click " + next(r for r, i in snap["refs"].items() if i["name"] == "Add to cart"))


def test_the_repl_survives_a_lost_browser(own_browser_ctx):
    ctx = own_browser_ctx
    ok(ctx, f"open {SHOP}")
    out = Console(file=io.StringIO(), width=120, color_system=None)
    err = Console(file=io.StringIO(), width=120, color_system=None)
    renderer = Renderer(console=out, err_console=err)
    chrome = ctx.session.chrome
    os.killpg(chrome.pid, signal.SIGKILL)
    assert until(lambda: not chrome.alive(), 10)
    with create_pipe_input() as inp:
        repl = Repl(ctx, renderer, input=inp, output=DummyOutput())
        import threading

        type_at_prompts(repl, inp, "eval 1\r", "relaunch\r", "eval 6 * 7\r", "quit\r")
        result = {}
        th = threading.Thread(target=lambda: result.setdefault("code", repl.loop()), daemon=True)
        th.start()
        th.join(60)
        assert not th.is_alive()
    assert result["code"] == 0
    assert "The browser is gone. Use 'relaunch'." in err.file.getvalue()
    assert "42" in out.file.getvalue().splitlines()


def test_closed_connect_endpoint_is_browser_lost():
    chrome = launch.launch(headless=True, debug_port=True)
    ctx = make_workspace(AppOptions(connect=chrome.http_endpoint, timeout=5))
    try:
        ok(ctx, f"open {SHOP}")
        chrome.stop()
        fail(ctx, "eval 1", ErrorKind.BROWSER_LOST)
        fail(ctx, "relaunch", ErrorKind.CONNECT_FAILED)  # nothing to attach to any more
    finally:
        ctx.close()
        chrome.stop()


def test_a_closed_tab_is_still_connection_lost(driver, chrome_http):
    import urllib.request

    driver.ok(f"open {SHOP}")
    with urllib.request.urlopen(f"{chrome_http}/json/close/{driver.ctx.page.target.id}", timeout=5):
        pass
    target_id = driver.ctx.page.target.id
    assert until(lambda: target_title(chrome_http, target_id) is None, 10)  # the browser closed it
    driver.fail("eval 1", ErrorKind.CONNECTION_LOST)


# -- read-only status never interrupts the page ----------------------------------------------------

def _still_busy(target) -> bool:
    try:
        target.call("Runtime.evaluate", timeout=0.5, interrupt=False, expression="1", returnByValue=True)
        return False
    except CDPTimeout:
        return True


def test_toolbar_refresh_and_tabs_do_not_kill_a_busy_pages_script(driver, chrome_http):
    driver.ok(f"open {BUSY}")
    target = driver.ctx.page.target
    assert until(lambda: target_title(chrome_http, target.id) == BUSY_TITLE, 10)  # its endless loop runs
    try:
        assert _still_busy(target)
        with create_pipe_input() as inp:
            repl = Repl(driver.ctx, Renderer(console=Console(file=io.StringIO())), input=inp, output=DummyOutput())
            repl._refresh_status()
            assert "Busy page" in repl._toolbar()
        tabs = driver.ok("tabs").data["tabs"]
        assert any(t["title"] == BUSY_TITLE for t in tabs)
        assert _still_busy(target), "a read-only status refresh interrupted the page's script"
    finally:
        target.call("Runtime.terminateExecution", timeout=2)
    assert driver.ok("eval 2 + 2").data["value"] == 4


def test_a_users_timed_out_command_interrupts_the_page_script(chrome_http):
    from conftest import Driver

    d = Driver(chrome_http, timeout=1.5)
    try:
        d.ok(f"open {BUSY}")
        assert until(lambda: target_title(chrome_http, d.ctx.page.target.id) == BUSY_TITLE, 10)  # it loops
        d.fail("eval 1", ErrorKind.TIMEOUT)
        assert d.ok("eval 3").data["value"] == 3  # the loop was stopped by the user's command
    finally:
        d.close()


def test_one_shot_exits_1_with_browser_lost_when_the_browser_dies(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    chrome = launch.launch(headless=True, debug_port=True)
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        proc = subprocess.Popen([sys.executable, "-m", "verdex_cli", "run", "--json", "--connect", chrome.http_endpoint,
                                 SHOP, "eval 1",
                                 "eval (document.title = 'waiting', await new Promise(r => setTimeout(r, 6000)))",
                                 "eval 2"],
                                cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        first = proc.stdout.readline()  # 'eval 1' is done (each JSON line is flushed)
        slow_eval_runs = lambda: any(t.get("title") == "waiting" for t in _pages(chrome.http_endpoint))  # noqa: E731
        assert until(slow_eval_runs, 20)
        chrome.stop()
        rest, err = proc.communicate(timeout=60)
        out = first + rest
    finally:
        chrome.stop()
    assert proc.returncode == ExitStatus.FAILED, err
    objs = [json.loads(line) for line in out.splitlines()]
    assert objs[0]["ok"] is True
    assert objs[-1]["error"] == {"kind": "browser_lost", "message": "The browser is gone. Use 'relaunch'."}
    assert len(objs) == 2 and "Traceback" not in err
