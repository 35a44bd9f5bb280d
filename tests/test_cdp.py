"""The CDP layer maps protocol errors, time-outs and lost connections to our own exceptions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import until
from verdex_cli.browser.cdp import Target
from verdex_cli.browser.transport import WsTransport
from verdex_cli.base.errors import CDPError, CDPTimeout, ConnectionLost, VerdexError

ROOT = Path(__file__).resolve().parent.parent


def _new_tab(endpoint: str) -> dict:
    req = urllib.request.Request(endpoint + "/json/new?about:blank", method="PUT")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))


def _close_tab(endpoint: str, target_id: str) -> None:
    try:
        with urllib.request.urlopen(f"{endpoint}/json/close/{target_id}", timeout=5):
            pass
    except OSError:
        pass  # already closed


def _browser_ws(endpoint: str) -> str:
    with urllib.request.urlopen(endpoint + "/json/version", timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))["webSocketDebuggerUrl"]


def _attached(endpoint: str, target_id: str, timeout: float) -> tuple[Target, Target]:
    """(the browser socket's root session, a flat session on it attached to the tab)."""
    root = Target.open(_browser_ws(endpoint), timeout=timeout)
    return root, root.attach(target_id)


@pytest.fixture
def tab(chrome_http):
    """A dedicated tab of the shared browser and a session attached to it over the browser socket."""
    info = _new_tab(chrome_http)
    root, target = _attached(chrome_http, info["id"], 5)
    yield target
    target.close()
    root.close()
    _close_tab(chrome_http, info["id"])


def test_successful_call_returns_the_result(tab):
    res = tab.call("Runtime.evaluate", expression="6 * 7", returnByValue=True)
    assert res["result"]["value"] == 42


def test_unknown_method_raises_readable_cdp_error(tab):
    with pytest.raises(CDPError) as info:
        tab.call("Nope.nothing")
    err = info.value
    assert isinstance(err, VerdexError) and err.kind == "cdp_error"
    assert err.message == "Nope.nothing failed: 'Nope.nothing' wasn't found"
    assert err.details["method"] == "Nope.nothing"


def test_invalid_parameters_raise_cdp_error(tab):
    with pytest.raises(CDPError, match=r"^Runtime.evaluate failed: Invalid parameters"):
        tab.call("Runtime.evaluate")  # `expression` is required


def test_protocol_errors_print_nothing(chrome_http):
    """A protocol error is raised as CDPError: nothing is warned or logged to the terminal."""
    script = textwrap.dedent(f"""
        import json, urllib.request
        from verdex_cli.browser.cdp import Target
        from verdex_cli.base.errors import CDPError
        req = urllib.request.Request({chrome_http!r} + "/json/new?about:blank", method="PUT")
        info = json.loads(urllib.request.urlopen(req).read())
        version = json.loads(urllib.request.urlopen({chrome_http!r} + "/json/version").read())
        root = Target.open(version["webSocketDebuggerUrl"], 5)
        t = root.attach(info["id"])
        try:
            t.call("Nope.nothing")
        except CDPError as e:
            print(e.message)
        t.close()
        root.close()
        urllib.request.urlopen({chrome_http!r} + "/json/close/" + info["id"]).read()
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Nope.nothing failed: 'Nope.nothing' wasn't found"
    assert proc.stderr == ""


def test_call_exceeding_its_timeout_raises_cdp_timeout(tab):
    start = time.monotonic()
    with pytest.raises(CDPTimeout) as info:
        tab.call("Runtime.evaluate", timeout=0.5, expression="while (true) {}")
    elapsed = time.monotonic() - start
    assert info.value.kind == "timeout"
    assert info.value.message == "The page did not answer within 0.5 s."  # in words, no method name
    assert "\n" not in info.value.message
    assert 0.4 < elapsed < 3
    # The connection survives a time-out: once the loop is stopped the tab answers again.
    tab.call("Runtime.terminateExecution", timeout=2)
    res = tab.call("Runtime.evaluate", timeout=5, expression="1 + 1", returnByValue=True)
    assert res["result"]["value"] == 2


def test_default_timeout_comes_from_the_target(chrome_http):
    # the root opened with a 0.3 s default hands it to the session attached to it; the set-up's own socket
    # handshake and attach name a bound of their own (a loaded machine may take longer than 0.3 s for them)
    info = _new_tab(chrome_http)
    root = Target.open(transport=WsTransport(_browser_ws(chrome_http), 10), timeout=0.3)
    try:
        root.call("Target.attachToTarget", timeout=10, targetId=info["id"], flatten=True)
        target = root.child(info["id"])
        assert target.timeout == 0.3
        with pytest.raises(CDPTimeout, match=r"\b0\.3 s\b"):  # a loop that never answers
            target.call("Runtime.evaluate", expression="while (true) {}")
        target.call("Runtime.terminateExecution", timeout=10)
    finally:
        root.close()
        _close_tab(chrome_http, info["id"])


def test_closed_tab_raises_connection_lost_instead_of_hanging(chrome_http):
    info = _new_tab(chrome_http)
    root, target = _attached(chrome_http, info["id"], 30)
    assert target.alive
    _close_tab(chrome_http, info["id"])
    start = time.monotonic()
    with pytest.raises(ConnectionLost) as err:
        target.call("Runtime.evaluate", expression="1")
    assert time.monotonic() - start < 5  # far below the 30 s call timeout
    assert err.value.kind == "connection_lost"
    assert err.value.message.startswith("Browser connection lost")
    assert not target.alive
    # and again, immediately
    start = time.monotonic()
    with pytest.raises(ConnectionLost, match="^Browser connection lost"):
        target.call("Runtime.evaluate", expression="1")
    assert time.monotonic() - start < 0.5
    target.close()  # closing a dead target is harmless
    assert root.alive  # the socket (and the browser's other tabs) live on
    root.close()


def test_unreachable_target_raises_connection_lost():
    with pytest.raises(ConnectionLost, match="Cannot connect to the browser target"):
        Target.open("ws://127.0.0.1:9/devtools/page/nothing", timeout=2)


def test_events_reach_every_handler(tab):
    seen_a, seen_b = [], []
    tab.on("Runtime.consoleAPICalled", lambda **p: seen_a.append(p["args"][0]["value"]))
    tab.on("Runtime.consoleAPICalled", lambda **p: seen_b.append(p["type"]))
    tab.on("Runtime.consoleAPICalled", lambda **p: 1 / 0)  # a failing handler harms no one
    tab.call("Runtime.enable")
    tab.call("Runtime.evaluate", expression="console.log('hello'); console.log('again')")
    until(lambda: len(seen_a) >= 2, 5)
    assert seen_a == ["hello", "again"]
    assert seen_b == ["log", "log"]


def test_a_new_frame_runs_while_the_handler_of_its_attachment_is_held_up(tab, demo):
    # new frames wait for their set-up as they start; a handler that never returns holds them up no longer
    # than a bound: the page (two cross-origin frames, one inside the other) loads while it is held
    held = threading.Event()
    tab.on("Target.attachedToTarget", lambda **_: held.wait(60))
    try:
        tab.call("Page.navigate", url=demo.url("frames.html"))
        loaded = until(lambda: tab.call("Runtime.evaluate", expression="document.readyState")["result"]["value"]
                       == "complete", 20)
        assert loaded and not held.is_set()
    finally:
        held.set()


def _one_shot_ws_server(on_message: bytes) -> tuple[str, "threading.Thread"]:
    """A minimal WebSocket server: handshake, then answer the first frame with ``on_message`` raw bytes."""
    import base64
    import hashlib
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        conn, _ = srv.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key:"))
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            conn.recv(4096)  # the client's first call
            conn.sendall(on_message)
            conn.settimeout(5)
            try:  # keep the socket open until the client answered (its own close frame, or it hung up)
                conn.recv(4096)
            except OSError:
                pass
        srv.close()

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    return f"ws://127.0.0.1:{srv.getsockname()[1]}/devtools/page/x", th


def test_clean_websocket_close_raises_connection_lost_at_once():
    """A close frame (not just a dropped socket) must not leave calls waiting for their timeout."""
    url, th = _one_shot_ws_server(b"\x88\x02\x03\xe8")  # close frame, code 1000
    target = Target.open(url, timeout=20)
    start = time.monotonic()
    with pytest.raises(ConnectionLost, match="^Browser connection lost"):
        target.call("Runtime.evaluate", expression="1")
    assert time.monotonic() - start < 5
    assert not target.alive
    target.close()
    th.join(5)


def test_a_batch_whose_tab_closes_says_every_call_was_sent(chrome_http):
    """A click that closes its own tab (window.close()) ends the session while the batch's replies are
    outstanding: the error says how many calls answered and that all of them reached the browser
    (the click did land), unlike a browser that went away."""
    info = _new_tab(chrome_http)
    root, target = _attached(chrome_http, info["id"], 30)
    target.call("Runtime.enable")
    threading.Timer(0.5, _close_tab, args=(chrome_http, info["id"])).start()
    start = time.monotonic()
    with pytest.raises(ConnectionLost) as err:
        target.call_many([("Runtime.evaluate", {"expression": "1", "returnByValue": True}),
                          ("Runtime.evaluate", {"expression": "new Promise(() => {})", "awaitPromise": True})])
    assert time.monotonic() - start < 5
    assert err.value.done == 1 and err.value.all_sent
    assert root.alive
    root.close()
