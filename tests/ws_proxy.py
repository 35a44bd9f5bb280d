"""A stand-in for a hosted browser: serves ONLY a browser's DevTools WebSocket, behind a path of its own.

``WsProxy(upstream_ws, token=T, header=("Name", "value"), delay=0.05)`` listens on 127.0.0.1; a
WebSocket upgrade on ``/devtools/browser/<anything>`` (with ``?token=T`` when a token is set, and the
header when one is required) is forwarded to ``upstream_ws`` (a launched Chromium's browser socket),
bytes both ways, each chunk held ``delay`` seconds in each direction (order kept). Everything else,
``/json/*`` included, is answered 404; a wrong token or header 401 (as hosted services do).
Used by the tests (ws-only endpoint) and by benchmarks/bench_latency.py (far-away browser).
"""

from __future__ import annotations

import queue
import socket
import threading
import time
import urllib.parse


class WsProxy:
    def __init__(self, upstream_ws: str, token: str | None = None, header: tuple[str, str] | None = None,
                 delay: float = 0.0):
        up = urllib.parse.urlsplit(upstream_ws)
        self.up_host, self.up_port, self.up_path = up.hostname, up.port, up.path
        self.token, self.header, self.delay = token, header, delay
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(16)
        self.port = self.srv.getsockname()[1]
        self.upgrades = 0  # WebSocket connections forwarded
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, token: str | None = None) -> str:
        query = f"?token={token}" if token is not None else ""
        return f"ws://127.0.0.1:{self.port}/devtools/browser/remote{query}"

    def close(self) -> None:
        self._closed = True
        self.srv.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(65536)
            if not chunk:
                conn.close()
                return
            request += chunk
        head, rest = request.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        parts = urllib.parse.urlsplit(path)
        query = dict(urllib.parse.parse_qsl(parts.query))
        if not parts.path.startswith("/devtools/browser/") or headers.get("upgrade", "").lower() != "websocket":
            return self._answer(conn, "404 Not Found")
        if (self.token is not None and query.get("token") != self.token) or \
                (self.header is not None and headers.get(self.header[0].lower()) != self.header[1]):
            return self._answer(conn, "401 Unauthorized")
        up = socket.create_connection((self.up_host, self.up_port))
        for s in (conn, up):  # each chunk passed on at once (as a real proxy does): no Nagle delay
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        forwarded = [f"GET {self.up_path} HTTP/1.1", f"Host: {self.up_host}:{self.up_port}"]
        forwarded += [line for line in lines[1:] if not line.lower().startswith("host:")]
        up.sendall(("\r\n".join(forwarded) + "\r\n\r\n").encode("latin-1") + rest)
        self.upgrades += 1
        for a, b in ((conn, up), (up, conn)):
            threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _answer(conn: socket.socket, status: str) -> None:
        conn.sendall(f"HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        conn.close()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        """Copy src to dst, each chunk held ``delay`` s (a second thread sends, so reading never waits)."""
        held: queue.Queue = queue.Queue()

        def sender():
            while True:
                due, data = held.get()
                if data is None:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    dst.sendall(data)
                except OSError:
                    break
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        threading.Thread(target=sender, daemon=True).start()
        while True:
            try:
                data = src.recv(1 << 20)
            except OSError:
                data = b""
            held.put((time.monotonic() + self.delay, data or None))
            if not data:
                return
