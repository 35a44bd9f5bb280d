"""A browser reached through one ws-only URL (tests/ws_proxy.py): browser contexts over the one socket,
and downloads -- saved here when the browser is on this machine, reported by their path on the
browser's machine (never as a local file) when it is not.

"Another machine" is real here: a Chromium started in a mount namespace of its own with a private
/tmp, so the folder verdex names for its downloads is not the folder verdex sees. The test reads the
browser's file through /proc/PID/root, as a program on that machine would."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from verdex_cli.browser import launch
from verdex_cli.browser.cdp import Target

from ws_proxy import WsProxy
from conftest import Driver, browser_behind_proxy, until

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "far-T0KEN"
NOTES = (ROOT / "demo_pages" / "files" / "notes.txt").read_bytes()


@pytest.fixture(scope="module")
def near():
    """A browser on this machine behind a ws-only endpoint with a token."""
    with browser_behind_proxy(TOKEN) as pair:
        yield pair


@pytest.fixture(scope="module")
def far():
    """A browser whose file system is not ours (a private /tmp in its own mount namespace) behind a
    ws-only endpoint: (pid, proxy)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs util-linux 'unshare' to give the browser a file system of its own")
    ns = ["-m"] if os.geteuid() == 0 else ["-Urm"]
    cmd = [unshare, *ns, "sh", "-c", 'mount -t tmpfs tmpfs /tmp && exec "$@"', "sh", launch.find_chrome(None),
           "--headless", "--no-sandbox", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
           "--user-data-dir=/tmp/profile", "--no-first-run", "about:blank"]
    proc = subprocess.Popen(cmd, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    port_file = f"/proc/{proc.pid}/root/tmp/profile/DevToolsActivePort"

    def port_known():
        try:
            return len(Path(port_file).read_text().split("\n")) >= 2
        except OSError:
            return False

    if not until(lambda: port_known() or proc.poll() is not None, 20) or proc.poll() is not None:
        err = proc.stderr.read().decode(errors="replace").strip().splitlines()[:1] if proc.poll() is not None else []
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.skip(f"cannot start a browser in a mount namespace of its own here: {err or 'no DevTools port'}")
    port, path = Path(port_file).read_text().split("\n")[:2]
    proxy = WsProxy(f"ws://127.0.0.1:{port}{path}", token=TOKEN)
    yield proc.pid, proxy
    proxy.close()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stderr.close()


def test_contexts_over_a_ws_only_endpoint_share_the_one_socket_and_are_disposed(near, demo, tmp_path):
    chrome, proxy = near
    probe = Target.open(chrome.browser_ws, 5)
    try:
        contexts_before = probe.call("Target.getBrowserContexts")["browserContextIds"]
        upgrades = proxy.upgrades
        r = Driver(proxy.url(TOKEN), downloads=str(tmp_path))
        try:
            r.ok("open " + demo.url("shop.html"))
            r.ok("eval document.cookie = 'who=zero; path=/'; 1")
            assert r.ok("context new " + demo.url("downloads.html")).data["switched_to"] == 1
            ours = set(probe.call("Target.getBrowserContexts")["browserContextIds"]) - set(contexts_before)
            assert len(ours) == 1  # made by Target.createBrowserContext on the one socket
            page_ctx = {t["targetId"]: t.get("browserContextId") for t in probe.call("Target.getTargets")["targetInfos"]}
            assert page_ctx[r.ctx.page.target.id] in ours
            assert "who=zero" not in r.ok("eval document.cookie").data["value"]
            # a download in the new context, through the ws-only endpoint: the browser is on this machine
            res = r.ok("click " + r.ref('link "Download notes"'))
            assert res.data["downloads"] == [{"name": "notes.txt", "path": str(tmp_path / "notes.txt"),
                                              "size": len(NOTES), "url": demo.url("files/notes.txt"),
                                              "state": "completed"}]
            assert (tmp_path / "notes.txt").read_bytes() == NOTES
            r.ok("context 0")
            assert "who=zero" in r.ok("eval document.cookie").data["value"]
            assert [c["index"] for c in r.ok("contexts").data["contexts"]] == [0, 1]
            assert proxy.upgrades == upgrades + 1  # one socket for everything
        finally:
            r.ctx.close()
        assert until(lambda: probe.call("Target.getBrowserContexts")["browserContextIds"] == contexts_before, 5), \
            "verdex's browser context outlived quit"
        assert chrome.reachable()
    finally:
        probe.close()


def test_a_download_on_another_machine_is_reported_there_never_here(far, demo):
    pid, proxy = far
    r = Driver(proxy.url(TOKEN))
    try:
        r.ok("open " + demo.url("downloads.html"))
        local_dir = r.ctx.session.downloads.directory
        res = r.ok("click " + r.ref('link "Download notes"'))
        [record] = res.data["downloads"]
        guid = record["guid"]
        assert record == {"name": "notes.txt", "path": None, "remote_path": str(local_dir / guid), "guid": guid,
                          "size": len(NOTES), "url": demo.url("files/notes.txt"), "state": "completed"}
        assert res.notes == [f"notes.txt ({len(NOTES)} bytes) was downloaded on the browser's machine, not this one: "
                             f"it is {local_dir / guid} there."]
        assert list(local_dir.iterdir()) == []  # nothing here, and nothing claimed here
        # the file is on the browser's machine, where the result says
        assert Path(f"/proc/{pid}/root{record['remote_path']}").read_bytes() == NOTES
    finally:
        r.ctx.close()


def test_a_download_through_a_ws_only_endpoint_to_a_browser_here_lands_here(near, demo, tmp_path):
    _, proxy = near
    r = Driver(proxy.url(TOKEN), downloads=str(tmp_path))
    try:
        r.ok("open " + demo.url("downloads.html"))
        res = r.ok("click " + r.ref('link "Download notes"'))
        assert res.data["downloads"][0]["path"] == str(tmp_path / "notes.txt")
        assert f"downloaded notes.txt ({len(NOTES)} bytes) to {tmp_path / 'notes.txt'}" in res.notes
        assert (tmp_path / "notes.txt").read_bytes() == NOTES
    finally:
        r.ctx.close()
