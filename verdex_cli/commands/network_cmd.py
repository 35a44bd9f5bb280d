"""What the page did: requests, request N, console (the tab's network log: browser/netlog.py)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from ..base.errors import UsageError
from ..browser import har
from ..browser.netlog import Request, level_at_most, masked
from .registry import Result, command

LATE_S = 1.0  # an action's requests still loading after it settled are waited for this long
SHOWN_BODY = 64 * 1024  # characters of a text body `request N` shows (--save PATH writes it whole)
TEXTUAL = ("text/", "json", "javascript", "xml", "html", "css", "x-www-form-urlencoded", "svg")


def item(req: Request, frame_index) -> dict:
    """A request as results list it (the contract's keys)."""
    return {"n": req.n, "method": req.method, "url": req.url, "status": req.status, "failure": req.failure or None,
            "type": req.type, "ms": None if req.ms is None else round(req.ms, 1), "frame": frame_index(req.frame_id)}


@command("requests", params="[TEXT]", options=("--failed: only failures and 4xx/5xx", "--har PATH: write them as HAR 1.2"), group="snapshot",
         help="List the tab's requests (every frame and worker, across navigations; the last 1,000), numbered; "
              "TEXT: only URLs containing it; --failed: only failures and 4xx/5xx; --har PATH: write them as HAR 1.2 "
              "with bodies.", effect="read")
def requests_cmd(ctx, args, flags):
    log = ctx.page.netlog
    text = (args.values.get("text") or "").casefold()
    with log.lock:
        reqs = [r for r in log.requests if text in r.url.casefold()
                and ("--failed" not in flags or r.failure or (r.status or 0) >= 400)]
        docs = list(log.docs)
    notes = [f"{log.dropped:,} older requests were let go of (the last 1,000 are kept)."] if log.dropped else []
    data = {"requests": [dict(item(r, log.frame_index), doc=r.doc) for r in reqs], "documents": docs}
    if "--har" in flags.values:
        doc = har.build(ctx.page, reqs)
        data["har"] = write_file(flags.values["--har"], json.dumps(doc, indent=1, ensure_ascii=False).encode("utf-8"))
        notes.append("Authorization, Cookie, Set-Cookie and Proxy-Authorization values are written as ***.")
    return Result("requests", data, notes)


@command("request", params="N", options=("--save PATH: write the whole body there", "--show-secrets: show secret header values"), group="snapshot",
         help="One request of 'requests' in full: method, URL, status, timing, headers, request body and response "
              "body (text up to 64 KB; --save PATH writes the whole body). Authorization and cookie values are *** "
              "unless --show-secrets.", effect="read")
def request_cmd(ctx, args, flags):
    page = ctx.page
    n = args.values["n"]
    req = page.netlog.find(n)
    if req is None:
        raise UsageError(f"There is no request #{n} in this tab ('requests' lists them; the last 1,000 are kept).")
    show = "--show-secrets" in flags
    data = dict(item(req, page.netlog.frame_index), status_text=req.status_text, mime=req.mime,
                protocol=req.protocol, size=req.size, request_headers=masked(req.request_headers, show),
                response_headers=masked(req.response_headers, show),
                request_body=page.netlog.request_body(req, page.timeout))
    notes = []
    body, why = page.netlog.body(req, page.timeout)
    if body is None:
        data["body"] = None
        notes.append(f"No response body: {why}.")
    else:
        data["body_size"] = len(body)
        if "--save" in flags.values:
            data["saved"] = write_file(flags.values["--save"], body)
        if not req.mime or any(k in req.mime for k in TEXTUAL):
            text = body.decode("utf-8", "replace")
            data["body"] = text[:SHOWN_BODY]
            if len(text) > SHOWN_BODY:
                notes.append(f"The body is {len(text):,} characters; the first {SHOWN_BODY:,} are shown "
                             "(--save PATH writes it whole).")
        else:
            data["body"] = None
            notes.append(f"A {req.mime or 'binary'} body of {len(body):,} bytes (--save PATH writes it).")
    return Result("request", data, notes)


@command("console", options=("--level error|warning|info|debug: that level and worse", "--clear: empty the list"), group="snapshot",
         help="The tab's console messages and uncaught exceptions (every frame, across navigations; the last "
              "1,000); --level error|warning|info|debug shows that level and worse; --clear empties the list.",
         effect="read")
def console_cmd(ctx, args, flags):
    log = ctx.page.netlog
    if "--clear" in flags:
        return Result("console", {"messages": [], "cleared": log.clear_messages()})
    level = flags.values.get("--level", "debug")
    with log.lock:
        msgs = [m for m in log.messages if level_at_most(m.level, level)]
    return Result("console", {"messages": [message(m) for m in msgs]})


MESSAGE_KEYS = ("n", "level", "text", "source", "line", "exception", "doc")  # `console`'s; an action's: level to line
ACTION_KEYS = MESSAGE_KEYS[1:5]


def message(m, keys: tuple[str, ...] = MESSAGE_KEYS) -> dict:
    return {k: getattr(m, k) for k in keys}


def write_file(where: str, data: bytes, parents: bool = True) -> str:
    """Write a file the user named (``parents``: making its folders); a failure is a usage error."""
    path = Path(where).expanduser()
    try:
        if parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"Cannot write {path}: {exc.strerror or exc}") from exc
    return str(path)


def action_report(page, mark) -> tuple[list[dict], list[dict]]:
    """What an action made the page do: the requests it started that ended while it settled (a
    navigation's subresources summed up in one item) and the errors and warnings meanwhile."""
    page.netlog.wait_ended(mark, min(LATE_S, page.timeout))  # a fetch the settle did not wait for
    reqs, msgs = page.netlog.since(mark)
    doc = next((r for r in reqs if r.type == "Document" and page.netlog.frame_index(r.frame_id) == 0), None)
    if doc is not None:
        rest = [r for r in reqs if r.n > doc.n]
        reqs = [r for r in reqs if r.n <= doc.n]
    items = [item(r, page.netlog.frame_index) for r in reqs]
    if doc is not None and rest:
        items.append({"subresources": len(rest), "failed": sum(1 for r in rest if r.failure or (r.status or 0) >= 400)})
    return items, [message(m, ACTION_KEYS) for m in msgs]


def short_url(url: str, base: str) -> str:
    """A URL as a person reads it beside the page it came from: the path when the origin is the same."""
    a, b = urlsplit(url), urlsplit(base)
    if a.scheme in ("http", "https") and (a.scheme, a.netloc) == (b.scheme, b.netloc):
        return a.path + (f"?{a.query}" if a.query else "")
    return url
