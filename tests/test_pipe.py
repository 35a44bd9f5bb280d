"""The browser verdex launches talks DevTools over a pipe pair (--remote-debugging-pipe), never a port:
no local user can reach it. Everything above the transport works as over a WebSocket."""

from __future__ import annotations

import os
import signal

from verdex_cli.app.wiring import AppOptions, make_workspace
from verdex_cli.browser import launch
from verdex_cli.base.errors import ErrorKind
from conftest import ctx_fail as fail, ctx_ok as ok, until


def cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode("utf-8", "replace").split("\0")
    except OSError:
        return []


def family(pid: int) -> set[int]:
    """``pid`` and all its descendants (Chrome's zygotes, renderers, GPU and network processes)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                    parents[int(entry)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, grew = {pid}, True
    while grew:
        grew = False
        for child, parent in parents.items():
            if parent in found and child not in found:
                found.add(child)
                grew = True
    return {p for p in found if p in parents or p == pid}


def listening_ports(pids: set[int]) -> list[int]:
    """TCP ports (v4 and v6) in LISTEN state whose socket is held by one of ``pids``."""
    listening = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as fh:
                rows = fh.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[3] == "0A":  # TCP_LISTEN
                listening[cols[9]] = int(cols[1].rsplit(":", 1)[1], 16)
    ports = []
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in listening:
                ports.append(listening[link[8:-1]])
    return ports


def assert_no_devtools_port(chrome) -> None:
    args = cmdline(chrome.pid)
    assert "--remote-debugging-pipe" in args, args
    assert not any(a.startswith("--remote-debugging-port") or a.startswith("--remote-debugging-address")
                   for a in args), args
    assert chrome.http_endpoint == "" and chrome.browser_ws == ""
    assert not os.path.exists(os.path.join(chrome.profile, "DevToolsActivePort"))
    pids = family(chrome.pid)
    assert len(pids) >= 2  # the browser and its helpers are all looked at
    assert listening_ports(pids) == []


def test_launch_opens_no_port_and_stop_leaves_no_process(tmp_path):
    chrome = launch.launch(headless=True)
    try:
        assert chrome.version()["Browser"].startswith(("Chrome/", "HeadlessChrome/"))
        assert until(lambda: len(family(chrome.pid)) >= 3)  # helpers started (they would hold a port too)
        assert_no_devtools_port(chrome)
        pids = family(chrome.pid)
        profile = chrome.profile
    finally:
        chrome.stop()
    assert until(lambda: not any(os.path.exists(f"/proc/{p}") and cmdline(p) for p in pids), 8), \
        "a Chrome process outlived stop()"
    assert not os.path.exists(profile)


def test_snapshot_click_tabs_contexts_crash_and_relaunch_over_the_pipe(demo):
    ctx = make_workspace(AppOptions(timeout=10))
    chromes = []
    try:
        ok(ctx, "open " + demo.url("frames.html"))
        chrome = ctx.session.chrome
        chromes.append(chrome)
        assert_no_devtools_port(chrome)
        # a cross-origin (out-of-process) frame: captured and acted on through the pipe
        snap = ok(ctx, "snapshot").data
        cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and "nested=1" in f["url"])
        button = next(r for r, i in snap["refs"].items() if i["name"] == "Frame button" and f"f{cross}e" in r)
        ok(ctx, "click " + button)
        page = ctx.session.page
        frame_target = next(f.target for f in ctx.session.scan_frames(page) if f.oopif and "nested=1" in f.url)
        count = frame_target.call("Runtime.evaluate", returnByValue=True,
                                  expression="document.getElementById('frame-count').textContent")
        assert count["result"]["value"] == "Clicked 1 time"
        # tabs and contexts
        ok(ctx, "tab new " + demo.url("shop.html"))
        assert [t["index"] for t in ok(ctx, "tabs").data["tabs"]] == [0, 1]
        ok(ctx, "eval document.cookie = 'who=zero; path=/'; 1")
        ok(ctx, "context new " + demo.url("shop.html"))
        assert ctx.session.page.evaluate("document.cookie") == ""
        assert [c["index"] for c in ok(ctx, "contexts").data["contexts"]] == [0, 1]
        # a crashed renderer, then a dead browser and relaunch: a new pipe, still no port
        fail(ctx, "open chrome://crash", ErrorKind.PAGE_CRASHED)
        assert ok(ctx, "reload").data["title"] == "Demo Shop"
        os.killpg(chrome.pid, signal.SIGKILL)
        assert until(lambda: not chrome.alive())
        fail(ctx, "eval 1", ErrorKind.BROWSER_LOST)
        ok(ctx, "relaunch")
        chromes.append(ctx.session.chrome)
        assert ctx.session.chrome.pid != chrome.pid
        assert_no_devtools_port(ctx.session.chrome)
        assert ok(ctx, "eval 6 * 7").data["value"] == 42
        pids = family(ctx.session.chrome.pid)
    finally:
        ctx.close()
    assert until(lambda: not any(os.path.exists(f"/proc/{p}") and cmdline(p) for p in pids), 8), \
        "a Chrome process outlived quit"
    assert all(not os.path.exists(c.profile) for c in chromes)


def _fake_browser(tmp_path, body: str) -> str:
    path = tmp_path / "fake-chrome"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_a_browser_that_exits_or_never_answers_on_the_pipe_is_launch_failed(tmp_path, monkeypatch):
    import tempfile

    import pytest

    from verdex_cli.base.errors import LaunchError

    profiles = tmp_path / "tmp"
    profiles.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(profiles))
    exits = _fake_browser(tmp_path, "exit 3")
    with pytest.raises(LaunchError, match=r"fake-chrome exited during start-up; check that "):
        launch.launch(exits, timeout=20)
    silent = _fake_browser(tmp_path, "exec sleep 30")
    with pytest.raises(LaunchError, match=r"fake-chrome did not answer on its DevTools pipe within 1 s\.$"):
        launch.launch(silent, timeout=1)
    assert list(profiles.iterdir()) == []  # both profiles removed
