"""Outcomes across the socket: the server sends the whole Outcome, a client renders it with the
one renderer (render.py), exactly as if the command had run in its own process."""

from __future__ import annotations

from ..commands.registry import Result
from ..runner import Outcome


def to_wire(o: Outcome) -> dict:
    result = None
    if o.result is not None:
        result = {"kind": o.result.kind, "data": o.result.data, "notes": list(o.result.notes)}
    return {"line": o.line, "ok": o.ok, "result": result, "kind": o.kind, "message": o.message,
            "elapsed_ms": o.elapsed_ms, "trace": o.trace, "command": o.command, "timings": o.timings}


def from_wire(d: dict) -> Outcome:
    r = d.get("result")
    result = Result(r["kind"], r.get("data") or {}, list(r.get("notes") or ())) if r else None
    return Outcome(d.get("line", ""), bool(d.get("ok")), result, d.get("kind", ""), d.get("message", ""),
                   float(d.get("elapsed_ms") or 0.0), d.get("trace") or "", d.get("command", ""), d.get("timings"))
