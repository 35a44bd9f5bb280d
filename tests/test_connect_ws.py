"""--connect to a browser reachable only through one WebSocket URL with a token (as hosted services
hand out): cross-origin frames over the one socket, a wrong token, headers, and the browser's own tabs
left alone."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from verdex_cli.base.errors import ErrorKind, ExitStatus

from ws_proxy import WsProxy
from conftest import browser_behind_proxy, run_verdex as verdex, until

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "s3cr3t-T0KEN"


def _pages(http: str) -> list[dict]:
    with urllib.request.urlopen(http + "/json/list", timeout=5) as r:
        return [t for t in json.loads(r.read().decode("utf-8")) if t.get("type") == "page"]


@pytest.fixture(scope="module")
def remote():
    """A browser of its own (so its tabs can be counted) and a ws-only endpoint in front of it."""
    with browser_behind_proxy(TOKEN) as pair:
        yield pair


def test_ws_only_endpoint_serves_nothing_but_the_socket(remote):
    _, proxy = remote
    for path in ("/json/version", "/json/list", "/json"):
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://127.0.0.1:{proxy.port}{path}", timeout=5)
        assert info.value.code == 404


def test_run_through_a_ws_url_with_a_token_reaches_cross_origin_frames(remote, demo):
    chrome, proxy = remote
    # a tab of the browser's own, opened before verdex comes: it must stay as it is
    req = urllib.request.Request(chrome.http_endpoint + "/json/new?" + demo.url("form.html"), method="PUT")
    with urllib.request.urlopen(req, timeout=10) as r:
        theirs = json.loads(r.read().decode("utf-8"))["id"]
    assert until(lambda: any(p["id"] == theirs and p["url"] == demo.url("form.html")
                             for p in _pages(chrome.http_endpoint)), 10), "the browser's own tab did not load"
    before = {p["id"]: p["url"] for p in _pages(chrome.http_endpoint)}
    upgrades = proxy.upgrades

    proc = verdex("run", "--json", "--connect", proxy.url(TOKEN), demo.url("frames.html"), "snapshot", "frames",
                  'click button:"Leaf button"', "snapshot")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proxy.upgrades == upgrades + 1  # one socket carried everything, frames included
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    snap, frames, click, after = (o["result"] for o in objs[-4:])
    leaf = next(f for f in frames["frames"] if f["url"].endswith("frame-leaf.html"))
    cross = next(f for f in frames["frames"] if f["url"].startswith(demo.b))
    assert leaf["parent"] == cross["index"] and leaf["cross_origin"]  # out-of-process, inside out-of-process
    assert 'button "Leaf button"' in snap["text"]
    assert click["ref"].startswith(f"c0p0f{leaf['index']}e")
    assert "Leaf clicked" in after["text"] and "Leaf clicked" not in snap["text"]
    assert TOKEN not in proc.stdout + proc.stderr

    # the browser and its own tab are as they were; verdex's tab is gone
    assert chrome.reachable()
    assert {p["id"]: p["url"] for p in _pages(chrome.http_endpoint)} == before
    assert before[theirs] == demo.url("form.html")


def test_wrong_token_is_connect_failed_in_one_line(remote, demo):
    _, proxy = remote
    proc = verdex("run", "--connect", proxy.url("wrong-" + TOKEN), demo.url("index.html"), "eval 1")
    assert proc.returncode == ExitStatus.FAILED
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and TOKEN not in proc.stderr
    assert f"ws://127.0.0.1:{proxy.port}/devtools/browser/remote?token=***" in lines[0]
    assert "HTTP 401" in lines[0]

    proc = verdex("run", "--json", "--connect", proxy.url("wrong-" + TOKEN), demo.url("index.html"), "eval 1")
    obj = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == ExitStatus.FAILED and obj["error"]["kind"] == ErrorKind.CONNECT_FAILED
    assert TOKEN not in proc.stdout


def test_connect_header_is_sent_with_the_upgrade(remote, demo):
    chrome, _ = remote
    proxy = WsProxy(chrome.browser_ws, header=("Authorization", "Bearer " + TOKEN))
    try:
        proc = verdex("run", "--json", "--connect", proxy.url(), "--connect-header", f"Authorization: Bearer {TOKEN}",
                      demo.url("form.html"), "eval document.title")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert json.loads(proc.stdout.splitlines()[-1])["result"]["value"] == "Form controls"
        proc = verdex("run", "--json", "--connect", proxy.url(), demo.url("form.html"), "eval 1")
        obj = json.loads(proc.stdout.strip().splitlines()[-1])
        assert obj["error"]["kind"] == ErrorKind.CONNECT_FAILED and "HTTP 401" in obj["error"]["message"]
    finally:
        proxy.close()


def test_http_discovery_names_what_it_tried(remote, demo):
    _, proxy = remote
    proc = verdex("run", "--json", "--connect", f"http://127.0.0.1:{proxy.port}", demo.url("index.html"), "eval 1")
    obj = json.loads(proc.stdout.strip().splitlines()[-1])
    assert obj["error"]["kind"] == ErrorKind.CONNECT_FAILED
    assert obj["error"]["message"] == (
        f"Cannot connect to http://127.0.0.1:{proxy.port}: tried /json/version (HTTP 404), /json/list (HTTP 404), "
        f"ws://127.0.0.1:{proxy.port}/devtools/browser (HTTP 404 at the WebSocket handshake).")
