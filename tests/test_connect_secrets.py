"""Connecting without secrets on the command line (issue 33, finding 2): the token of a hosted browser
in $VERDEX_CONNECT, an Authorization header from $VERDEX_CONNECT_HEADERS or --connect-header-env
NAME:VAR. The command line (what `ps` shows every local user) holds none of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import browser_behind_proxy
from ws_proxy import WsProxy

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "hidden-T0KEN-7"


def verdex(*args: str, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith("VERDEX_CONNECT")}
    full.update(env, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], capture_output=True, text=True, timeout=120,
                          env=full, cwd=ROOT)


@pytest.fixture(scope="module")
def remote():
    with browser_behind_proxy(TOKEN) as pair:
        yield pair


def title(proc) -> str:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])["result"]["value"]


def test_verdex_connect_holds_the_tokened_url(remote, demo):
    _, proxy = remote
    upgrades = proxy.upgrades
    proc = verdex("run", "--json", demo.url("form.html"), "eval document.title", VERDEX_CONNECT=proxy.url(TOKEN))
    assert title(proc) == "Form controls"
    assert proxy.upgrades == upgrades + 1  # through the tokened endpoint, not a browser of its own


def test_headers_from_the_environment(remote, demo):
    chrome, _ = remote
    proxy = WsProxy(chrome.browser_ws, header=("Authorization", "Bearer " + TOKEN))
    try:
        by_var = verdex("run", "--json", "--connect", proxy.url(), demo.url("form.html"), "eval document.title",
                        VERDEX_CONNECT_HEADERS=f"X-Other: 1\nAuthorization: Bearer {TOKEN}\n")
        assert title(by_var) == "Form controls"
        by_option = verdex("run", "--json", "--connect", proxy.url(), "--connect-header-env", "Authorization:AUTH",
                           demo.url("form.html"), "eval document.title", AUTH=f"Bearer {TOKEN}")
        assert title(by_option) == "Form controls"
        unset = verdex("run", "--connect", proxy.url(), "--connect-header-env", "Authorization:NOT_SET_HERE",
                       demo.url("form.html"), "eval 1")
        assert unset.returncode == 2 and len(unset.stderr.splitlines()) == 1
        assert "NOT_SET_HERE is not set" in unset.stderr
    finally:
        proxy.close()


def test_credentials_in_an_http_url_are_sent_not_taken_for_the_host():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when this block ends: nothing listens there
    proc = verdex("run", "--connect", f"http://user:pw-{TOKEN}@127.0.0.1:{port}", str(ROOT / "demo_pages" / "index.html"),
                  "eval 1")
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "connection refused" in proc.stderr and "Name or service" not in proc.stderr
    assert TOKEN not in proc.stderr and "user:***@" in proc.stderr
