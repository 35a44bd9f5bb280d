"""--connect URL: find the browser's DevTools socket and open it (one WebSocket for everything).

``http(s)://HOST:PORT`` is discovered through ``/json/version``, then ``/json/list``, then the browser
socket ``ws(s)://HOST:PORT/devtools/browser``; ``ws(s)://...`` URLs (``/devtools/browser/ID`` or any
path and query of a hosted service) are opened as given. Query values and passwords never appear in
a message: they are shown as ``***``.
"""

from __future__ import annotations

import urllib.error
import urllib.parse

import websocket

from ..base.errors import ConnectFailed, UsageError
from .cdp import Target
from .launch import ChromeProcess, http_json


def mask(url: str) -> str:
    """The URL with every query value (and a password) shown as ``***``."""
    try:
        parts = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
        query = "&".join(f"{k}=***" for k, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
        if parts.query and not query:
            query = "***"
        netloc = parts.netloc
        if parts.password is not None:
            netloc = netloc.replace(":" + parts.password + "@", ":***@", 1)
        shown = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, ""))
        return shown if "://" in url else shown.split("://", 1)[1]
    except ValueError:
        return url.split("?", 1)[0] + ("?***" if "?" in url else "")


def parse_header(text: str) -> str:
    """``Name: value`` of --connect-header, checked (UsageError otherwise)."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip() or any(c in name for c in " \t\r\n") or "\n" in value or "\r" in value:
        raise UsageError(f"--connect-header wants 'Name: value', not {text.split(':', 1)[0]!r}...")
    return f"{name.strip()}: {value.strip()}"


def _without_credentials(url: str) -> tuple[str, str | None]:
    """``url`` without a ``user:pass@`` part (name resolution would take it for the host) and the
    Authorization header that part stands for (None without one)."""
    import base64

    try:
        parts = urllib.parse.urlsplit(url)
        if parts.username is None:
            return url, None
        user = urllib.parse.unquote(parts.username)
        password = urllib.parse.unquote(parts.password or "")
    except ValueError:
        return url, None
    netloc = parts.netloc.rsplit("@", 1)[1]
    token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), \
        f"Authorization: Basic {token}"


def _why(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code}"
    if isinstance(exc, websocket.WebSocketBadStatusException):
        return f"HTTP {exc.status_code} at the WebSocket handshake"
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, (TimeoutError, websocket.WebSocketTimeoutException)):
        return "no answer in time"
    if isinstance(exc, ValueError):
        return "not a DevTools answer"
    text = str(getattr(exc, "strerror", None) or exc).split("\n", 1)[0]
    return text[:120] or type(exc).__name__


def connect(url: str, timeout: float = 10.0, headers: list[str] | tuple = ()) -> ChromeProcess:
    """Open the browser socket behind ``url``: the browser (never stopped by us), its root session as ``link``.
    Raises ConnectFailed naming the URL (masked) and what was tried."""
    headers = [parse_header(h) for h in headers]
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    scheme = text.split("://", 1)[0].lower()
    shown = mask(text)
    text, basic = _without_credentials(text)
    if basic and not any(h.lower().startswith("authorization:") for h in headers):
        headers.append(basic)  # user:pass@ in the URL: HTTP Basic, as a browser would send it
    tried: list[str] = []
    if scheme in ("ws", "wss"):
        try:
            return ChromeProcess("", text, owned=False, link=Target.open(text, timeout, headers, answering=True))
        except Exception as exc:
            raise ConnectFailed(f"Cannot connect to {shown}: {_why(exc.__cause__ or exc)}.") from None
    if scheme not in ("http", "https"):
        raise ConnectFailed(f"Cannot connect to {shown}: use http(s)://HOST:PORT or a ws(s):// URL.")
    parts = urllib.parse.urlsplit(text)
    base = urllib.parse.urlunsplit((scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    ws_base = ("wss" if scheme == "https" else "ws") + "://" + parts.netloc
    candidates: list[str] = []
    unreachable = False
    for path in ("/json/version", "/json/list"):
        try:
            info = http_json(base + path, timeout, headers)
        except Exception as exc:
            tried.append(f"{path} ({_why(exc)})")
            unreachable = isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError)
            if unreachable:
                break  # nothing answers there at all
            continue
        entries = info if isinstance(info, list) else [info]
        found = [e.get("webSocketDebuggerUrl") for e in entries if isinstance(e, dict)
                 and "/devtools/browser" in str(e.get("webSocketDebuggerUrl", ""))]
        if found:
            candidates.append(found[0])
            break
        tried.append(f"{path} (no browser socket listed)")
    if not candidates and not unreachable:
        candidates.append(ws_base + "/devtools/browser")
    for ws_url in candidates:
        try:
            return ChromeProcess(base, ws_url, owned=False, link=Target.open(ws_url, timeout, headers, answering=True))
        except Exception as exc:
            tried.append(f"{mask(ws_url)} ({_why(exc.__cause__ or exc)})")
    raise ConnectFailed(f"Cannot connect to {shown}: tried {', '.join(tried)}.")
