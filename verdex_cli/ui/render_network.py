"""Painters for what the page did: the requests and console lines under an action, and the
`requests`, `request` and `console` commands (used by painters.py). Data arrives cleaned by
render._paintable (page strings on one line)."""

from __future__ import annotations

from rich.text import Text

from ..base.words import counted
from ..commands.network_cmd import short_url

STYLE = {"error": "red", "warning": "yellow", "info": "", "debug": "dim"}
URL_CUT = 120  # a request line shows this much of a URL (a data: URL can be megabytes); JSON has it whole


def _status(it: dict) -> str:
    if it.get("failure"):
        return f"failed: {it['failure']}"
    return str(it["status"]) if it.get("status") is not None else "pending"


def request_line(it: dict, base: str = "") -> Text:
    """→ POST /api/cart 201 14 ms (frame f2)"""
    if "subresources" in it:
        failed = f", {it['failed']} failed" if it["failed"] else ""
        return Text(f"  + {counted(it['subresources'], 'subresource')}{failed}", style="dim")
    ms = f" {it['ms']:.0f} ms" if it.get("ms") is not None else ""
    frame = f" (frame f{it['frame']})" if it.get("frame") else ""
    bad = it.get("failure") or (it.get("status") or 0) >= 400
    url = short_url(it["url"], base)
    url = url if len(url) <= URL_CUT else url[:URL_CUT - 3] + "..."
    return Text(f"  → {it['method']} {url} {_status(it)}{ms}{frame}",
                style="red" if bad else "blue")


def console_line(m: dict) -> Text:
    """! TypeError: x is undefined (app.js:12)"""
    where = f" ({m['source'].rsplit('/', 1)[-1] or m['source']}:{m['line']})" if m.get("source") and m.get("line") else ""
    return Text(f"  {'!' if m['level'] == 'error' else '?'} {m['text']}{where}", style=STYLE.get(m["level"], ""))


def paint_action(r, d: dict) -> None:
    base = d.get("url") or ""
    for it in d.get("requests") or ():
        r.out.print(request_line(it, base))
    for m in d.get("console") or ():
        r.out.print(console_line(m))


def requests(r, d: dict) -> None:
    if not d["requests"]:
        r.plain("(no requests)", style="dim")
    doc = d["requests"][0]["doc"] if d["requests"] else 0
    for it in d["requests"]:
        if it["doc"] != doc:  # a new page: a separator
            doc = it["doc"]
            url = d["documents"][doc] if doc < len(d["documents"]) else ""
            r.plain(f"-- navigated to {url} --", style="dim")
        line = request_line(it)
        line.plain = line.plain.replace("  → ", f"#{it['n']} ", 1)
        r.out.print(line)
    if d.get("har"):
        r.plain(f"Wrote {d['har']} (HAR 1.2, {counted(len(d['requests']), 'request')})", style="green")


def request(r, d: dict) -> None:
    r.out.print(Text(f"#{d['n']} {d['method']} {d['url']}", style="bold"))
    r.plain(f"  status: {_status(d)} {d.get('status_text') or ''}".rstrip()
            + (f"  {d['ms']:.0f} ms" if d.get("ms") is not None else "") + f"  type: {d['type']}"
            + (f"  frame: f{d['frame']}" if d.get("frame") is not None else ""))
    for title, key in (("request headers", "request_headers"), ("response headers", "response_headers")):
        if d.get(key):
            r.plain(f"  {title}:", style="dim")
            for k, v in d[key].items():
                r.plain(f"    {k}: {v}")
    if d.get("request_body"):
        r.plain("  request body:", style="dim")
        r.plain("    " + d["request_body"])
    if d.get("body") is not None:
        r.plain(f"  response body ({d.get('mime') or 'text'}, {d.get('body_size', 0):,} bytes):", style="dim")
        r.plain(d["body"])
    if d.get("saved"):
        r.plain(f"Saved the body to {d['saved']}", style="green")


def console(r, d: dict) -> None:
    if "cleared" in d:
        r.plain(f"Cleared {counted(d['cleared'], 'message')}.", style="green")
        return
    if not d["messages"]:
        r.plain("(no console messages)", style="dim")
    for m in d["messages"]:
        line = console_line(m)
        line.plain = f"#{m['n']} {m['level']}: " + line.plain[4:]
        r.out.print(line)
