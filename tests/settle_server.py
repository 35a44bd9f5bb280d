"""The test pages of tests/fixtures/settle on a loopback server that answers the way app back ends
do: late (``delay=MS``: the answer waits), slowly (``slow=MS``: the headers and a first part go out at
once, the rest of the body after MS), and a people search (``/search?q=``, JSON)."""

from __future__ import annotations

import http.server
import json
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "settle"
PEOPLE = ["Ada Lovelace", "Adam Smith", "Alan Turing", "Grace Hopper", "Katherine Johnson", "Linus Torvalds",
          "Margaret Hamilton", "Barbara Liskov", "Donald Knuth", "Edsger Dijkstra"]


class FixtureHandler(http.server.SimpleHTTPRequestHandler):
    """The files of ``folder``, never cached, with no log lines."""

    folder = FIXTURES

    def __init__(self, *a, **kw):
        super().__init__(*a, directory=str(self.folder), **kw)

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class _Handler(FixtureHandler):
    def do_GET(self):  # noqa: N802
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        time.sleep(int(q.get("delay", 0)) / 1000.0)
        try:
            if url.path == "/search":
                words = q.get("q", "").lower()
                found = [{"id": i + 1, "name": n} for i, n in enumerate(PEOPLE) if words and words in n.lower()]
                self._send(json.dumps(found).encode(), "application/json")
            elif url.path.endswith(".js") and not (FIXTURES / url.path.lstrip("/")).is_file():
                body = b"/* part */\n" + b"x" * 4000
                self._send(body, "text/javascript", slow=int(q.get("slow", 0)))
            elif url.path == "/data":
                self._send(json.dumps({"n": int(q.get("n", 0))}).encode(), "application/json",
                           slow=int(q.get("slow", 0)))
            else:
                super().do_GET()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send(self, body: bytes, ctype: str, slow: int = 0) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if slow:  # the headers and a first part now (the page's fetch resolves), the rest later
            self.wfile.write(body[:16])
            self.wfile.flush()
            time.sleep(slow / 1000.0)
            body = body[16:]
        self.wfile.write(body)


class SettleServer:
    def __init__(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
