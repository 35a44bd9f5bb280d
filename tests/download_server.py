"""A small threaded HTTP server on two loopback origins for download tests: attachments (slow or not),
a form POST answered with an attachment, non-renderable types, and pages that start downloads in
every way a page can."""

from __future__ import annotations

import http.server
import threading
import time
from urllib.parse import parse_qs, urlparse

BODY_LINE = b"0123456789abcdef" * 4 + b"\n"


def body_of(size: int) -> bytes:
    return (BODY_LINE * (size // len(BODY_LINE) + 1))[:size]


KINDS = """<!DOCTYPE html><meta charset="utf-8"><title>Download kinds</title>
<h1>Download kinds</h1>
<p><a id="attr" href="/file?name=attr.txt&amp;inline=1" download="attr.txt">Attribute link</a></p>
<p><a id="attach" href="/file?name=attach.csv">Attachment link</a></p>
<p><a id="slow" href="/file?name=slow.bin&amp;s=1.5&amp;size=300000">Slow attachment</a></p>
<p><a id="late" href="/file?name=late.csv&amp;wait=1.5">Late attachment</a></p>
<p><a id="lateattr" href="/file?name=lateattr.txt&amp;inline=1&amp;wait=1" download>Late download link</a></p>
<p><a id="prevented" href="/file?name=never.txt&amp;inline=1" download
      onclick="event.preventDefault(); window.prevented = true">Prevented download</a></p>
<p><a id="xorigin" href="{other}/elsewhere" download>Download link to another site</a></p>
<p><button id="scripted">Save by script</button></p>
<p><button id="blob">Save a blob</button></p>
<p><button id="data">Save a data URL</button></p>
<p><button id="popup">Open an attachment in a new window</button></p>
<form method="post" action="/export"><input name="what" value="posted"><button id="post">Export</button></form>
<p id="log"></p>
<script>
window.clicks = 0;
function save(href, name) {
  const a = document.createElement("a");
  a.href = href; a.download = name; document.body.appendChild(a); a.click(); a.remove();
}
document.getElementById("scripted").onclick = () => { window.clicks++; save("/file?name=scripted.txt&inline=1", "scripted.txt"); };
document.getElementById("blob").onclick = () => {
  save(URL.createObjectURL(new Blob(["made in the page\\n"], {type: "text/plain"})), "blob.txt");
};
document.getElementById("data").onclick = () => { save("data:text/plain;base64,ZGF0YSB1cmwK", "data.txt"); };
document.getElementById("popup").onclick = () => { window.open("/file?name=popup.csv"); };
</script>
<iframe id="frame" src="{other}/frame" width="400" height="120"></iframe>
"""

FRAME = """<!DOCTYPE html><meta charset="utf-8"><title>Frame</title>
<a id="inframe" href="/file?name=inframe.txt&amp;inline=1" download="inframe.txt">Download in the frame</a>
<a id="frameattach" href="/file?name=frameattach.csv">Attachment in the frame</a>
"""


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = "dl/1"
    other = ""

    def log_message(self, *args):
        pass

    def _page(self, body: str) -> None:
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _file(self, query: dict) -> None:
        name = query.get("name", ["file.bin"])[0]
        size = int(query.get("size", ["4096"])[0])
        delay = float(query.get("s", ["0"])[0])
        data = body_of(size)
        time.sleep(float(query.get("wait", ["0"])[0]))  # a server slow to answer at all
        self.send_response(200)
        if "inline" in query:
            self.send_header("Content-Type", "text/plain")
        elif "octet" in query:  # no Content-Disposition: a type no page can show
            self.send_header("Content-Type", "application/octet-stream")
        else:
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if delay:  # half now, the rest later: the download is under way meanwhile
            self.wfile.write(data[: size // 2])
            self.wfile.flush()
            time.sleep(delay)
            self.wfile.write(data[size // 2:])
        else:
            self.wfile.write(data)

    def do_GET(self):  # noqa: N802
        url = urlparse(self.path)
        query = parse_qs(url.query)
        try:
            if url.path == "/kinds":
                self._page(KINDS.replace("{other}", self.other))
            elif url.path == "/frame":
                self._page(FRAME)
            elif url.path == "/nocontent":
                self.send_response(204)
                self.end_headers()
            elif url.path == "/file":
                self._file(query)
            elif url.path == "/slowpage":  # answered at once, its body a second later
                data = b"<title>Slow</title><h1>Slow page</h1>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[:10])
                self.wfile.flush()
                time.sleep(1.0)
                self.wfile.write(data[10:])
            elif url.path == "/twice":  # a link whose page is replaced by another navigation meanwhile
                self._page('<title>Twice</title><iframe name="f" src="/start"></iframe><a href="/slowpage" '
                           'target="f" onclick="setTimeout(() => { frames.f.location.href = \'/done\'; }, 300)">'
                           'Go slow</a>')
            else:
                self._page(f"<title>{url.path.strip('/') or 'Home'}</title><h1>Home</h1>")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode())
        try:
            self._file({"name": [form.get("what", ["export"])[0] + ".csv"]})
        except (BrokenPipeError, ConnectionResetError):
            pass


class DownloadServer:
    """Origin ``a`` on 127.0.0.1 and origin ``b`` on localhost (another site: its frames are out of process)."""

    def __init__(self):
        self._servers = []
        for host in ("127.0.0.1", "127.0.0.1"):
            handler = type("Handler", (_Handler,), {})
            srv = http.server.ThreadingHTTPServer((host, 0), handler)
            srv.daemon_threads = True
            threading.Thread(target=srv.serve_forever, daemon=True).start()
            self._servers.append(srv)
        self.a = f"http://127.0.0.1:{self._servers[0].server_address[1]}"
        self.b = f"http://localhost:{self._servers[1].server_address[1]}"
        self._servers[0].RequestHandlerClass.other = self.b
        self._servers[1].RequestHandlerClass.other = self.a

    def url(self, path: str, origin: str = "a") -> str:
        return (self.a if origin == "a" else self.b) + path

    def stop(self) -> None:
        for s in self._servers:
            s.shutdown()
            s.server_close()
