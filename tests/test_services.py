"""verdex through real remote browser services: Browserless 2.42.0 and Selenium Grid 4.48.0 standalone.

Both run on this machine (installed by ``./dev services``; the tests skip, naming why, when the
registry could not supply them) and reach the demo server over loopback. Browserless starts a fresh
browser for every WebSocket and closes it with the socket, so everything verdex does must go
through its one socket; Grid's ``se:cdp`` is one proxied browser socket with no ``/json`` endpoints.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import Driver, ref_in, until as poll_until
from remote_services import Browserless, Grid, available, http
from verdex_cli.base.errors import ErrorKind, ExitStatus
from conftest import run_verdex as verdex

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bl-s3cr3t-T0KEN"
# BROWSERLESS_ABORT: in Browserless 2.42's browsers the demo's nested cross-origin frame sometimes never
# loads (its log says net::ERR_ABORTED for it; its own hooks attach to every page), under load about
# one run in five. The service's doing, not verdex's: the page is loaded once more before failing.


def results(proc: subprocess.CompletedProcess) -> list[dict]:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [json.loads(line)["result"] for line in proc.stdout.splitlines() if line.startswith("{")]


def until(check, what: str, seconds: float = 30.0):
    value = poll_until(check, seconds)
    assert value, what
    return value


@pytest.fixture(scope="module")
def browserless():
    why = available("browserless")
    if why:
        pytest.skip(why)
    service = Browserless(TOKEN)
    yield service
    service.stop()


@pytest.fixture(scope="module")
def grid():
    why = available("grid")
    if why:
        pytest.skip(why)
    service = Grid(max_sessions=2)
    yield service
    service.stop()


@pytest.fixture
def grid_session(grid):
    sid, url = grid.new_session()
    yield sid, url
    if sid in grid.sessions:
        grid.delete_session(sid)


@pytest.fixture(params=["browserless", "grid"])
def remote(request):
    """(name, service, --connect URL): a fresh remote browser of each service."""
    if request.param == "browserless":
        service = request.getfixturevalue("browserless")
        return "browserless", service, service.url()
    service = request.getfixturevalue("grid")
    _, url = request.getfixturevalue("grid_session")
    return "grid", service, url


def test_one_shot_run_snapshots_cross_origin_frames_and_clicks(remote, demo):
    name, service, url = remote
    line = ["run", "--json", "--connect", url, demo.url("frames.html"), 'wait button:"Leaf button"', "snapshot",
            "frames", 'click button:"Leaf button"', "snapshot"]
    proc = verdex(*line)
    if name == "browserless" and proc.returncode != 0 and '"command": "wait' in proc.stdout:
        proc = verdex(*line)  # Browserless 2.42 sometimes aborts the nested frame's load (BROWSERLESS_ABORT)
    snap, frames, click, after = results(proc)[-4:]
    leaf = next(f for f in frames["frames"] if f["url"].endswith("frame-leaf.html"))
    cross = next(f for f in frames["frames"] if f["url"].startswith(demo.b))
    assert cross["cross_origin"] and leaf["cross_origin"] and leaf["parent"] == cross["index"]
    assert 'button "Leaf button"' in snap["text"] and "Leaf clicked" not in snap["text"]
    assert click["ref"].startswith(f"c0p0f{leaf['index']}e")
    assert "Leaf clicked" in after["text"]  # read back by a fresh capture of the leaf frame
    assert TOKEN not in proc.stdout + proc.stderr
    assert service.healthy()


def test_driver_click_is_read_back_by_the_page_and_tabs_share_the_one_socket(remote, demo):
    name, service, url = remote
    since = time.time() * 1000 - 1  # Browserless's startedOn: ms since the epoch
    d = Driver(url, timeout=20)
    try:
        d.ok("open " + demo.url("frames.html"))
        waited = d.run('wait button:"Leaf button"')
        if not waited.ok and name == "browserless":  # see BROWSERLESS_ABORT
            d.ok("reload")
            waited = d.run('wait button:"Leaf button"')
        assert waited.ok, (waited.message, d.run("frames").result, name == "browserless" and service.log_tail(60))
        text = d.ok("snapshot").data["text"]
        assert 'button "Leaf button"' in text  # the cross-origin leaf, two levels down
        d.ok("click " + ref_in(text, 'button "Frame button"'))  # the first one: the same-origin frame
        count = "document.getElementById('same-frame').contentDocument.getElementById('frame-count').textContent"
        assert d.js(count) == "Clicked 1 time"

        new = d.ok("tab new " + demo.url("form.html")).data["switched_to"]
        assert d.js("document.title") == "Form controls"
        listed = d.ok("tabs").data
        mine = [t["url"] for t in listed["tabs"]]
        assert mine == [demo.url("frames.html"), demo.url("form.html")]
        if name == "browserless":
            # one browser for everything: a second socket would have started a second browser
            # (browsers of earlier tests may still be there: see remote_services.py)
            browsers = [b for b in service.browsers() if b["startedOn"] >= since]
            assert len(browsers) == 1, browsers
            pages = [p["url"] for p in service_pages(service) if p["browserId"] == browsers[0]["id"]]
            assert demo.url("frames.html") in pages and demo.url("form.html") in pages
        else:
            sid = url.split("/session/")[1].split("/")[0]
            assert len(service.window_handles(sid)) == 3  # chromedriver's own tab and verdex's two
        d.ok(f"tab close {new}")
        assert [t["url"] for t in d.ok("tabs").data["tabs"]] == [demo.url("frames.html")]
        if name == "grid":
            until(lambda: len(service.window_handles(sid)) == 2, "the closed tab is still open")
    finally:
        d.close()
    assert service.healthy()


def service_pages(service: Browserless) -> list[dict]:
    status, body = http("GET", f"http://127.0.0.1:{service.port}/sessions?token={service.token}")
    assert status == 200, body
    return [s for s in body if s.get("type") == "page"]


def test_wrong_token_is_connect_failed_and_browserless_survives_it(browserless, demo):
    bad = browserless.url("wrong-" + TOKEN)
    proc = verdex("run", "--connect", bad, demo.url("index.html"), "eval 1")
    assert proc.returncode == ExitStatus.FAILED
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0] == (f"Cannot connect to ws://127.0.0.1:{browserless.port}/chromium?token=***: "
                        "HTTP 401 at the WebSocket handshake.")
    proc = verdex("run", "--json", "--connect", bad, demo.url("index.html"), "eval 1")
    obj = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == ExitStatus.FAILED and obj["error"]["kind"] == ErrorKind.CONNECT_FAILED
    assert TOKEN not in proc.stdout + proc.stderr
    # the refused handshake was read to its end: Browserless 2.42 dies of a reset connection
    assert browserless.healthy(), browserless.log_tail()
    proc = verdex("run", "--json", "--connect", browserless.url(), demo.url("form.html"), "eval document.title")
    assert results(proc)[-1]["value"] == "Form controls"


def test_ended_grid_session_is_connect_failed(grid, demo):
    sid, url = grid.new_session()
    assert grid.delete_session(sid) == 200
    proc = verdex("run", "--json", "--connect", url, demo.url("index.html"), "eval 1")
    obj = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == ExitStatus.FAILED and obj["error"]["kind"] == ErrorKind.CONNECT_FAILED
    assert obj["error"]["message"].startswith(f"Cannot connect to {url}: HTTP ")
    assert "Traceback" not in proc.stderr
    assert grid.healthy()


def test_quit_leaves_the_grid_session_and_its_tab_as_they_were(grid, grid_session, demo):
    sid, url = grid_session
    handles = grid.window_handles(sid)
    proc = verdex("run", "--json", "--connect", url, demo.url("index.html"), "tabs", "tab new", "tabs")
    first, _, second = results(proc)[-3:]
    theirs = [t["url"] for t in first["browser_tabs"]]
    assert theirs == ["data:,"] and [t["adopted"] for t in first["browser_tabs"]] == [False]
    assert len(second["tabs"]) == 2
    # verdex closed its own tabs and left the session (a browser it did not launch) running
    until(lambda: grid.window_handles(sid) == handles, "verdex's tabs outlived it")
    assert grid.healthy()
    assert grid.delete_session(sid) == 200
    until(lambda: all(slot["session"] is None for node in http("GET", grid.base + "/status")[1]["value"]["nodes"]
                      for slot in node["slots"]), "the deleted session still holds its slot")
    # a new session on the same Grid still serves verdex
    _, again = grid.new_session()
    proc = verdex("run", "--json", "--connect", again, demo.url("form.html"), "eval document.title")
    assert results(proc)[-1]["value"] == "Form controls"


def browserless_session(browserless, demo, before: set) -> tuple[Driver, dict]:
    """A Driver on a new Browserless browser that has a snapshot taken, and that browser's session."""
    d = Driver(browserless.url(), timeout=20)
    try:
        d.ok("open " + demo.url("shop.html"))
        d.ok("snapshot")
        [mine] = [b for b in browserless.browsers() if b["id"] not in before]
    except BaseException:
        d.close()
        raise
    return d, mine


def test_browserless_ends_the_browser_as_soon_as_verdex_hangs_up(browserless, demo):
    """Browserless ends a /chromium browser when its client's socket closes. Anything verdex sent
    after the server had closed (a second close frame: test_connect_ws) or a reset after verdex's
    half-close kept the browser until the service's session time-out (60 s here)."""
    for _ in range(4):
        d, mine = browserless_session(browserless, demo, {b["id"] for b in browserless.browsers()})
        d.close()
        # well inside the 60 s time-out that would end it anyway
        until(lambda: mine["id"] not in {b["id"] for b in browserless.browsers()},
              f"the browser outlived verdex's socket; Browserless said:\n{browserless.log_tail(40)}", seconds=10)


def test_browserless_ends_the_browser_when_it_is_too_busy_to_answer_the_close(browserless, demo):
    """A browser that does not answer verdex's close frame (here: stopped, as a starved one is):
    verdex waits 2 s for the server to close, then resets the socket. Half-closing first made
    Browserless stop watching the socket, so it missed the reset and kept the browser."""
    d, mine = browserless_session(browserless, demo, {b["id"] for b in browserless.browsers()})
    found = subprocess.run(["pgrep", "-f", mine["userDataDir"]], capture_output=True, text=True).stdout.split()
    chrome = [int(pid) for pid in found]
    assert chrome, mine
    try:
        for pid in chrome:
            os.kill(pid, signal.SIGSTOP)
        d.close()

        def listed() -> set | None:  # None while Browserless cannot answer (it asks each listed browser)
            try:
                status, body = http("GET", f"http://127.0.0.1:{browserless.port}/sessions?token={TOKEN}", timeout=1)
            except OSError:
                return None
            return {b["id"] for b in body if b.get("type") == "browser"} if status == 200 else None

        until(lambda: (ids := listed()) is not None and mine["id"] not in ids,
              f"the stopped browser outlived verdex's socket; Browserless said:\n{browserless.log_tail(40)}",
              seconds=10)
    finally:
        for pid in chrome:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
    assert browserless.healthy()
