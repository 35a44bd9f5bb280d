"""Outcomes across the socket: the server sends the whole Outcome to an attached REPL, which renders
it with the one renderer (render.py), and renders it in advance for a light client
(:func:`render_for`), exactly as if the command had run in the client's own process."""

from __future__ import annotations

import io
import urllib.parse

from ..base.sanitize import json_line
from ..commands.registry import Result
from ..commands.runner import Outcome
from ..ui.render import Renderer, SafeConsole


def to_wire(o: Outcome) -> dict:
    result = None
    if o.result is not None:
        result = {"kind": o.result.kind, "data": o.result.data, "notes": list(o.result.notes)}
    return {"line": o.line, "ok": o.ok, "result": result, "kind": o.kind, "message": o.message,
            "elapsed_ms": o.elapsed_ms, "trace": o.trace, "command": o.command, "timings": o.timings, "ran": o.ran}


def from_wire(d: dict) -> Outcome:
    r = d.get("result")
    result = Result(r["kind"], r.get("data") or {}, list(r.get("notes") or ())) if r else None
    return Outcome(d.get("line", ""), bool(d.get("ok")), result, d.get("kind", ""), d.get("message", ""),
                   float(d.get("elapsed_ms") or 0.0), d.get("trace") or "", d.get("command", ""), d.get("timings"),
                   bool(d.get("ran")))


def render_for(settings: dict, outcome: Outcome, extra: dict | None = None) -> tuple[str, str]:
    """The outcome as a one-shot run would print it for this client: (stdout, stderr) texts, JSON Lines (with
    ``extra`` keys such as ``queued_ms``) or text, coloured only for a colour terminal."""
    if settings.get("json"):  # what Renderer._json writes, without building two consoles per command
        return json_line({**outcome.as_json(), **(extra or {})}) + "\n", ""
    out, err = io.StringIO(), io.StringIO()
    width = int(settings.get("width") or 80)
    system = settings.get("color_system") or "standard"

    def console(buf, color: bool):
        return SafeConsole(file=buf, width=width, color_system=system if color else None,
                           force_terminal=color, no_color=not color, markup=False, emoji=False,
                           highlight=False, soft_wrap=True)

    Renderer(json_mode=bool(settings.get("json")), debug=bool(settings.get("debug")),
             console=console(out, bool(settings.get("color"))),
             err_console=console(err, bool(settings.get("err_color")))).show(outcome)
    return out.getvalue(), err.getvalue()


def masked_endpoint(url: str) -> str:
    """A --connect URL for `session list`: query values (and a password) shown as ***."""
    parts = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
    query = "&".join(f"{k}=***" for k, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(":" + parts.password + "@", ":***@", 1)
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, ""))
