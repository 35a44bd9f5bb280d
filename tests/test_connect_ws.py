"""--connect to a browser reachable only through one WebSocket URL with a token (as hosted services
hand out): cross-origin frames over the one socket, a wrong token, headers, and the browser's own tabs
left alone."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import threading
import urllib.request
from pathlib import Path

import pytest

from verdex_cli.base.errors import ErrorKind, ExitStatus
from verdex_cli.browser.transport import Closed, WsTransport

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


def test_one_close_frame_even_when_the_reader_reads_the_answer():
    """websocket-client answers every close frame it reads with one of its own, even after sending
    ours. verdex's reader thread often reads the server's answer first; a second close frame, after the
    server had closed, kept Browserless 2.42's browser alive (test_services). A server that answers
    our close frame and then reads to the end sees exactly one close frame and nothing else."""
    server = socket.create_server(("127.0.0.1", 0))
    heard = []

    def serve():
        conn, _ = server.accept()
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(4096)
        key = re.search(rb"sec-websocket-key: *(\S+)", data, re.I).group(1)
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        data = b""
        while len(data) < 8:  # a masked close frame with its status code
            data += conn.recv(4096)
        conn.sendall(b"\x88\x02\x03\xe8")  # the answer, then the server is done
        conn.shutdown(socket.SHUT_WR)
        while chunk := conn.recv(4096):
            data += chunk
        heard.append(data)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    transport = WsTransport(f"ws://127.0.0.1:{server.getsockname()[1]}/devtools/browser/x", timeout=5)
    transport.ws.send_close()
    with pytest.raises(Closed):
        transport.recv(5)  # what the reader thread does
    transport.close()
    thread.join(5)
    server.close()
    [data] = heard
    opcodes, at = [], 0
    while at < len(data):  # client frames: opcode byte, masked length byte (< 126 here), mask, payload
        opcodes.append(data[at] & 0x0F)
        at += 2 + 4 + (data[at + 1] & 0x7F)
    assert opcodes == [8]
