"""A tiny threaded HTTP server on 127.0.0.1 for navigation tests: slow answers, error statuses."""

from __future__ import annotations

import http.server
import threading
import time
from urllib.parse import parse_qs, urlparse

from quiet_http import QuietHandler

PAGE = b"<!DOCTYPE html><title>%s</title><h1>%s</h1>"


class _Handler(QuietHandler):
    def do_GET(self):  # noqa: N802
        url = urlparse(self.path)
        query = parse_qs(url.query)
        try:
            if url.path == "/slow":  # the answer itself is late
                time.sleep(float(query.get("s", ["3"])[0]))
                self._send(200, PAGE % (b"Slow", b"Slow"))
            elif url.path == "/slow-image":  # the page answers at once, one image never finishes in time
                self._send(200, b"<title>Half</title><h1>Half</h1><img src='/slow.png?s=%s'>"
                           % query.get("s", ["3"])[0].encode())
            elif url.path == "/slow.png":
                time.sleep(float(query.get("s", ["3"])[0]))
                self._send(200, b"", "image/png")
            elif url.path == "/alert":  # a document that shows an alert while it loads
                self._send(200, b"<title>Alerting</title><script>alert('from the frame')</script><p>after</p>")
            elif url.path.startswith("/status/"):
                code = int(url.path.rsplit("/", 1)[-1])
                body = b"" if "empty" in query else PAGE % (b"Status", str(code).encode())
                self._send(code, body)
            else:
                name = url.path.strip("/").encode() or b"Home"
                self._send(200, PAGE % (name, name))
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.server.answered(self.path)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *args):
        super().__init__(*args)
        self.done: list[str] = []  # request paths whose answer went out (or whose client had left)
        self.changed = threading.Condition()

    def answered(self, path: str) -> None:
        with self.changed:
            self.done.append(path)
            self.changed.notify_all()


class SlowServer:
    def __init__(self):
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def wait_answered(self, path: str, timeout: float = 15) -> None:
        """Block until the server has answered ``path`` (the late answer a test must see ignored)."""
        with self.httpd.changed:
            if not self.httpd.changed.wait_for(lambda: path in self.httpd.done, timeout):
                raise AssertionError(f"the server never answered {path}")

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
