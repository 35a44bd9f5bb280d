"""The fuzzer's test server: the generated site on three loopback origins, and the oracle's log.

Origins: ``a`` http://127.0.0.1:PA (the main pages), ``b`` http://127.0.0.1:PB (same site, another
origin: frames share a renderer with ``a``), ``c`` http://localhost:PC (another site: out-of-process
frames). Every HTML response gets a document number unique in the run (the oracle's oids start with
it). ``POST /__log`` on any origin appends one oracle record to the shared :class:`OracleLog`.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from pathlib import Path

import fuzz_pages
from quiet_http import QuietHandler

HERE = Path(__file__).resolve().parent


class OracleLog:
    """Every record the oracles sent, in arrival order, with a condition to wait on."""

    def __init__(self):
        self.records: list[dict] = []
        self.cond = threading.Condition()
        self.docs = 0

    def add(self, rec: dict) -> None:
        rec["recv"] = time.time() * 1000
        with self.cond:
            self.records.append(rec)
            self.cond.notify_all()

    def next_doc(self) -> int:
        with self.cond:
            self.docs += 1
            return self.docs

    def wait_for(self, pred, timeout: float) -> bool:
        """Wait (at most `timeout` s) until pred(records) is true; whether it became true."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not pred(self.records):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True

    def since(self, index: int) -> list[dict]:
        with self.cond:
            return list(self.records[index:])

    def __len__(self):
        with self.cond:
            return len(self.records)


class _Handler(QuietHandler):
    server_version = "fuzz/1"
    log_sink: OracleLog
    origins: dict
    skip: tuple
    seed: int

    def do_GET(self):  # noqa: N802
        path = self.path.split("?", 1)[0]
        if path in ("/oracle.js", "/site.js"):
            return self._send(200, (HERE / path[1:]).read_bytes(), "text/javascript")
        if path.startswith("/data/"):  # the pages' data fetches (a debounced filter, a stock count)
            time.sleep(0.05)
            return self._send(200, str(len(path) % 7 + 1).encode(), "text/plain")
        parts = path.strip("/").split("/")
        body = None
        try:
            if len(parts) == 3 and parts[0] == "p":
                body = fuzz_pages.main_page(int(parts[1]), int(parts[2]), self.log_sink.next_doc(), self.origins, self.skip)
            elif len(parts) == 4 and parts[0] == "f":
                body = fuzz_pages.frame_page(int(parts[1]), parts[2], int(parts[3]), self.log_sink.next_doc(), self.origins,
                                             self.skip)
        except ValueError:
            body = None
        if body is None:
            return self._send(404, b"not found", "text/plain")
        return self._send(200, body.encode(), "text/html; charset=utf-8")

    def do_POST(self):  # noqa: N802
        n = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(n)
        if self.path == "/__log":
            try:
                rec = json.loads(data)
            except ValueError:
                rec = None
            if isinstance(rec, dict):
                rec["origin"] = self.headers.get("Host", "")
                self.log_sink.add(rec)
        self._send(204, b"", "text/plain")

    def handle(self):
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass


class _Server(http.server.ThreadingHTTPServer):
    # a page with nested frames and the oracle's beacons opens many connections at once; with the
    # default backlog of 5, a loaded machine drops connections (retried a second later), and records
    # arrive after the judge has looked
    request_queue_size = 128


class FuzzServer:
    def __init__(self, skip: tuple = ()):
        """``skip``: kinds of sections (fuzz_pages.SECTIONS) the main pages leave out; "quirks": no
        frame without a doctype."""
        self.log = OracleLog()
        handler = type("FuzzHandler", (_Handler,), {"log_sink": self.log, "origins": {}, "skip": tuple(skip)})
        self._servers = []
        for host in ("127.0.0.1", "127.0.0.1", "127.0.0.1"):
            srv = _Server((host, 0), handler)
            srv.daemon_threads = True
            threading.Thread(target=srv.serve_forever, daemon=True, name="fuzz-site").start()
            self._servers.append(srv)
        ports = [s.server_address[1] for s in self._servers]
        handler.origins.update(a=f"http://127.0.0.1:{ports[0]}", b=f"http://127.0.0.1:{ports[1]}",
                               c=f"http://localhost:{ports[2]}")
        self.origins = handler.origins

    def page(self, seed: int, n: int = 0) -> str:
        return f"{self.origins['a']}/p/{seed}/{n}"

    def stop(self) -> None:
        for s in self._servers:
            s.shutdown()
            s.server_close()
