"""Serve the bundled demo site on two loopback origins (so cross-origin frames are real)."""

from __future__ import annotations

import functools
import http.server
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from ..browser.bridge import page_script


def demo_root() -> Path:
    """The demo_pages folder: inside the installed package, or beside it in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "demo_pages", here.parent.parent / "demo_pages"):  # installed; a checkout
        if (candidate / "index.html").is_file():
            return candidate
    raise FileNotFoundError("The bundled demo_pages folder is missing from this installation.")


class _Handler(http.server.SimpleHTTPRequestHandler):
    origins_js = b""
    cache_control = "no-store"  # each visit sees the files as they are now

    def log_message(self, format, *args):  # noqa: A002 - quiet server
        pass

    def end_headers(self):
        self.send_header("Cache-Control", self.cache_control)
        super().end_headers()

    def do_GET(self):  # noqa: N802
        path = self.path.split("?", 1)[0]
        if path.startswith("/download/"):  # a server-made file, sent as an attachment
            name = "".join(c for c in path.rsplit("/", 1)[-1] if c.isalnum() or c in "._-") or "report.csv"
            body = "".join(f"{i},item {i},{i * 7 % 100}\n" for i in range(1, 201)).encode()
            self._send(body, "text/csv", f'attachment; filename="{name}"')
        elif path == "/origins.js":
            self._send(self.origins_js, "text/javascript")
        else:
            super().do_GET()

    def _send(self, body: bytes, content_type: str, disposition: str = "") -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if disposition:
            self.send_header("Content-Disposition", disposition)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle(self):
        with suppress(ConnectionResetError, BrokenPipeError):
            super().handle()


@dataclass
class DemoServer:
    a: str
    b: str
    _servers: list

    def url(self, path: str = "index.html", origin: str = "a") -> str:
        base = self.a if origin == "a" else self.b
        return f"{base}/{path.lstrip('/')}"

    def stop(self) -> None:
        for s in self._servers:
            s.shutdown()
            s.server_close()


def serve(root: Path | None = None, cacheable: bool = False) -> DemoServer:
    """The site on two loopback origins. ``cacheable``: answers the browser may keep (so a page can
    come back from the back/forward cache, which Chrome refuses for a `no-store` document)."""
    root = Path(root) if root else demo_root()
    servers = []
    handler_cls = type("DemoHandler", (_Handler,), {"cache_control": "no-cache" if cacheable else "no-store"})
    handler = functools.partial(handler_cls, directory=str(root))
    for _ in range(2):
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        srv.daemon_threads = True
        threading.Thread(target=srv.serve_forever, daemon=True, name="verdex-demo").start()
        servers.append(srv)
    a = f"http://127.0.0.1:{servers[0].server_address[1]}"
    b = f"http://localhost:{servers[1].server_address[1]}"
    handler_cls.origins_js = page_script("demo_origins", a, b).encode()  # where the two origins are
    return DemoServer(a, b, servers)
