"""The error boundary: run one command line and return an Outcome, never raise."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

from .commands import REGISTRY, Result
from .commands.context import Context
from .errors import VerdexError


@dataclass
class Outcome:
    line: str
    ok: bool
    result: Result | None = None
    kind: str = ""
    message: str = ""
    elapsed_ms: float = 0.0
    trace: str = ""
    command: str = ""

    def as_json(self) -> dict:
        out: dict = {"command": self.line, "ok": self.ok}
        if self.ok and self.result is not None:
            out["result"] = self.result.as_json()
        else:
            out["error"] = {"kind": self.kind, "message": self.message}
        out["elapsed_ms"] = round(self.elapsed_ms, 1)
        return out


def execute(ctx: Context, line: str) -> Outcome:
    start = time.perf_counter()
    name = ""
    try:
        parsed = REGISTRY.parse(line)
        name = parsed.command.name
        if parsed.command.needs_browser:
            ctx.ensure_session()
            start = time.perf_counter()  # start-up is not the command's time
        result = parsed.command.handler(ctx, parsed.args, parsed.flags)
        if parsed.command.needs_browser and ctx.session is not None:  # tabs, dialogs, downloads
            notes, extra = ctx.session.after_command()
            result.notes.extend(notes)
            result.data.update(extra)
        return Outcome(line, True, result, elapsed_ms=_ms(start), command=name)
    except VerdexError as exc:
        return Outcome(line, False, kind=exc.kind, message=exc.message + _stop_navigation(ctx, exc.kind),
                       elapsed_ms=_ms(start), trace=traceback.format_exc(), command=name)
    except KeyboardInterrupt:
        return Outcome(line, False, kind="cancelled", message="Cancelled." + _stop_navigation(ctx, "cancelled"),
                       elapsed_ms=_ms(start), command=name)
    except Exception as exc:  # the boundary: anything else is our bug, reported in one line
        return Outcome(line, False, kind="internal", message=f"Internal error: {type(exc).__name__}: {exc}",
                       elapsed_ms=_ms(start), trace=traceback.format_exc(), command=name)


def _stop_navigation(ctx: Context, kind: str) -> str:
    """A timed-out or cancelled command leaves no navigation running (see Session.after_failure)."""
    try:
        return ctx.session.after_failure(kind) if ctx.session is not None else ""
    except (VerdexError, KeyboardInterrupt):
        return ""


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
