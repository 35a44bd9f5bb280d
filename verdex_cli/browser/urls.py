"""One URL resolver for the command line, `open` and `tab new`.

Rules, in order:
- a URL with a scheme (http:, https:, file:, about:, data:, chrome:, view-source:, javascript:) is kept;
- ``host:port[/path]`` and ``localhost[/path]`` mean http;
- ``~/...`` and absolute paths are local files (an absolute path that does not exist locally is a
  path on the current http page's server);
- a relative path is relative to the current http(s) page, otherwise to the working directory;
- a bare ``name.tld[/path]`` is a web address (http);
- a directory or a missing local file is an error.

It never raises anything but VerdexError: an address that cannot be a URL (``http://[::1``,
``http://[zz]/``, a port past 65535, a NUL byte, a path too long for the file system) is a usage error.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlparse, urlsplit

from ..base.errors import NavigationFailed, UsageError

SCHEMES = ("http", "https", "file", "about", "data", "chrome", "view-source", "javascript", "blob")
_HOST_PORT = re.compile(r"^(?:\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}(?:[/?#].*)?$")
_LOCALHOST = re.compile(r"^localhost(?:[/?#].*)?$", re.IGNORECASE)
# a last path part with one of these endings names a document, not a host (shop.html, notes.txt)
_FILE_ENDINGS = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".jsp", ".svg", ".pdf", ".txt",
                 ".json", ".xml", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".js", ".css", ".csv")


def _is_http(url: str | None) -> bool:
    return bool(url) and urlparse(url).scheme in ("http", "https")


def _looks_like_host(text: str) -> bool:
    head = re.split(r"[/?#]", text, maxsplit=1)[0]
    if "." not in head or head.startswith("."):
        return False
    if head.lower().endswith(_FILE_ENDINGS) and (head == text or text[len(head)] in "?#"):
        return False  # "shop.html", "table.html?rows=5", "page.html#top": a file name
    return bool(re.fullmatch(r"[A-Za-z0-9.-]+", head))


def _local(text: str) -> str:
    path = Path(text).expanduser()
    if path.is_dir():
        raise NavigationFailed(f"{text} is a directory, not a page.")
    if not path.exists():
        raise NavigationFailed(f"No such file: {text}")
    return path.resolve().as_uri()


def normalize_url(raw: str, base: str | None = None) -> str:
    """Turn what the user typed into the URL to open (``base``: the current page's URL)."""
    try:
        url = _normalize(raw, base)
        parts = urlsplit(url)
        if parts.scheme in ("http", "https"):
            _ = parts.port  # raises for a port that is not a number from 0 to 65535
            if not parts.hostname:
                raise ValueError("no host")
    except (ValueError, OSError, RuntimeError) as exc:  # urllib's and pathlib's own complaints
        reason = (getattr(exc, "strerror", None) or str(exc) or type(exc).__name__).rstrip(".")
        shown = raw.strip()
        shown = shown if len(shown) <= 200 else shown[:200] + "..."
        raise UsageError(f"Not a valid URL or path: {shown!r} ({reason}).") from None
    return url


def _normalize(raw: str, base: str | None) -> str:
    text = raw.strip()
    if not text:
        raise UsageError("Usage: open URL")
    scheme = urlparse(text).scheme.lower()
    if scheme in SCHEMES and not _HOST_PORT.match(text):
        if scheme == "file":
            path = Path(urlparse(text).path)
            if path.is_dir():
                raise NavigationFailed(f"{text} is a directory, not a page.")
        return text
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", text):
        return text  # any other scheme://: let the browser decide
    if _HOST_PORT.match(text) or _LOCALHOST.match(text):
        return "http://" + text
    if text.startswith("~"):
        return _local(text)
    if text.startswith("/"):
        if Path(text).exists() or not _is_http(base):
            return _local(text)
        return urljoin(base, text)
    if text.startswith(("?", "#")):
        if _is_http(base) or (base and urlparse(base).scheme == "file"):
            return urljoin(base, text)
        raise NavigationFailed(f"'{text}' needs a current page to be relative to.")
    explicit_relative = text.startswith(("./", "../"))
    if not explicit_relative and _looks_like_host(text):
        if not _is_http(base) and Path(text).exists():
            return _local(text)  # a local folder or file that happens to have a dot in its name
        return "http://" + text
    if _is_http(base):
        return urljoin(base, text)
    return _local(text)
