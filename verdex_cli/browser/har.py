"""The tab's requests as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), with bodies.

Secret header values (Authorization, Cookie, Set-Cookie, Proxy-Authorization) are written as ***.
Timings: the protocol's whole duration goes into `wait` (send and receive are not told apart here)."""

from __future__ import annotations

import base64
from datetime import datetime, timezone
from urllib.parse import parse_qsl, urlsplit

from .netlog import Request, masked

VERSION = "0.1.0"


def build(page, reqs: list[Request]) -> dict:
    entries = [entry(page, r) for r in reqs if r.url.startswith(("http:", "https:"))]
    return {"log": {"version": "1.2", "creator": {"name": "verdex-cli", "version": VERSION},
                    "pages": [], "entries": entries}}


def _headers(headers: dict) -> list[dict]:
    return [{"name": k, "value": str(v)} for k, v in masked(headers, False).items()]


def entry(page, r: Request) -> dict:
    log = page.netlog
    post = log.request_body(r, page.timeout)
    body, _why = log.body(r, page.timeout) if r.done and not r.failure else (None, "")
    content: dict = {"size": len(body) if body is not None else 0, "mimeType": r.mime or "x-unknown"}
    if body is not None:
        try:
            content["text"] = body.decode("utf-8")
        except UnicodeDecodeError:
            content["text"], content["encoding"] = base64.b64encode(body).decode("ascii"), "base64"
    request = {"method": r.method, "url": r.url, "httpVersion": r.protocol or "HTTP/1.1", "cookies": [],
               "headers": _headers(r.request_headers),
               "queryString": [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(r.url).query, keep_blank_values=True)],
               "headersSize": -1, "bodySize": len(post.encode("utf-8")) if post else 0}
    if post is not None:
        mime = next((v for k, v in r.request_headers.items() if k.lower() == "content-type"), "")
        request["postData"] = {"mimeType": mime, "text": post}
    ms = max(r.ms or 0.0, 0.0)
    out = {
        "startedDateTime": datetime.fromtimestamp(r.wall, timezone.utc).isoformat(timespec="milliseconds"),
        "time": ms,
        "request": request,
        "response": {"status": r.status or 0, "statusText": r.status_text or "", "httpVersion": r.protocol or "HTTP/1.1",
                     "cookies": [], "headers": _headers(r.response_headers), "content": content,
                     "redirectURL": next((v for k, v in r.response_headers.items() if k.lower() == "location"), ""),
                     "headersSize": -1, "bodySize": r.size if r.done else -1},
        "cache": {},
        "timings": {"send": 0, "wait": ms, "receive": 0},
    }
    if r.failure:
        out["response"]["_failure"] = r.failure
        out["response"]["status"] = 0
    return out
